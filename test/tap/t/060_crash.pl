# kill -9 under registration load loses no acknowledged registration.
#
# HTTP clients (and a SQL session) register distinct schemas while, in
# turn, an HTTP worker, a backend registering through SQL and the
# postmaster itself are killed with SIGKILL.  Each client records every
# registration it was answered; one without an answer is tried again after
# the crash (and must then find the version it may have made).  After
# recovery every acknowledged (subject, version, id) is there with its
# schema, no subject has a schema twice, and versions have no gap.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use IPC::Run;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;
use Time::HiRes qw(usleep);

my $node = registry_node('crash', conf => <<CONF);
fsync = on
restart_after_crash = on
log_statement = none
CONF
$node->start;
$node->safe_psql('postgres', q{CREATE EXTENSION registry;
SELECT registry.set_compatibility('NONE')});
ok(wait_for_rest($node), 'the REST API answers');

my $dir = PostgreSQL::Test::Utils::tempdir;
my $acks = "$dir/http_acks.jsonl";
my $stop = "$dir/stop";

# The HTTP load: THREADS clients, each registering its own schemas one
# after another, alternately under its own subject and under one subject
# they share; every 200 is written down as a JSON line (subject, id,
# version, stored schema).  A request without a 200 (refused, reset, 5xx)
# is sent again until it is answered.
my $load_py = "$dir/load.py";
open(my $fh, '>', $load_py) or die;
print $fh <<'PY';
import http.client, json, sys, threading, time, urllib.parse

port, out, stop, nthreads = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
CT = "application/vnd.schemaregistry.v1+json"
lock = threading.Lock()
sink = open(out, "a", buffering=1)
failures = [0]


def stopped():
    try:
        open(stop).close()
        return True
    except OSError:
        return False


def register(subject, schema):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("POST", "/subjects/%s/versions" % urllib.parse.quote(subject),
                     body=json.dumps({"schema": schema}),
                     headers={"Content-Type": CT, "Accept": CT})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def client(t):
    i = 0
    while not stopped():
        subject = "own-%d-value" % t if i % 2 == 0 else "shared-value"
        schema = json.dumps({"type": "record", "name": "L", "fields":
                             [{"name": "f_%d_%d" % (t, i), "type": "int", "default": 0}]})
        while True:
            try:
                status, body = register(subject, schema)
            except (OSError, http.client.HTTPException):
                status, body = 0, b""
            if status == 200:
                answer = json.loads(body)
                with lock:
                    sink.write(json.dumps({"subject": subject, "id": answer["id"],
                                           "version": answer["version"],
                                           "schema": answer["schema"]}) + "\n")
                break
            with lock:
                failures[0] += 1
            if stopped():
                return
            time.sleep(0.05)
        i += 1


threads = [threading.Thread(target=client, args=(t,)) for t in range(nthreads)]
for th in threads:
    th.start()
for th in threads:
    th.join()
print("failures %d" % failures[0])
PY
close($fh);

my ($load_out, $load_err) = ('', '');
my $load = IPC::Run::start([ 'python3', $load_py, http_port($node), $acks, $stop, 4 ],
	'>', \$load_out, '2>', \$load_err);

# the number of HTTP registrations acknowledged so far
sub http_acks
{
	return 0 unless -e $acks;
	my @lines = split /\n/, slurp_file($acks);
	return scalar @lines;
}

# wait until the acknowledged HTTP registrations pass n (or 60 s)
sub wait_for_acks
{
	my ($n) = @_;
	for (my $i = 0; $i < 600; $i++)
	{
		return 1 if http_acks() > $n;
		usleep(100_000);
	}
	return 0;
}

# The SQL load: one psql session registering its own schemas under one
# subject, each statement printing its tag, id and version once committed
# (to a file: psql flushes it when it exits, as it does when its server
# connection is lost).  Run r takes tags from r * 100000 on.
my @sql_runs;

# start a SQL load session, run number r
sub start_sql_load
{
	my ($r) = @_;
	my $script = "$dir/sql_$r.sql";
	open(my $sf, '>', $script) or die;
	for my $k ($r * 100000 .. $r * 100000 + 20000)
	{
		print $sf "SELECT $k, schema_id, subject_version FROM registry.register_schema_version("
		  . "'sql-value', '{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"s_$k\",\"type\":\"int\",\"default\":0}]}');\n";
	}
	close($sf);
	my $run = { out => "$dir/sql_$r.out" };
	local $ENV{PGAPPNAME} = 'crash-sql-load';
	$run->{h} = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'), '-f', $script ],
		'<', '/dev/null', '>', $run->{out}, '2>', "$dir/sql_$r.err");
	push @sql_runs, $run;
	return $run;
}

# the number of versions of the SQL load's subject
sub sql_versions
{
	return $node->safe_psql('postgres',
		"SELECT count(*) FROM registry.subject_versions WHERE subject = 'sql-value'");
}

# the pid of the SQL load's backend once it has committed registrations
sub sql_load_backend
{
	my $start = sql_versions();
	for (my $i = 0; $i < 600; $i++)
	{
		my $pid = $node->safe_psql('postgres',
			"SELECT pid FROM pg_stat_activity WHERE application_name = 'crash-sql-load'");
		return $pid if $pid ne '' && sql_versions() > $start + 20;
		usleep(100_000);
	}
	return undef;
}

# wait until the node is back after a crash: SQL and REST answer
sub wait_for_recovery
{
	my ($what) = @_;
	ok($node->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'),
		"$what: the node accepts connections again");
	ok(wait_for_rest($node), "$what: the REST API answers again");
}

# the pids of the node's server processes (all children of the postmaster)
sub server_pids
{
	return split /\n/, $node->safe_psql('postgres',
		'SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()');
}

ok(wait_for_acks(40), 'registrations are acknowledged under load');
my $sql = start_sql_load(0);
ok(defined sql_load_backend(), 'a backend registers through SQL');

# (a) an HTTP worker killed
my $worker = $node->safe_psql('postgres',
	"SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' LIMIT 1");
like($worker, qr/^\d+$/, 'an HTTP worker runs');
my $log_offset = -s $node->logfile;
kill 'KILL', $worker;
ok($node->wait_for_log(qr/\(PID $worker\) was terminated by signal 9/, $log_offset),
	'the postmaster saw the worker killed');
wait_for_recovery('after an HTTP worker was killed');
ok(wait_for_acks(http_acks() + 40), 'the load goes on after the HTTP worker was killed');

# (b) a backend registering through SQL killed
$sql->{h}->finish;		# the crash ended its session
$sql = start_sql_load(1);
my $backend = sql_load_backend();
ok(defined $backend, 'a backend registers through SQL');
$log_offset = -s $node->logfile;
kill 'KILL', $backend;
ok($node->wait_for_log(qr/\(PID $backend\) was terminated by signal 9/, $log_offset),
	'the postmaster saw the backend killed');
wait_for_recovery('after a registering backend was killed');
ok(wait_for_acks(http_acks() + 40), 'the load goes on after the backend was killed');

# (c) the postmaster killed: its children notice and exit by themselves,
# then the node starts again and recovers
$sql->{h}->finish;
$sql = start_sql_load(2);
ok(defined sql_load_backend(), 'a backend registers through SQL again');
my @children = server_pids();
cmp_ok(scalar @children, '>', 3, 'the server processes are known');
$node->kill9;
my $alive;
for (my $i = 0; $i < 600; $i++)
{
	$alive = grep { kill 0, $_ } @children;
	last if !$alive;
	usleep(100_000);
}
is($alive, 0, 'every server process exits after the postmaster was killed');
$sql->{h}->finish;
$node->start;
wait_for_recovery('after the postmaster was killed');
ok(wait_for_acks(http_acks() + 40), 'the load goes on after the restart');

# stop the load
open(my $sf, '>', $stop) or die;
close($sf);
$load->finish;
like($load_out, qr/^failures [1-9]/m, 'the HTTP clients met the crashes');

# What was acknowledged, loaded into the node: the HTTP clients' lines and
# the SQL sessions' output.
my @sql_acks;
foreach my $run (@sql_runs)
{
	foreach my $line (split /\n/, slurp_file($run->{out}))
	{
		my ($k, $id, $version) = split /\|/, $line;
		push @sql_acks, { k => $k, id => $id, version => $version };
	}
}
cmp_ok(scalar @sql_acks, '>', 0, 'the SQL sessions were acknowledged registrations');
$node->safe_psql('postgres', qq{
CREATE TABLE acks AS
SELECT a->>'subject' AS subject, (a->>'id')::integer AS id, (a->>'version')::integer AS version,
	   a->>'schema' AS schema
  FROM regexp_split_to_table(pg_read_file('$acks'), E'\\n') l, LATERAL (SELECT l::jsonb AS a) j
 WHERE l <> ''});
$node->safe_psql('postgres', 'CREATE TABLE sql_acks (k integer, id integer, version integer)');
my $values = join(',', map { "($_->{k}, $_->{id}, $_->{version})" } @sql_acks);
$node->safe_psql('postgres', "INSERT INTO sql_acks VALUES $values");
$node->safe_psql('postgres', q{
INSERT INTO acks SELECT 'sql-value', id, version,
	format('{"type":"record","name":"S","fields":[{"name":"s_%s","type":"int","default":0}]}', k)
  FROM sql_acks});
my $total = $node->safe_psql('postgres', 'SELECT count(*) FROM acks');
note("$total acknowledged registrations");

my $missing = $node->safe_psql('postgres', q{
SELECT count(*) || coalesce(E'\n' || string_agg(format('%s version %s id %s', subject, version, id), E'\n'), '')
  FROM (SELECT * FROM acks a
         WHERE NOT EXISTS (SELECT 1 FROM registry.subject_versions v JOIN registry.schemas s
                             ON s.context = v.context AND s.id = v.schema_id
                           WHERE v.context = '.' AND v.subject = a.subject AND v.version = a.version
                             AND v.schema_id = a.id AND s.schema = a.schema AND NOT v.deleted)
         ORDER BY subject, version LIMIT 20) m});
is($missing, '0', 'every acknowledged (subject, version, id) is there with its schema');
is($node->safe_psql('postgres', q{
SELECT count(*) FROM (SELECT id FROM acks GROUP BY id HAVING count(DISTINCT schema) > 1) x}),
	'0', 'no id was acknowledged for two schemas');
is($node->safe_psql('postgres', q{
SELECT count(*) FROM (SELECT subject, schema_id FROM registry.subject_versions
                      GROUP BY subject, schema_id HAVING count(*) > 1) x}),
	'0', 'no subject has a schema twice');
is($node->safe_psql('postgres', q{
SELECT count(*) FROM (SELECT subject FROM registry.subject_versions
                      GROUP BY subject HAVING max(version) <> count(*)) x}),
	'0', 'versions have no gap');
is($node->safe_psql('postgres', q{
SELECT count(*) FROM registry.subject_versions v
 WHERE NOT EXISTS (SELECT 1 FROM registry.schemas s WHERE s.context = v.context AND s.id = v.schema_id)}),
	'0', 'every version has its schema');

# a new schema after all this takes an id above every id given before
my ($status, $body) = rest($node, 'POST', '/subjects/after-value/versions',
	'{"schema":"{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}"}');
my ($new_id) = $body =~ /"id":(\d+)/;
my $max_id = $node->safe_psql('postgres',
	"SELECT max(id) FROM registry.schemas WHERE context = '.' AND id <> $new_id");
ok($status == 200 && $new_id > $max_id, 'a new schema takes an id above all earlier ones');

$node->stop;
done_testing();
