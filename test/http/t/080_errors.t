# A failure outside the route (here at commit) answers 500 without its
# text; registry.http_statement_timeout cancels an attempt that runs too
# long (50002) and the workers go on; pg_cancel_backend() on idle workers.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use Time::HiRes qw(time sleep);

my $A1 = avro("R_$RUN");
my $SCF = "$RUN-commitfail";
sql(q{CREATE FUNCTION registry.test_commit_fail() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN RAISE EXCEPTION 'internal detail at commit %', 'do-not-leak'; END $$});
sql(qq{CREATE CONSTRAINT TRIGGER test_commit_fail AFTER INSERT ON registry.subjects
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.subject = '$SCF')
	EXECUTE FUNCTION registry.test_commit_fail()});
req POST => "/subjects/$SCF/versions", sbody($A1);
expect 'an error at commit -> 500 {"error_code":50001,"message":"Error in the backend data store"}', 500,
  sub { jeq($_, '{"error_code":50001,"message":"Error in the backend data store"}') };
sql('DROP TRIGGER test_commit_fail ON registry.subjects');
sql('DROP FUNCTION registry.test_commit_fail()');
req GET => "/subjects/$SCF/versions";
expect_error 'the failed registration was rolled back -> 40401', 404, 40401;

# registry.http_statement_timeout: an attempt that runs too long (here a
# trigger sleeping 5 s) is cancelled and answered 50002; the worker goes on
my $SST = "$RUN-slowstmt";
sql(q{CREATE FUNCTION registry.test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN PERFORM pg_sleep(5); RETURN NEW; END $$});
sql(qq{CREATE TRIGGER test_slow_insert BEFORE INSERT ON registry.subjects
	FOR EACH ROW WHEN (NEW.subject = '$SST') EXECUTE FUNCTION registry.test_slow_insert()});
alter_system('registry.http_statement_timeout', '500ms');
reload_wait();
my $t0 = time();
req POST => "/subjects/$SST/versions", sbody($A1);
my $el = ms_since($t0);
expect "an attempt over registry.http_statement_timeout (500ms) -> 500/50002 (in $el ms)", 500,
  sub { jeq($_, '{"error_code":50002,"message":"Operation timed out"}') };
check "the cancelled attempt was answered within 3 s ($el ms)", $el < 3000, "$el ms";
alter_system('registry.http_statement_timeout', undef);
reload_wait();
sql('DROP TRIGGER test_slow_insert ON registry.subjects');
sql('DROP FUNCTION registry.test_slow_insert()');
for my $i (1 .. 4)
{
	req GET => '/subjects';
	expect "after the cancel the workers answer ($i)", 200, sub { ref $_ eq 'ARRAY' };
}
req GET => "/subjects/$SST/versions";
expect_error 'the cancelled registration was rolled back -> 40401', 404, 40401;
# pg_cancel_backend() on idle workers has nothing to cancel: they stay up
my $PIDS0 = worker_pids();
sql(q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE backend_type = 'registry http'});
sleep 0.5;
my $PIDS1 = worker_pids();
check "pg_cancel_backend() on the idle workers leaves them running ($PIDS0)", $PIDS0 ne '' && $PIDS0 eq $PIDS1,
  "now $PIDS1";

done_testing();
