# The subject's row lock, taken without SQL (catalog_lock_subject_row),
# behaves as the "SELECT ... FOR UPDATE" it replaced: a second writer of
# the subject waits for the first and then takes the next version; a DBA's
# EXCLUSIVE lock on registry.subjects holds writers back; a REPEATABLE READ
# writer whose subject was removed after its snapshot gets a serialization
# failure (40001, worded as the statement words it); a read-only transaction
# is refused (25006); a role without UPDATE on registry.subjects is refused;
# a subject row updated after a REPEATABLE READ snapshot is a serialization
# failure, while READ COMMITTED locks its newest version.  Every check
# passes on the SQL lock too.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('subject_lock');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');

# a record schema made distinct by its field's name
sub schema
{
	my ($field) = @_;
	return qq({"type":"record","name":"R","fields":[{"name":"$field","type":["null","int"],"default":null}]});
}

$node->safe_psql('postgres', "SELECT registry.set_compatibility('NONE', 'lk')");
$node->safe_psql('postgres', "SELECT registry.register_schema('lk', '" . schema('a') . "')");

# --- a second writer waits for the first, then takes the next version
my $first = $node->background_psql('postgres', on_error_stop => 0);
$first->query_safe('BEGIN');
is($first->query_safe("SELECT subject_version FROM registry.register_schema_version('lk', '" . schema('b') . "')"),
	'2', 'the first writer takes version 2 and holds the subject');

my $second = $node->background_psql('postgres', on_error_stop => 0);
my $second_pid = $second->query_safe('SELECT pg_backend_pid()');
$second->query_until(qr/sent/,
	"\\echo sent\nSELECT 'v=' || subject_version FROM registry.register_schema_version('lk', '" . schema('c') . "');\n");
ok( $node->poll_query_until('postgres',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $second_pid"),
	'the second writer waits for the subject lock');
$first->query_safe('COMMIT');
my $out = $second->query('SELECT 1');
like($out, qr/v=3/, 'after the first commits, the second takes version 3');
is($node->safe_psql('postgres',
		"SELECT string_agg(version::text, ',' ORDER BY version) FROM registry.subject_versions WHERE subject = 'lk'"),
	'1,2,3', 'versions 1, 2 and 3, no gap');

# --- RowShareLock on the table, as FOR UPDATE takes: a DBA's EXCLUSIVE
# table lock holds writers back until it is released
my $dba = $node->background_psql('postgres', on_error_stop => 0);
$dba->query_safe('BEGIN');
$dba->query_safe('LOCK TABLE registry.subjects IN EXCLUSIVE MODE');
$second->query_until(qr/sent/,
	"\\echo sent\nSELECT 'v=' || subject_version FROM registry.register_schema_version('lk', '" . schema('x') . "');\n");
ok( $node->poll_query_until('postgres',
		"SELECT wait_event_type = 'Lock' AND wait_event = 'relation' FROM pg_stat_activity WHERE pid = $second_pid"),
	'a writer waits for a DBA\'s EXCLUSIVE lock on registry.subjects');
$dba->query_safe('COMMIT');
$out = $second->query('SELECT 1');
like($out, qr/v=4/, 'and registers once it is released');

# --- REPEATABLE READ: the subject removed after the snapshot was taken
$node->safe_psql('postgres', "SELECT registry.register_schema('gone', '" . schema('a') . "')");
my $rr = $node->background_psql('postgres', on_error_stop => 0);
$rr->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$rr->query_safe('SELECT count(*) FROM registry.subjects');
$node->safe_psql('postgres',
	"SELECT registry.delete_subject('gone'); SELECT registry.delete_subject('gone', permanent => true)");
is($node->safe_psql('postgres', "SELECT count(*) FROM registry.subjects WHERE subject = 'gone'"),
	'0', 'the subject row is gone');
$rr->{stderr} = '';
$rr->query("SELECT registry.register_schema('gone', '" . schema('b') . "')");
like($rr->{stderr}, qr/ERROR:  could not serialize access due to concurrent update/,
	'a REPEATABLE READ writer whose subject was removed gets a serialization failure');
$rr->query('ROLLBACK');

# --- a read-only transaction refuses the lock as it refuses the statement
# (25006, the error a standby forwards a write to the primary on)
my ($ro_rc, $ro_out, $ro_err) = $node->psql('postgres',
	"BEGIN READ ONLY; SELECT registry.register_schema('lk', '" . schema('r') . "')");
like($ro_err, qr/cannot execute SELECT FOR UPDATE in a read-only transaction/,
	'a read-only transaction cannot take the subject lock');

# --- the row lock needs UPDATE on registry.subjects, as FOR UPDATE does
$node->safe_psql('postgres', q{
	CREATE ROLE lock_probe LOGIN;
	GRANT registry_writer TO lock_probe;
});
is($node->safe_psql('postgres',
		"SET ROLE lock_probe; SELECT subject_version FROM registry.register_schema_version('lk', '" . schema('d') . "')"),
	'5', 'a registry_writer registers');
$node->safe_psql('postgres', q{
	REVOKE UPDATE (created_at) ON registry.subjects FROM registry_writer;
});
my ($rc, $stdout, $stderr) = $node->psql('postgres',
	"SET ROLE lock_probe; SELECT registry.register_schema('lk', '" . schema('e') . "')");
like($stderr, qr/permission denied for table subjects/,
	'without UPDATE on registry.subjects the lock is refused');
is($node->safe_psql('postgres', "SELECT max(version) FROM registry.subject_versions WHERE subject = 'lk'"),
	'5', 'and nothing was registered');

# --- the subject's row updated after a REPEATABLE READ snapshot was taken
# (by hand: the registry only locks it) is a serialization failure, as
# SELECT ... FOR UPDATE gives there; READ COMMITTED locks the row's newest
# version once the updater commits.  Only READ COMMITTED follows the update.
$node->safe_psql('postgres', "SELECT registry.register_schema('upd', '" . schema('a') . "')");
my $rr2 = $node->background_psql('postgres', on_error_stop => 0);
my $touch = "SET session_replication_role = replica; "
  . "UPDATE registry.subjects SET created_at = created_at WHERE subject = 'upd'";
$rr2->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$rr2->query_safe('SELECT count(*) FROM registry.subjects');
$node->safe_psql('postgres', $touch);
$rr2->{stderr} = '';
$rr2->query("SELECT registry.register_schema('upd', '" . schema('b') . "')");
like($rr2->{stderr}, qr/ERROR:  could not serialize access due to concurrent update/,
	'a REPEATABLE READ writer whose subject row was updated gets a serialization failure');
$rr2->query('ROLLBACK');
$rr2->{stderr} = '';

$dba->query_safe('BEGIN');
$dba->query_safe("SET LOCAL session_replication_role = replica");
$dba->query_safe("UPDATE registry.subjects SET created_at = created_at WHERE subject = 'upd'");
$rr2->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$rr2->query_safe('SELECT count(*) FROM registry.subjects');
my $rr2_pid = $rr2->query_safe('SELECT pg_backend_pid()');
$rr2->query_until(qr/sent/,
	"\\echo sent\nSELECT 'v=' || subject_version FROM registry.register_schema_version('upd', '" . schema('c') . "');\n");
ok( $node->poll_query_until('postgres',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $rr2_pid"),
	'a REPEATABLE READ writer waits for the updater of the subject row');
$dba->query_safe('COMMIT');
$rr2->{stderr} = '';
$rr2->query('SELECT 1');
like($rr2->{stderr}, qr/ERROR:  could not serialize access due to concurrent update/,
	'and gets a serialization failure when the updater commits');
$rr2->query('ROLLBACK');
$rr2->{stderr} = '';

$dba->query_safe('BEGIN');
$dba->query_safe("SET LOCAL session_replication_role = replica");
$dba->query_safe("UPDATE registry.subjects SET created_at = created_at WHERE subject = 'upd'");
$second->query_until(qr/sent/,
	"\\echo sent\nSELECT 'v=' || subject_version FROM registry.register_schema_version('upd', '" . schema('d') . "');\n");
ok( $node->poll_query_until('postgres',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $second_pid"),
	'a READ COMMITTED writer waits for the updater of the subject row');
$dba->query_safe('COMMIT');
$out = $second->query('SELECT 1');
like($out, qr/v=2/, 'and registers on the updated row once the updater commits');

$first->quit;
$second->quit;
$dba->quit;
$rr->quit;
$rr2->quit;
done_testing();
