# Logical replication of the registry into another cluster: the documented
# publication carries every table (initial copy and changes), the
# subscriber serves what it received over REST, its caches hear of the hard
# deletes it applies, it refuses writes, and once it stops subscribing it
# can take writes with ids above every id it holds.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $pub = registry_node('pub', conf => <<CONF);
wal_level = logical
max_wal_senders = 10
max_replication_slots = 10
CONF
$pub->start;
$pub->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($pub), 'the publisher serves REST');

# Every table of the registry has a primary key (the replica identity of
# logical replication's UPDATE and DELETE).
is($pub->safe_psql('postgres', q{
SELECT string_agg(c.relname, ',' ORDER BY c.relname) FROM pg_class c
 WHERE c.relnamespace = 'registry'::regnamespace AND c.relkind = 'r'
   AND NOT (c.relreplident = 'd' AND EXISTS (SELECT 1 FROM pg_constraint k
                                             WHERE k.conrelid = c.oid AND k.contype = 'p'))}),
	'', 'every registry table has a primary key as its replica identity');

# A populated primary before the subscription (the initial copy): two
# versions, a reference, another context, config, mode, a soft delete.
my $rec_a1 = '{"type":"record","name":"A","fields":[{"name":"x","type":"int"}]}';
my $rec_a2 = '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0}]}';
$pub->safe_psql('postgres', qq{
SELECT registry.register_schema('a-value', '$rec_a1');
SELECT registry.register_schema('a-value', '$rec_a2');
SELECT registry.register_schema('ref-value', '{"type":"record","name":"R","fields":[{"name":"a","type":"A"}]}',
	refs => '[{"name":"A","subject":"a-value","version":1}]');
SELECT registry.register_schema('b-value', 'syntax = "proto3"; message B { int32 n = 1; }', 'PROTOBUF');
SELECT registry.register_schema(':.ctx:c-value', '{"type":"string"}');
SELECT registry.register_schema('soft-value', '{"type":"long"}');
SELECT registry.register_schema('soft-value', '{"type":"long","connect.name":"x"}');
SELECT registry.set_compatibility('FULL', 'a-value');
SELECT registry.set_compatibility('NONE', ':.ctx:');
SELECT registry.set_mode('READONLY', 'b-value');
SELECT registry.delete_version('soft-value', '1', false);
SELECT registry.create_kek('{"name":"lkek","kmsType":"local-kms","kmsKeyId":"k","kmsProps":{"a":"b"}}');
SELECT registry.create_dek('lkek', '{"subject":"a-value","encryptedKeyMaterial":"AAAA"}');
SELECT registry.create_dek('lkek', '{"subject":"a-value","version":2,"encryptedKeyMaterial":"BBBB"}');
SELECT registry.delete_dek('lkek', 'a-value', '1');
});

# The publication as the README gives it: all eleven tables; the default
# context's row, which every installation has, and the id sequence of a
# context, which is the subscriber's own, are left out.
$pub->safe_psql('postgres', q{
CREATE PUBLICATION registry FOR TABLE
	registry.contexts (context, created_at) WHERE (context <> '.'),
	registry.schemas, registry.subjects, registry.subject_versions,
	registry.schema_references, registry.schema_fields, registry.config, registry.modes,
	registry.keks, registry.deks, registry.associations});
# (the audit trail, registry.audit, is the publisher's own record: the README
# publishes it on its own; the read counts are each node's own)
is($pub->safe_psql('postgres', q{
SELECT count(*) FROM pg_tables t WHERE t.schemaname = 'registry'
   AND t.tablename NOT IN ('audit', 'schema_reads', 'subject_reads')
   AND NOT EXISTS (SELECT 1 FROM pg_publication_tables p
                   WHERE p.pubname = 'registry' AND p.schemaname = t.schemaname
                     AND p.tablename = t.tablename)}),
	'0', 'the publication has every table of the registry');

my $sub = registry_node('sub');
$sub->start;
$sub->safe_psql('postgres', 'CREATE EXTENSION registry');
# a session that wrote before there was a subscription (rolled back, so
# that the tables stay empty) must not keep that answer
my $early = $sub->background_psql('postgres', on_error_stop => 0);
$early->query_safe(q{BEGIN; SELECT registry.register_schema('early-value', '"int"'); ROLLBACK;});
my $connstr = $pub->connstr . ' dbname=postgres';
$sub->safe_psql('postgres',
	"CREATE SUBSCRIPTION registry CONNECTION '$connstr' PUBLICATION registry");
$sub->wait_for_subscription_sync($pub, 'registry');
$early->query(q{SELECT registry.register_schema('early-value', '"int"')});
like($early->{stderr}, qr/the registry of this database is a logical replication subscriber/,
	'a session that wrote before the subscription is refused after it');
$early->quit;
ok(wait_for_rest($sub), 'the subscriber serves REST');

# each table's rows, in one text per table (the default context's row and
# a context's id sequence are each node's own)
my %table_rows = (
	contexts => "SELECT context, created_at FROM registry.contexts WHERE context <> '.'",
	schemas => 'SELECT * FROM registry.schemas',
	subjects => 'SELECT * FROM registry.subjects',
	subject_versions => 'SELECT * FROM registry.subject_versions',
	schema_references => 'SELECT * FROM registry.schema_references',
	schema_fields => 'SELECT * FROM registry.schema_fields',
	config => 'SELECT * FROM registry.config',
	modes => 'SELECT * FROM registry.modes',
	keks => 'SELECT * FROM registry.keks',
	deks => 'SELECT * FROM registry.deks',
	associations => 'SELECT * FROM registry.associations');

# compare every table of the two nodes
sub same_tables
{
	my ($what) = @_;
	foreach my $t (sort keys %table_rows)
	{
		my $q = "SELECT count(*) || E'\\n' || coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '') FROM ($table_rows{$t}) r";
		my $on_pub = $pub->safe_psql('postgres', $q);
		is($sub->safe_psql('postgres', $q), $on_pub, "$what: $t is the primary's");
	}
}
same_tables('after the initial copy');
is($sub->safe_psql('postgres', 'SELECT count(*) FROM registry.schema_references'),
	'1', 'the reference arrived once (the replica role fires no trigger that adds it again)');

# REST answers of the subscriber are the primary's
my $a1_id = $pub->safe_psql('postgres',
	"SELECT schema_id FROM registry.subject_versions WHERE subject = 'a-value' AND version = 1");
my $ref_id = $pub->safe_psql('postgres',
	"SELECT schema_id FROM registry.subject_versions WHERE subject = 'ref-value'");
my $lookup = '{"schema":"{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}"}';

# the same request to both nodes answers the same
sub same_answer
{
	my ($method, $path, $body, $what) = @_;
	my ($ps, $pb) = rest($pub, $method, $path, $body);
	my ($ss, $sb) = rest($sub, $method, $path, $body);
	is("$ss $sb", "$ps $pb", "$what ($method $path)");
	return ($ss, $sb);
}
my ($st) = same_answer('GET', "/schemas/ids/$a1_id", undef, 'a schema by id');
is($st, 200, 'which is found');
same_answer('GET', "/schemas/ids/$ref_id", undef, 'a schema with a reference by id');
same_answer('GET', '/subjects/a-value/versions', undef, 'the versions of a subject');
same_answer('GET', '/subjects/ref-value/versions/1', undef, 'a version with its reference');
same_answer('GET', '/subjects/a-value/versions/1/referencedby', undef, 'the referrers of a version');
same_answer('POST', '/subjects/a-value', $lookup, 'a lookup');
same_answer('GET', '/subjects', undef, 'the subjects');
same_answer('GET', '/subjects?deleted=true', undef, 'the subjects with soft-deleted ones');
same_answer('GET', '/subjects/soft-value/versions?deleted=true', undef, 'a soft-deleted version');
same_answer('GET', '/config/a-value', undef, 'a subject config');
same_answer('GET', '/config/:.ctx:', undef, 'a context config');
same_answer('GET', '/mode/b-value', undef, 'a subject mode');
same_answer('GET', '/dek-registry/v1/keks/lkek', undef, 'a KEK');
same_answer('GET', '/dek-registry/v1/keks/lkek/deks/a-value/versions?deleted=true', undef, 'the versions of a DEK');
same_answer('GET', '/contexts', undef, 'the contexts');
same_answer('GET', '/subjects/:.ctx:c-value/versions/latest', undef, 'a version in a context');

# Changes after the copy: a new version, a new context, a soft delete, a
# config and mode change, and a hard delete of a schema the subscriber's
# workers have cached.
my $gone_id = $pub->safe_psql('postgres',
	"SELECT registry.register_schema('gone-value', '{\"type\":\"fixed\",\"name\":\"F\",\"size\":4}')");
$pub->wait_for_catchup('registry');
# both workers answer it (each connection goes to one of them): their caches hold it
for (1 .. 12)
{
	my ($s) = rest($sub, 'GET', "/schemas/ids/$gone_id");
	is($s, 200, 'the subscriber answers a replicated schema by id') if $_ == 1;
}

$pub->safe_psql('postgres', qq{
SELECT registry.register_schema('a-value', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0},{"name":"z","type":"string","default":""}]}');
SELECT registry.register_schema(':.two:d-value', '{"type":"int"}');
SELECT registry.delete_version('soft-value', '2', false);
SELECT registry.set_compatibility('BACKWARD_TRANSITIVE', 'ref-value');
SELECT registry.delete_compatibility('a-value');
SELECT registry.set_mode('READWRITE', 'b-value');
SELECT registry.delete_subject('gone-value', false);
SELECT registry.delete_subject('gone-value', true);
});
$pub->wait_for_catchup('registry');
same_tables('after changes');

my ($gone_status, $gone_body) = rest($sub, 'GET', "/schemas/ids/$gone_id");
my $still = 0;
for (1 .. 12)
{
	my ($s) = rest($sub, 'GET', "/schemas/ids/$gone_id");
	$still++ if $s != 404;
}
is($still, 0, 'no worker of the subscriber answers a hard-deleted schema from its cache');
like($gone_body, qr/"error_code":40403/, 'the subscriber answers 40403 for it');
same_answer('GET', '/subjects/a-value/versions', undef, 'the versions after the changes');
same_answer('GET', '/subjects/soft-value/versions', undef, 'a subject with every version soft-deleted');
same_answer('GET', '/subjects/:.two:d-value/versions/1', undef, 'a version in a replicated new context');
same_answer('GET', '/config/a-value', undef, 'a deleted config');
same_answer('GET', '/mode/b-value', undef, 'a changed mode');

# The subscriber is read-only: its sequences are behind (replication does
# not carry them) and its rows are the publisher's.  A registration of a
# schema the subject has still answers, as in READONLY mode.
my ($ws, $wb) = rest($sub, 'POST', '/subjects/a-value/versions', $lookup);
my ($ps, $pb) = rest($pub, 'POST', '/subjects/a-value/versions', $lookup);
is("$ws $wb", "$ps $pb", 'the subscriber answers a registration of an existing version');
foreach my $write (
	[ 'POST', '/subjects/a-value/versions', '{"schema":"{\"type\":\"record\",\"name\":\"A\",\"fields\":[]}"}', 'a new version' ],
	[ 'POST', '/subjects/:.ctx:e-value/versions', '{"schema":"\"bytes\""}', 'a new subject in a context' ],
	[ 'DELETE', '/subjects/a-value/versions/1', undef, 'a soft delete' ],
	[ 'PUT', '/config/a-value', '{"compatibility":"NONE"}', 'a config' ],
	[ 'PUT', '/mode/a-value', '{"mode":"READONLY"}', 'a mode' ])
{
	my ($s, $b) = rest($sub, @$write[0 .. 2]);
	is($s, 422, "the subscriber refuses $write->[3]");
	like($b, qr/"error_code":42205,"message":"This registry is a read-only logical replication subscriber/,
		"as 42205 ($write->[3])");
}
my ($err) = $sub->psql('postgres',
	"INSERT INTO registry.schemas (context, schema) VALUES ('.', '\"float\"')");
isnt($err, 0, 'and a raw INSERT of a schema');
$pub->safe_psql('postgres', "SELECT registry.register_schema('late-value', '\"double\"')");
$pub->wait_for_catchup('registry');
same_tables('after the refused writes');
is($sub->safe_psql('postgres',
		"SELECT apply_error_count + sync_error_count FROM pg_stat_subscription_stats WHERE subname = 'registry'"),
	'0', 'the apply and table sync workers met no error');

# The documented switch: drop the subscription, raise the sequences, then
# write.
$sub->safe_psql('postgres', 'DROP SUBSCRIPTION registry');
is($sub->safe_psql('postgres',
		"SELECT string_agg(context || '=' || coalesce(last_id::text, '-'), ',' ORDER BY context) FROM registry.raise_id_sequences()"),
	$pub->safe_psql('postgres',
		"SELECT string_agg(context || '=' || max, ',' ORDER BY context) FROM (SELECT context, max(id) FROM registry.schemas GROUP BY context) m"),
	'raise_id_sequences raises each context to its highest id');
is($sub->safe_psql('postgres',
		"SELECT count(*) FROM registry.contexts WHERE id_sequence IS NULL"),
	'0', 'and gives each replicated context its sequence');

my %max_id = map { split /=/ } split /,/, $pub->safe_psql('postgres',
	"SELECT string_agg(context || '=' || max, ',') FROM (SELECT context, max(id) FROM registry.schemas GROUP BY context) m");
foreach my $subject ('new-value', ':.ctx:new-value', ':.two:new-value')
{
	my ($s, $b) = rest($sub, 'POST', "/subjects/$subject/versions",
		'{"schema":"{\"type\":\"record\",\"name\":\"N\",\"fields\":[]}"}');
	my ($ctx) = $subject =~ /^:(\.[^:]+):/;
	$ctx //= '.';
	my ($id) = $b =~ /"id":(\d+)/;
	ok($s == 200 && defined $id && $id > $max_id{$ctx},
		"a registration on the switched subscriber in context $ctx takes a new id above the replicated ones ($s $b)");
}
# a second run moves nothing back
$sub->safe_psql('postgres', 'SELECT count(*) FROM registry.raise_id_sequences()');
my ($s2, $b2) = rest($sub, 'POST', '/subjects/new2-value/versions', '{"schema":"\"string\""}');
my ($id2) = $b2 =~ /"id":(\d+)/;
ok($s2 == 200 && $id2 > $max_id{'.'} + 1, 'raise_id_sequences never moves a sequence back');


$sub->stop;
$pub->stop;
done_testing();
