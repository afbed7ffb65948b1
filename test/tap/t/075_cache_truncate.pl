# The HTTP workers' caches of answers (GET /schemas/ids/{id}, GET
# /subjects/{s}/versions/latest, the lookup POST /subjects/{s}) hear of a
# TRUNCATE of the tables they read from, which fires no row trigger: after
# it no worker answers from what it had cached.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('truncate');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'the REST API answers');

my $schema = '{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}';
my $body = qq({"schema":"$schema"});
my ($status, $out) = rest($node, 'POST', '/subjects/t/versions', $body);
is($status, 200, 'a registration');

# every read asked 6 times on fresh connections: each of the 2 workers caches it
sub all_answers
{
	my ($method, $path, $data) = @_;
	my @got;
	push @got, join(' ', rest($node, $method, $path, $data)) for 1 .. 6;
	return @got;
}
my @reads = (
	[ 'GET', '/subjects/t/versions/latest', undef, 'GET latest' ],
	[ 'POST', '/subjects/t', $body, 'the lookup' ],
	[ 'GET', '/schemas/ids/1', undef, 'GET /schemas/ids/1' ]);
foreach my $r (@reads)
{
	my @got = all_answers(@$r[0 .. 2]);
	is(scalar(grep { /^200 / } @got), 6, "$r->[3] answers 200 before the TRUNCATE");
}

$node->safe_psql('postgres',
	'TRUNCATE registry.schema_references, registry.schema_fields, registry.subject_versions, registry.schemas, registry.subjects');
foreach my $r (@reads)
{
	my @got = all_answers(@$r[0 .. 2]);
	is(scalar(grep { /^404 / } @got), 6, "$r->[3] answers 404 after the TRUNCATE")
	  or diag(join("\n", @got));
}

# and the config: an alias cached away by a TRUNCATE of registry.config
($status) = rest($node, 'POST', '/subjects/u/versions', $body);
is($status, 200, 'a registration under u');
($status) = rest($node, 'PUT', '/config/v', '{"alias":"u"}');
is($status, 200, 'v is an alias of u');
my @got = all_answers('GET', '/subjects/v/versions/latest', undef);
is(scalar(grep { /"subject":"u"/ } @got), 6, 'GET /subjects/v/versions/latest answers u\'s');
$node->safe_psql('postgres', 'TRUNCATE registry.config');
@got = all_answers('GET', '/subjects/v/versions/latest', undef);
is(scalar(grep { /^404 / } @got), 6, 'after a TRUNCATE of the config v is its own again (40401)')
  or diag(join("\n", @got));

$node->stop;
done_testing();
