# TLS for the REST API: registry.http_tls_cert_file and
# registry.http_tls_key_file make it serve HTTPS only; certificates are
# replaced on reload; unusable files are LOGged and nothing listens, plain
# HTTP included
use strict;
use warnings;

use File::Copy;
use FindBin;
use lib "$FindBin::Bin/..";
use IPC::Run;
use JSON::PP;
use POSIX qw(mkfifo);
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $dir = PostgreSQL::Test::Utils::tempdir;

# run a command, dying with its output when it fails
sub run_ok
{
	my @cmd = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '>', \$out, '2>', \$err)
	  or die "@cmd failed: $err";
	return $out;
}

# make_ca(NAME): a throwaway CA, NAME.pem and NAME.key in $dir
sub make_ca
{
	my ($name) = @_;
	run_ok('openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt',
		'ec_paramgen_curve:P-256', '-nodes', '-days', '2',
		'-subj', "/CN=registry test $name",
		'-keyout', "$dir/$name.key", '-out', "$dir/$name.pem");
}

# make_server(NAME, CA): a certificate for localhost and 127.0.0.1 signed by
# CA, NAME.pem and NAME.key (mode 0600) in $dir
sub make_server
{
	my ($name, $ca) = @_;
	open(my $fh, '>', "$dir/$name.ext") or die;
	print $fh "subjectAltName=DNS:localhost,IP:127.0.0.1\n";
	close($fh);
	run_ok('openssl', 'req', '-newkey', 'ec', '-pkeyopt',
		'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=localhost',
		'-keyout', "$dir/$name.key", '-out', "$dir/$name.csr");
	run_ok('openssl', 'x509', '-req', '-in', "$dir/$name.csr",
		'-CA', "$dir/$ca.pem", '-CAkey', "$dir/$ca.key", '-CAcreateserial',
		'-days', '2', '-extfile', "$dir/$name.ext",
		'-out', "$dir/$name.pem");
	chmod(0600, "$dir/$name.key");
}

make_ca('ca1');
make_ca('ca2');
make_server('server1', 'ca1');
make_server('server2', 'ca2');

my $node = registry_node('tls', conf => "registry.http_request_timeout = 2\n");
my $port = http_port($node);
my $pgdata = $node->data_dir;

# the node's certificate and key, where relative paths find them
sub install_cert
{
	my ($server) = @_;
	copy("$dir/$server.pem", "$pgdata/registry.crt") or die;
	copy("$dir/$server.key", "$pgdata/registry.key") or die;
	chmod(0600, "$pgdata/registry.key");
}

# set_tls(CERT, KEY): the two settings, in postgresql.auto.conf
sub set_tls
{
	my ($cert, $key) = @_;
	$node->append_conf('postgresql.auto.conf', <<CONF);
registry.http_tls_cert_file = '$cert'
registry.http_tls_key_file = '$key'
CONF
}

# https(CA, PATH, CURL_ARGS...): one request over HTTPS, verified by CA
sub https
{
	my ($ca, $path, @extra) = @_;
	return curl_rest('--cacert', "$dir/$ca.pem", @extra,
		"https://127.0.0.1:$port$path");
}

# plain(PATH): one request over plain HTTP to the same port
sub plain
{
	my ($path) = @_;
	return curl_rest("http://127.0.0.1:$port$path");
}

# wait_for_log_count(REGEX, N, OFFSET): until the log holds N lines
# matching REGEX after OFFSET (both workers have acted), or 60 s
sub wait_for_log_count
{
	my ($regex, $n, $offset) = @_;
	for (my $i = 0; $i < 600; $i++)
	{
		my $log = slurp_file($node->logfile, $offset);
		my $count = () = $log =~ /$regex/gm;
		return 1 if $count >= $n;
		select(undef, undef, undef, 0.1);
	}
	return 0;
}

# reload(REGEX): reload, and wait until both workers logged REGEX
sub reload_and_wait
{
	my ($regex) = @_;
	my $offset = -s $node->logfile;
	$node->reload;
	return wait_for_log_count($regex, 2, $offset);
}

my $listening_https = qr/registry REST API listening on \S+ over HTTPS/;

# 1. both set at start, relative paths: HTTPS only
install_cert('server1');
set_tls('registry.crt', 'registry.key');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_log_count($listening_https, 2, 0),
	'both workers listen over HTTPS');

my ($status, $body, $rc, $err) = https('ca1', '/subjects');
is($status, 200, 'GET /subjects over HTTPS with the right CA answers 200');
is($body, '[]', 'and its body');
($status, $body, $rc) = curl_rest('--cacert', "$dir/ca1.pem",
	"https://localhost:$port/subjects");
is($status, 200, 'the certificate is valid for localhost too');

($status, $body, $rc) = plain('/subjects');
is($status, 0, 'plain HTTP to the HTTPS port gets no HTTP answer');
isnt($rc, 0, 'and curl fails');

($status, $body, $rc) = https('ca2', '/subjects');
is($rc, 60, 'a client trusting another CA fails the handshake (curl 60)');
is($status, 0, 'and gets no answer');

# TLS 1.1 and older are not offered
my ($out, $serr) = ('', '');
IPC::Run::run(
	[
		'openssl', 's_client', '-connect', "127.0.0.1:$port",
		'-tls1_1', '-cipher', 'DEFAULT:@SECLEVEL=0',
		'-CAfile', "$dir/ca1.pem"
	],
	'<', \'', '>', \$out, '2>', \$serr);
like($out, qr/Cipher is \(NONE\)/, 'TLS 1.1 is refused');
IPC::Run::run(
	[
		'openssl', 's_client', '-connect', "127.0.0.1:$port",
		'-tls1_2', '-CAfile', "$dir/ca1.pem"
	],
	'<', \'', '>', \$out, '2>', \$serr);
like($out, qr/New, TLSv1\.2, Cipher is (?!\(NONE\))/, 'TLS 1.2 is served');

# a large body and answer, and several requests on one connection
my $big = JSON::PP::encode_json(
	{
		schema => JSON::PP::encode_json(
			{
				type => 'record',
				name => 'Big',
				fields => [
					map { { name => "field_with_a_long_name_$_", type => 'string' } }
					  1 .. 4000
				]
			})
	});
cmp_ok(length($big), '>', 200_000, 'a request body of over 200 kB');
open(my $bigfh, '>', "$dir/big.json") or die;
print $bigfh $big;
close($bigfh);
($status, $body) = https('ca1', '/subjects/big-value/versions', '-X', 'POST',
	'-H', 'Content-Type: application/vnd.schemaregistry.v1+json',
	'--data-binary', "\@$dir/big.json");
is($status, 200, 'is registered over HTTPS');
($status, $body) = https('ca1', '/subjects/big-value/versions/1/schema');
like($body, qr/field_with_a_long_name_4000/, 'and read back whole');
cmp_ok(length($body), '>', 150_000, 'a large answer');
($out, $serr) = ('', '');
IPC::Run::run(
	[
		'curl', '-sS', '-v', '--cacert', "$dir/ca1.pem",
		"https://127.0.0.1:$port/subjects",
		"https://127.0.0.1:$port/config",
		"https://127.0.0.1:$port/schemas/types"
	],
	'>', \$out, '2>', \$serr);
like($out, qr/^\[.*\]\{.*\}\[.*\]$/s, 'three requests on one connection');
like($serr, qr/Re-using existing connection/, 'the connection is reused');

# a registration waiting for a lock is suspended and resumed over TLS too,
# while other requests are served
my $json = 'application/vnd.schemaregistry.v1+json';
($status) = https('ca1', '/subjects/tls-lock/versions', '-X', 'POST',
	'-H', "Content-Type: $json", '--data-binary', '{"schema":"\"int\""}');
is($status, 200, 'setup: a subject for the lock wait');
my ($lock_out, $lock_err) = ('', '');
my $locker = IPC::Run::start(
	[
		'psql', '-X', '-d', $node->connstr('postgres'), '-c',
		"BEGIN; SELECT subject FROM registry.subjects WHERE subject = 'tls-lock' FOR UPDATE; SELECT pg_sleep(3); COMMIT"
	],
	'>', \$lock_out, '2>', \$lock_err);
$node->poll_query_until('postgres',
	"SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep'")
  or die 'the lock was not taken';
my $read_status;
my $waiter = IPC::Run::start(
	[
		'curl', '-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}',
		'--cacert', "$dir/ca1.pem", '-X', 'POST', '-H', "Content-Type: $json",
		'--data-binary', '{"schema":"\"long\""}',
		"https://127.0.0.1:$port/subjects/tls-lock/versions"
	],
	'>', \my $wait_out, '2>', \my $wait_err);
select(undef, undef, undef, 0.5);
($read_status) = https('ca1', '/subjects/tls-lock/versions');
is($read_status, 200, 'a read is served while a registration waits');
$waiter->finish;
$locker->finish;
like($wait_out, qr/^200 (\d+)/, 'the waiting registration succeeds')
  or diag($wait_out, $wait_err);
my ($waited) = $wait_out =~ /^\d+ ([\d.]+)/;
cmp_ok($waited // 0, '>=', 1.5, 'once the lock is released');
($status, $body) = https('ca1', '/subjects/tls-lock/versions');
is($body, '[1,2]', 'both versions are stored');

# a request still arriving past registry.http_request_timeout: the
# connection is closed, and nothing but TLS is written on it
open(my $slow, '>', "$dir/slow.py") or die;
print $slow <<'PY';
import socket, ssl, sys, time
ctx = ssl.create_default_context(cafile=sys.argv[2])
s = ctx.wrap_socket(socket.create_connection(('127.0.0.1', int(sys.argv[1]))),
                    server_hostname='127.0.0.1')
s.sendall(b'POST /subjects/slow/versions HTTP/1.1\r\nHost: x\r\n'
          b'Content-Length: 100\r\n\r\n{')
s.settimeout(20)
start = time.time()
try:
    data = s.recv(1000)
    print('closed' if data == b'' else 'data %r' % data[:40], round(time.time() - start))
except ssl.SSLError as e:
    print('tls error', e)
except OSError as e:
    print('closed', round(time.time() - start))
PY
close($slow);
IPC::Run::run([ '/usr/bin/python3', "$dir/slow.py", $port, "$dir/ca1.pem" ],
	'>', \$out, '2>', \$serr);
like($out, qr/^closed [1-5]$/m,
	'a slow sender is cut off after the request timeout, without plain text')
  or diag($out, $serr);

# connections that stall their handshake (a partial ClientHello) or send
# nothing at all hold no slot past registry.http_request_timeout either
open(my $stall, '>', "$dir/stall.py") or die;
print $stall <<'PY';
import socket, sys, time
port = int(sys.argv[1])
socks = []
for i in range(6):
    s = socket.create_connection(('127.0.0.1', port))
    if i % 2 == 0:
        s.sendall(b'\x16\x03\x01\x00\xc8\x01')
    s.settimeout(20)
    socks.append(s)
start = time.time()
for s in socks:
    try:
        while s.recv(1000):
            pass
        print('closed', round(time.time() - start))
    except ConnectionResetError:
        print('closed', round(time.time() - start))
    except OSError as e:
        print('open', e)
PY
close($stall);
IPC::Run::run([ '/usr/bin/python3', "$dir/stall.py", $port ], '>', \$out, '2>', \$serr);
is(scalar(() = $out =~ /^closed [1-5]$/mg), 6,
	'stalled handshakes and silent connections are closed after the request timeout')
  or diag($out, $serr);
($status) = https('ca1', '/subjects');
is($status, 200, '  ... and HTTPS serves on');

# 2. a real client over HTTPS: confluent_kafka's SchemaRegistryClient
open(my $py, '>', "$dir/client.py") or die;
print $py <<'PY';
import sys
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
url, ca = sys.argv[1], sys.argv[2]
client = SchemaRegistryClient({'url': url, 'ssl.ca.location': ca})
sid = client.register_schema('tls-value', Schema('{"type":"string"}', 'AVRO'))
fetched = client.get_schema(sid)
latest = client.get_latest_version('tls-value')
print(sid, fetched.schema_str, latest.version, latest.schema_id)
PY
close($py);
# requests prefers these to the client's own ssl.ca.location
delete local $ENV{REQUESTS_CA_BUNDLE};
delete local $ENV{CURL_CA_BUNDLE};
($out, $serr) = ('', '');
IPC::Run::run([ '/usr/bin/python3', "$dir/client.py",
		"https://127.0.0.1:$port", "$dir/ca1.pem" ],
	'>', \$out, '2>', \$serr);
like($out, qr/^(\d+) (?:"string"|\{"type":"string"\}) 1 \1$/m,
	'SchemaRegistryClient registers and fetches a schema over HTTPS')
  or diag($serr);
IPC::Run::run([ '/usr/bin/python3', "$dir/client.py",
		"https://127.0.0.1:$port", "$dir/ca2.pem" ],
	'>', \$out, '2>', \$serr);
like($serr, qr/CERTIFICATE_VERIFY_FAILED|certificate verify failed/,
	'and refuses the server when trusting another CA');
($status, $body) = https('ca1', '/subjects');
like($body, qr/"tls-value"/, 'the registration is stored');

# 3. the files' contents replaced (same paths), reload: the new certificate
install_cert('server2');
ok(reload_and_wait($listening_https), 'both workers restart on new contents');
my ($new_ok, $old_fails) = (0, 0);
for (my $i = 0; $i < 10; $i++)
{
	($status) = https('ca2', '/subjects');
	$new_ok++ if $status == 200;
	(undef, undef, $rc) = https('ca1', '/subjects');
	$old_fails++ if $rc == 60;
}
is($new_ok, 10, 'the new CA now verifies every connection');
is($old_fails, 10, 'the old CA fails every handshake');

# an unrelated reload keeps the daemon: no restart when nothing changed
my $offset = -s $node->logfile;
ok(reload_and_wait(qr/reloaded its configuration/), 'reload again');
sleep(1);
unlike(slurp_file($node->logfile, $offset), $listening_https,
	'unchanged files do not restart the daemon');

# 4. unusable files: LOGged, and nothing listens (plain HTTP included)
sub nothing_listens
{
	my ($what) = @_;
	my ($s1, undef, $rc1) = plain('/subjects');
	my ($s2, undef, $rc2) = https('ca2', '/subjects');
	is($s1 + $s2, 0, "$what: no answer over HTTP or HTTPS");
	is("$rc1 $rc2", '7 7', "$what: the connection is refused");
}

chmod(0644, "$pgdata/registry.key");
ok(reload_and_wait(qr/registry\.http_tls_key_file "\Q$pgdata\E\/registry\.key" has group or world access/),
	'a key readable by others is refused, naming the setting and the file');
nothing_listens('key readable by others');

chmod(0600, "$pgdata/registry.key");
ok(reload_and_wait($listening_https),
	'fixed, the next reload listens again (same paths and contents)');
($status) = https('ca2', '/subjects');
is($status, 200, 'and serves HTTPS');

set_tls('registry.crt', "$dir/missing.key");
ok(reload_and_wait(qr/could not open registry\.http_tls_key_file "\Q$dir\E\/missing\.key": No such file/),
	'a missing key file is LOGged with the setting and the file');
nothing_listens('missing key file');

set_tls('registry.crt', '');
ok(reload_and_wait(qr/registry\.http_tls_cert_file is set but registry\.http_tls_key_file is not/),
	'a certificate without a key is LOGged');
nothing_listens('certificate without key');

open(my $bad, '>', "$dir/bad.pem") or die;
print $bad "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n";
close($bad);
set_tls("$dir/bad.pem", 'registry.key');
ok(reload_and_wait(qr/could not use registry\.http_tls_cert_file "\Q$dir\E\/bad\.pem": no PEM certificate/),
	'a certificate that is not PEM is LOGged');
nothing_listens('bad certificate');

set_tls("$dir/server1.pem", "$dir/server2.key");
ok(reload_and_wait(qr/registry\.http_tls_key_file "\Q$dir\E\/server2\.key" does not fit registry\.http_tls_cert_file "\Q$dir\E\/server1\.pem"/),
	'a key that is not the certificate\'s is LOGged');
nothing_listens('mismatched key');

# a FIFO would block a reader: refused without waiting for a writer
mkfifo("$dir/fifo.pem", 0600) or die "mkfifo: $!";
set_tls("$dir/fifo.pem", 'registry.key');
ok(reload_and_wait(qr/could not use registry\.http_tls_cert_file "\Q$dir\E\/fifo\.pem": it is not a regular file/),
	'a FIFO as certificate is refused without stalling the workers');
nothing_listens('FIFO certificate');

open(my $huge, '>', "$dir/huge.pem") or die;
print $huge slurp_file("$dir/server1.pem") x 2000;
close($huge);
cmp_ok(-s "$dir/huge.pem", '>', 1024 * 1024, 'a certificate file over 1 MB');
set_tls("$dir/huge.pem", "$dir/server1.key");
ok(reload_and_wait(qr/could not use registry\.http_tls_cert_file "\Q$dir\E\/huge\.pem": it is larger than 1 MB/),
	'is refused');
nothing_listens('huge certificate');

# no key material in the log
my $key_pem = slurp_file("$dir/server2.key");
my ($key_line) = $key_pem =~ /^([A-Za-z0-9+\/=]{40,})$/m;
ok(defined $key_line, 'the key has a base64 line');
unlike(slurp_file($node->logfile), qr/\Q$key_line\E/,
	'the key\'s contents are never logged');

# 5. TLS turned off on purpose: plain HTTP again
set_tls('', '');
ok(reload_and_wait(qr/registry REST API listening on \S+:\d+$/m),
	'with neither set, plain HTTP');
($status, $body) = plain('/subjects');
is($status, 200, 'plain HTTP answers');

# 6. at server start, a missing key file: logged, nothing listens
set_tls('registry.crt', 'nokey.key');
$offset = -s $node->logfile;
$node->restart;
ok(wait_for_log_count(qr/could not open registry\.http_tls_key_file "\Q$pgdata\E\/nokey\.key"/, 2, $offset),
	'at start, a missing key file is LOGged by both workers');
nothing_listens('missing key at start');
sleep(6);
my $log = slurp_file($node->logfile, $offset);
my $count = () = $log =~ /could not open registry\.http_tls_key_file/g;
is($count, 2, 'the workers wait for a reload instead of restarting in a loop');

install_cert('server1');
set_tls('registry.crt', 'registry.key');
ok(reload_and_wait($listening_https), 'a reload with the key listens');
($status) = https('ca1', '/subjects');
is($status, 200, 'and serves HTTPS');

$node->stop;
done_testing();
