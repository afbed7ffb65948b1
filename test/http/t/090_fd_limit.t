# Thousands of idle connections against a worker with few descriptors.
#
# One worker gets a low open file limit (soft = hard = 256, set with
# prlimit as the cluster's user, since lowering a hard limit needs no
# privilege); a reload makes it size its connection limit anew (~160),
# and registry.http_max_connections = 3000 leaves the other worker room.
# 2500 idle sockets are held for 8 s.  The limited worker must stop
# accepting (LOG once), not run out of descriptors, and keep its pid;
# fresh requests are answered meanwhile (those that land on the other
# worker) and all of them once the sockets are closed.  The limited worker
# is SIGKILLed at the end: the crash restart gives every worker the
# postmaster's limits again (a lowered hard limit cannot be raised back).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use HTTP::Tiny;
use Time::HiRes qw(sleep);

my $SRVLOG = server_log();
my $LOGPOS = server_log_size();
my $PIDS0 = worker_pids();
my ($W1) = split ' ', $PIDS0;
my $W1s = $W1 // '';
my $uid = $W1 ? (stat "/proc/$W1")[4] : undef;
my $OWNER = defined $uid ? getpwuid($uid) : undef;
my @as_owner = ($> == 0 && defined $OWNER && $OWNER ne 'root') ? ('runuser', '-u', $OWNER, '--') : ();
my $have_prlimit = system('sh -c "command -v prlimit" >/dev/null 2>&1') == 0;

# answered(COUNT, TIMEOUT): how many of COUNT fresh GET /subjects answer 200
sub answered
{
	my ($count, $timeout) = @_;
	my $t = HTTP::Tiny->new(keep_alive => 0, timeout => $timeout);
	return scalar grep { $t->get("$URL/subjects")->{status} == 200 } 1 .. $count;
}

if (!$W1 || !$have_prlimit || system(@as_owner, 'prlimit', '--pid', $W1, '--nofile=256:256') != 0)
{
	check "lower the open file limit of worker $W1s with prlimit", 0, 'prlimit failed or is missing';
}
else
{
	check "worker $W1 now has an open file limit of 256", 1;
	alter_system('registry.http_max_connections', 3000);
	reload_wait();
	my $idle_out = "$TMP/idle.out";
	my $idle = helper_start($idle_out, 'python3', "$FindBin::Bin/../raw_http.py", $HTTP_HOST, $HTTP_PORT, 'idle', 2500, 8);
	for (1 .. 40)
	{
		last if slurp($idle_out) =~ /^connected/m;
		sleep 0.25;
	}
	sleep 1;
	my ($held) = slurp($idle_out) =~ /^connected (\d+)/m;
	$held //= 0;
	my $answered = answered(20, 1);
	check "while $held idle connections are held, fresh requests are answered ($answered of 20, by a worker with room)",
	  $held >= 1500 && $answered >= 1, "held $held, answered $answered";
	waitpid $idle, 0;
	note($_) for grep { /^#/ } split /\n/, slurp($idle_out);
	$answered = answered(20, 5);
	check "once they are closed, every fresh request is answered ($answered of 20)", $answered == 20, "$answered of 20";
	my $PIDS1 = worker_pids();
	check "the workers kept their pids ($PIDS0)", $PIDS0 eq $PIDS1, "now $PIDS1";
	if ($SRVLOG)
	{
		my @log = split /\n/, substr(slurp($SRVLOG), $LOGPOS);
		my @tmof = grep { /too many open files/i } @log;
		check q{no 'Too many open files' in the server log}, !@tmof, join(' ', @tmof[ 0 .. ($#tmof < 1 ? $#tmof : 1) ]);
		my $nlim = grep { /\[$W1\] LOG:  registry REST API worker reached its limit/ } @log;
		my @lim = grep { /reached its limit|connections in this worker/ } @log;
		check "the limited worker LOGged reaching its connection limit once ($nlim)", $nlim == 1,
		  join(' ', @lim[ 0 .. ($#lim < 3 ? $#lim : 3) ]);
	}
	alter_system('registry.http_max_connections', undef);
	reload_wait();
	kill 'KILL', $W1;
	for (1 .. 60)
	{
		last unless kill 0, $W1;
		sleep 0.25;
	}
	check 'the workers are back after resetting the limited one', wait_http($URL, 30) && wait_sql(30), 'not within 30 s';
}

done_testing();
