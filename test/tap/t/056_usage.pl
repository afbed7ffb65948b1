# Who still reads a schema (registry.schema_usage, registry.subject_usage):
# the reads the REST API answers are counted per schema id (in its
# context) and per subject, with the last read and the roles that read,
# from the cache as well as from the route; the counts are pending in
# shared memory until a flush (the first worker's, or
# registry.flush_usage()) adds them to registry.schema_reads and
# subject_reads; readers see counts, only admins the names;
# registry.unread_schemas() and unread_subjects() list what nobody read
# since a time; registry.usage_tracking = off stops the counting; a
# standby counts its own reads in its shared memory; registry.encode and
# registry.decode count too.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use JSON::PP;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('usage', allows_streaming => 1, conf => <<CONF);
registry.http_auth = basic
registry.usage_flush_interval = 3600
CONF
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION registry;
	CREATE ROLE alice LOGIN PASSWORD 'alice-pw' IN ROLE registry_reader;
	CREATE ROLE bob LOGIN PASSWORD 'bob-pw' IN ROLE registry_reader;
	CREATE ROLE writer LOGIN PASSWORD 'writer-pw' IN ROLE registry_writer;
	CREATE ROLE admin LOGIN PASSWORD 'admin-pw' IN ROLE registry_admin;
});

my @alice = ('-u', 'alice:alice-pw');
my @bob = ('-u', 'bob:bob-pw');
my @writer = ('-u', 'writer:writer-pw');

my $up = 0;
for (my $i = 0; $i < 300 && !$up; $i++)
{
	my ($status) = rest($node, 'GET', '/subjects', undef, @alice);
	$up = $status == 200;
	select(undef, undef, undef, 0.1) unless $up;
}
ok($up, 'the REST API answers with Basic auth');

my ($status, $body) = rest($node, 'POST', '/subjects/used-value/versions', record_body('Used', 'a'),
	@writer);
like("$status $body", qr/^200 \{"id":1,/, 'used-value registered: id 1');
($status, $body) = rest($node, 'POST', '/subjects/idle-value/versions', record_body('Idle', 'a'),
	@writer);
like("$status $body", qr/^200 \{"id":2,/, 'idle-value registered: id 2');
($status, $body) = rest($node, 'POST', '/subjects/:.ctx:ctx-value/versions', record_body('Ctx', 'a'),
	@writer);
like("$status $body", qr/^200 \{"id":1,/, ':.ctx:ctx-value registered: id 1 of .ctx');

# as admin, "context|key|count|readers|read since $since" of registry.KIND_usage
sub usage_of
{
	my ($kind, $key, $since) = @_;
	return $node->safe_psql('postgres', qq{
		SET ROLE admin;
		SELECT string_agg(concat_ws('|', context, $key, read_count,
				array_to_string(readers, ','), last_read >= '$since'), ' ' ORDER BY context, $key)
		  FROM registry.${kind}_usage});
}

sub schema_usage { return usage_of('schema', 'schema_id', @_); }
sub subject_usage { return usage_of('subject', 'subject', @_); }

is(schema_usage('-infinity'), '', 'nothing read yet: registrations are no reads');

my $since = $node->safe_psql('postgres', 'SELECT now()');

# alice reads id 1 three times (cached after the first on each worker), bob
# its raw schema; alice a version, bob the latest's schema and a lookup;
# alice id 1 of .ctx through its subject
for (1 .. 3)
{
	($status) = rest($node, 'GET', '/schemas/ids/1', undef, @alice);
	is($status, 200, "alice reads GET /schemas/ids/1 ($_)");
}
($status) = rest($node, 'GET', '/schemas/ids/1/schema', undef, @bob);
is($status, 200, 'bob reads GET /schemas/ids/1/schema');
($status) = rest($node, 'GET', '/subjects/used-value/versions/1', undef, @alice);
is($status, 200, 'alice reads GET /subjects/used-value/versions/1');
($status) = rest($node, 'GET', '/subjects/used-value/versions/latest/schema', undef, @bob);
is($status, 200, 'bob reads GET /subjects/used-value/versions/latest/schema');
($status) = rest($node, 'POST', '/subjects/used-value', record_body('Used', 'a'), @bob);
is($status, 200, 'bob looks the schema up: POST /subjects/used-value');
($status) = rest($node, 'GET', '/schemas/ids/1?subject=:.ctx:ctx-value', undef, @alice);
is($status, 200, 'alice reads id 1 of .ctx: GET /schemas/ids/1?subject=:.ctx:ctx-value');
# what is no read of a schema: a 404, a list of subjects
($status) = rest($node, 'GET', '/schemas/ids/77', undef, @alice);
is($status, 404, 'GET /schemas/ids/77: 404');
($status) = rest($node, 'GET', '/subjects', undef, @alice);

is(schema_usage($since), '.|1|7|alice,bob|t .ctx|1|1|alice|t',
	'schema_usage: id 1 read 7 times by alice and bob (cached reads too), id 1 of .ctx once, id 2 never');
is(subject_usage($since), '.|used-value|3|alice,bob|t .ctx|ctx-value|1|alice|t',
	'subject_usage: used-value read 3 times (versions, their schema, a lookup), ctx-value once');
is($node->safe_psql('postgres', 'SELECT count(*) FROM registry.schema_reads'), '0',
	'  ... still pending in shared memory: the tables are empty');

# readers see counts, not names; the tables are admins'
is($node->safe_psql('postgres', q{
	SET ROLE alice;
	SELECT read_count || ' ' || (readers IS NULL) FROM registry.schema_usage
	 WHERE context = '.' AND schema_id = 1}),
	'7 true', 'a reader sees the count, not who read');
my ($rc, $out, $err) = $node->psql('postgres',
	'SET ROLE alice; SELECT * FROM registry.schema_reads');
like($err, qr/permission denied/, '  ... nor the tables');
($rc, $out, $err) = $node->psql('postgres', 'SET ROLE alice; SELECT registry.flush_usage()');
like($err, qr/permission denied/, '  ... nor may flush');

# the unread lists
is($node->safe_psql('postgres', qq{
	SET ROLE alice;
	SELECT string_agg(context || '|' || schema_id || '|' || array_to_string(subjects, ',')
		|| '|' || coalesce(last_read::text, 'never'), ' ')
	  FROM registry.unread_schemas('$since')}),
	'.|2|idle-value|never', 'unread_schemas: id 2 (idle-value), never read');
is($node->safe_psql('postgres', qq{
	SELECT string_agg(context || '|' || subject || '|' || live_versions, ' ')
	  FROM registry.unread_subjects('$since')}),
	'.|idle-value|1', 'unread_subjects: idle-value');
is($node->safe_psql('postgres', q{
	SELECT string_agg(context || '|' || schema_id, ' ') FROM registry.unread_schemas('infinity')}),
	'.|1 .|2 .ctx|1', '  ... and every schema since a time to come');

# the flush: registry.flush_usage() adds the pending reads to the tables
is($node->safe_psql('postgres', 'SET ROLE admin; SELECT registry.flush_usage()'), '4',
	'registry.flush_usage(): 2 schema ids and 2 subjects');
is($node->safe_psql('postgres', q{
	SELECT string_agg(concat_ws('|', context, schema_id, read_count, array_to_string(readers, ',')), ' '
		ORDER BY context, schema_id) FROM registry.schema_reads}),
	'.|1|7|alice,bob .ctx|1|1|alice', '  ... into registry.schema_reads');
is($node->safe_psql('postgres', q{
	SELECT string_agg(concat_ws('|', context, subject, read_count, array_to_string(readers, ',')), ' '
		ORDER BY context, subject) FROM registry.subject_reads}),
	'.|used-value|3|alice,bob .ctx|ctx-value|1|alice', '  ... and registry.subject_reads');
is($node->safe_psql('postgres', 'SELECT count(*) FROM registry.pending_usage()'), '0',
	'  ... nothing pending after it');
is(schema_usage($since), '.|1|7|alice,bob|t .ctx|1|1|alice|t', '  ... the view unchanged');

# the first worker flushes by itself (registry.usage_flush_interval),
# adding to the rows there
($status) = rest($node, 'GET', '/schemas/ids/2', undef, @bob);
is($status, 200, 'bob reads id 2');
($status) = rest($node, 'GET', '/schemas/ids/1', undef, @bob);
$node->safe_psql('postgres', 'ALTER SYSTEM SET registry.usage_flush_interval = 1');
$node->reload;
my $flushed = '';
for (my $i = 0; $i < 100; $i++)
{
	$flushed = $node->safe_psql('postgres', q{
		SELECT string_agg(concat_ws('|', context, schema_id, read_count, array_to_string(readers, ',')), ' '
			ORDER BY context, schema_id) FROM registry.schema_reads});
	last if $flushed eq '.|1|8|alice,bob .|2|1|bob .ctx|1|1|alice';
	select(undef, undef, undef, 0.1);
}
is($flushed, '.|1|8|alice,bob .|2|1|bob .ctx|1|1|alice',
	'the first worker flushes every registry.usage_flush_interval, adding to the counts flushed before');
is($node->safe_psql('postgres', qq{SELECT count(*) FROM registry.unread_schemas('$since')}), '0',
	'  ... id 2 is no longer unread');

# the off switch
$node->safe_psql('postgres', 'ALTER SYSTEM SET registry.usage_tracking = off');
$node->reload;
sleep 1;
rest($node, 'GET', '/schemas/ids/1', undef, @alice) for 1 .. 3;
rest($node, 'GET', '/subjects/used-value/versions/1', undef, @alice);
is(schema_usage($since), '.|1|8|alice,bob|t .|2|1|bob|t .ctx|1|1|alice|t',
	'registry.usage_tracking = off: reads are not counted');
is($node->safe_psql('postgres', 'SELECT tracking FROM registry.usage_stats()'), 'f',
	'  ... usage_stats() says so');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET registry.usage_tracking');
$node->reload;
sleep 1;
rest($node, 'GET', '/schemas/ids/1', undef, @alice);
is(schema_usage($since), '.|1|9|alice,bob|t .|2|1|bob|t .ctx|1|1|alice|t',
	'  ... and on again: counted');
is($node->safe_psql('postgres', q{
	SELECT concat_ws('|', tracking, max_entries, untracked_reads, evicted_entries,
		incomplete_before IS NULL) FROM registry.usage_stats()}),
	't|16384|0|0|t', 'usage_stats(): on, 16384 slots, nothing lost');

# a standby counts its own reads in its shared memory and cannot flush
my $standby = registry_standby($node, 'usage_standby');
$standby->start;
$node->wait_for_catchup($standby);
$up = 0;
for (my $i = 0; $i < 300 && !$up; $i++)
{
	my ($s) = rest($standby, 'GET', '/subjects', undef, @alice);
	$up = $s == 200;
	select(undef, undef, undef, 0.1) unless $up;
}
ok($up, 'the standby serves');
($status) = rest($standby, 'GET', '/schemas/ids/2', undef, @alice);
is($status, 200, 'alice reads id 2 on the standby');
($status) = rest($standby, 'GET', '/subjects/idle-value/versions/latest', undef, @alice);
is($status, 200, 'alice reads idle-value on the standby');
my $standby_rows = '';
for (my $i = 0; $i < 50; $i++)
{
	$standby_rows = $standby->safe_psql('postgres', q{
		SET ROLE admin;
		SELECT concat_ws('|', read_count, array_to_string(readers, ','))
		  FROM registry.schema_usage WHERE context = '.' AND schema_id = 2});
	last if $standby_rows eq '3|alice,bob';
	select(undef, undef, undef, 0.1);
}
is($standby_rows, '3|alice,bob',
	'the standby\'s view adds its own reads of id 2 (2, alice) to the primary\'s flushed ones (1, bob)');
is($standby->safe_psql('postgres', q{
	SELECT concat_ws('|', subject, read_count) FROM registry.pending_usage() WHERE kind = 'subject'}),
	'idle-value|1', '  ... pending_usage() on the standby: its own reads');
($rc, $out, $err) = $standby->psql('postgres', 'SELECT registry.flush_usage()');
like($err, qr/cannot flush the read counts during recovery/, '  ... which it cannot flush');
sleep 1;
is($node->safe_psql('postgres', q{
	SELECT read_count FROM registry.schema_usage WHERE context = '.' AND schema_id = 2}), '1',
	'the primary does not see the standby\'s reads');

$standby->stop;

# SQL reads: registry.encode and registry.decode count once per statement
# and call site (as a client's schema cache would fetch once), as the
# session's role
is($node->safe_psql('postgres', q{
	SET ROLE bob;
	SELECT count(registry.decode(m))
	  FROM (SELECT registry.encode('idle-value', '{"a": 1}') AS m FROM generate_series(1, 3)) s}),
	'3', 'bob encodes three values of idle-value and decodes them in SQL');
is(schema_usage($since), '.|1|9|alice,bob|t .|2|3|bob|t .ctx|1|1|alice|t',
	'  ... two reads of id 2: one by encode, one by decode');
is(subject_usage($since), '.|idle-value|1|bob|t .|used-value|3|alice,bob|t .ctx|ctx-value|1|alice|t',
	'  ... one of idle-value, by encode');
$node->stop;

# a full table: 600 keys read once each into 256 slots; each key that finds
# no free slot takes the one read least recently, and what is lost is counted
my $small = registry_node('usage_small',
	conf => "registry.usage_max_entries = 256\nregistry.usage_flush_interval = 3600\n");
$small->start;
$small->safe_psql('postgres', q{
	CREATE EXTENSION registry;
	DO $$ BEGIN
		FOR k IN 1 .. 300 LOOP
			PERFORM registry.register_schema('e' || k,
				'{"type":"enum","name":"E' || k || '","symbols":["A"]}');
		END LOOP;
	END $$;
});
is($small->safe_psql('postgres', q{
	SELECT count(registry.encode('e' || k, '"A"')) FROM generate_series(1, 300) k}),
	'300', '300 subjects encoded, in one statement: 600 keys (each subject and its id)');
is($small->safe_psql('postgres', q{
	SELECT concat_ws('|', max_entries, entries_used + evicted_entries, evicted_entries > 0,
		evicted_reads = evicted_entries, incomplete_before IS NOT NULL) FROM registry.usage_stats()}),
	'256|600|t|t|t',
	'usage_stats(): 256 slots; the keys kept and the ones evicted make 600, the reads lost counted, a horizon');
is($small->safe_psql('postgres', q{
	SELECT read_count FROM registry.subject_usage WHERE subject = 'e300'}),
	'1', '  ... the key read last is kept');
$small->stop;
done_testing();
