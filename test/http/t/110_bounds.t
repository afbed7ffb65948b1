# Bounds on a compatibility check (doc/design.md#limits).  A reader's POST
# /compatibility with a schema whose 60 definitions each use the previous
# one twice answers in time with 10,000 messages and the count of the
# rest; a comparison past the budget (anyOf of 3,000 objects against
# 3,000) and a nested counted repetition in patternProperties are 422
# 42201, quickly; the workers survive (same pids) and serve the next
# request.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use JSON::PP;
use Time::HiRes qw(time);

my $S = "$RUN-bounds";
my $enc = JSON::PP->new->utf8->canonical;

# definitions a0..aN, each object using the one before twice
sub chain
{
	my ($n, $ml) = @_;
	my %d = (a0 => { type => 'string', maxLength => $ml });
	for my $k (1 .. $n)
	{
		my $ref = { '$ref' => '#/definitions/a' . ($k - 1) };
		$d{"a$k"} = { type => 'object', properties => { x => $ref, y => $ref } };
	}
	return $enc->encode({ definitions => \%d, '$ref' => "#/definitions/a$n" });
}
# an anyOf of N objects, each requiring its own property
sub wide
{
	my ($n, $t) = @_;
	return $enc->encode({ anyOf => [ map { { type => 'object', properties => { "p$_" => { type => $t }, q => { type => $t } },
					required => ["p$_"] } } 0 .. $n - 1 ] });
}
# a nested counted repetition in patternProperties
sub pattern
{
	my ($extra) = @_;
	my %s = (type => 'object', patternProperties => { '((a{1,1000}){1,1000}){1,1000}' => { type => 'string' } },
		additionalProperties => JSON::PP::false);
	$s{properties} = { aaa => { type => 'string' } } if $extra;
	return $enc->encode(\%s);
}
sub body { return '{"schemaType":"JSON","schema":' . jstr($_[0]) . '}' }
my %b = (chain10 => body(chain(60, 10)), chain5 => body(chain(60, 5)), wide_s => body(wide(3000, 'string')),
	wide_i => body(wide(3000, 'integer')), pat => body(pattern(0)), pat_extra => body(pattern(1)));

req POST => "/subjects/$S-chain/versions", $b{chain10};
expect 'bounds: a 60-level JSON chain registers', 200, sub { is_num($_->{id}) };
req POST => "/subjects/$S-wide/versions", $b{wide_s};
expect 'bounds: an anyOf of 3,000 objects registers', 200, sub { is_num($_->{id}) };
req POST => "/subjects/$S-pattern/versions", $b{pat};
expect 'bounds: a nested counted repetition in patternProperties registers', 200, sub { is_num($_->{id}) };
my $pids0 = worker_pids();
my $t0 = time();
req POST => "/compatibility/subjects/$S-chain/versions/latest?verbose=true", $b{chain5};
my $ms = ms_since($t0);
expect q{bounds: 2^60 differences: 10,000 messages, the count of the rest, Confluent's closing lines}, 200, sub {
	!$_->{is_compatible} && JSON::PP::is_bool($_->{is_compatible}) && @{ $_->{messages} } == 10004
	  && $_->{messages}[10000] =~ /1152921504606836976 more incompatible differences/;
};
check "bounds: the 60-level chain answered within 5 s ($ms ms)", $ms < 5000, '';
$t0 = time();
req POST => "/compatibility/subjects/$S-wide/versions/latest", $b{wide_i};
$ms = ms_since($t0);
expect_error 'bounds: a comparison past the budget is 422 42201', 422, 42201;
check "bounds: ... within 10 s ($ms ms)", $ms < 10000, '';
req POST => "/subjects/$S-wide/versions", $b{wide_i};
expect_error 'bounds: so is its registration', 422, 42201;
req POST => "/compatibility/subjects/$S-pattern/versions/latest", $b{pat_extra};
expect_error 'bounds: a nested counted repetition in patternProperties is 422 42201', 422, 42201;
my $pids1 = worker_pids();
check 'bounds: the workers survive (same pids)', $pids0 ne '' && $pids0 eq $pids1, "before: $pids0 after: $pids1";
req GET => "/subjects/$S-chain/versions";
expect 'bounds: and serve the next request', 200, sub { jeq($_, '[1]') };

req GET => '/';
expect 'the server is up at the end', 200, sub { jeq($_, '{}') };

done_testing();
