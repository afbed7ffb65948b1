# registry.database names a database that does not exist: each worker's
# first attempt fails (one FATAL), then the workers wait quietly, connected
# to no database, instead of failing every five seconds; once the database
# is created (and the extension in it) they serve it.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('missing_db', conf => "registry.database = 'later'\n");
$node->start;
ok(eval { $node->wait_for_log(qr/registry REST API waits for database "later" to exist/, 0) },
	'a worker says once that it waits for the database');
# count the workers' exits now, and again after three restart times (5 s)
sleep 1;
my $exits_then = () = slurp_file($node->logfile) =~ /background worker "registry http" \(PID \d+\) exited/g;
sleep 15;
my $log = slurp_file($node->logfile);
# the HTTP workers and the pool workers (http_pool_worker.c) connect alike
my $procs = $node->safe_psql('postgres',
	"SELECT current_setting('registry.http_workers')::int + current_setting('registry.http_pool_workers')::int");
my $fatals = () = $log =~ /FATAL:  database "later" does not exist/g;
cmp_ok($fatals, '<=', $procs, "at most one FATAL per worker ($fatals of $procs workers)");
my $waits = () = $log =~ /waits for database "later" to exist/g;
cmp_ok($waits, '<=', $procs, "the wait is said once per worker at most ($waits of $procs workers)");
my $exits = () = $log =~ /background worker "registry http" \(PID \d+\) exited/g;
is($exits, $exits_then, "no worker exits or fails while it waits ($exits exits)");
is($node->safe_psql('postgres',
	"SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http' AND datid IS NULL"),
	'2', 'both workers wait, connected to no database');

$node->safe_psql('postgres', 'CREATE DATABASE later');
$node->safe_psql('later', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'once the database and the extension exist, the workers serve');
my ($status, $body) = rest($node, 'POST', '/subjects/s/versions', record_body('R', 'a'));
is($status, 200, 'a registration is stored');
is($node->safe_psql('later', 'SELECT count(*) FROM registry.subjects()'), '1',
	'in registry.database');

$node->stop;
done_testing();
