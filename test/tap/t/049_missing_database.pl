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
my $fatals = () = $log =~ /FATAL:  database "later" does not exist/g;
cmp_ok($fatals, '<=', 2, "at most one FATAL per worker ($fatals)");
my $waits = () = $log =~ /waits for database "later" to exist/g;
cmp_ok($waits, '<=', 2, "the wait is said once per worker at most ($waits)");
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
