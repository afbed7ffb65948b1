# Failover under load: an id the old primary acknowledged is never given to
# another schema by the promoted standby.  Four clients register distinct
# schemas; the primary's WAL sender is stopped for a moment (the standby
# falls behind while the primary keeps acknowledging), then the primary and
# all its processes are killed and the standby promoted.  With asynchronous
# replication the registrations inside the lag are lost, and their ids must
# stay unused (registry.failover_id_gap); with synchronous replication
# nothing acknowledged is lost.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use IPC::Run;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $CLIENTS = 4;
my $PER_CLIENT = 4000;

# load(NODE, TAG): start the clients; each registers a schema of its own
# per statement and prints "name|id" for each one acknowledged
sub load
{
	my ($node, $tag) = @_;
	my @runs;
	for my $c (1 .. $CLIENTS)
	{
		my $sql = '';
		for my $i (1 .. $PER_CLIENT)
		{
			my $name = "${tag}_c${c}_$i";
			$sql .= "SELECT '$name|' || registry.register_schema('$name-value', "
			  . "'{\"type\":\"record\",\"name\":\"$name\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}');\n";
		}
		my $in = $node->basedir . "/load_${tag}_$c.sql";
		my $out = $node->basedir . "/load_${tag}_$c.out";
		PostgreSQL::Test::Utils::append_to_file($in, $sql);
		my $h = IPC::Run::start(
			[
				'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d',
				$node->connstr('postgres'), '-f', $in
			],
			'>', $out, '2>', '/dev/null');
		push @runs, { h => $h, out => $out };
	}
	return \@runs;
}

# acknowledged(RUNS): wait for the clients to end; name => id of every
# registration whose answer arrived
sub acknowledged
{
	my ($runs) = @_;
	my %ack;
	for my $r (@$runs)
	{
		eval { $r->{h}->finish; };
		for my $line (split /\n/, PostgreSQL::Test::Utils::slurp_file($r->{out}))
		{
			$ack{$1} = $2 if $line =~ /^(\w+)\|(\d+)$/;
		}
	}
	return \%ack;
}

# kill_all(NODE): SIGKILL the postmaster and every process it started, at once
sub kill_all
{
	my ($node) = @_;
	open(my $fh, '<', $node->data_dir . '/postmaster.pid') or die "no postmaster.pid: $!";
	my $pid = <$fh>;
	close $fh;
	chomp $pid;
	my @children = grep { /^\d+$/ } split /\s+/, `pgrep -P $pid`;
	kill 'KILL', @children;
	$node->kill9;
}

# setup(NAME, SYNC): a primary with the extension and a streaming standby,
# synchronous once the standby is there when SYNC
sub setup
{
	my ($name, $sync) = @_;
	my $primary = registry_node("${name}_primary", allows_streaming => 1);
	$primary->start;
	$primary->safe_psql('postgres', 'CREATE EXTENSION registry');
	my $standby = registry_standby($primary, "${name}_standby");
	$standby->start;
	$primary->wait_for_catchup($standby);
	if ($sync)
	{
		$primary->append_conf('postgresql.conf',
			"synchronous_standby_names = '*'\nsynchronous_commit = on\n");
		$primary->reload;
		$primary->poll_query_until('postgres',
			"SELECT sync_state = 'sync' FROM pg_stat_replication")
		  or die 'the standby did not become synchronous';
	}
	return ($primary, $standby);
}

# run_failover(PRIMARY, STANDBY, TAG): load, a stalled WAL sender, a
# killed primary, the standby promoted; returns what was acknowledged
sub run_failover
{
	my ($primary, $standby, $tag) = @_;
	my $walsender = $primary->safe_psql('postgres', 'SELECT pid FROM pg_stat_replication');
	my $runs = load($primary, $tag);
	select(undef, undef, undef, 1.0);
	kill 'STOP', $walsender;
	select(undef, undef, undef, 1.0);
	kill_all($primary);
	my $ack = acknowledged($runs);
	$standby->promote;
	$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
	  or die 'the standby was not promoted';
	return $ack;
}

# check(NODE, ACK): how many acknowledged names the node still has with
# their id, and how many ids now name another schema
sub check
{
	my ($node, $ack) = @_;
	return (0, 0) unless %$ack;
	my $values = join(',', map { "('$_', $ack->{$_})" } sort keys %$ack);
	my $res = $node->safe_psql('postgres', qq{
		SELECT count(*) FILTER (WHERE s.schema LIKE '%"name":"' || a.name || '"%'),
		       count(*) FILTER (WHERE s.id IS NOT NULL AND s.schema NOT LIKE '%"name":"' || a.name || '"%')
		FROM (VALUES $values) a(name, id)
		LEFT JOIN registry.schemas s ON s.context = '.' AND s.id = a.id});
	return split /\|/, $res;
}

# ---- asynchronous replication ------------------------------------------------

my ($primary, $standby) = setup('async', 0);
my $ack = run_failover($primary, $standby, 'a');
my $acked = scalar keys %$ack;
my ($kept, $reused) = check($standby, $ack);
my $lost = $acked - $kept;
note("async: $acked registrations acknowledged, $kept on the promoted node, $lost lost");
ok($acked > 100, "the old primary acknowledged registrations under load ($acked)");
ok($lost > 0, "the stalled WAL sender lost acknowledged registrations ($lost): what async replication may lose");

# the promoted node takes new registrations, in the default context and in
# a context it has never seen (the old primary may have made it in the lag)
my $new = '';
for my $i (1 .. 300)
{
	$new .= "SELECT registry.register_schema('new-$i', '{\"type\":\"record\",\"name\":\"New$i\",\"fields\":[{\"name\":\"b\",\"type\":\"long\"}]}');\n";
}
my $new_ids = $standby->safe_psql('postgres', $new);
my ($status, $body) = rest($standby, 'POST', '/subjects/rest-new-value/versions', record_body('RestNew', 'x'));
is($status, 200, 'the promoted node registers over REST');
($kept, $reused) = check($standby, $ack);
is($reused, 0, 'no id the old primary acknowledged names another schema after the promotion');
my ($max_ack) = sort { $b <=> $a } values %$ack;
my ($min_new) = sort { $a <=> $b } split /\n/, $new_ids;
ok($min_new > $max_ack, "new ids ($min_new and up) are above every acknowledged id ($max_ack)");
is($standby->safe_psql('postgres', 'SELECT last_value || \'|\' || is_called FROM registry.id_fence'),
	$standby->safe_psql('postgres', 'SELECT registry.wal_timeline()') . '|true',
	'the new timeline is recorded as fenced');
my $ctx_id = $standby->safe_psql('postgres', q{SELECT registry.register_schema(':.late:x', '"string"')});
cmp_ok($ctx_id, '>', 10000000, 'a context made after the promotion starts above the gap');
ok($standby->log_contains('the id sequences of \d+ contexts moved up by 10000000'),
	'the fence is logged');

# a second failover: a standby of the promoted node misses a context made
# after the first fence (and the ids it gave); promoted in turn, it must
# not give those ids again when the context is made anew
my $third = registry_standby($standby, 'async_third');
$third->start;
$standby->wait_for_catchup($third);
$third->stop;
my $lost_ids = $standby->safe_psql('postgres', q{
	SELECT string_agg(registry.register_schema(':.second:s' || i, format('{"type":"fixed","name":"F%s","size":1}', i))::text, ',')
	FROM generate_series(1, 20) i});
kill_all($standby);
$third->start;
$third->promote;
$third->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die 'the third node was not promoted';
my ($lost_max) = sort { $b <=> $a } split /,/, $lost_ids;
my $again = $third->safe_psql('postgres',
	q{SELECT registry.register_schema(':.second:other', '"bytes"')});
cmp_ok($again, '>', $lost_max,
	"a context the second promoted node never saw starts above the ids the first gave in it ($lost_max)");
$third->stop;

# ---- synchronous replication ---------------------------------------------------

($primary, $standby) = setup('sync', 1);
$ack = run_failover($primary, $standby, 's');
$acked = scalar keys %$ack;
($kept, $reused) = check($standby, $ack);
note("sync: $acked registrations acknowledged, $kept on the promoted node");
ok($acked > 100, "the old primary acknowledged registrations under load ($acked)");
is($kept, $acked, 'with synchronous replication every acknowledged registration survives the failover');
is($reused, 0, 'and no id names another schema');
$standby->stop;

done_testing();
