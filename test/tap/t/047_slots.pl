# No client may hold every connection slot: with 3,000 connections open
# that never send a byte, a fresh client is answered within 2 s, both with
# the limit sized from the open file limit (the default) and with
# registry.http_max_connections = 1000 per worker, where a worker at its
# limit closes its connections least recently active that are not being
# answered (idle keep-alive ones, and those that sent no whole request) to
# make room, oldest first; also on a socket of its own, after a reload
# moved the port.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('slots', conf => "registry.http_workers = 2\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'the workers serve');
my $port = http_port($node);

# The client: opens N connections that send nothing (raising its own open
# file limit for them), then opens M fresh ones, one after the other, each
# sending GET /config; prints how many of those were answered 200 within
# 2 s and the longest wait (it stops after two misses), then how many of
# the silent connections the server closed.  Every wait is bounded.
my $client = PostgreSQL::Test::Utils::tempdir() . '/idle.py';
open(my $fh, '>', $client) or die;
print $fh <<'PY';
import resource, socket, sys, time
port, n, m = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
want = n + m + 64
if soft < want:
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
idle = []
for i in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    try:
        s.connect(('127.0.0.1', port))
    except OSError as e:
        print('could not open silent connection %d: %s' % (i, e))
        sys.exit(1)
    idle.append(s)
time.sleep(0.5)

def fresh():
    t0 = time.time()
    try:
        s = socket.create_connection(('127.0.0.1', port), timeout=10)
        s.sendall(b'GET /config HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        got = b''
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        s.close()
        ok = got.startswith(b'HTTP/1.1 200')
    except OSError:
        ok = False
    return ok, time.time() - t0

answered = 0
missed = 0
worst = 0.0
for i in range(m):
    ok, t = fresh()
    if ok and t < 2.0:
        answered += 1
    else:
        missed += 1
    worst = max(worst, t)
    if missed >= 2:
        break                   # bounded: two misses say enough
closed = 0
for s in idle:
    s.settimeout(0)
    try:
        if s.recv(1) == b'':
            closed += 1
    except BlockingIOError:
        pass
    except OSError:
        closed += 1
    s.close()
print('answered %d of %d within 2 s, longest %.2f s; silent closed %d' % (answered, m, worst, closed))
PY
close($fh);

# run the client: (fresh answered in time, its line)
sub flood
{
	my ($n, $m, $to) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'python3', $client, $to // $port, $n, $m ], '>', \$out, '2>', \$err,
		IPC::Run::timeout(180));
	chomp $out;
	diag($err) if $err ne '';
	my ($answered) = $out =~ /^answered (\d+) of/;
	return ($answered // -1, $out);
}

# wait until N workers logged that they listen after log offset OFFSET;
# returns their limits
sub wait_listening
{
	my ($offset, $n) = @_;
	for (my $i = 0; $i < 300; $i++)
	{
		my $log = slurp_file($node->logfile, $offset);
		my @limits = $log =~ /At most (\d+) connections in this worker/g;
		return @limits if @limits >= $n;
		select(undef, undef, undef, 0.1);
	}
	return ();
}

# the default: the limit is what the open file limit allows
my @limits = wait_listening(0, 2);
diag("default limits: @limits");
ok(@limits == 2 && $limits[0] > 1000,
	'by default the connection limit is sized from the open file limit, not 1000');
my ($answered, $line) = flood(3000, 10);
is($answered, 10, "3,000 silent connections: every fresh request answered within 2 s ($line)");

# at the limit: 1000 per worker, 3,000 silent connections, fresh ones are
# answered within 2 s as the oldest silent ones are closed for them
my $offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "registry.http_max_connections = 1000\n");
$node->reload;
@limits = wait_listening($offset, 2);
is("@limits", '1000 1000', 'registry.http_max_connections = 1000: both workers restart with it');
($answered, $line) = flood(3000, 10);
is($answered, 10, "1000 per worker, 3,000 silent connections: every fresh request answered within 2 s ($line)");
my ($closed) = $line =~ /silent closed (\d+)/;
ok(defined $closed && $closed >= 1000, 'the silent connections were closed to make room');
like(slurp_file($node->logfile, $offset), qr/reached its limit of 1000 connections/,
	'the limit reached is logged');

my ($status) = rest($node, 'GET', '/config');
is($status, 200, 'the workers serve on');

# after a reload moving the port each worker listens on its own socket,
# libmicrohttpd accepting: a worker at its limit closes idle connections
# for those waiting in its socket's queue all the same
my $moved = PostgreSQL::Test::Cluster::get_free_port();
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "registry.http_port = $moved\n");
$node->reload;
@limits = wait_listening($offset, 2);
like(slurp_file($node->logfile, $offset), qr/registry REST API worker listens on its own socket/,
	'the port moved: each worker on its own socket');
($answered, $line) = flood(3000, 10, $moved);
is($answered, 10, "each worker on its own socket, 3,000 silent connections: every fresh request answered within 2 s ($line)");

$node->stop;
done_testing();
