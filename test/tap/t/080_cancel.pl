# A long compatibility check stops at a cancel from another session
# (pg_cancel_backend, what a client's cancel request and
# registry.http_statement_timeout's timer both end in): 57014 well before
# the check would have ended, and the session goes on.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;
use Time::HiRes qw(time);

my $node = registry_node('cancel');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');

# a union of 1,500 records, each holding the one before: checking a change
# at its root walks every pair of them (the checker's longest case)
my $chain = '[{"type":"record","name":"R0","fields":[{"name":"a","type":"int"}]}'
  . join('', map { sprintf(',{"type":"record","name":"R%d","fields":[{"name":"f","type":"R%d"}]}', $_, $_ - 1) } 1 .. 1499)
  . ']';
(my $changed = $chain) =~ s/"name":"a","type":"int"/"name":"a","type":"long"/;
$node->safe_psql('postgres',
	"SELECT registry.register_schema('chain', \$q\$$chain\$q\$)");
my $check = "SELECT is_compatible FROM registry.check_compatibility('chain', \$q\$$changed\$q\$, verbose => true)";

# how long the whole check takes, uncancelled, in a fresh session once the
# cluster is warm (the first one also pays for the cluster's cold start): it
# ends at the checker's budget, 42201 (doc/design.md#limits)
my ($rc, $out, $err) = $node->psql('postgres', $check);
like($err, qr/schema comparison too large/, 'uncancelled, the check ends at its budget (42201)');
my $t0 = time;
$node->psql('postgres', $check);
my $full = time - $t0;
note sprintf('the whole check: %.0f ms', $full * 1000);
cmp_ok($full, '>', 0.1, 'the check runs long enough to be cancelled midway');

# the same check in a session of its own, cancelled from another, well
# into the check; when the machine is so loaded that the check reached its
# budget before the cancel came (42201, not a cancel), it is tried again
my $session = $node->background_psql('postgres', on_error_stop => 0);
my $pid = $session->query_safe('SELECT pg_backend_pid()');
my ($running, $after, $waited, $stderr) = (0, '', 0, '');
for my $attempt (1 .. 5)
{
	$session->{stderr} = '';
	$session->query_until(qr/sent/, "\\echo sent\n$check;\n");
	$running = $node->poll_query_until('postgres',
		"SELECT state = 'active' AND query LIKE '%check_compatibility%' FROM pg_stat_activity WHERE pid = $pid");
	last unless $running;
	# let it get into the check, then cancel it
	select(undef, undef, undef, $full / 10);
	my $t1 = time;
	$node->safe_psql('postgres', "SELECT pg_cancel_backend($pid)");
	$after = $session->query('SELECT 1');
	$waited = time - $t1;
	$stderr = $session->{stderr};
	last unless $stderr =~ /schema comparison too large/;
	note "attempt $attempt: the check ended at its budget before the cancel came";
}
ok($running, 'the check is running');
like($stderr, qr/canceling statement due to user request/, 'the check stops with 57014');
$session->{stderr} = '';
cmp_ok($waited, '<', $full / 2, sprintf('it stops %.0f ms after the cancel, within half of the whole check', $waited * 1000));
is($after, '1', 'the session goes on');
is($session->query_safe('SELECT pg_backend_pid()'), $pid, 'in the same backend');

$session->quit;
$node->stop;
done_testing();
