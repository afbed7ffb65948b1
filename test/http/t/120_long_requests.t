# A cheap request does not wait behind long ones: while more long
# compatibility checks run than there are HTTP workers, a GET by id is
# answered before any of them (long_requests.py; the pool workers run the
# checks, src/http/http_pool.c).  A long request whose client leaves, or
# whose pool worker is terminated, leaves nothing behind: the client of the
# terminated one gets 50001, the pool serves on, and no worker keeps a
# dynamic shared memory segment mapped.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use Time::HiRes qw(sleep);

my $dir = "$FindBin::Bin/..";
my $WANT = sql('SHOW registry.http_pool_workers') // '';
my $WORKERS = sql('SHOW registry.http_workers') // 2;
my $POOL_Q = q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http pool'};

# until the pool has its workers (one started with the cluster may still
# wait for its role, one terminated is started again after 5 s)
sub pool_ready
{
	my $n = 0;
	for (1 .. 160)
	{
		$n = sql($POOL_Q) // 0;
		return $n if $n eq $WANT;
		sleep 0.25;
	}
	return $n;
}

# the dynamic shared memory segments the registry's workers have mapped
# (/proc/PID/maps; undef when it cannot be read)
sub mapped_segments
{
	my $pids = sql(q{SELECT string_agg(pid::text, ' ') FROM pg_stat_activity
		WHERE backend_type IN ('registry http', 'registry http pool')}) // '';
	my $n = 0;
	for my $pid (split ' ', $pids)
	{
		open my $fh, '<', "/proc/$pid/maps" or return undef;
		$n += grep { m{/dev/shm/PostgreSQL\.} } <$fh>;
		close $fh;
	}
	return $n;
}

# until the workers map no more segments than at the start
sub segments_back_to
{
	my ($base) = @_;
	my $n;
	for (1 .. 40)
	{
		$n = mapped_segments();
		return $n if !defined $n || $n <= $base;
		sleep 0.25;
	}
	return $n;
}

my $pool = pool_ready();
check "the $WANT pool workers run (registry.http_pool_workers)", $WANT ne '' && $WANT > 0 && $pool eq $WANT,
  "$pool running";
my $base = mapped_segments();

# two long checks per HTTP worker: every worker has one on a connection
helper 'long_requests.py', 'python3', "$dir/long_requests.py", $URL, "$RUN-long", 2 * $WORKERS, $DB;

# the same long check, by curl in the background (status and body to a file)
my $chain = '[{"type":"record","name":"R0","fields":[{"name":"a","type":"long"}]}'
  . join('', map { sprintf(',{"type":"record","name":"R%d","fields":[{"name":"f","type":"R%d"}]}', $_, $_ - 1) } 1 .. 2999)
  . ']';
spit("$TMP/check.json", sbody($chain));
my $check_url = "$URL/compatibility/subjects/$RUN-long/versions/latest?verbose=true";
sub start_check
{
	my ($out, @opts) = @_;
	return helper_start($out, 'curl', '-s', '-o', "$out.body", '-w', '%{http_code}', @opts,
		'-X', 'POST', '-H', "Content-Type: $CT", '--data-binary', "\@$TMP/check.json", $check_url);
}

# a client that leaves while its check runs
my $gone = start_check("$TMP/gone", '--max-time', '0.2');
waitpid $gone, 0;
req GET => "/subjects/$RUN-long/versions";
expect 'after a client left in the middle of a long check, the pool answers the next long request', 200,
  sub { ref $_ eq 'ARRAY' && @$_ == 1 };

# a pool worker terminated in the middle of a check (held in it: a session
# holds the lock the check waits for, so the check cannot end first)
my $locker = helper_start("$TMP/locker", 'psql', '-XAtq', '-d', $DB, '-c',
	'LOCK TABLE registry.subject_versions IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60)');
my $locked = '';
for (1 .. 200)
{
	$locked = sql(q{SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE c.relname = 'subject_versions' AND l.mode = 'AccessExclusiveLock' AND l.granted}) // '';
	last if $locked eq '1';
	sleep 0.025;
}
check 'a session holds the versions locked', $locked eq '1', "$locked locks";
my $killed = start_check("$TMP/killed", '--max-time', '60');
my $pid = '';
for (1 .. 200)
{
	$pid = sql(q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http pool'
		AND state = 'active' AND query LIKE 'POST /compatibility/%' AND wait_event_type = 'Lock' LIMIT 1}) // '';
	last if $pid ne '';
	sleep 0.025;
}
check 'a pool worker runs the check', $pid ne '', 'none seen running it';
sql("SELECT pg_terminate_backend($pid)") if $pid ne '';
waitpid $killed, 0;
sql(q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity
	WHERE query LIKE '%SELECT pg_sleep(60)' AND pid <> pg_backend_pid()});
waitpid $locker, 0;
my $status = slurp("$TMP/killed");
my $body = slurp("$TMP/killed.body");
check 'the client of a terminated pool worker gets 500 with 50001',
  $status eq '500' && $body =~ /"error_code":50001/, "$status $body";
req GET => "/subjects/$RUN-long/versions";
expect 'the pool answers the next long request', 200, sub { ref $_ eq 'ARRAY' };
$pool = pool_ready();
check "the terminated pool worker is started again ($pool running)", $pool eq $WANT, "$pool running";

# a cancel (pg_cancel_backend) of an idle pool worker ends nothing: the
# same workers run on, and serve
my $POOL_PIDS = q{SELECT string_agg(pid::text, ' ' ORDER BY pid) FROM pg_stat_activity
	WHERE backend_type = 'registry http pool'};
my $pids = sql($POOL_PIDS) // '';
sql(q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE backend_type = 'registry http pool'});
sleep 1;
my $after = sql($POOL_PIDS) // '';
check 'a cancel of the idle pool workers ends none of them', $pids ne '' && $after eq $pids,
  "before: $pids, after: $after";
req GET => "/subjects/$RUN-long/versions";
expect 'the pool answers after the cancel', 200, sub { ref $_ eq 'ARRAY' };

SKIP:
{
	skip 'the workers\' /proc/PID/maps cannot be read', 1 unless defined $base;
	my $left = segments_back_to($base);
	check "no dynamic shared memory segment is left mapped ($left, $base at the start)",
	  defined $left && $left <= $base, defined $left ? "$left mapped, $base at the start" : 'unreadable';
}

done_testing();
