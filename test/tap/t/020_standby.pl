# A streaming standby serves every read itself and forwards writes to the
# primary: the client gets the primary's answer, and its next read on the
# standby already sees the write.  A primary that is down or does not
# answer gives Confluent's forwarding error within registry.forward_timeout.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use IO::Socket::INET;
use JSON::PP;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;
use Time::HiRes qw(time);

my $primary = registry_node('primary', allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($primary), 'the primary serves the REST API');
my ($status, $body) = rest($primary, 'POST', '/subjects/a-value/versions',
	record_body('A', 'x'));
is($status, 200, 'a registration on the primary');

my $standby = registry_standby($primary, 'standby',
	conf => "registry.forward_timeout = 3000\nregistry.forward_replay_wait = 2000\n");
$standby->start;
ok(wait_for_rest($standby), 'the standby workers serve once it is consistent');

# reads after catch-up
($status) = rest($primary, 'POST', '/subjects/a-value/versions', record_body('A', 'x', 'y'));
is($status, 200, 'a second version on the primary');
$primary->wait_for_catchup($standby);
($status, $body) = rest($standby, 'GET', '/subjects/a-value/versions');
is($status, 200, 'the standby lists the versions');
is($body, '[1,2]', 'both versions, replayed');
($status, $body) = rest($standby, 'GET', '/schemas/ids/1');
is($status, 200, 'the standby answers GET /schemas/ids/1');
like($body, qr/"schema":"\{\\"type\\":\\"record\\",\\"name\\":\\"A\\"/, 'with the schema');
is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'), 't', 'it is a standby');

# a registration through the standby lands on the primary and is readable
# on the standby at once
my ($pstatus, $pbody);
($status, $body) = rest($standby, 'POST', '/subjects/b-value/versions', record_body('B', 'x'));
is($status, 200, 'a registration through the standby succeeds');
like($body, qr/^\{"id":\d+,"version":1,/, 'and answers its id and version');
my ($b_id) = $body =~ /"id":(\d+)/;
is($primary->safe_psql('postgres',
		"SELECT count(*) FROM registry.subject_versions WHERE subject = 'b-value'"),
	'1', 'the version is stored on the primary');
($pstatus, $pbody) = rest($primary, 'POST', '/subjects/b-value/versions', record_body('B', 'x'));
is("$pstatus $pbody", "$status $body", 'the answer is the primary\'s');
($status, $body) = rest($standby, 'GET', '/subjects/b-value/versions/1');
is($status, 200, 'the standby reads the new version right away');
like($body, qr/"id":$b_id\b/, 'with the id the registration answered');

# the primary's error answers come back unchanged
my $incompatible = encode_json({ schema => encode_json({ type => 'string' }) });
($status, $body) = rest($standby, 'POST', '/subjects/b-value/versions', $incompatible);
($pstatus, $pbody) = rest($primary, 'POST', '/subjects/b-value/versions', $incompatible);
is($status, 409, 'an incompatible registration through the standby is 409');
is("$status $body", "$pstatus $pbody", 'the primary\'s own answer');

# a registration of a schema the subject already has is a read: no forward
($status, $body) = rest($standby, 'POST', '/subjects/a-value/versions', record_body('A', 'x'));
is($status, 200, 'an existing schema is answered by the standby');
like($body, qr/^\{"id":1,"version":1,/, 'with its id and version');
($status, $body) = rest($standby, 'POST', '/subjects/a-value', record_body('A', 'x'));
is($status, 200, 'a lookup on the standby');

# config, mode and deletes through the standby
($status, $body) = rest($standby, 'PUT', '/config/b-value', '{"compatibility":"NONE"}');
like("$status $body", qr/^200 \{"compatibility": ?"NONE"\}$/, 'PUT /config/{subject} through the standby');
($status, $body) = rest($standby, 'GET', '/config/b-value');
like("$status $body", qr/^200 \{"compatibilityLevel": ?"NONE"\}$/, 'the standby reads the new config at once');
($status, $body) = rest($standby, 'PUT', '/mode/b-value', '{"mode":"READONLY"}');
is("$status $body", '200 {"mode":"READONLY"}', 'PUT /mode/{subject} through the standby');
($status, $body) = rest($standby, 'POST', '/subjects/b-value/versions', record_body('B', 'x', 'z'));
is($status, 422, 'the read-only mode forwarded holds on the primary');
($status, $body) = rest($standby, 'DELETE', '/mode/b-value');
is("$status $body", '200 {"mode":"READONLY"}', 'DELETE /mode/{subject} through the standby');
($status, $body) = rest($standby, 'GET', '/mode/b-value');
is($status, 404, 'the standby sees the mode gone');
($status, $body) = rest($standby, 'DELETE', '/config/b-value');
like("$status $body", qr/^200 \{"compatibilityLevel": ?"NONE"\}$/, 'DELETE /config/{subject} through the standby');

($status, $body) = rest($standby, 'POST', '/subjects/c-value/versions', record_body('C', 'q'));
is($status, 200, 'a third subject through the standby');
my ($c_id) = $body =~ /"id":(\d+)/;
($status, $body) = rest($standby, 'GET', "/schemas/ids/$c_id");
is($status, 200, 'its schema read on the standby (and cached there)');
($status, $body) = rest($standby, 'DELETE', '/subjects/c-value/versions/1');
is("$status $body", '200 1', 'DELETE of a version through the standby');
($status, $body) = rest($standby, 'GET', '/subjects/c-value/versions');
is($status, 404, 'the standby sees the subject soft-deleted');
($status, $body) = rest($standby, 'DELETE', '/subjects/c-value?permanent=true');
is("$status $body", '200 [1]', 'a hard delete through the standby');
($status, $body) = rest($standby, 'GET', "/schemas/ids/$c_id");
is($status, 404, 'the standby no longer answers the hard-deleted schema');

# a hard delete on the primary, replayed: the standby's cache lets it go
($status, $body) = rest($primary, 'POST', '/subjects/d-value/versions', record_body('D', 'q'));
my ($d_id) = $body =~ /"id":(\d+)/;
$primary->wait_for_catchup($standby);
($status) = rest($standby, 'GET', "/schemas/ids/$d_id") for 1 .. 3;
is($status, 200, 'a schema read on the standby, three times');
rest($primary, 'DELETE', '/subjects/d-value');
($status) = rest($primary, 'DELETE', '/subjects/d-value?permanent=true');
is($status, 200, 'hard-deleted on the primary');
$primary->wait_for_catchup($standby);
($status, $body) = rest($standby, 'GET', "/schemas/ids/$d_id");
is($status, 404, 'once replayed, the standby answers 404 for it');

# replay paused: the answer waits registry.forward_replay_wait for the
# write to be replayed, then is the primary's all the same
$standby->safe_psql('postgres', 'SELECT pg_wal_replay_pause()');
my $t0 = time;
($status, $body) = rest($standby, 'POST', '/subjects/p-value/versions', record_body('P', 'q'));
my $elapsed = time - $t0;
is($status, 200, 'replay paused: the registration through the standby is answered');
ok($elapsed >= 1.9 && $elapsed < 8, "after registry.forward_replay_wait ($elapsed s)");
($status) = rest($standby, 'GET', '/subjects/p-value/versions');
is($status, 404, 'the standby has not replayed it yet');
$standby->safe_psql('postgres', 'SELECT pg_wal_replay_resume()');
$primary->wait_for_catchup($standby);
($status, $body) = rest($standby, 'GET', '/subjects/p-value/versions');
is("$status $body", '200 [1]', 'once replay goes on, it is there');

# the write runs on the primary as the role of the standby's request: a
# connection user that cannot become that role gets the forwarding error
my $request_role = $standby->safe_psql('postgres', 'SHOW registry.http_anonymous_role');
$primary->safe_psql('postgres', 'CREATE ROLE forward_probe LOGIN');
my $probe_conninfo = 'host=' . $primary->host . ' port=' . $primary->port
  . ' dbname=postgres user=forward_probe';
$standby->append_conf('postgresql.conf', "registry.primary_conninfo = '$probe_conninfo'\n");
$standby->reload;
sleep 1;
($status, $body) = rest($standby, 'POST', '/subjects/e-value/versions', record_body('E', 'q'));
is("$status $body",
	'500 {"error_code":50003,"message":"Error while forwarding register schema request to the leader"}',
	'a forwarding user that may not SET ROLE to the request\'s role: the forwarding error');
$primary->safe_psql('postgres', qq{GRANT "$request_role" TO forward_probe});
($status, $body) = rest($standby, 'POST', '/subjects/e-value/versions', record_body('E', 'q'));
is($status, 200, 'once it may, the write goes through');
is($primary->safe_psql('postgres',
		"SELECT count(*) FROM registry.subject_versions WHERE subject = 'e-value'"),
	'1', 'and is stored on the primary');

# a primary that accepts connections but never answers: the forwarding
# error within registry.forward_timeout, and reads go on meanwhile
my $silent = IO::Socket::INET->new(Listen => 5, LocalAddr => '127.0.0.1', LocalPort => 0,
	Proto => 'tcp', ReuseAddr => 1) or die "no listening socket: $!";
my $silent_port = $silent->sockport;
$standby->append_conf('postgresql.conf',
	"registry.primary_conninfo = 'host=127.0.0.1 port=$silent_port dbname=postgres'\n");
$standby->reload;
sleep 1;
$t0 = time;
($status, $body) = rest($standby, 'POST', '/subjects/f-value/versions', record_body('F', 'q'));
$elapsed = time - $t0;
is("$status $body",
	'500 {"error_code":50003,"message":"Error while forwarding register schema request to the leader"}',
	'a primary that does not answer: Confluent\'s forwarding error');
ok($elapsed >= 2.5 && $elapsed < 8, "after registry.forward_timeout ($elapsed s)");
($status, $body) = rest($standby, 'GET', '/subjects/a-value/versions');
is("$status $body", '200 [1,2]', 'the standby still serves reads');
close($silent);

# back to the standby's own primary_conninfo, then the primary stops
$standby->append_conf('postgresql.conf', "registry.primary_conninfo = ''\n");
$standby->reload;
sleep 1;
($status, $body) = rest($standby, 'PUT', '/config/a-value', '{"compatibility":"FULL"}');
like("$status $body", qr/^200 \{"compatibility": ?"FULL"\}$/, 'forwarding works again after the reload');
$primary->stop;
$t0 = time;
($status, $body) = rest($standby, 'POST', '/subjects/f-value/versions', record_body('F', 'q'));
$elapsed = time - $t0;
is("$status $body",
	'500 {"error_code":50003,"message":"Error while forwarding register schema request to the leader"}',
	'primary stopped: the forwarding error');
ok($elapsed < 4, "within the timeout ($elapsed s)");
($status, $body) = rest($standby, 'PUT', '/config/a-value', '{"compatibility":"NONE"}');
is("$status $body",
	'500 {"error_code":50003,"message":"Error while forwarding update config request to the leader"}',
	'PUT /config: its own forwarding error');
($status, $body) = rest($standby, 'DELETE', '/config/a-value');
is("$status $body",
	'500 {"error_code":50003,"message":"Error while forwarding delete config request to the leader"}',
	'DELETE /config: its own forwarding error');
($status, $body) = rest($standby, 'PUT', '/mode', '{"mode":"READONLY"}');
is("$status $body",
	'500 {"error_code":50003,"message":"Error while forwarding update mode request to the leader"}',
	'PUT /mode: its own forwarding error');
($status, $body) = rest($standby, 'DELETE', '/subjects/a-value/versions/2');
is("$status $body",
	'500 {"error_code":50003,"message":"Error while forwarding delete schema version request to the leader"}',
	'DELETE of a version: its own forwarding error');
($status, $body) = rest($standby, 'DELETE', '/subjects/a-value');
is("$status $body", '500 {"error_code":500,"message":"Error while deleting the subject a-value"}',
	'DELETE of a subject: Confluent\'s words for it');
($status, $body) = rest($standby, 'GET', '/subjects/b-value/versions/1');
is($status, 200, 'reads go on with the primary down');
($status, $body) = rest($standby, 'GET', '/config/a-value');
like("$status $body", qr/^200 \{"compatibilityLevel": ?"FULL"\}$/, 'the last forwarded config was replayed');

# a standby that knows no primary: Confluent's unknown-leader error
$standby->append_conf('postgresql.conf', "primary_conninfo = ''\n");
$standby->reload;
sleep 1;
($status, $body) = rest($standby, 'POST', '/subjects/f-value/versions', record_body('F', 'q'));
is("$status $body", '500 {"error_code":50004,"message":"Leader not known."}',
	'no primary_conninfo at all: 50004');
($status, $body) = rest($standby, 'PUT', '/mode', '{"mode":"READONLY"}');
is("$status $body", '500 {"error_code":50004,"message":"Failed to update mode"}',
	'and its words for a mode change');

$standby->stop;
done_testing();
