# The REST API's access log (registry.http_log_min_duration: method, path,
# role, peer, status, duration of each request that took that long; -1,
# the default, logs none) and the log line of a request that timed out
# (50002), saying what it waited on.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use IPC::Run;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('access_log', conf => "registry.http_lock_wait = 300\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'the REST API answers');

# a log line of the access log for this request, or '' (the log from offset on)
sub logged
{
	my ($pattern, $offset) = @_;
	my $log = slurp_file($node->logfile, $offset);
	return $log =~ /($pattern)/ ? $1 : '';
}

my ($status) = rest($node, 'GET', '/schemas/types');
is($status, 200, 'a request before the access log is on');
is(logged(qr/registry REST API: GET \/schemas\/types[^\n]*/, 0), '', 'by default no request is logged');

$node->append_conf('postgresql.conf', "registry.http_log_min_duration = 0\n");
$node->reload;
my $offset = -s $node->logfile;
my $line = '';
for (my $i = 0; $i < 100 && $line eq ''; $i++)
{
	rest($node, 'GET', '/subjects/nosuch/versions');
	$line = logged(qr/registry REST API: GET \/subjects\/nosuch\/versions 404 [0-9.]+ ms\n[^\n]*DETAIL:  Role [^\n]*/, $offset);
	select(undef, undef, undef, 0.1) if $line eq '';
}
isnt($line, '', 'with 0 every request is logged: method, path, status and time');
like($line, qr/Role registry_admin, peer 127\.0\.0\.1/, '  ... with the role it ran as and the peer');

$node->append_conf('postgresql.conf', "registry.http_log_min_duration = 100000\n");
$node->reload;
sleep 2;
$offset = -s $node->logfile;
($status) = rest($node, 'GET', '/config');
is($status, 200, 'a quick request with a long minimum');
is(logged(qr/registry REST API: GET \/config[^\n]*/, $offset), '', '  ... is not logged');

# a registration that waits on a DBA's lock past registry.http_lock_wait
my $dba = $node->background_psql('postgres', on_error_stop => 0);
$dba->query_safe('BEGIN');
$dba->query_safe('LOCK TABLE registry.subjects IN EXCLUSIVE MODE');
$offset = -s $node->logfile;
my $body;
($status, $body) = rest($node, 'POST', '/subjects/locked-value/versions', record_body('L', 'a'));
is("$status $body", '500 {"error_code":50002,"message":"Operation timed out"}',
	'a registration held back by a lock answers 50002');
$dba->query_safe('COMMIT');
$dba->quit;
my $timeout = '';
for (my $i = 0; $i < 50 && $timeout eq ''; $i++)
{
	$timeout = logged(qr/registry REST request timed out \(50002\) waiting for a lock[^\n]*\n[^\n]*DETAIL:  [^\n]*/, $offset);
	select(undef, undef, undef, 0.1) if $timeout eq '';
}
like($timeout, qr/held a lock the request needed .*registry\.http_lock_wait/,
	'the timeout is logged with what the request waited on');
my @lines = slurp_file($node->logfile, $offset) =~ /timed out \(50002\)/g;
is(scalar @lines, 1, '  ... once, not for each attempt that met the lock');

# while a request waits for a lock, pg_stat_activity's query_start is when
# it was first served, not its latest attempt's start
$node->append_conf('postgresql.conf', "registry.http_lock_wait = 4000\n");
$node->reload;
sleep 2;
$dba = $node->background_psql('postgres', on_error_stop => 0);
$dba->query_safe('BEGIN');
$dba->query_safe('LOCK TABLE registry.subjects IN EXCLUSIVE MODE');
my ($out, $err) = ('', '');
my $waiting = IPC::Run::start(
	[
		'curl', '-sS', '--max-time', '20', '-o', '/dev/null', '-X', 'POST',
		'-H', 'Content-Type: application/vnd.schemaregistry.v1+json',
		'--data-binary', record_body('S', 'a'),
		'http://127.0.0.1:' . http_port($node) . '/subjects/slow-value/versions'
	],
	'>', \$out, '2>', \$err);
# sampled for 2.5 s while the lock is still held (the request waits 4 s)
my $oldest = 0;
for (my $i = 0; $i < 25; $i++)
{
	my $age = $node->safe_psql('postgres', q{
		SELECT coalesce(max(extract(epoch FROM clock_timestamp() - query_start)), 0)
		FROM pg_stat_activity
		WHERE backend_type = 'registry http' AND query = 'POST /subjects/slow-value/versions'});
	$oldest = $age if $age > $oldest;
	select(undef, undef, undef, 0.1);
}
cmp_ok($oldest, '>', 1.5,
	'a request waiting for a lock shows how long it has waited in query_start, not its last attempt');
$dba->query_safe('COMMIT');
$dba->quit;
$waiting->finish;

done_testing();
