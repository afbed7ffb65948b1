-- 025_grants.sql: every grant on the registry's objects, and what each role
-- can do with them.  The matrix below is the whole list of direct grants
-- (besides the owner's): a grant added or lost anywhere fails the first test.
-- Roles inherit: registry_admin is a registry_writer, which is a
-- registry_reader.
BEGIN;
SELECT plan(33);

CREATE ROLE tap_reader LOGIN IN ROLE registry_reader;
CREATE ROLE tap_writer LOGIN IN ROLE registry_writer;
CREATE ROLE tap_admin  LOGIN IN ROLE registry_admin;

CREATE TEMP VIEW granted AS
SELECT 'function' AS kind, p.oid::regprocedure::text AS object, coalesce(r.rolname, 'PUBLIC') AS grantee, a.privilege_type
  FROM pg_proc p CROSS JOIN LATERAL aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
  LEFT JOIN pg_roles r ON r.oid = a.grantee
 WHERE p.pronamespace = 'registry'::regnamespace AND a.grantee <> p.proowner
UNION ALL
SELECT CASE c.relkind WHEN 'S' THEN 'sequence' ELSE 'table' END, c.oid::regclass::text, coalesce(r.rolname, 'PUBLIC'), a.privilege_type
  FROM pg_class c CROSS JOIN LATERAL aclexplode(coalesce(c.relacl, acldefault(CASE c.relkind WHEN 'S' THEN 's' ELSE 'r' END::"char", c.relowner))) a
  LEFT JOIN pg_roles r ON r.oid = a.grantee
 WHERE c.relnamespace = 'registry'::regnamespace AND c.relkind IN ('r', 'S', 'v') AND a.grantee <> c.relowner
UNION ALL
SELECT 'column', a.attrelid::regclass::text || '.' || a.attname, coalesce(r.rolname, 'PUBLIC'), x.privilege_type
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 CROSS JOIN LATERAL aclexplode(a.attacl) x
  LEFT JOIN pg_roles r ON r.oid = x.grantee
 WHERE c.relnamespace = 'registry'::regnamespace AND a.attacl IS NOT NULL
UNION ALL
SELECT 'schema', n.nspname, coalesce(r.rolname, 'PUBLIC'), a.privilege_type
  FROM pg_namespace n CROSS JOIN LATERAL aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
  LEFT JOIN pg_roles r ON r.oid = a.grantee
 WHERE n.nspname = 'registry' AND a.grantee <> n.nspowner
;
GRANT SELECT ON granted TO PUBLIC;

SELECT set_eq(
	$$SELECT * FROM granted$$,
	$$VALUES
		('column', 'registry.subjects.created_at', 'registry_writer', 'UPDATE'),
		('function', 'registry.advance_schema_id(text,text,integer)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.fence_id_sequences()', 'registry_writer', 'EXECUTE'),
		('function', 'registry.wal_timeline()', 'registry_reader', 'EXECUTE'),
		('function', 'registry.fingerprint_guid(bytea)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.associations_by_subject(text,text,text[],text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.associations_by_resource_name(text,text,text,text[],text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.associations_by_resource_id(text,text,text[],text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.batch_get_associations(jsonb,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.create_association(jsonb,boolean,text)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.upsert_association(text,jsonb,boolean,text)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.delete_associations(text,text,text[],boolean,boolean)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.mutate_associations(jsonb,boolean,text)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.is_restored_row(timestamp with time zone)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.avro_canonical_form(text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.avro_fingerprint(text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.schema_guid(text,jsonb,jsonb,jsonb)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.check_context(text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.check_data(text,text,bytea[],text,jsonb)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.find_fields(text,text,text,text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.reference_graph(text,integer,text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.reference_neighbours(text,text,integer,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.reindex_fields()', 'registry_admin', 'EXECUTE'),
		('function', 'registry.cloudevent(text,jsonb,text,text,text,text,jsonb)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.cloudevent_data(jsonb)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.decode(bytea)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.decode(bytea,text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.encode(text,jsonb,text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.check_compatibility(text,text,text,jsonb,text,boolean,boolean,jsonb,jsonb)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.lint(text,text,text,jsonb)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.check_not_referenced(text,text,integer,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.check_writable(text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.config_in_force(text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.config_scope(text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.confluent_message(integer,text[])', 'registry_reader', 'EXECUTE'),
		('function', 'registry.delete_compatibility(text)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.delete_config(text)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.delete_context(text)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.delete_mode(text)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.delete_subject(text,boolean)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.delete_version(text,text,boolean)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.effective_compatibility(text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.effective_mode(text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.effective_normalize(text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.get_compatibility(text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.get_config(text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.get_mode(text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.get_version(text,text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.latest_with_metadata(text,jsonb,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.list_contexts()', 'registry_reader', 'EXECUTE'),
		('function', 'registry.list_schemas(text,boolean,boolean,integer,integer)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.list_schemas_with_aliases(text,boolean,boolean,integer,integer)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.list_schemas_by_association(text,text,text[],text[],boolean,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.lookup_schema(text,text,text,jsonb,boolean,boolean,jsonb,jsonb)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.parse_version(text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.protobuf_message_indexes(integer,text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.protobuf_message_name(integer,integer[],text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.qualify_subject(text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.referenced_by(text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.register_schema(text,text,text,jsonb,boolean,jsonb,jsonb,integer,integer,jsonb,jsonb,boolean)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.register_schema_version(text,text,text,jsonb,boolean,jsonb,jsonb,integer,integer,jsonb,jsonb,boolean)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.tag_schema_version(text,text,integer,jsonb,jsonb,jsonb,jsonb,jsonb,jsonb)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.resolve_version(text,text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.rest(text,text,text,text,text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.schema_by_guid(uuid)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.schema_by_id(integer,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.schema_ids_by_guid(uuid)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.schema_serialized(integer,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.schema_tags(text,text,text[])', 'registry_reader', 'EXECUTE'),
		('function', 'registry.schema_with_tags(text,text,jsonb,jsonb)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.schema_versions(integer,text,boolean,integer,integer)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.served_subject(text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.set_compatibility(text,text)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.raise_id_sequences()', 'registry_admin', 'EXECUTE'),
		('function', 'registry.set_config(text,jsonb)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.set_mode(text,text,boolean)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.split_subject(text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.subjects(text,boolean,boolean,integer,integer)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.versions(text,boolean,boolean,integer,integer)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.wire_header(integer,integer[])', 'registry_reader', 'EXECUTE'),
		('function', 'registry.wire_parse(bytea,boolean)', 'registry_reader', 'EXECUTE'),
		('schema', 'registry', 'registry_reader', 'USAGE'),
		('sequence', 'registry.default_context_ids', 'registry_writer', 'USAGE'),
		('table', 'registry.associations', 'registry_reader', 'SELECT'),
		('table', 'registry.associations', 'registry_writer', 'DELETE'),
		('table', 'registry.associations', 'registry_writer', 'INSERT'),
		('table', 'registry.associations', 'registry_writer', 'UPDATE'),
		('table', 'registry.audit', 'registry_admin', 'SELECT'),
		('table', 'registry.schema_reads', 'registry_admin', 'SELECT'),
		('table', 'registry.subject_reads', 'registry_admin', 'SELECT'),
		('table', 'registry.schema_usage', 'registry_reader', 'SELECT'),
		('table', 'registry.subject_usage', 'registry_reader', 'SELECT'),
		('function', 'registry.pending_usage()', 'registry_reader', 'EXECUTE'),
		('function', 'registry.usage_stats()', 'registry_reader', 'EXECUTE'),
		('function', 'registry.unread_schemas(timestamp with time zone)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.unread_subjects(timestamp with time zone)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.flush_usage()', 'registry_admin', 'EXECUTE'),
		('table', 'registry.config', 'registry_admin', 'DELETE'),
		('table', 'registry.config', 'registry_admin', 'INSERT'),
		('table', 'registry.config', 'registry_admin', 'UPDATE'),
		('table', 'registry.config', 'registry_reader', 'SELECT'),
		('table', 'registry.contexts', 'registry_reader', 'SELECT'),
		('table', 'registry.contexts', 'registry_writer', 'INSERT'),
		('table', 'registry.modes', 'registry_admin', 'DELETE'),
		('table', 'registry.modes', 'registry_admin', 'INSERT'),
		('table', 'registry.modes', 'registry_admin', 'UPDATE'),
		('table', 'registry.modes', 'registry_reader', 'SELECT'),
		('table', 'registry.schema_references', 'registry_reader', 'SELECT'),
		('table', 'registry.schema_fields', 'registry_reader', 'SELECT'),
		('table', 'registry.fields', 'registry_reader', 'SELECT'),
		('table', 'registry.schemas', 'registry_reader', 'SELECT'),
		('table', 'registry.schemas', 'registry_writer', 'INSERT'),
		('table', 'registry.subject_versions', 'registry_reader', 'SELECT'),
		('table', 'registry.subject_versions', 'registry_writer', 'DELETE'),
		('table', 'registry.subject_versions', 'registry_writer', 'INSERT'),
		('table', 'registry.subject_versions', 'registry_writer', 'UPDATE'),
		('table', 'registry.subjects', 'registry_reader', 'SELECT'),
		('table', 'registry.subjects', 'registry_writer', 'INSERT'),
		-- the DEK registry: readers read (and see a shared KEK's DEKs in
		-- clear), writers create, admins alter, delete and undelete
		('function', 'registry.list_keks(boolean,text[])', 'registry_reader', 'EXECUTE'),
		('function', 'registry.get_kek(text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.list_deks(text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.dek_versions(text,text,text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.get_dek(text,text,text,text,boolean)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.dek_key_material(text,text,text,text)', 'registry_reader', 'EXECUTE'),
		('function', 'registry.create_kek(jsonb)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.create_dek(text,jsonb)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.test_kek(text)', 'registry_writer', 'EXECUTE'),
		('function', 'registry.update_kek(text,jsonb)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.delete_kek(text,boolean)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.undelete_kek(text)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.delete_dek(text,text,text,text,boolean)', 'registry_admin', 'EXECUTE'),
		('function', 'registry.undelete_dek(text,text,text,text)', 'registry_admin', 'EXECUTE'),
		('table', 'registry.keks', 'registry_reader', 'SELECT'),
		('table', 'registry.keks', 'registry_writer', 'INSERT'),
		('table', 'registry.keks', 'registry_admin', 'UPDATE'),
		('table', 'registry.keks', 'registry_admin', 'DELETE'),
		('table', 'registry.deks', 'registry_reader', 'SELECT'),
		('table', 'registry.deks', 'registry_writer', 'INSERT'),
		('table', 'registry.deks', 'registry_admin', 'UPDATE'),
		('table', 'registry.deks', 'registry_admin', 'DELETE')$$,
	'the direct grants on schema registry, its functions, tables and sequences are exactly these');

-- ---------------------------------------------------------------------------
-- fixture, as the superuser: a referenced subject, strict global settings
-- ---------------------------------------------------------------------------
SELECT registry.register_schema('grant-base', '{"type":"record","name":"B","fields":[{"name":"a","type":"int"}]}') AS base_id \gset
SELECT registry.register_schema('grant-user', '{"type":"record","name":"U","fields":[{"name":"b","type":"B"}]}', 'AVRO',
	'[{"name":"B","subject":"grant-base","version":1}]') AS user_id \gset
SELECT registry.register_schema('grant-free', '"string"') AS free_id \gset
SELECT registry.set_compatibility('FULL_TRANSITIVE');
SELECT registry.set_compatibility('FORWARD', 'grant-free');

-- ---------------------------------------------------------------------------
-- registry_writer registers and deletes, nothing else
-- ---------------------------------------------------------------------------
SET ROLE tap_writer;
SELECT throws_ok(
	$$INSERT INTO registry.schema_references (context, schema_id, position, name, ref_subject, ref_version)
	  SELECT '.', id, 1, 'pin', 'grant-free', 1 FROM registry.schemas WHERE schema = '"string"'$$, '42501', NULL,
	'writer: no raw INSERT into schema_references (pinning a version against deletion)');
SELECT throws_ok($$DELETE FROM registry.schema_references$$, '42501', NULL,
	'writer: no raw DELETE from schema_references (unpinning a referenced version)');
SELECT throws_ok($$DELETE FROM registry.config$$, '42501', NULL, 'writer: no raw DELETE from config');
SELECT throws_ok($$DELETE FROM registry.modes$$, '42501', NULL, 'writer: no raw DELETE from modes');
SELECT throws_ok($$DELETE FROM registry.subjects WHERE subject = 'grant-free'$$, '42501', NULL,
	'writer: no raw DELETE from subjects');
SELECT throws_ok($$UPDATE registry.subjects SET subject = 'x' WHERE subject = 'grant-free'$$, '42501', NULL,
	'writer: no raw UPDATE of subjects');
SELECT throws_ok($$UPDATE registry.subjects SET created_at = now() WHERE subject = 'grant-free'$$, 'R2205', NULL,
	'writer: the one column it may lock by is not updated either');
SELECT throws_ok($$DELETE FROM registry.schemas$$, '42501', NULL, 'writer: no raw DELETE from schemas');
SELECT throws_ok($$UPDATE registry.contexts SET id_sequence = 'registry.default_context_ids'$$, '42501', NULL,
	'writer: no raw UPDATE of contexts (their id sequences)');
SELECT throws_ok($$SELECT pg_catalog.setval('registry.default_context_ids', 1)$$, '42501', NULL,
	'writer: cannot move the id allocator (setval)');
SELECT throws_ok($$INSERT INTO registry.contexts (context, id_sequence) VALUES ('.grantx', 'registry.default_context_ids')$$,
	'R2205', NULL, 'writer: a new context cannot borrow another id sequence');
SELECT lives_ok($$SELECT registry.register_schema(':.grantctx:s', '"int"')$$,
	'writer: registering into a new context creates it and its sequence');
SELECT throws_ok(
	$$SELECT pg_catalog.setval(id_sequence, 1) FROM registry.contexts WHERE context = '.grantctx'$$, '42501', NULL,
	'writer: the new context''s sequence cannot be set either');
SELECT throws_ok($$SELECT registry.advance_schema_id('.', '', 2000000000)$$, 'R2205', NULL,
	'writer: cannot push the id allocator up outside IMPORT mode');
SELECT throws_ok($$INSERT INTO registry.schemas (context, id, schema) VALUES ('.', 2000000000, '"boolean"')$$, 'R2205', NULL,
	'writer: cannot choose a schema id with a raw INSERT outside IMPORT mode');
RESET ROLE;
SELECT cmp_ok(pg_sequence_last_value('registry.default_context_ids'), '<', 1000::bigint,
	'the id allocator did not move');
-- in IMPORT mode (an admin's decision) the writer imports with explicit ids
SELECT registry.set_mode('IMPORT', 'grant-import');
SET ROLE tap_writer;
SELECT is(registry.register_schema('grant-import', '"bytes"', id => 5000), 5000, 'writer: imports with an explicit id in IMPORT mode');
SELECT lives_ok($$SELECT registry.advance_schema_id('.', 'grant-import', 10)$$,
	'writer: advance_schema_id to a lower id in IMPORT mode is allowed and does nothing');
RESET ROLE;
SELECT is(pg_sequence_last_value('registry.default_context_ids'), 5000::bigint,
	'new ids continue above the imported one, never below');
SELECT registry.delete_mode('grant-import');

-- a hard delete of a subject's last version removes that subject's settings
-- (Confluent does), and only that subject's: the global ones stay
SET ROLE tap_writer;
SELECT lives_ok($$SELECT registry.delete_subject('grant-free')$$, 'writer: soft-deletes a subject');
SELECT lives_ok($$SELECT registry.delete_subject('grant-free', true)$$, 'writer: hard-deletes it');
RESET ROLE;
SELECT ok(NOT EXISTS (SELECT 1 FROM registry.config WHERE subject = 'grant-free'), 'the deleted subject''s compatibility went with it');
SELECT is(registry.get_compatibility(NULL, false), 'FULL_TRANSITIVE', 'the global compatibility stays');
SELECT ok(EXISTS (SELECT 1 FROM registry.config WHERE context = '.' AND subject = ''), 'the global config row stays');

-- the writer cannot forget the global scope by any path it has
SET ROLE tap_writer;
SELECT throws_ok($$INSERT INTO registry.subject_versions (context, subject, schema_id) SELECT '.', '', id FROM registry.schemas WHERE schema = '"int"'$$,
	NULL, NULL, 'writer: no version of the empty subject (the global scope)');
SELECT throws_ok(
	$$SELECT registry.register_schema('grant-base', '{"type":"record","name":"B","fields":[{"name":"z","type":"long"}]}')$$,
	'R0901', NULL, 'writer: FULL_TRANSITIVE still refuses an incompatible schema');
SELECT throws_ok($$SELECT registry.delete_version('grant-base', '1')$$, 'R2206', NULL,
	'writer: a referenced version stays protected');
RESET ROLE;
SELECT is(registry.get_compatibility(NULL, false), 'FULL_TRANSITIVE', 'the global compatibility is unchanged');

-- the reader cannot call what the writer may
SET ROLE tap_reader;
SELECT throws_ok($$SELECT registry.advance_schema_id('.', '', 100000)$$, '42501', NULL,
	'reader: advance_schema_id refused');
RESET ROLE;

-- raising the id sequences to the ids held is the admin's
SET ROLE tap_writer;
SELECT throws_ok($$SELECT * FROM registry.raise_id_sequences()$$, '42501', NULL,
	'writer: raise_id_sequences refused');
SET ROLE tap_admin;
SELECT is((SELECT last_id FROM registry.raise_id_sequences() WHERE context = '.'), 5000::bigint,
	'admin: raise_id_sequences leaves a sequence above every id where it is');
RESET ROLE;

-- trigger functions are no one's to call
SET ROLE tap_admin;
SELECT throws_ok($$SELECT registry.versions_after_delete()$$, '42501', NULL,
	'admin: cannot call a trigger function');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
