# What takes raw sockets (raw_http.py, one test per line it prints):
# framing that could smuggle a request, body limits and pending body
# memory, slow senders against registry.http_request_timeout,
# registrations waiting on a row lock (registry.http_lock_wait), HEAD.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use Time::HiRes qw(sleep);

my $raw_py = "$FindBin::Bin/../raw_http.py";

# raw(NAME, CHECK, ARGS...): run one raw_http.py check; its output
sub raw
{
	my ($name, @args) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	return helper("raw_http.py $name", 'python3', $raw_py, $HTTP_HOST, $HTTP_PORT, @args);
}

##############################################################################
# Framing that could smuggle a request (raw sockets: curl cannot send it)
##############################################################################
note('framing');
my $BEFORE = snapshot();
raw framing => 'framing', "$RUN-fr";
same_rows 'refused framing registered nothing', $BEFORE, snapshot();

##############################################################################
# Body limits: refused on Content-Length before the body; pending memory
##############################################################################
note('body limits');
raw bodies => 'bodies', sql(q{SELECT setting FROM pg_settings WHERE name = 'registry.http_max_body_size'}) // '';
# registry.http_max_body_memory = 100kB holds one pending 60 kB body per
# worker; the others are refused with 503 before their bodies are read
alter_system('registry.http_max_body_memory', '100kB');
reload_wait();
raw pending => 'pending', 60000, sql('SHOW registry.http_workers') // 2;
alter_system('registry.http_max_body_memory', undef);
reload_wait();

##############################################################################
# Slow senders: registry.http_request_timeout bounds the head and body
##############################################################################
note('request timeout');
alter_system('registry.http_request_timeout', '2s');
reload_wait();
raw slow => 'slow', 2;
alter_system('registry.http_request_timeout', undef);
reload_wait();

##############################################################################
# Lock waits: registrations wait for a row lock, reads go on
##############################################################################
note('lock waits');

# hold_lock(SUBJECT, SECONDS): a SQL session holds the subject's row lock
# (what a registration takes first) for SECONDS, in the background; its
# pid, and whether the lock was seen held
sub hold_lock
{
	my ($subject, $secs) = @_;
	my $pid = helper_start("$TMP/lock.out", qw(psql -XAtq -v ON_ERROR_STOP=1 -d), $DB, '-c',
		"BEGIN; SELECT subject FROM registry.subjects WHERE context = '.' AND subject = '$subject' FOR UPDATE; "
		  . "SELECT pg_sleep($secs); COMMIT");
	for (1 .. 40)
	{
		my $n = sql(qq{SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%FOR UPDATE; SELECT pg_sleep($secs)%'}) // '';
		return ($pid, 1) if $n eq '1';
		sleep 0.1;
	}
	return ($pid, 0);
}

# the "result STATUS SECONDS ERROR_CODE" lines of raw_http.py locks, as lists
sub results { return map { [ (split ' ')[ 1 .. 3 ] ] } grep { /^result / } split /\n/, $_[0] }

my $SLK = "$RUN-lock";
req POST => "/subjects/$SLK/versions", sbody(avro('L'));
expect 'setup: a subject for the lock test', 200, sub { $_->{version} == 1 };
my ($lockpid, $held) = hold_lock($SLK, 6);
check 'the SQL session holds the subject\'s row lock', 0, 'not seen in pg_stat_activity' unless $held;
my $out = raw locks => 'locks', $SLK, 6, 6, 'f';
waitpid $lockpid, 0;
my @r = results($out);
my $n200 = grep { $_->[0] == 200 && $_->[1] >= 3 } @r;
check 'the 6 waiting registrations succeed once the lock is released (after >= 3 s): '
  . join(' ', map { "$_->[0]/$_->[1]s" } @r),
  $n200 == 6, join(' ', map { "@$_" } @r);
req GET => "/subjects/$SLK/versions";
expect 'the subject has all 7 versions', 200, sub { jeq($_, '[1,2,3,4,5,6,7]') };
# a short registry.http_lock_wait: the waiting registrations give up with 50002
alter_system('registry.http_lock_wait', '1s');
reload_wait();
($lockpid, $held) = hold_lock($SLK, 4);
check 'the SQL session holds the subject\'s row lock again', 0, 'not seen in pg_stat_activity' unless $held;
$out = raw 'locks (1 s)' => 'locks', $SLK, 3, 4, 'g';
waitpid $lockpid, 0;
@r = results($out);
my $n50002 = grep { $_->[0] == 500 && $_->[2] eq '50002' && $_->[1] >= 0.9 && $_->[1] < 3 } @r;
check 'with registry.http_lock_wait = 1s the 3 waiting registrations get 500/50002 after ~1 s: '
  . join(' ', map { "$_->[0]/$_->[2]/$_->[1]s" } @r),
  $n50002 == 3, join(' ', map { "@$_" } @r);
alter_system('registry.http_lock_wait', undef);
reload_wait();
req GET => "/subjects/$SLK/versions";
expect 'nothing was registered by the timed-out requests', 200, sub { jeq($_, '[1,2,3,4,5,6,7]') };

##############################################################################
# HEAD answers like GET without a body
##############################################################################
note('HEAD');
raw head => 'head';
req HEAD => '/subjects';
check 'HEAD /subjects: 200 with the Content-Type',
  $STATUS eq '200' && ($HDRS->{'content-type'} // '') =~ /^\Q$CT\E/i, "HTTP $STATUS: " . short($BODY);

done_testing();
