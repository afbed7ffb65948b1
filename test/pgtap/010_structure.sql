-- 010_structure.sql: the objects the install script creates (schema, tables,
-- keys, indexes, SQL API, triggers, pg_dump registration, roles).
BEGIN;
SELECT plan(208);

-- ---------------------------------------------------------------------------
-- schema, tables, sequence, types
-- ---------------------------------------------------------------------------
SELECT has_schema('registry', 'schema registry exists');
SELECT tables_are('registry',
	ARRAY['contexts', 'schemas', 'subjects', 'subject_versions', 'schema_references', 'config', 'modes', 'audit',
		  'schema_fields', 'keks', 'deks', 'associations', 'schema_reads', 'subject_reads'],
	'registry has exactly the expected tables');
SELECT has_table('registry', 'contexts', 'table registry.contexts');
SELECT has_table('registry', 'schemas', 'table registry.schemas');
SELECT has_table('registry', 'subjects', 'table registry.subjects');
SELECT has_table('registry', 'subject_versions', 'table registry.subject_versions');
SELECT has_table('registry', 'schema_references', 'table registry.schema_references');
SELECT has_table('registry', 'config', 'table registry.config');
SELECT has_table('registry', 'modes', 'table registry.modes');
SELECT has_sequence('registry', 'default_context_ids', 'sequence of the default context');
SELECT has_type('registry', 'schema_info', 'composite type schema_info');
SELECT has_type('registry', 'subject_version', 'composite type subject_version');
SELECT results_eq(
	$$SELECT id_sequence::text FROM registry.contexts WHERE context = '.'$$,
	$$VALUES ('registry.default_context_ids')$$,
	'the default context "." exists and uses registry.default_context_ids');

-- ---------------------------------------------------------------------------
-- columns
-- ---------------------------------------------------------------------------
-- contexts
SELECT col_type_is('registry', 'contexts', 'context', 'text', 'contexts.context is text');
SELECT col_type_is('registry', 'contexts', 'id_sequence', 'regclass', 'contexts.id_sequence is regclass');
SELECT col_not_null('registry', 'contexts', 'context', 'contexts.context NOT NULL');
SELECT col_not_null('registry', 'contexts', 'created_at', 'contexts.created_at NOT NULL');
-- schemas
SELECT col_type_is('registry', 'schemas', 'context', 'text', 'schemas.context is text');
SELECT col_type_is('registry', 'schemas', 'id', 'integer', 'schemas.id is integer');
SELECT col_type_is('registry', 'schemas', 'schema_type', 'text', 'schemas.schema_type is text');
SELECT col_type_is('registry', 'schemas', 'schema', 'text', 'schemas.schema is text');
SELECT col_type_is('registry', 'schemas', 'refs', 'jsonb', 'schemas.refs is jsonb');
SELECT col_type_is('registry', 'schemas', 'metadata', 'jsonb', 'schemas.metadata is jsonb');
SELECT col_type_is('registry', 'schemas', 'rule_set', 'jsonb', 'schemas.rule_set is jsonb');
SELECT col_type_is('registry', 'schemas', 'fingerprint', 'bytea', 'schemas.fingerprint is bytea');
SELECT col_not_null('registry', 'schemas', 'context', 'schemas.context NOT NULL');
SELECT col_not_null('registry', 'schemas', 'id', 'schemas.id NOT NULL');
SELECT col_not_null('registry', 'schemas', 'schema_type', 'schemas.schema_type NOT NULL');
SELECT col_not_null('registry', 'schemas', 'schema', 'schemas.schema NOT NULL');
SELECT col_not_null('registry', 'schemas', 'refs', 'schemas.refs NOT NULL');
SELECT col_not_null('registry', 'schemas', 'fingerprint', 'schemas.fingerprint NOT NULL');
SELECT col_is_null('registry', 'schemas', 'metadata', 'schemas.metadata nullable');
SELECT col_is_null('registry', 'schemas', 'rule_set', 'schemas.rule_set nullable');
SELECT col_type_is('registry', 'schemas', 'guid', 'uuid', 'schemas.guid is uuid');
SELECT is((SELECT attgenerated FROM pg_attribute WHERE attrelid = 'registry.schemas'::regclass AND attname = 'guid'),
	's'::"char", 'schemas.guid is a stored generated column (of the fingerprint)');
SELECT col_default_is('registry', 'schemas', 'schema_type', 'AVRO', 'schemas.schema_type defaults to AVRO');
-- subjects
SELECT col_type_is('registry', 'subjects', 'context', 'text', 'subjects.context is text');
SELECT col_type_is('registry', 'subjects', 'subject', 'text', 'subjects.subject is text');
SELECT col_not_null('registry', 'subjects', 'context', 'subjects.context NOT NULL');
SELECT col_not_null('registry', 'subjects', 'subject', 'subjects.subject NOT NULL');
-- subject_versions
SELECT col_type_is('registry', 'subject_versions', 'context', 'text', 'subject_versions.context is text');
SELECT col_type_is('registry', 'subject_versions', 'subject', 'text', 'subject_versions.subject is text');
SELECT col_type_is('registry', 'subject_versions', 'version', 'integer', 'subject_versions.version is integer');
SELECT col_type_is('registry', 'subject_versions', 'schema_id', 'integer', 'subject_versions.schema_id is integer');
SELECT col_type_is('registry', 'subject_versions', 'deleted', 'boolean', 'subject_versions.deleted is boolean');
SELECT col_not_null('registry', 'subject_versions', 'version', 'subject_versions.version NOT NULL');
SELECT col_not_null('registry', 'subject_versions', 'schema_id', 'subject_versions.schema_id NOT NULL');
SELECT col_not_null('registry', 'subject_versions', 'deleted', 'subject_versions.deleted NOT NULL');
SELECT col_default_is('registry', 'subject_versions', 'deleted', 'false', 'subject_versions.deleted defaults to false');
SELECT col_type_is('registry', 'subject_versions', 'text_key', 'bytea', 'subject_versions.text_key is bytea');
SELECT col_is_null('registry', 'subject_versions', 'text_key', 'subject_versions.text_key may be NULL');
-- schema_references
SELECT col_type_is('registry', 'schema_references', 'schema_id', 'integer', 'schema_references.schema_id is integer');
SELECT col_type_is('registry', 'schema_references', 'position', 'integer', 'schema_references.position is integer');
SELECT col_type_is('registry', 'schema_references', 'name', 'text', 'schema_references.name is text');
SELECT col_type_is('registry', 'schema_references', 'ref_subject', 'text', 'schema_references.ref_subject is text');
SELECT col_type_is('registry', 'schema_references', 'ref_version', 'integer', 'schema_references.ref_version is integer');
SELECT col_not_null('registry', 'schema_references', 'ref_subject', 'schema_references.ref_subject NOT NULL');
SELECT col_not_null('registry', 'schema_references', 'ref_version', 'schema_references.ref_version NOT NULL');
-- config
SELECT col_type_is('registry', 'config', 'subject', 'text', 'config.subject is text');
SELECT col_type_is('registry', 'config', 'compatibility', 'text', 'config.compatibility is text');
SELECT col_type_is('registry', 'config', 'normalize', 'boolean', 'config.normalize is boolean');
SELECT col_type_is('registry', 'config', 'settings', 'jsonb', 'config.settings is jsonb');
SELECT col_not_null('registry', 'config', 'subject', 'config.subject NOT NULL');
SELECT col_is_null('registry', 'config', 'compatibility', 'config.compatibility nullable');
SELECT col_default_is('registry', 'config', 'subject', '', 'config.subject defaults to '''' (context level)');
-- modes
SELECT col_type_is('registry', 'modes', 'mode', 'text', 'modes.mode is text');
SELECT col_not_null('registry', 'modes', 'mode', 'modes.mode NOT NULL');
SELECT col_not_null('registry', 'modes', 'subject', 'modes.subject NOT NULL');
SELECT col_default_is('registry', 'modes', 'subject', '', 'modes.subject defaults to '''' (context level)');

-- ---------------------------------------------------------------------------
-- keys and indexes
-- ---------------------------------------------------------------------------
SELECT has_pk('registry', 'contexts', 'contexts has a primary key');
SELECT has_pk('registry', 'schemas', 'schemas has a primary key');
SELECT has_pk('registry', 'subjects', 'subjects has a primary key');
SELECT has_pk('registry', 'subject_versions', 'subject_versions has a primary key');
SELECT has_pk('registry', 'schema_references', 'schema_references has a primary key');
SELECT has_pk('registry', 'config', 'config has a primary key');
SELECT has_pk('registry', 'modes', 'modes has a primary key');
SELECT col_is_pk('registry', 'contexts', ARRAY['context'], 'contexts PK (context)');
SELECT col_is_pk('registry', 'schemas', ARRAY['context', 'id'], 'schemas PK (context, id)');
SELECT col_is_pk('registry', 'subjects', ARRAY['context', 'subject'], 'subjects PK (context, subject)');
SELECT col_is_pk('registry', 'subject_versions', ARRAY['context', 'subject', 'version'], 'subject_versions PK (context, subject, version)');
SELECT col_is_pk('registry', 'schema_references', ARRAY['context', 'schema_id', 'position'], 'schema_references PK (context, schema_id, position)');
SELECT col_is_pk('registry', 'config', ARRAY['context', 'subject'], 'config PK (context, subject)');
SELECT col_is_pk('registry', 'modes', ARRAY['context', 'subject'], 'modes PK (context, subject)');
SELECT col_is_unique('registry', 'schemas', ARRAY['fingerprint', 'context'], 'schemas UNIQUE (fingerprint, context)');

SELECT has_fk('registry', 'schemas', 'schemas has a foreign key');
SELECT has_fk('registry', 'subjects', 'subjects has a foreign key');
SELECT has_fk('registry', 'subject_versions', 'subject_versions has foreign keys');
SELECT has_fk('registry', 'schema_references', 'schema_references has a foreign key');
SELECT hasnt_fk('registry', 'contexts', 'contexts has no foreign key');
SELECT fk_ok('registry', 'schemas', ARRAY['context'], 'registry', 'contexts', ARRAY['context'],
	'schemas.context -> contexts');
SELECT fk_ok('registry', 'subjects', ARRAY['context'], 'registry', 'contexts', ARRAY['context'],
	'subjects.context -> contexts');
SELECT fk_ok('registry', 'subject_versions', ARRAY['context', 'subject'], 'registry', 'subjects', ARRAY['context', 'subject'],
	'subject_versions (context, subject) -> subjects');
SELECT fk_ok('registry', 'subject_versions', ARRAY['context', 'schema_id'], 'registry', 'schemas', ARRAY['context', 'id'],
	'subject_versions (context, schema_id) -> schemas (context, id)');
SELECT fk_ok('registry', 'schema_references', ARRAY['context', 'schema_id'], 'registry', 'schemas', ARRAY['context', 'id'],
	'schema_references (context, schema_id) -> schemas (context, id)');

SELECT has_index('registry', 'schemas', 'schemas_text_idx', 'schemas_text_idx finds schemas by stored text');
SELECT is((SELECT pg_get_expr(indpred, indrelid) FROM pg_index WHERE indexrelid = 'registry.schemas_text_idx'::regclass),
	'((metadata IS NOT NULL) OR (rule_set IS NOT NULL))', 'schemas_text_idx keeps only schemas with a data contract');
SELECT has_index('registry', 'subject_versions', 'subject_versions_text_key_idx', ARRAY['text_key', 'context', 'subject'],
	'subject_versions_text_key_idx finds a subject''s version by its exact text''s key');
SELECT has_index('registry', 'subject_versions', 'subject_versions_schema_idx', ARRAY['context', 'schema_id', 'subject', 'version'],
	'index subject_versions (context, schema_id, subject, version)');
SELECT hasnt_index('registry', 'schemas', 'schemas_guid_idx',
	'schemas are found by guid through the (fingerprint, context) key, the guid being the fingerprint''s bytes');
SELECT has_index('registry', 'schema_references', 'schema_references_target_idx', ARRAY['context', 'ref_subject', 'ref_version'],
	'index schema_references (context, ref_subject, ref_version)');
SELECT index_is_unique('registry', 'schemas', 'schemas_fingerprint_context_key',
	'schemas (context, fingerprint) index is unique');
SELECT index_is_primary('registry', 'subject_versions', 'subject_versions_pkey',
	'subject_versions_pkey is the primary index');

-- ---------------------------------------------------------------------------
-- SQL API
-- ---------------------------------------------------------------------------
SELECT has_function('registry', 'register_schema',
	ARRAY['text', 'text', 'text', 'jsonb', 'boolean', 'jsonb', 'jsonb', 'integer', 'integer', 'jsonb', 'jsonb', 'boolean'], 'register_schema(...)');
SELECT has_function('registry', 'register_schema_version',
	ARRAY['text', 'text', 'text', 'jsonb', 'boolean', 'jsonb', 'jsonb', 'integer', 'integer', 'jsonb', 'jsonb', 'boolean'], 'register_schema_version(...)');
SELECT has_function('registry', 'tag_schema_version',
	ARRAY['text', 'text', 'integer', 'jsonb', 'jsonb', 'jsonb', 'jsonb', 'jsonb', 'jsonb'], 'tag_schema_version(...)');
SELECT has_function('registry', 'check_compatibility',
	ARRAY['text', 'text', 'text', 'jsonb', 'text', 'boolean', 'boolean', 'jsonb', 'jsonb'], 'check_compatibility(...)');
SELECT has_function('registry', 'lint', ARRAY['text', 'text', 'text', 'jsonb'], 'lint(...)');
SELECT has_function('registry', 'lookup_schema',
	ARRAY['text', 'text', 'text', 'jsonb', 'boolean', 'boolean', 'jsonb', 'jsonb'], 'lookup_schema(...)');
SELECT has_function('registry', 'schema_by_id', ARRAY['integer', 'text'], 'schema_by_id(integer, text)');
SELECT has_function('registry', 'schema_by_guid', ARRAY['uuid'], 'schema_by_guid(uuid)');
SELECT function_returns('registry', 'schema_by_guid', ARRAY['uuid'], 'registry.schema_info', 'schema_by_guid returns schema_info');
SELECT has_function('registry', 'schema_ids_by_guid', ARRAY['uuid'], 'schema_ids_by_guid(uuid)');
SELECT function_returns('registry', 'schema_ids_by_guid', ARRAY['uuid'], 'setof record', 'schema_ids_by_guid returns setof record');
SELECT has_function('registry', 'subjects', ARRAY['text', 'boolean', 'boolean', 'integer', 'integer'], 'subjects(text, boolean, boolean, integer, integer)');
SELECT has_function('registry', 'versions', ARRAY['text', 'boolean', 'boolean', 'integer', 'integer'], 'versions(text, boolean, boolean, integer, integer)');
SELECT has_function('registry', 'get_version', ARRAY['text', 'text', 'boolean'], 'get_version(text, text, boolean)');
SELECT has_function('registry', 'referenced_by', ARRAY['text', 'text'], 'referenced_by(text, text)');
SELECT has_function('registry', 'latest_with_metadata', ARRAY['text', 'jsonb', 'boolean'], 'latest_with_metadata(text, jsonb, boolean)');
SELECT has_function('registry', 'delete_subject', ARRAY['text', 'boolean'], 'delete_subject(text, boolean)');
SELECT has_function('registry', 'delete_version', ARRAY['text', 'text', 'boolean'], 'delete_version(text, text, boolean)');
SELECT has_function('registry', 'set_compatibility', ARRAY['text', 'text'], 'set_compatibility(text, text)');
SELECT has_function('registry', 'get_compatibility', ARRAY['text', 'boolean'], 'get_compatibility(text, boolean)');
SELECT has_function('registry', 'delete_compatibility', ARRAY['text'], 'delete_compatibility(text)');
SELECT has_function('registry', 'set_mode', ARRAY['text', 'text', 'boolean'], 'set_mode(text, text, boolean)');
SELECT has_function('registry', 'get_mode', ARRAY['text', 'boolean'], 'get_mode(text, boolean)');
SELECT has_function('registry', 'delete_mode', ARRAY['text'], 'delete_mode(text)');
SELECT has_function('registry', 'config_in_force', ARRAY['text', 'text'], 'config_in_force(text, text)');
SELECT has_function('registry', 'avro_canonical_form', ARRAY['text'], 'avro_canonical_form(text)');
SELECT has_function('registry', 'avro_fingerprint', ARRAY['text'], 'avro_fingerprint(text)');
SELECT has_function('registry', 'split_subject', ARRAY['text'], 'split_subject(text)');
SELECT has_function('registry', 'parse_version', ARRAY['text'], 'parse_version(text)');
SELECT has_function('registry', 'served_subject', ARRAY['text'], 'served_subject(text)');
SELECT has_function('registry', 'check_context', ARRAY['text'], 'check_context(text)');
SELECT has_function('registry', 'list_schemas_with_aliases', ARRAY['text', 'boolean', 'boolean', 'integer', 'integer'], 'list_schemas_with_aliases(text, boolean, boolean, integer, integer)');
SELECT has_function('registry', 'list_schemas_by_association', ARRAY['text', 'text', 'text[]', 'text[]', 'boolean', 'boolean'], 'list_schemas_by_association(text, text, text[], text[], boolean, boolean)');
SELECT has_function('registry', 'schema_with_tags', ARRAY['text', 'text', 'jsonb', 'jsonb'], 'schema_with_tags(text, text, jsonb, jsonb)');
SELECT has_function('registry', 'schema_tags', ARRAY['text', 'text', 'text[]'], 'schema_tags(text, text, text[])');
SELECT function_returns('registry', 'schema_tags', ARRAY['text', 'text', 'text[]'], 'jsonb', 'schema_tags returns jsonb');
SELECT volatility_is('registry', 'schema_with_tags', ARRAY['text', 'text', 'jsonb', 'jsonb'], 'immutable', 'schema_with_tags is IMMUTABLE');
SELECT has_function('registry', 'encode', ARRAY['text', 'jsonb', 'text', 'text'], 'encode(text, jsonb, text, text)');
SELECT function_returns('registry', 'encode', ARRAY['text', 'jsonb', 'text', 'text'], 'bytea', 'encode returns bytea');
SELECT volatility_is('registry', 'encode', ARRAY['text', 'jsonb', 'text', 'text'], 'stable', 'encode is STABLE');
SELECT has_function('registry', 'decode', ARRAY['bytea'], 'decode(bytea)');
SELECT function_returns('registry', 'decode', ARRAY['bytea'], 'jsonb', 'decode returns jsonb');
SELECT has_function('registry', 'decode', ARRAY['bytea', 'text', 'text'], 'decode(bytea, text, text)');
SELECT volatility_is('registry', 'decode', ARRAY['bytea', 'text', 'text'], 'stable', 'decode as a reader is STABLE');
SELECT has_function('registry', 'check_data', ARRAY['text', 'text', 'bytea[]', 'text', 'jsonb'], 'check_data(text, text, bytea[], text, jsonb)');
SELECT function_returns('registry', 'check_data', ARRAY['text', 'text', 'bytea[]', 'text', 'jsonb'], 'setof record', 'check_data returns setof record');
SELECT function_returns('registry', 'cloudevent', ARRAY['text', 'jsonb', 'text', 'text', 'text', 'text', 'jsonb'], 'jsonb', 'cloudevent returns jsonb');
SELECT volatility_is('registry', 'cloudevent', ARRAY['text', 'jsonb', 'text', 'text', 'text', 'text', 'jsonb'], 'volatile', 'cloudevent is VOLATILE (a random id)');
SELECT function_returns('registry', 'cloudevent_data', ARRAY['jsonb'], 'jsonb', 'cloudevent_data returns jsonb');
-- who still reads a schema
SELECT views_are('registry', ARRAY['schema_usage', 'subject_usage', 'fields'], 'registry has exactly its views: the read counts and the fields of every live version');
SELECT col_is_pk('registry', 'schema_reads', ARRAY['context', 'schema_id'], 'schema_reads is keyed by (context, schema_id)');
SELECT col_is_pk('registry', 'subject_reads', ARRAY['context', 'subject'], 'subject_reads is keyed by (context, subject)');
SELECT function_returns('registry', 'pending_usage', ARRAY[]::text[], 'setof record', 'pending_usage returns setof record');
SELECT function_returns('registry', 'flush_usage', ARRAY[]::text[], 'integer', 'flush_usage returns integer');
SELECT function_returns('registry', 'usage_stats', ARRAY[]::text[], 'record', 'usage_stats returns record');
SELECT function_returns('registry', 'unread_schemas', ARRAY['timestamp with time zone'], 'setof record', 'unread_schemas(timestamptz) returns setof record');
SELECT function_returns('registry', 'unread_subjects', ARRAY['timestamp with time zone'], 'setof record', 'unread_subjects(timestamptz) returns setof record');

SELECT has_view('registry', 'fields', 'the view of every field of every live version');
SELECT has_index('registry', 'schema_fields', 'schema_fields_fields_idx', 'the field index has its GIN index');
SELECT function_returns('registry', 'find_fields', ARRAY['text', 'text', 'text', 'text', 'text'], 'setof registry.fields', 'find_fields returns rows of registry.fields');
SELECT function_returns('registry', 'reference_graph', ARRAY['text', 'integer', 'text', 'boolean'], 'setof record', 'reference_graph returns a table');
SELECT has_trigger('registry', 'schemas', 'schemas_index_fields', 'a new schema''s fields are indexed by a trigger');

SELECT function_returns('registry', 'register_schema',
	ARRAY['text', 'text', 'text', 'jsonb', 'boolean', 'jsonb', 'jsonb', 'integer', 'integer', 'jsonb', 'jsonb', 'boolean'], 'integer',
	'register_schema returns the schema id');
SELECT function_returns('registry', 'avro_fingerprint', ARRAY['text'], 'bigint', 'avro_fingerprint returns bigint');
SELECT function_returns('registry', 'subjects', ARRAY['text', 'boolean', 'boolean', 'integer', 'integer'], 'setof text', 'subjects returns setof text');
SELECT function_returns('registry', 'versions', ARRAY['text', 'boolean', 'boolean', 'integer', 'integer'], 'setof integer', 'versions returns setof integer');
SELECT is_strict('registry', 'avro_canonical_form', ARRAY['text'], 'avro_canonical_form is STRICT');
SELECT volatility_is('registry', 'avro_canonical_form', ARRAY['text'], 'immutable', 'avro_canonical_form is IMMUTABLE');
SELECT volatility_is('registry', 'register_schema',
	ARRAY['text', 'text', 'text', 'jsonb', 'boolean', 'jsonb', 'jsonb', 'integer', 'integer', 'jsonb', 'jsonb', 'boolean'], 'volatile',
	'register_schema is VOLATILE');
SELECT is_empty(
	$$SELECT p.oid::regprocedure::text FROM pg_proc p
	   WHERE p.pronamespace = 'registry'::regnamespace AND p.prosecdef
	     AND p.proname NOT IN ('contexts_before_insert', 'schemas_after_insert',
							   'versions_after_delete', 'advance_schema_id', 'raise_id_sequences',
							   'fence_id_sequences', 'schemas_index_fields', 'reindex_fields', 'delete_context')$$,
	'only the triggers that keep references, the field index and clean up after a hard delete, the context trigger, advance_schema_id, raise_id_sequences, fence_id_sequences and reindex_fields are SECURITY DEFINER');
SELECT is_empty(
	$$SELECT p.oid::regprocedure::text FROM pg_proc p
	   WHERE p.pronamespace = 'registry'::regnamespace AND p.prosecdef
	     AND NOT EXISTS (SELECT 1 FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%')$$,
	'every SECURITY DEFINER function pins search_path');

-- ---------------------------------------------------------------------------
-- triggers
-- ---------------------------------------------------------------------------
SELECT trigger_is('registry', 'contexts', 'contexts_before_insert', 'registry', 'contexts_before_insert',
	'contexts: contexts_before_insert');
SELECT trigger_is('registry', 'schemas', 'schemas_before_write', 'registry', 'schemas_before_write',
	'schemas: schemas_before_write');
SELECT trigger_is('registry', 'schemas', 'schemas_after_insert', 'registry', 'schemas_after_insert',
	'schemas: schemas_after_insert');
SELECT trigger_is('registry', 'schemas', 'schemas_after_delete', 'registry', 'schemas_after_delete',
	'schemas: schemas_after_delete (cache invalidation at commit)');
SELECT trigger_is('registry', 'subject_versions', 'versions_before_insert', 'registry', 'versions_before_insert',
	'subject_versions: versions_before_insert');
SELECT trigger_is('registry', 'subject_versions', 'versions_before_update', 'registry', 'versions_before_update',
	'subject_versions: versions_before_update');
SELECT trigger_is('registry', 'subject_versions', 'versions_before_delete', 'registry', 'versions_before_delete',
	'subject_versions: versions_before_delete');
SELECT trigger_is('registry', 'subject_versions', 'versions_after_delete', 'registry', 'versions_after_delete',
	'subject_versions: versions_after_delete');
SELECT trigger_is('registry', 'subject_versions', 'versions_after_write', 'registry', 'versions_after_write',
	'subject_versions: versions_after_write (cache invalidation at commit)');
SELECT trigger_is('registry', 'config', 'config_before_write', 'registry', 'config_before_write',
	'config: config_before_write');
SELECT trigger_is('registry', 'config', 'config_after_write', 'registry', 'config_after_write',
	'config: config_after_write (cache invalidation at commit)');
SELECT trigger_is('registry', 'modes', 'modes_before_write', 'registry', 'modes_before_write',
	'modes: modes_before_write');
SELECT trigger_is('registry', 'modes', 'modes_after_write', 'registry', 'config_after_write',
	'modes: modes_after_write (settings cache invalidation at commit, as for config)');
-- timing and events (tgtype bits: 1 ROW, 2 BEFORE, 4 INSERT, 8 DELETE, 16 UPDATE)
SELECT results_eq(
	$$SELECT t.tgrelid::regclass::text COLLATE "C", t.tgname::text COLLATE "C",
	         (t.tgtype & 1) <> 0, (t.tgtype & 2) <> 0,
	         (t.tgtype & 4) <> 0, (t.tgtype & 16) <> 0, (t.tgtype & 8) <> 0, t.tgenabled::text COLLATE "C"
	    FROM pg_trigger t
	   WHERE NOT t.tgisinternal AND t.tgrelid::regclass::text LIKE 'registry.%'
	   ORDER BY 1, 2$$,
	$$VALUES
		('registry.associations' COLLATE "C", 'associations_before_write' COLLATE "C", true, true, true, true, true, 'O' COLLATE "C"),
		('registry.associations', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.associations', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.config', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.config', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.config', 'config_after_truncate',     false, false, false, false, false, 'A'),
		('registry.config', 'config_after_write',        true, false, true,  true,  true,  'A'),
		('registry.config', 'config_before_write',       true, true,  true,  true,  true,  'O'),
		('registry.contexts', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.contexts', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.contexts', 'contexts_before_insert',  true, true,  true,  false, false, 'O'),
		('registry.deks', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.deks', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.deks', 'deks_before_write',    true,  true,  true,  true,  true,  'O'),
		('registry.keks', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.keks', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.keks', 'keks_before_write',    true,  true,  true,  true,  true,  'O'),
		('registry.modes', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.modes', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.modes', 'modes_after_truncate',       false, false, false, false, false, 'A'),
		('registry.modes', 'modes_after_write',          true, false, true,  true,  true,  'A'),
		('registry.modes', 'modes_before_write',         true, true,  true,  true,  true,  'O'),
		('registry.schema_fields', 'schema_fields_before_insert', true, true, true, false, false, 'O'),
		('registry.schema_references', 'schema_references_before_insert', true, true, true, false, false, 'O'),
		('registry.schemas', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.schemas', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.schemas', 'schemas_after_delete',     true, false, false, false, true, 'A'),
		('registry.schemas', 'schemas_after_insert',     true, false, true,  false, false, 'O'),
		('registry.schemas', 'schemas_after_truncate',   false, false, false, false, false, 'A'),
		('registry.schemas', 'schemas_before_write',     true, true,  true,  true,  false, 'O'),
		('registry.schemas', 'schemas_index_fields',     true, false, true,  false, false, 'O'),
		('registry.subject_versions', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.subject_versions', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.subject_versions', 'versions_after_delete',  true, false, false, false, true,  'O'),
		('registry.subject_versions', 'versions_after_truncate', false, false, false, false, false, 'A'),
		('registry.subject_versions', 'versions_after_write',   true, false, true,  true,  true,  'A'),
		('registry.subject_versions', 'versions_before_delete', true, true,  false, false, true,  'O'),
		('registry.subject_versions', 'versions_before_insert', true, true,  true,  false, false, 'O'),
		('registry.subject_versions', 'versions_before_update', true, true,  false, true,  false, 'O'),
		('registry.subjects', 'audit_after_truncate', false, false, false, false, false, 'O'),
		('registry.subjects', 'audit_after_write',    true,  false, true,  true,  true,  'O'),
		('registry.subjects', 'subjects_before_insert',  true, true,  true,  false, false, 'O'),
		('registry.subjects', 'subjects_before_update',  true, true,  false, true,  false, 'O')$$,
	'user triggers: row level, timing, events, enabled (the cache invalidation ALWAYS, for a logical replication subscriber''s apply; the TRUNCATE ones statement level)');
SELECT results_eq(
	$$SELECT t.tgname FROM pg_trigger t
	   WHERE NOT t.tgisinternal AND t.tgrelid = 'registry.schema_references'::regclass$$,
	$$VALUES ('schema_references_before_insert'::name)$$,
	'schema_references has one user trigger, which skips what a restore brings twice (written by schemas_after_insert)');

-- ---------------------------------------------------------------------------
-- pg_dump: extension configuration tables and sequence
-- ---------------------------------------------------------------------------
SELECT set_eq(
	$$SELECT c::regclass::text FROM pg_extension e, unnest(e.extconfig) AS c WHERE e.extname = 'registry'$$,
	ARRAY['registry.contexts', 'registry.default_context_ids', 'registry.schemas', 'registry.subjects',
		  'registry.subject_versions', 'registry.schema_references', 'registry.config', 'registry.modes',
		  'registry.audit', 'registry.audit_ids', 'registry.schema_fields', 'registry.keks', 'registry.deks',
		  'registry.associations', 'registry.schema_reads', 'registry.subject_reads'],
	'every table and the id sequences are registered with pg_extension_config_dump');
SELECT is(
	(SELECT x.cond::text FROM pg_extension e,
	         unnest(e.extconfig, e.extcondition) AS x(rel, cond)
	   WHERE e.extname = 'registry' AND x.rel = 'registry.contexts'::regclass),
	$$WHERE context <> '.'$$,
	'contexts is dumped without the built-in default context row');
SELECT is(
	(SELECT count(*)::int FROM pg_extension e, unnest(e.extconfig, e.extcondition) AS x(rel, cond)
	  WHERE e.extname = 'registry' AND x.rel <> 'registry.contexts'::regclass AND x.cond <> ''),
	0, 'every other configuration relation is dumped in full');
SELECT is(
	(SELECT count(*)::int FROM pg_extension e, unnest(e.extconfig) AS c WHERE e.extname = 'registry'),
	(SELECT count(DISTINCT c)::int FROM pg_extension e, unnest(e.extconfig) AS c WHERE e.extname = 'registry'),
	'no relation registered twice');
SELECT is(
	(SELECT count(*)::int FROM pg_depend d
	  WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
	    AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'registry') AND d.deptype = 'e'
	    AND d.objid IN ('registry.contexts'::regclass, 'registry.schemas'::regclass, 'registry.subjects'::regclass,
	                    'registry.subject_versions'::regclass, 'registry.schema_references'::regclass,
	                    'registry.config'::regclass, 'registry.modes'::regclass,
	                    'registry.default_context_ids'::regclass)),
	8, 'tables and sequence are members of the extension');

-- ---------------------------------------------------------------------------
-- roles
-- ---------------------------------------------------------------------------
SELECT has_role('registry_reader', 'role registry_reader exists');
SELECT has_role('registry_writer', 'role registry_writer exists');
SELECT has_role('registry_admin', 'role registry_admin exists');
SELECT isnt_superuser('registry_admin', 'registry_admin is not a superuser');
SELECT is_member_of('registry_reader', 'registry_writer', 'registry_writer is in registry_reader');
SELECT is_member_of('registry_writer', 'registry_admin', 'registry_admin is in registry_writer');
SELECT ok(pg_has_role('registry_admin', 'registry_reader', 'USAGE'), 'registry_admin inherits registry_reader');
SELECT ok(NOT pg_has_role('registry_reader', 'registry_writer', 'MEMBER'), 'registry_reader is not a writer');
SELECT results_eq(
	$$SELECT rolname::text COLLATE "C", rolcanlogin FROM pg_roles
	   WHERE rolname IN ('registry_reader', 'registry_writer', 'registry_admin') ORDER BY 1$$,
	$$VALUES ('registry_admin' COLLATE "C", false), ('registry_reader', false), ('registry_writer', false)$$,
	'the three registry roles are NOLOGIN');
SELECT schema_privs_are('registry', 'registry_reader', ARRAY['USAGE'], 'registry_reader has USAGE on schema registry');
-- the HTTP workers' role: LOGIN (a background worker needs it), nothing else
SELECT has_role('registry_http', 'role registry_http exists');
SELECT isnt_superuser('registry_http', 'registry_http is not a superuser');
SELECT results_eq(
	$$SELECT rolcanlogin, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolinherit, rolpassword IS NULL
	    FROM pg_authid WHERE rolname = 'registry_http'$$,
	$$VALUES (true, false, false, false, false, false, true)$$,
	'registry_http may log in, has no password and no attribute');
SELECT is_empty(
	$$SELECT roleid::regrole::text FROM pg_auth_members WHERE member = 'registry_http'::regrole$$,
	'registry_http is a member of no role');
SELECT is_empty(
	$$SELECT p.oid::regprocedure::text FROM pg_proc p
	   WHERE p.pronamespace = 'registry'::regnamespace
	     AND has_function_privilege('registry_http', p.oid, 'EXECUTE')$$,
	'registry_http can execute no registry function');

SELECT * FROM finish();
ROLLBACK;
