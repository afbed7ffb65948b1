# The worker processes: a worker killed with SIGKILL (crash recovery, the
# API comes back), a SIGHUP reload that moves registry.http_port and back,
# and two workers sharing the port.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use IO::Socket::IP;
use Time::HiRes qw(time sleep);

my $S1 = base_subject()->{subject};

##############################################################################
# A worker killed with SIGKILL: crash recovery, the API comes back
##############################################################################
note('SIGKILL of a worker');
my @OLDPIDS = split ' ', worker_pids();
my $WPID = $OLDPIDS[0];
if (!$WPID)
{
	check 'find a registry http worker in pg_stat_activity', 0, 'none';
}
else
{
	check "find a registry http worker in pg_stat_activity (pid $WPID of @OLDPIDS)", 1;
	my $t0 = time();
	kill 'KILL', $WPID;
	# the postmaster answers a SIGKILLed child with a crash restart: every
	# other worker is terminated too; wait for all the old pids to go
	my $alive = 1;
	for (1 .. 60)
	{
		$alive = grep { kill 0, $_ } @OLDPIDS;
		last unless $alive;
		sleep 0.25;
	}
	check "crash restart: every old worker (@OLDPIDS) is gone", !$alive, 'still alive after 15 s';
	if (wait_http($URL, 30))
	{
		my $el = int(time() - $t0);
		check "the REST API answers again ${el}s after SIGKILL (limit 15 s)", $el <= 15, "took ${el}s";
	}
	else
	{
		check 'the REST API answers again after SIGKILL', 0, 'no answer within 30 s';
	}
	check 'the cluster accepts SQL again after the crash restart', wait_sql(30), 'not within 30 s';
	req GET => "/subjects/$S1/versions";
	expect 'the data is intact after the crash restart', 200, sub { jeq($_, '[1,2]') };
	my $n = 0;
	for (1 .. 40)
	{
		$n = sql(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http'}) // 0;
		last if $n >= @OLDPIDS;
		sleep 0.25;
	}
	my @new = split ' ', worker_pids();
	my %old = map { ($_ => 1) } @OLDPIDS;
	my $common = grep { $old{$_} } @new;
	check "all workers are back with new pids (@new)", $n >= @OLDPIDS && $common == 0, "$n workers: @new";
}

##############################################################################
# SIGHUP: registry.http_port moves, and back
##############################################################################
note('SIGHUP reload of registry.http_port');
my $NEWPORT;
for my $p ($HTTP_PORT + 1000, $HTTP_PORT + 1001, $HTTP_PORT + 1002, $HTTP_PORT + 2000)
{
	my $s = IO::Socket::IP->new(PeerHost => '127.0.0.1', PeerPort => $p, Timeout => 2);
	if (!$s)
	{
		$NEWPORT = $p;
		last;
	}
	close $s;
}
if (!$NEWPORT)
{
	check 'find a free port for the reload test', 0, 'none';
}
else
{
	my $NEWURL = "http://$HTTP_HOST:$NEWPORT";
	alter_system('registry.http_port', $NEWPORT);
	check "after reload the new port $NEWPORT answers", wait_http($NEWURL, 15), 'no answer within 15 s';
	check "after reload the old port $HTTP_PORT refuses connections", wait_down($URL, 15), 'still accepting after 15 s';
	req GET => "$NEWURL/subjects/$S1/versions";
	expect 'the new port serves the API', 200, sub { jeq($_, '[1,2]') };
	alter_system('registry.http_port', undef);
	check 'after RESET and reload the original port answers', wait_http($URL, 15), 'no answer within 15 s';
	check "after RESET the port $NEWPORT is closed", wait_down($NEWURL, 15), 'still accepting after 15 s';
}

##############################################################################
# Two workers share the port
##############################################################################
note('two workers on one port');
my $WANT = sql('SHOW registry.http_workers') // '';
my $n = sql(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http'}) // 0;
check "$n processes with backend_type 'registry http' (registry.http_workers = $WANT)", $n eq $WANT && $n >= 2,
  "$n processes, want $WANT (>= 2)";
# Each request, on a new connection, has a unique path; the worker that
# served it reports "GET <path>" in pg_stat_activity.query (the last
# request line stays there while the worker is idle).  So after every
# request we ask which pid shows that exact line.  (A version read, not a
# listing: the pool workers run listings, http_pool.c.)
my @served;
for my $i (1 .. 40)
{
	my $path = "/subjects/$RUN-probe-$i/versions/1";
	req GET => $path;
	my $pid = sql(qq{SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' AND query = 'GET $path'});
	push @served, split /\n/, $pid if defined $pid && $pid ne '';
}
my %by;
$by{$_}++ for @served;
my $dist = join '', map { "pid $_: $by{$_} requests; " } sort keys %by;
check 'each of 40 requests was found in one worker\'s pg_stat_activity.query', @served == 40, scalar(@served) . ' found';
check "both workers served some of the 40 connections ($dist)", keys(%by) >= 2, $dist;

done_testing();
