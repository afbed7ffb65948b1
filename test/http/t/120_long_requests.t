# A cheap request does not wait behind long ones: while more long
# compatibility checks run than there are HTTP workers, a GET by id is
# answered before any of them (long_requests.py; the pool workers run the
# checks, src/http/http_pool.c).
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
# a pool worker started with the cluster may still wait for its role
my $pool = 0;
for (1 .. 120)
{
	$pool = sql(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http pool'}) // 0;
	last if $pool eq $WANT;
	sleep 0.25;
}
check "the $WANT pool workers run (registry.http_pool_workers)", $WANT ne '' && $WANT > 0 && $pool eq $WANT,
  "$pool running";
# two long checks per HTTP worker: every worker has one on a connection
helper 'long_requests.py', 'python3', "$dir/long_requests.py", $URL, "$RUN-long", 2 * $WORKERS, $DB;

done_testing();
