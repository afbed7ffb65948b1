# The workers share one listening socket, and a new connection goes to the
# worker holding the fewest: keep-alive connections opened one after the
# other end up spread evenly over the workers (with a socket per worker
# the kernel's hash of the addresses placed them, often 3 to 1 or worse).
# The port listens while a worker serves it and refuses once none does; a
# reload that moves the port moves the listening with it (each worker then
# on its own socket) and a reload back returns to the shared socket; a
# worker that is stopped is replaced and takes its share again; workers
# at their connection limit close an idle connection to serve a new one; with
# registry.http_port = 0 the port refuses.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('listen', conf => "registry.http_workers = 2\n");
$node->start;
my $offset = -s $node->logfile;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');

# The client: opens N keep-alive connections one after the other, each
# answered before the next opens, then says how many of them each of the
# given worker pids holds (from /proc: the sockets' inodes in each pid's
# descriptors, matched to the connections' ports in /proc/net/tcp), and
# how many sockets listen on the port.
my $client = PostgreSQL::Test::Utils::tempdir() . '/spread.py';
open(my $fh, '>', $client) or die;
print $fh <<'PY';
import os, socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
pids = sys.argv[3:]

def tcp_rows():
    rows = []
    for name in ('/proc/net/tcp', '/proc/net/tcp6'):
        try:
            with open(name) as f:
                next(f)
                for line in f:
                    p = line.split()
                    rows.append((int(p[1].rsplit(':', 1)[1], 16),
                                 int(p[2].rsplit(':', 1)[1], 16), p[3], p[9]))
        except FileNotFoundError:
            pass
    return rows

def listening():
    return sum(1 for lp, rp, st, ino in tcp_rows() if lp == port and st == '0A')

conns = []
for i in range(n):
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    s.sendall(b'GET /config HTTP/1.1\r\nHost: x\r\n\r\n')
    got = b''
    while b'\r\n\r\n' not in got or not got.rstrip().endswith(b'}'):
        chunk = s.recv(4096)
        if not chunk:
            break
        got += chunk
    if not got.startswith(b'HTTP/1.1 200'):
        print('unanswered', got[:40])
        sys.exit(1)
    conns.append(s)
    time.sleep(0.05)
mine = {s.getsockname()[1] for s in conns}
inodes = {ino for lp, rp, st, ino in tcp_rows() if lp == port and rp in mine}
held = []
for pid in pids:
    c = 0
    for fd in os.listdir('/proc/%s/fd' % pid):
        try:
            link = os.readlink('/proc/%s/fd/%s' % (pid, fd))
        except OSError:
            continue
        if link.startswith('socket:[') and link[8:-1] in inodes:
            c += 1
    held.append(str(c))
print('held', ' '.join(sorted(held)), 'listening', listening())
PY
close($fh);

# the HTTP workers' pids
sub worker_pids
{
	my $pids = $node->safe_psql('postgres',
		"SELECT string_agg(pid::text, ' ' ORDER BY pid) FROM pg_stat_activity WHERE backend_type = 'registry http'");
	return split(/ /, $pids);
}

# spread(PORT, N): "held A B listening L" for N connections
sub spread
{
	my ($port, $n) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'python3', $client, $port, $n, worker_pids() ], '>', \$out, '2>', \$err);
	chomp $out;
	diag($err) if $err ne '';
	return $out;
}

# "refused" if a connection to the port is refused, else the answer's status
sub listen_state
{
	my ($port) = @_;
	my ($status, $body, $rc) = curl_rest('--max-time', '5', "http://127.0.0.1:$port/config");
	return $rc == 7 ? 'refused' : "status $status";
}

# wait until N workers logged that they listen on PORT after log offset OFFSET
sub wait_listening
{
	my ($offset, $port, $n) = @_;
	for (my $i = 0; $i < 300; $i++)
	{
		my $log = slurp_file($node->logfile, $offset);
		my $count = () = $log =~ /registry REST API listening on localhost:$port$/mg;
		return 1 if $count >= $n;
		select(undef, undef, undef, 0.1);
	}
	return 0;
}

my $port = http_port($node);
ok(wait_listening($offset, $port, 2), 'both workers serve');
is(spread($port, 8), 'held 4 4 listening 1',
	'8 keep-alive connections: 4 on each worker, one listening socket');
is(spread($port, 5), 'held 2 3 listening 1', '5 connections: 2 and 3');

# a stopped worker is replaced; the survivor serves meanwhile, and the
# replacement takes its share of new connections
my ($first) = worker_pids();
$offset = -s $node->logfile;
$node->safe_psql('postgres', "SELECT pg_terminate_backend($first)");
my ($status) = rest($node, 'GET', '/config');
is($status, 200, 'with one worker stopped the other answers');
ok(wait_listening($offset, $port, 1), 'the stopped worker is replaced');
is(spread($port, 6), 'held 3 3 listening 1', '  ... and takes half the new connections');

# a reload moving the port: the new one serves, the old one refuses
my $moved = PostgreSQL::Test::Cluster::get_free_port();
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "registry.http_port = $moved\n");
$node->reload;
$node->{_registry_http_port} = $moved;
ok(wait_listening($offset, $moved, 2), 'after moving the port both workers listen on the new one');
my $refused = 0;
for (my $i = 0; $i < 100 && !$refused; $i++)
{
	$refused = listen_state($port) eq 'refused';
	select(undef, undef, undef, 0.1) unless $refused;
}
ok($refused, '  ... and the old port refuses connections');
like(slurp_file($node->logfile, $offset), qr/registry REST API worker listens on its own socket/,
	'  ... each worker on its own socket, as the log says');
like(spread($moved, 4), qr/^held \d \d listening 2$/, '  ... two sockets listen on the new port');

# moved back: the shared socket again
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "registry.http_port = $port\n");
$node->reload;
$node->{_registry_http_port} = $port;
ok(wait_listening($offset, $port, 2), 'moved back, both workers listen on the first port');
is(spread($port, 4), 'held 2 2 listening 1', '  ... on the one shared socket, connections spread again');
is(listen_state($moved), 'refused', '  ... and the other port refuses');

# at the connection limit a worker closes an idle keep-alive connection to
# serve a new one (one only: the other worker finds nothing to accept)
my $full = PostgreSQL::Test::Utils::tempdir() . '/full.py';
open($fh, '>', $full) or die;
print $fh <<'PY';
import socket, sys, time
port = int(sys.argv[1])
pids = sys.argv[2:]

def ask(s):
    s.sendall(b'GET /config HTTP/1.1\r\nHost: x\r\n\r\n')

def answered(s, timeout):
    s.settimeout(timeout)
    try:
        return s.recv(4096).startswith(b'HTTP/1.1 200')
    except socket.timeout:
        return False

held = []
for i in range(2):
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    ask(s)
    if not answered(s, 10):
        print('not served'); sys.exit(1)
    held.append(s)
    time.sleep(0.05)
waiting = socket.create_connection(('127.0.0.1', port), timeout=10)
ask(waiting)
early = answered(waiting, 2.0)
time.sleep(0.3)
closed = 0
for s in held:
    s.settimeout(1)
    try:
        if s.recv(1) == b'':
            closed += 1
    except socket.timeout:
        pass
    except OSError:
        closed += 1
print('early %s closed %d' % (early, closed))
PY
close($fh);
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf', "registry.http_max_connections = 1\n");
$node->reload;
ok(wait_listening($offset, $port, 2), 'with one connection per worker both listen again');
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'python3', $full, $port, worker_pids() ], '>', \$out, '2>', \$err);
	chomp $out;
	is($out, 'early True closed 1',
		'both workers full: a third connection is served at once, one idle connection closed for it');
}

# registry.http_port = 0: the workers stop serving, and the port refuses
$node->append_conf('postgresql.conf', "registry.http_port = 0\n");
$node->reload;
$refused = 0;
for (my $i = 0; $i < 100 && !$refused; $i++)
{
	$refused = listen_state($port) eq 'refused';
	select(undef, undef, undef, 0.1) unless $refused;
}
ok($refused, 'with registry.http_port = 0 the shared socket refuses connections');

done_testing();
