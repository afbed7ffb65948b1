# A standby forwards writes to the primary without waiting for it: the
# request is suspended while its libpq connection is in the worker's wait
# set, so a silent primary holds only the writes sent to it, never the
# worker.  With two writes in flight to a primary that accepts connections
# but never answers, or whose backends and postmaster are stopped, a GET
# is answered at once (both workers were frozen for registry.forward_timeout
# before); several writes are forwarded at once, each on its own
# connection; and a write waiting for this standby's replay holds only
# itself.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use IO::Socket::INET;
use IPC::Run;
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
	conf => "registry.forward_timeout = 4000\nregistry.forward_replay_wait = 3000\n");
$standby->start;
ok(wait_for_rest($standby), 'the standby serves');

# start a request in the background; finish() gives (status, body, seconds)
sub start_rest
{
	my ($node, $method, $path, $body) = @_;
	my $req = { out => '', t0 => time };
	my @args = ('curl', '-sS', '--max-time', '30', '-w', '\n%{http_code}', '-X', $method);
	push @args, '-H', 'Content-Type: application/vnd.schemaregistry.v1+json',
	  '--data-binary', $body
	  if defined $body;
	push @args, 'http://127.0.0.1:' . http_port($node) . $path;
	$req->{h} = IPC::Run::start(\@args, '>', \$req->{out}, '2>', \my $err);
	return $req;
}

sub finish
{
	my ($req) = @_;
	$req->{h}->finish;
	my $out = $req->{out};
	my $status = ($out =~ s/\n?(\d{3})\z//) ? $1 + 0 : 0;
	return ($status, $out, time - $req->{t0});
}

# a GET timed while writes are in flight
sub timed_get
{
	my $t0 = time;
	my ($status, $body) = rest($standby, 'GET', '/subjects/a-value/versions');
	return ("$status $body", time - $t0);
}

my $forward_error =
  '500 {"error_code":50003,"message":"Error while forwarding register schema request to the leader"}';

# several writes forwarded at once, each answered by the primary
my @reqs = map { start_rest($standby, 'POST', "/subjects/many-$_/versions", record_body("M$_", 'x')) } 1 .. 6;
my @answers = map { my ($s, $b) = finish($_); "$s" . ($b =~ /^\{"id":\d+/ ? ' id' : " $b") } @reqs;
is("@answers", join(' ', ('200 id') x 6), 'six writes through the standby at once: all answered by the primary');
is($primary->safe_psql('postgres',
		"SELECT count(*) FROM registry.subject_versions WHERE subject LIKE 'many-%'"),
	'6', 'and stored there');
($status, $body) = rest($standby, 'GET', '/subjects/many-3/versions');
is("$status $body", '200 [1]', 'readable on the standby at once');

# replay paused: a write waits for it, a read does not
$standby->safe_psql('postgres', 'SELECT pg_wal_replay_pause()');
my $paused = start_rest($standby, 'POST', '/subjects/p-value/versions', record_body('P', 'q'));
select(undef, undef, undef, 0.5);
my ($get, $elapsed) = timed_get();
is($get, '200 [1]', 'a read while a forwarded write waits for replay');
ok($elapsed < 0.5, "  ... answered at once ($elapsed s)");
my ($pstatus, $pbody, $ptime) = finish($paused);
is($pstatus, 200, 'the write is answered after registry.forward_replay_wait');
ok($ptime >= 2.5, "  ... ($ptime s)");
$standby->safe_psql('postgres', 'SELECT pg_wal_replay_resume()');
$primary->wait_for_catchup($standby);

# a primary that accepts connections but never answers: two writes in
# flight (one per worker, or both on one), a read answered at once
my $silent = IO::Socket::INET->new(Listen => 5, LocalAddr => '127.0.0.1', LocalPort => 0,
	Proto => 'tcp', ReuseAddr => 1) or die "no listening socket: $!";
my $silent_port = $silent->sockport;
$standby->append_conf('postgresql.conf',
	"registry.primary_conninfo = 'host=127.0.0.1 port=$silent_port dbname=postgres'\n");
$standby->reload;
sleep 1;
my @writes = map { start_rest($standby, 'POST', "/subjects/s$_-value/versions", record_body("S$_", 'q')) } 1 .. 2;
select(undef, undef, undef, 0.5);
($get, $elapsed) = timed_get();
is($get, '200 [1]', 'a silent primary and two writes in flight: a read is answered');
ok($elapsed < 0.5, "  ... at once ($elapsed s)");
for my $w (@writes)
{
	my ($s, $b, $t) = finish($w);
	is("$s $b", $forward_error, 'the write gets the forwarding error');
	ok($t >= 3.5 && $t < 8, "  ... after registry.forward_timeout ($t s)");
}
close($silent);

# back to the primary; then its postmaster and the backends the standby's
# forwards use are stopped (SIGSTOP): two writes in flight on kept or new
# connections, a read answered at once, the writes failing in time
$standby->append_conf('postgresql.conf', "registry.primary_conninfo = ''\n");
$standby->reload;
sleep 1;
($status, $body) = rest($standby, 'POST', '/subjects/k-value/versions', record_body('K', 'q'));
is($status, 200, 'forwarding works again after the reload');
my $backends = $primary->safe_psql('postgres',
	"SELECT string_agg(pid::text, ' ') FROM pg_stat_activity WHERE application_name = 'registry forward'");
my @stopped = ($primary->{_pid}, split(/ /, $backends));
ok(@stopped >= 2, 'the primary keeps connections from the standby (' . (@stopped - 1) . ')');
kill 'STOP', @stopped;
@writes = map { start_rest($standby, 'POST', "/subjects/t$_-value/versions", record_body("T$_", 'q')) } 1 .. 2;
select(undef, undef, undef, 0.5);
($get, $elapsed) = timed_get();
is($get, '200 [1]', 'primary stopped, two writes in flight: a read is answered');
ok($elapsed < 0.5, "  ... at once ($elapsed s)");
for my $w (@writes)
{
	my ($s, $b, $t) = finish($w);
	is("$s $b", $forward_error, 'the write gets the forwarding error');
	ok($t < 8, "  ... within registry.forward_timeout ($t s)");
}
kill 'CONT', @stopped;
my $ok = 0;
for (my $i = 0; $i < 50 && !$ok; $i++)
{
	($status) = rest($standby, 'POST', '/subjects/k2-value/versions', record_body('K2', 'q'));
	$ok = $status == 200;
	select(undef, undef, undef, 0.2) unless $ok;
}
ok($ok, 'the primary going on, writes are forwarded again');
is($primary->safe_psql('postgres',
		"SELECT count(*) FROM registry.subject_versions WHERE subject IN ('t1-value', 't2-value', 's1-value', 's2-value')"),
	'0', 'none of the failed writes was stored');

$standby->stop;
$primary->stop;
done_testing();
