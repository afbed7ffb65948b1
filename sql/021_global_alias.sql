-- The .__GLOBAL context, context names and config aliases, through the SQL API.
\set SHOW_CONTEXT never

-- ---------------------------------------------------------------------------
-- qualified subjects as Confluent reads them: only ":." opens a context
-- ---------------------------------------------------------------------------
SELECT * FROM registry.split_subject(':.team-x:orders');
SELECT * FROM registry.split_subject(':team-x:orders');
SELECT * FROM registry.split_subject(':.team-x');
SELECT * FROM registry.split_subject('::orders');

-- ---------------------------------------------------------------------------
-- .__GLOBAL holds config and mode, never schemas
-- ---------------------------------------------------------------------------
SELECT regress.counts() AS before_global \gset
SELECT regress.try($$SELECT registry.register_schema(':.__GLOBAL:g-value', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema_version(':.__GLOBAL:g-value', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema(':.__GLOBAL:', '"int"')$$);
SELECT regress.counts() = :'before_global' AS nothing_written;
SELECT count(*) AS global_context_rows FROM registry.contexts WHERE context = '.__GLOBAL';
-- a DBA's insert is refused as well
SELECT regress.try($$INSERT INTO registry.contexts (context) VALUES ('.__GLOBAL')$$);
-- config and mode on :.__GLOBAL: still work
SELECT registry.set_config(':.__GLOBAL:', '{"compatibility":"NONE"}');
SELECT registry.get_config(':.__GLOBAL:');
SELECT registry.delete_config(':.__GLOBAL:');
SELECT registry.set_mode('READWRITE', ':.__GLOBAL:');
SELECT registry.get_mode(':.__GLOBAL:', false);
SELECT registry.delete_mode(':.__GLOBAL:');
SELECT count(*) AS global_context_rows FROM registry.contexts WHERE context = '.__GLOBAL';
SELECT count(*) AS listed FROM registry.list_contexts() c WHERE c = '.__GLOBAL';

-- ---------------------------------------------------------------------------
-- context names: a dot, then letters, digits, '.', '_' and '-'
-- ---------------------------------------------------------------------------
SELECT regress.counts() AS before_names \gset
SELECT regress.try($$SELECT registry.register_schema(':.bad!:s', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema(':.has space:s', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema(':.at@sign:s', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema(':.hash#char:s', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema(':.pct%enc:s', '"int"')$$);
SELECT regress.counts() = :'before_names' AS nothing_written;
SELECT count(*) AS bad_context_rows FROM registry.contexts WHERE context ~ '[^A-Za-z0-9._-]';
-- neither a config nor a mode scope, nor a DBA's context row
SELECT regress.try($$SELECT registry.set_config(':.bad!:', '{"compatibility":"NONE"}')$$);
SELECT regress.try($$SELECT registry.set_mode('READONLY', ':.no@good:s')$$);
SELECT regress.try($$INSERT INTO registry.contexts (context) VALUES ('.sp ace')$$);
SELECT count(*) AS config_rows FROM registry.config WHERE context ~ '[^A-Za-z0-9._-]';
SELECT count(*) AS mode_rows FROM registry.modes WHERE context ~ '[^A-Za-z0-9._-]';
-- every allowed kind of character
SELECT registry.register_schema(':.My-Ctx_v2.0:all-chars', '"long"');
SELECT c FROM registry.list_contexts() c WHERE c = '.My-Ctx_v2.0';
-- a read of a subject in a badly named context finds nothing and creates nothing
SELECT regress.try($$SELECT registry.versions(':.bad!:s')$$);
SELECT count(*) AS bad_context_rows FROM registry.contexts WHERE context ~ '[^A-Za-z0-9._-]';

-- ---------------------------------------------------------------------------
-- config alias: a subject whose config names an alias is served as it
-- ---------------------------------------------------------------------------
SELECT registry.register_schema('al-target',
	'{"type":"record","name":"AliasRec","fields":[{"name":"a","type":"int"}]}') AS target_id \gset
SELECT registry.set_config('al-name', '{"alias":"al-target"}');
SELECT registry.served_subject('al-name'), registry.served_subject('al-target'),
	registry.served_subject('al-unknown');
-- reads
SELECT * FROM registry.versions('al-name');
SELECT subject, version, id = :target_id AS same_id FROM registry.get_version('al-name', 'latest');
SELECT subject_name, version_number FROM registry.resolve_version('al-name', '1');
SELECT id = :target_id AS same_id FROM registry.schema_by_id(:target_id, 'al-name');
SELECT * FROM registry.schema_versions(:target_id, 'al-name');
-- lookup and compatibility
SELECT subject, version, id = :target_id AS same_id FROM registry.lookup_schema('al-name',
	'{"type":"record","name":"AliasRec","fields":[{"name":"a","type":"int"}]}');
SELECT * FROM registry.check_compatibility('al-name', '{"type":"record","name":"AliasRec","fields":[]}');
-- registration: a new version of the alias's subject; no subject of its own
SELECT schema_id > :target_id AS new_id, subject_version FROM registry.register_schema_version('al-name',
	'{"type":"record","name":"AliasRec","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}');
SELECT * FROM registry.versions('al-target');
SELECT s FROM registry.subjects('al-') s;
SELECT count(*) AS own_rows FROM registry.subjects WHERE subject = 'al-name';
-- the config itself is the subject's, not the alias's
SELECT registry.get_config('al-name');
SELECT regress.try($$SELECT registry.get_config('al-target')$$);
-- one step only: the alias's own alias is not followed
SELECT registry.set_config('al-target', '{"alias":"al-further"}');
SELECT registry.served_subject('al-name');
SELECT * FROM registry.versions('al-name');
SELECT registry.delete_config('al-target');
-- contexts: an alias without one is in the subject's context; one with a context keeps it
SELECT registry.set_config(':.alctx:src', '{"alias":"dst"}');
SELECT registry.set_config('al-cross', '{"alias":":.alctx:dst"}');
SELECT registry.served_subject(':.alctx:src'), registry.served_subject('al-cross');
SELECT registry.register_schema(':.alctx:src', '"string"');
SELECT s FROM registry.subjects(':.alctx:') s;
SELECT subject, version FROM registry.get_version('al-cross', 'latest');
-- the listing with aliases: each version names the subjects aliased to it,
-- and an alias under the prefix brings its subject along
SELECT (schema_version).subject, (schema_version).version, aliases
  FROM registry.list_schemas_with_aliases('al-');
SELECT (schema_version).subject, (schema_version).version, aliases
  FROM registry.list_schemas_with_aliases('al-cross');
SELECT (schema_version).subject, aliases
  FROM registry.list_schemas_with_aliases('al-target', false, true);
SELECT count(*) AS without_aliases FROM registry.list_schemas('al-cross');
-- deletes go to the alias's subject too
SELECT registry.delete_version('al-name', '2');
SELECT * FROM registry.versions('al-target', true);
SELECT * FROM registry.delete_subject('al-name');
SELECT regress.try($$SELECT registry.versions('al-target')$$);
-- an empty alias is none
SELECT registry.set_config('al-empty', '{"alias":""}');
SELECT registry.served_subject('al-empty');
