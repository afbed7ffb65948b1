# The audit trail over REST (registry.audit): a write with Basic auth is
# recorded with the role it ran as, its HTTP user and its peer; a failed
# write (refused, rolled back) is recorded afterwards with its error code;
# each change goes out on NOTIFY registry_changes; logical decoding
# (test_decoding) carries the audit rows; the first HTTP worker deletes the
# rows older than registry.audit_retention.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use JSON::PP;
use POSIX ();
use Time::HiRes ();
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('audit', conf => <<CONF);
registry.http_auth = basic
wal_level = logical
max_replication_slots = 4
max_wal_senders = 4
CONF
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION registry;
	CREATE ROLE writer LOGIN PASSWORD 'writer-pw' IN ROLE registry_writer;
	CREATE ROLE admin LOGIN PASSWORD 'admin-pw' IN ROLE registry_admin;
	CREATE ROLE reader LOGIN PASSWORD 'reader-pw' IN ROLE registry_reader;
});
# a slot before the writes: it decodes every change from here on
$node->safe_psql('postgres',
	"SELECT pg_create_logical_replication_slot('audit_slot', 'test_decoding')");

# wait until the workers serve authenticated requests
my $up = 0;
for (my $i = 0; $i < 300 && !$up; $i++)
{
	my ($status) = rest($node, 'GET', '/subjects', undef, '-u', 'reader:reader-pw');
	$up = $status == 200;
	select(undef, undef, undef, 0.1) unless $up;
}
ok($up, 'the REST API answers with Basic auth');

# the audit rows after mark, as "operation|role|http_user|http_peer|subject|version|result"
sub audit_rows
{
	my ($mark, $where) = @_;
	$where = $where ? "AND $where" : '';
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(concat_ws('|', operation, coalesce(role, '-'), coalesce(http_user, '-'),
				coalesce(http_peer, '-'), coalesce(subject, '-'), coalesce(version::text, '-'), result),
			E'\n' ORDER BY id)
		  FROM registry.audit WHERE id > $mark $where});
}

sub mark
{
	return $node->safe_psql('postgres', 'SELECT coalesce(max(id), 0) FROM registry.audit');
}

my $listener = $node->background_psql('postgres', on_error_stop => 0);
$listener->query_safe('LISTEN registry_changes');

# a registration as writer: its rows carry the role, the HTTP user and the peer
my $mark = mark();
my ($status, $body) = rest($node, 'POST', '/subjects/audit-value/versions',
	record_body('A', 'a'), '-u', 'writer:writer-pw');
is($status, 200, 'writer registers over REST');
my ($id) = $body =~ /"id":(\d+)/;
is(audit_rows($mark), join("\n",
	'subject.create|writer|writer|127.0.0.1|audit-value|-|ok',
	'schema.create|writer|writer|127.0.0.1|-|-|ok',
	'version.register|writer|writer|127.0.0.1|audit-value|1|ok'),
	'  ... recorded with the role, the HTTP user and the peer');
is($node->safe_psql('postgres', qq{
	SELECT schema_id || ' ' || (after->>'schemaType') || ' ' || ((after->>'guid')::uuid = s.guid)
	  FROM registry.audit a JOIN registry.schemas s ON s.context = a.context AND s.id = a.schema_id
	 WHERE a.id > $mark AND a.operation = 'version.register'}),
	"$id AVRO true", '  ... the version with its schema id, type and guid');

# the same change on NOTIFY registry_changes, at commit
my $out = $listener->query_safe('SELECT 1');
($out) = $out =~ /(payload ".*version\.register.*" received)/;
ok(defined $out, 'LISTEN registry_changes hears the registration');
my ($payload) = defined $out ? $out =~ /^payload "(.*)" received$/ : ('');
my $notified = eval { decode_json($payload) } || {};
my $audit_id = $node->safe_psql('postgres',
	"SELECT id FROM registry.audit WHERE id > $mark AND operation = 'version.register'");
is_deeply($notified,
	{ audit => $audit_id + 0, op => 'version.register', context => '.', subject => 'audit-value',
	  version => 1, id => $id + 0 },
	'  ... its payload: audit id, operation, context, subject, version, schema id');

# a config change as admin: old and new values
$mark = mark();
($status) = rest($node, 'PUT', '/config/audit-value', '{"compatibility":"FULL"}', '-u', 'admin:admin-pw');
is($status, 200, 'admin sets a subject\'s compatibility');
is($node->safe_psql('postgres', qq{
	SELECT concat_ws(' ', operation, http_user, before->>'compatibility', after->>'compatibility')
	  FROM registry.audit WHERE id > $mark}),
	'config.set admin FULL', '  ... recorded with the new value (no old one: it had none)');
$mark = mark();
($status) = rest($node, 'PUT', '/config/audit-value', '{"compatibility":"BACKWARD"}', '-u', 'admin:admin-pw');
is($node->safe_psql('postgres', qq{
	SELECT concat_ws(' ', operation, http_user, before->>'compatibility', after->>'compatibility')
	  FROM registry.audit WHERE id > $mark}),
	'config.set admin FULL BACKWARD', '  ... and the old value when it had one');

# failed writes: rolled back, then recorded with their error code
$mark = mark();
($status, $body) = rest($node, 'POST', '/subjects/audit-value/versions',
	encode_json({ schema => '{"type":"record","name":"A","fields":[{"name":"a","type":"string"}]}' }),
	'-u', 'writer:writer-pw');
is($status, 409, 'an incompatible registration: 409');
($status) = rest($node, 'POST', '/subjects/audit-value/versions', record_body('A', 'a', 'b'),
	'-u', 'reader:reader-pw');
is($status, 403, 'a registration by a reader: 403');
($status) = rest($node, 'POST', '/subjects/audit-value/versions', record_body('A', 'a', 'b'),
	'-u', 'writer:wrong-password');
is($status, 401, 'a registration with a wrong password: 401');
($status) = rest($node, 'DELETE', '/subjects/audit-value/versions/7', undef, '-u', 'writer:writer-pw');
is($status, 404, 'a delete of a version that does not exist: 404');
($status) = rest($node, 'PUT', '/mode/audit-value', '{"mode":"NOSUCH"}', '-u', 'admin:admin-pw');
is($status, 422, 'a mode that does not exist: 422');
($status) = rest($node, 'POST', '/subjects/audit-value', record_body('A', 'a'), '-u', 'reader:reader-pw');
is($status, 200, 'a lookup (a POST that reads)');
is(audit_rows($mark), join("\n",
	'rest POST /subjects/*/versions|writer|writer|127.0.0.1|audit-value|-|40901',
	'rest POST /subjects/*/versions|reader|reader|127.0.0.1|audit-value|-|40301',
	'rest POST /subjects/*/versions|-|writer|127.0.0.1|audit-value|-|401',
	'rest DELETE /subjects/*/versions/*|writer|writer|127.0.0.1|audit-value|7|40402',
	'rest PUT /mode/*|admin|admin|127.0.0.1|audit-value|-|42204'),
	'each failed write is recorded with its error code; the lookup is not a write');
is($node->safe_psql('postgres', "SELECT count(*) FROM registry.audit WHERE id > $mark AND (before IS NOT NULL OR after IS NOT NULL)"),
	'0', '  ... and nothing of what was sent');
is($node->safe_psql('postgres', 'SELECT count(*) FROM registry.subject_versions'), '1',
	'  ... while the registry holds only the one version');
$out = $listener->query_safe('SELECT 1');
unlike($out, qr/"rest /, 'failed writes are not announced: nothing changed');

# refusals before authentication (no credentials: no password throttle
# either) are recorded at most once a second per worker: a burst of 24
# leaves at most one row per worker for each second it lasted (begun or
# ended), not 24
# (the wrong password above was such a refusal: a second later, the
# burst's first is recorded)
select(undef, undef, undef, 1.1);
$mark = mark();
my $workers = $node->safe_psql('postgres', 'SHOW registry.http_workers');
my $began = Time::HiRes::time();
my @burst = map { (rest($node, 'POST', '/subjects/audit-value/versions', record_body('A', 'a', 'b')))[0] } 1 .. 24;
my $seconds = POSIX::ceil(Time::HiRes::time() - $began) + 1;
is(join(',', grep { $_ != 401 } @burst), '', 'a burst of 24 anonymous registrations: each 401');
my $burst_rows = $node->safe_psql('postgres', "SELECT count(*) FROM registry.audit WHERE id > $mark AND result = '401'");
ok($burst_rows >= 1 && $burst_rows <= $workers * $seconds && $burst_rows < 24,
	"  ... recorded at most once a second per worker ($burst_rows of 24 rows, $workers workers, $seconds s)");

# registry.audit_notify = off: recorded, not announced
$node->safe_psql('postgres', 'ALTER SYSTEM SET registry.audit_notify = off');
$node->reload;
sleep 2;
$mark = mark();
($status) = rest($node, 'PUT', '/config/audit-value', '{"compatibility":"NONE"}', '-u', 'admin:admin-pw');
is(audit_rows($mark), 'config.set|admin|admin|127.0.0.1|audit-value|-|ok',
	'with registry.audit_notify = off a change is recorded');
$out = $listener->query_safe('SELECT 1');
unlike($out, qr/Asynchronous notification/, '  ... and not announced');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET registry.audit_notify');
$node->reload;
$listener->quit;

# a superuser's raw DML is recorded too, without an HTTP user
$mark = mark();
$node->safe_psql('postgres', "UPDATE registry.subject_versions SET deleted = true WHERE subject = 'audit-value'");
like(audit_rows($mark), qr/^version\.soft_delete\|[^|]+\|-\|-\|audit-value\|1\|ok$/,
	'raw DML: recorded without an HTTP user or peer');

# logical decoding carries the audit rows (test_decoding)
my $changes = $node->safe_psql('postgres',
	"SELECT string_agg(data, E'\\n') FROM pg_logical_slot_get_changes('audit_slot', NULL, NULL)");
like($changes, qr/table registry\.audit: INSERT: .*operation\[text\]:'version\.register'.*subject\[text\]:'audit-value'/,
	'logical decoding of registry.audit carries the registration');
like($changes, qr/table registry\.audit: INSERT: .*http_user\[text\]:'writer'/,
	'  ... with its HTTP user');
like($changes, qr/table registry\.audit: INSERT: .*operation\[text\]:'rest POST \/subjects\/\*\/versions'.*result\[text\]:'40901'/,
	'  ... and the failed write\'s own transaction');
$node->safe_psql('postgres', "SELECT pg_drop_replication_slot('audit_slot')");

# retention: the first worker deletes the rows past registry.audit_retention
$node->safe_psql('postgres', q{
	INSERT INTO registry.audit (at, operation, result)
	SELECT now() - interval '3 days', 'old', 'ok' FROM generate_series(1, 2500)});
$node->safe_psql('postgres', "ALTER SYSTEM SET registry.audit_retention = '2d'");
$node->reload;
my $left = -1;
for (my $i = 0; $i < 300 && $left != 0; $i++)
{
	$left = $node->safe_psql('postgres', "SELECT count(*) FROM registry.audit WHERE operation = 'old'");
	select(undef, undef, undef, 0.1) if $left != 0;
}
is($left, 0, 'the worker deletes the rows older than registry.audit_retention, 2500 in batches');
cmp_ok($node->safe_psql('postgres', "SELECT count(*) FROM registry.audit WHERE operation <> 'old'"),
	'>', 10, '  ... and keeps the recent ones');
$node->safe_psql('postgres', q{
	INSERT INTO registry.audit (at, operation, result) VALUES (now() - interval '3 days', 'kept', 'ok')});
$node->safe_psql('postgres', "ALTER SYSTEM SET registry.audit_retention = -1");
$node->reload;
sleep 12;
is($node->safe_psql('postgres', "SELECT count(*) FROM registry.audit WHERE operation = 'kept'"),
	'1', 'registry.audit_retention = -1 keeps every row');

$node->stop;
done_testing();
