# ALTER EXTENSION registry UPDATE from 0.1, 0.2, 0.3, 0.4, 0.5, 0.6 and 0.7 (from its kept
# script, and as the script's first form made it): the catalog becomes what
# a fresh install of the default version is (pg_dump --schema-only
# compared), and the data, the ids and the id sequences of every context
# survive.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('upgrade');
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE old_install');
$node->safe_psql('postgres', 'CREATE DATABASE fresh_install');

# 0.1, filled through its SQL API: versions in two contexts, a reference,
# a soft delete, config and mode
my $fill = q{
SELECT registry.register_schema('a-value', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"}]}');
SELECT registry.register_schema('a-value', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0}]}');
SELECT registry.register_schema('b-value', 'syntax = "proto3"; message B { int32 n = 1; }', 'PROTOBUF');
SELECT registry.register_schema(':.ctx:c-value', '{"type":"string"}');
SELECT registry.register_schema(':.ctx:d-value', '{"type":"object","properties":{"k":{"type":"string"}}}', 'JSON');
SELECT registry.set_compatibility('FULL', 'a-value');
SELECT registry.set_mode('READONLY', 'b-value');
SELECT registry.delete_version('a-value', '1', false);
};
$node->safe_psql('old_install', "CREATE EXTENSION registry VERSION '0.1';" . $fill);
is($node->safe_psql('old_install',
		"SELECT extversion FROM pg_extension WHERE extname = 'registry'"),
	'0.1', 'version 0.1 installs from its kept script');

my $data_query = q{
SELECT string_agg(format('%s|%s|%s|%s|%s', s.context, s.id, v.subject, v.version, v.deleted), ',' ORDER BY s.context, s.id, v.subject, v.version)
FROM registry.subject_versions v JOIN registry.schemas s ON s.context = v.context AND s.id = v.schema_id};
my $before = $node->safe_psql('old_install', $data_query);
my $config_before = $node->safe_psql('old_install',
	'SELECT (SELECT string_agg(c::text, \',\' ORDER BY c::text) FROM registry.config c), (SELECT string_agg(m::text, \',\' ORDER BY m::text) FROM registry.modes m)');

$node->safe_psql('old_install', 'ALTER EXTENSION registry UPDATE');
is($node->safe_psql('old_install',
		"SELECT extversion FROM pg_extension WHERE extname = 'registry'"),
	$node->safe_psql('postgres',
		"SELECT default_version FROM pg_available_extensions WHERE name = 'registry'"),
	'ALTER EXTENSION UPDATE reaches the default version');
# the fresh install gets the same rows, so that both have the same
# per-context id sequences (made by the registry, not by its script)
$node->safe_psql('fresh_install', 'CREATE EXTENSION registry;' . $fill);

# The catalogs compared: pg_dump leaves out an extension's members, so each
# database is copied and, in the copy, its objects are made ordinary
# (their membership rows deleted); the copy's dump then shows them all.
sub schema_dump
{
	my ($db) = @_;
	my ($stdout, $stderr);
	$node->safe_psql('postgres', "CREATE DATABASE ${db}_copy TEMPLATE $db");
	$node->safe_psql("${db}_copy", q{
DELETE FROM pg_depend WHERE deptype = 'e' AND refclassid = 'pg_extension'::regclass
	AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'registry')});
	IPC::Run::run([ 'pg_dump', '--schema-only', '--no-owner', '-d', $node->connstr("${db}_copy") ],
		'>', \$stdout, '2>', \$stderr)
	  or die "pg_dump $db failed: $stderr";
	$node->safe_psql('postgres', "DROP DATABASE ${db}_copy");
	# comments, and pg_dump's per-dump \\restrict keys, are not the catalog
	$stdout =~ s/^--.*\n//mg;
	$stdout =~ s/^\\(un)?restrict .*\n//mg;
	return $stdout;
}
my $upgraded = schema_dump('old_install');
my $fresh = schema_dump('fresh_install');
ok(length($fresh) > 10000, 'the fresh install dumps a catalog');
# same_catalog(DUMP, NAME): DUMP is the fresh install's, else the diff is shown
sub same_catalog
{
	my ($dump, $name) = @_;
	return pass($name) if $dump eq $fresh;
	my $tmp = PostgreSQL::Test::Utils::tempdir();
	PostgreSQL::Test::Utils::append_to_file("$tmp/upgraded.sql", $dump);
	PostgreSQL::Test::Utils::append_to_file("$tmp/fresh.sql", $fresh);
	my ($diff) = ('');
	IPC::Run::run([ 'diff', '-u', "$tmp/fresh.sql", "$tmp/upgraded.sql" ], '>', \$diff);
	fail($name);
	diag(substr($diff, 0, 4000));
}
same_catalog($upgraded, 'an upgraded 0.1 has the catalog of a fresh install');

# 0.2, from the script it landed with, updated the same way
$node->safe_psql('postgres', 'CREATE DATABASE install_02');
$node->safe_psql('install_02', "CREATE EXTENSION registry VERSION '0.2';" . $fill);
is($node->safe_psql('install_02',
		"SELECT extversion FROM pg_extension WHERE extname = 'registry'"),
	'0.2', 'version 0.2 installs from its kept script');
my $before_02 = $node->safe_psql('install_02', $data_query);
$node->safe_psql('install_02', 'ALTER EXTENSION registry UPDATE');
same_catalog(schema_dump('install_02'), 'an upgraded 0.2 has the catalog of a fresh install');
is($node->safe_psql('install_02', $data_query), $before_02,
	'every version, id and soft delete of 0.2 survives the update');

# 0.3, from its kept script, updated the same way
$node->safe_psql('postgres', 'CREATE DATABASE install_03');
$node->safe_psql('install_03', "CREATE EXTENSION registry VERSION '0.3';" . $fill);
my $before_03 = $node->safe_psql('install_03', $data_query);
$node->safe_psql('install_03', 'ALTER EXTENSION registry UPDATE');
same_catalog(schema_dump('install_03'), 'an upgraded 0.3 has the catalog of a fresh install');
is($node->safe_psql('install_03', $data_query), $before_03,
	'every version, id and soft delete of 0.3 survives the update');

# 0.4, from its kept script: the id fence and the read-only triggers come
# with the update, and the fence records the timeline the server is on
$node->safe_psql('postgres', 'CREATE DATABASE install_04');
$node->safe_psql('install_04', "CREATE EXTENSION registry VERSION '0.4';" . $fill);
my $before_04 = $node->safe_psql('install_04', $data_query);
$node->safe_psql('install_04', 'ALTER EXTENSION registry UPDATE');
same_catalog(schema_dump('install_04'), 'an upgraded 0.4 has the catalog of a fresh install');
is($node->safe_psql('install_04', $data_query), $before_04,
	'every version, id and soft delete of 0.4 survives the update');
is($node->safe_psql('install_04', 'SELECT last_value = registry.wal_timeline() AND NOT is_called FROM registry.id_fence'),
	't', 'the updated 0.4 records the current timeline, not fenced');

# 0.5, from its kept script, updated the same way
$node->safe_psql('postgres', 'CREATE DATABASE install_05');
$node->safe_psql('install_05', "CREATE EXTENSION registry VERSION '0.5';" . $fill);
my $before_05 = $node->safe_psql('install_05', $data_query);
$node->safe_psql('install_05', 'ALTER EXTENSION registry UPDATE');
same_catalog(schema_dump('install_05'), 'an upgraded 0.5 has the catalog of a fresh install');
is($node->safe_psql('install_05', $data_query), $before_05,
	'every version, id and soft delete of 0.5 survives the update');

# 0.6, from its kept script, updated the same way
$node->safe_psql('postgres', 'CREATE DATABASE install_06');
$node->safe_psql('install_06', "CREATE EXTENSION registry VERSION '0.6';" . $fill);
# 0.6's identity of a schema with a reference, metadata and a rule set was
# not Confluent's guid
my $contract = q{SELECT registry.register_schema('g-value', '{"type":"record","name":"H","fields":[{"name":"g","type":"G"}]}', 'AVRO', '[{"name":"G","subject":"g-base","version":1}]', false, '{"properties":{"owner":"o"}}', '{"domainRules":[{"name":"r","type":"CEL","expr":"true"}]}')};
$node->safe_psql('install_06', q{SELECT registry.register_schema('g-base', '{"type":"record","name":"G","fields":[{"name":"x","type":"int"}]}')});
my $g_id = $node->safe_psql('install_06', $contract);
my $g_query = "SELECT guid FROM registry.schemas WHERE context = '.' AND id = $g_id";
# (this library computes the guid already: the row is given another
# identity, as 0.6's library stored one)
$node->safe_psql('install_06', qq{
ALTER TABLE registry.schemas DISABLE TRIGGER schemas_before_write;
UPDATE registry.schemas SET fingerprint = decode(md5(schema), 'hex') WHERE context = '.' AND id = $g_id;
ALTER TABLE registry.schemas ENABLE TRIGGER schemas_before_write;});
my $g_06 = $node->safe_psql('install_06', $g_query);
my $before_06 = $node->safe_psql('install_06', $data_query);
# the HTTP workers serve this database, and cache the schema's answer
$node->safe_psql('postgres', q{ALTER SYSTEM SET registry.database = 'install_06'});
$node->restart;
ok(wait_for_rest($node), 'the HTTP workers serve the 0.6 database');
my $guid_served = sub {
	my ($status, $body) = rest_json($node, 'GET', "/schemas/ids/$g_id");
	return $status == 200 && ref $body eq 'HASH' ? ($body->{guid} // '') : "HTTP $status";
};
$guid_served->();
is($guid_served->(), $g_06, '  ... and answer the 0.6 identity before the update');
$node->safe_psql('install_06', 'ALTER EXTENSION registry UPDATE');
my $g_07 = $node->safe_psql('install_06', $g_query);
isnt($g_07, $g_06, q{the update gives a 0.6 schema with a contract another guid});
is($g_07, $node->safe_psql('install_06',
		"SELECT registry.schema_guid(schema, refs, metadata, rule_set) FROM registry.schemas WHERE context = '.' AND id = $g_id"),
	q{...Confluent's, as registry.schema_guid computes it});
is($guid_served->(), $g_07, '  ... which the HTTP workers answer at once (their caches emptied)');
# (the catalog is copied to be compared: the workers leave the database)
$node->safe_psql('postgres', 'ALTER SYSTEM RESET registry.database');
$node->restart;
same_catalog(schema_dump('install_06'), 'an upgraded 0.6 has the catalog of a fresh install');
is($node->safe_psql('install_06', $data_query), $before_06,
	'every version, id and soft delete of 0.6 survives the update');
is($node->safe_psql('install_06', $contract), $g_id,
	'registered again after the update, it keeps its id');

# 0.7, from its kept script, updated the same way: its versions have no
# text_key (a lookup of their text reads the schema row first, as before),
# a version registered after the update has one
$node->safe_psql('postgres', 'CREATE DATABASE install_07');
$node->safe_psql('install_07', "CREATE EXTENSION registry VERSION '0.7';" . $fill);
my $before_07 = $node->safe_psql('install_07', $data_query);
my $lookup_07 = q{SELECT version FROM registry.lookup_schema('a-value', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0}]}')};
is($node->safe_psql('install_07', $lookup_07), '2',
	'this library looks up the exact text in a 0.7 catalog (no text_key there)');
my $audit_07 = 'SELECT count(*) FROM registry.audit';
my $audit_before_07 = $node->safe_psql('install_07', $audit_07);
$node->safe_psql('install_07', 'ALTER EXTENSION registry UPDATE');
same_catalog(schema_dump('install_07'), 'an upgraded 0.7 has the catalog of a fresh install');
is($node->safe_psql('install_07', $data_query), $before_07,
	'every version, id and soft delete of 0.7 survives the update');
is($node->safe_psql('install_07', q{
SELECT count(*) FILTER (WHERE v.text_key IS NOT NULL) > 1,
       count(*) FILTER (WHERE v.text_key IS DISTINCT FROM
           CASE WHEN s.parses_to_itself AND s.refs = '[]' AND s.metadata IS NULL AND s.rule_set IS NULL
                THEN s.fingerprint || convert_to(s.schema_type, 'UTF8') END)
  FROM registry.subject_versions v JOIN registry.schemas s ON s.context = v.context AND s.id = v.schema_id}),
	't|0', '  ... each of its versions gets the text_key the insert trigger would give');
is($node->safe_psql('install_07', $audit_07), $audit_before_07, '  ... and no audit row');
is($node->safe_psql('install_07', $lookup_07), '2', '  ... and its exact text is found by it');
$node->safe_psql('install_07', q{SELECT registry.register_schema('a-value', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0},{"name":"z","type":"int","default":1}]}')});
is($node->safe_psql('install_07', q{SELECT text_key IS NOT NULL FROM registry.subject_versions WHERE subject = 'a-value' AND version = 3}),
	't', 'a version registered after the update has its text_key');

# 0.3 as the first form of its script (2026-12-01) made it: the guid index,
# the stored-text index over every schema, no triggers on registry.modes,
# the guid lookups by the guid column
$node->safe_psql('postgres', 'CREATE DATABASE install_03_first');
$node->safe_psql('install_03_first', "CREATE EXTENSION registry VERSION '0.3';" . $fill . q{
CREATE INDEX schemas_guid_idx ON registry.schemas (guid);
DROP INDEX registry.schemas_text_idx;
CREATE INDEX schemas_text_idx ON registry.schemas (pg_catalog.md5(schema), context);
DROP TRIGGER modes_after_write ON registry.modes;
DROP TRIGGER modes_after_truncate ON registry.modes;
COMMENT ON FUNCTION registry.config_after_write() IS 'tells the processes that cache schema answers, at commit, that a config (a subject''s alias) changed';
CREATE OR REPLACE FUNCTION registry.schema_ids_by_guid(guid uuid, OUT context text, OUT id integer)
	RETURNS SETOF record
	LANGUAGE sql STABLE
	BEGIN ATOMIC
		SELECT s.context, s.id FROM registry.schemas s
		 WHERE s.guid = schema_ids_by_guid.guid
		 ORDER BY s.context, s.id;
	END;
});
isnt(schema_dump('install_03_first'), $fresh, 'the first form of 0.3 differs from a fresh install');
my $before_03_first = $node->safe_psql('install_03_first', $data_query);
$node->safe_psql('install_03_first', 'ALTER EXTENSION registry UPDATE');
same_catalog(schema_dump('install_03_first'),
	'an upgraded first-form 0.3 has the catalog of a fresh install');
is($node->safe_psql('install_03_first', $data_query), $before_03_first,
	'every version, id and soft delete of the first-form 0.3 survives the update');
is($node->safe_psql('install_03_first',
		q{SELECT count(*) FROM registry.schema_ids_by_guid((SELECT guid FROM registry.schemas WHERE context = '.ctx' LIMIT 1))}),
	'1', 'the updated guid lookup finds a schema');

is($node->safe_psql('old_install', $data_query), $before,
	'every version, id and soft delete survives the update');
is($node->safe_psql('old_install',
		'SELECT (SELECT string_agg(c::text, \',\' ORDER BY c::text) FROM registry.config c), (SELECT string_agg(m::text, \',\' ORDER BY m::text) FROM registry.modes m)'),
	$config_before, 'config and modes survive the update');

# the sequences go on above every id they gave, in each context
my ($max_default, $max_ctx) = split /\|/, $node->safe_psql('old_install',
	"SELECT (SELECT max(id) FROM registry.schemas WHERE context = '.'), (SELECT max(id) FROM registry.schemas WHERE context = '.ctx')");
my $new_default = $node->safe_psql('old_install',
	q{SELECT registry.register_schema('e-value', '{"type":"long"}')});
my $new_ctx = $node->safe_psql('old_install',
	q{SELECT registry.register_schema(':.ctx:e-value', '{"type":"long"}')});
cmp_ok($new_default, '>', $max_default, 'a new id in the default context is above the old ones');
cmp_ok($new_ctx, '>', $max_ctx, 'a new id in another context is above its old ones');
is($node->safe_psql('old_install',
		q{SELECT registry.register_schema('a-value', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0}]}')}),
	$node->safe_psql('old_install',
		"SELECT schema_id FROM registry.subject_versions WHERE subject = 'a-value' AND version = 2"),
	'a schema registered in 0.1 keeps its id when registered again after the update');

$node->stop;
done_testing();
