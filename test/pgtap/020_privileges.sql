-- 020_privileges.sql: registry_reader reads, registry_writer registers,
-- registry_admin configures; PUBLIC gets nothing.
-- Login roles are created inside the transaction (rolled back at the end).
BEGIN;
SELECT plan(95);

CREATE ROLE tap_reader LOGIN IN ROLE registry_reader;
CREATE ROLE tap_writer LOGIN IN ROLE registry_writer;
CREATE ROLE tap_admin  LOGIN IN ROLE registry_admin;
CREATE ROLE tap_nobody LOGIN;

-- fixture, as the superuser
SELECT registry.register_schema('priv-s', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"}]}') AS priv_id \gset
SELECT registry.register_schema('priv-del', '"string"') AS del_id \gset

-- ---------------------------------------------------------------------------
-- PUBLIC and a role outside the registry roles
-- ---------------------------------------------------------------------------
SELECT is_empty(
	$$SELECT p.oid::regprocedure::text FROM pg_proc p
	   WHERE p.pronamespace = 'registry'::regnamespace
	     AND has_function_privilege('public', p.oid, 'EXECUTE')$$,
	'PUBLIC has EXECUTE on no function of schema registry');
SELECT is_empty(
	$$SELECT p.oid::regprocedure::text FROM pg_proc p
	   WHERE p.pronamespace = 'registry'::regnamespace
	     AND has_function_privilege('tap_nobody', p.oid, 'EXECUTE')$$,
	'a role outside the registry roles can execute no registry function');
SELECT ok(NOT has_schema_privilege('public', 'registry', 'USAGE'), 'PUBLIC has no USAGE on schema registry');
SELECT is_empty(
	$$SELECT c.oid::regclass::text FROM pg_class c
	   WHERE c.relnamespace = 'registry'::regnamespace AND c.relkind IN ('r', 'S')
	     AND (has_table_privilege('public', c.oid, 'SELECT') OR has_table_privilege('public', c.oid, 'INSERT')
	          OR has_table_privilege('public', c.oid, 'UPDATE') OR has_table_privilege('public', c.oid, 'DELETE'))$$,
	'PUBLIC has no privilege on registry tables or sequences');
SELECT ok(NOT has_function_privilege('public',
		'registry.register_schema(text, text, text, jsonb, boolean, jsonb, jsonb, integer, integer, jsonb, jsonb, boolean)', 'EXECUTE'),
	'PUBLIC cannot execute register_schema');
SELECT ok(NOT has_function_privilege('public', 'registry.set_compatibility(text, text)', 'EXECUTE'),
	'PUBLIC cannot execute set_compatibility');
SELECT ok(NOT has_function_privilege('public', 'registry.subjects(text, boolean, boolean, integer, integer)', 'EXECUTE'),
	'PUBLIC cannot execute subjects');

-- function privileges per role (pgTAP, inheritance included)
SELECT function_privs_are('registry', 'register_schema',
	ARRAY['text', 'text', 'text', 'jsonb', 'boolean', 'jsonb', 'jsonb', 'integer', 'integer', 'jsonb', 'jsonb', 'boolean'],
	'registry_reader', ARRAY[]::text[], 'registry_reader cannot execute register_schema');
SELECT function_privs_are('registry', 'register_schema',
	ARRAY['text', 'text', 'text', 'jsonb', 'boolean', 'jsonb', 'jsonb', 'integer', 'integer', 'jsonb', 'jsonb', 'boolean'],
	'registry_writer', ARRAY['EXECUTE'], 'registry_writer can execute register_schema');
SELECT function_privs_are('registry', 'get_version', ARRAY['text', 'text', 'boolean'],
	'registry_reader', ARRAY['EXECUTE'], 'registry_reader can execute get_version');
SELECT function_privs_are('registry', 'check_compatibility',
	ARRAY['text', 'text', 'text', 'jsonb', 'text', 'boolean', 'boolean', 'jsonb', 'jsonb'],
	'registry_reader', ARRAY['EXECUTE'], 'registry_reader can execute check_compatibility');
SELECT function_privs_are('registry', 'set_compatibility', ARRAY['text', 'text'],
	'registry_writer', ARRAY[]::text[], 'registry_writer cannot execute set_compatibility');
SELECT function_privs_are('registry', 'set_mode', ARRAY['text', 'text', 'boolean'],
	'registry_writer', ARRAY[]::text[], 'registry_writer cannot execute set_mode');
SELECT function_privs_are('registry', 'set_compatibility', ARRAY['text', 'text'],
	'registry_admin', ARRAY['EXECUTE'], 'registry_admin can execute set_compatibility');
SELECT function_privs_are('registry', 'set_mode', ARRAY['text', 'text', 'boolean'],
	'registry_admin', ARRAY['EXECUTE'], 'registry_admin can execute set_mode');
SELECT function_privs_are('registry', 'delete_subject', ARRAY['text', 'boolean'],
	'registry_reader', ARRAY[]::text[], 'registry_reader cannot execute delete_subject');
SELECT function_privs_are('registry', 'delete_subject', ARRAY['text', 'boolean'],
	'registry_writer', ARRAY['EXECUTE'], 'registry_writer can execute delete_subject');
SELECT table_privs_are('registry', 'schemas', 'registry_reader', ARRAY['SELECT'],
	'registry_reader only SELECTs registry.schemas');
SELECT table_privs_are('registry', 'config', 'registry_writer', ARRAY['SELECT'],
	'registry_writer only SELECTs registry.config');
SELECT table_privs_are('registry', 'config', 'registry_admin', ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
	'registry_admin writes registry.config');

-- ---------------------------------------------------------------------------
-- a login role that is only in registry_reader
-- ---------------------------------------------------------------------------
SET ROLE tap_reader;
SELECT is(current_user::text, 'tap_reader', 'now acting as tap_reader');
SELECT results_eq($$SELECT * FROM registry.subjects('priv-')$$, $$VALUES ('priv-del'), ('priv-s')$$,
	'reader: subjects()');
SELECT results_eq($$SELECT * FROM registry.versions('priv-s')$$, $$VALUES (1)$$, 'reader: versions()');
SELECT is((registry.get_version('priv-s', 'latest')).id, :priv_id, 'reader: get_version()');
SELECT is((registry.schema_by_id(:priv_id)).schema,
	'{"type":"record","name":"P","fields":[{"name":"a","type":"int"}]}', 'reader: schema_by_id()');
SELECT is((registry.lookup_schema('priv-s', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"}]}')).version, 1,
	'reader: lookup_schema()');
SELECT is((registry.check_compatibility('priv-s', '{"type":"record","name":"P","fields":[{"name":"a","type":"long"}]}')).is_compatible,
	true, 'reader: check_compatibility()');
SELECT is(registry.get_compatibility('priv-s'), 'BACKWARD', 'reader: get_compatibility()');
SELECT is(registry.get_mode(), 'READWRITE', 'reader: get_mode()');
SELECT is(registry.avro_canonical_form('{"type":"int"}'), '"int"', 'reader: avro_canonical_form()');
SELECT is(registry.decode(registry.encode('priv-s', '{"a":7}')), '{"a":7}'::jsonb, 'reader: encode() and decode()');
SELECT is((SELECT outcome FROM registry.check_data('priv-s', '{"type":"record","name":"P","fields":[{"name":"a","type":"long"}]}',
	ARRAY[registry.encode('priv-s', '{"a":7}')])), 'read as written', 'reader: check_data()');
SELECT is((SELECT count(*)::int FROM registry.subject_versions WHERE subject = 'priv-s'), 1,
	'reader: SELECT from registry.subject_versions');
SELECT throws_ok(
	$$SELECT registry.register_schema('priv-r', '"int"')$$, '42501', NULL,
	'reader: register_schema refused');
SELECT throws_ok(
	$$SELECT * FROM registry.register_schema_version('priv-r', '"int"')$$, '42501', NULL,
	'reader: register_schema_version refused');
SELECT throws_ok(
	$$SELECT registry.set_compatibility('NONE', 'priv-s')$$, '42501', NULL,
	'reader: set_compatibility refused');
SELECT throws_ok(
	$$SELECT registry.set_mode('READONLY', 'priv-s')$$, '42501', NULL,
	'reader: set_mode refused');
SELECT throws_ok(
	$$SELECT registry.delete_subject('priv-s')$$, '42501', NULL,
	'reader: delete_subject refused');
SELECT throws_ok(
	$$SELECT registry.delete_version('priv-s', '1')$$, '42501', NULL,
	'reader: delete_version refused');
SELECT throws_ok(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '"long"')$$, '42501', NULL,
	'reader: raw INSERT into registry.schemas refused');
SELECT throws_ok(
	format($$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'priv-r', %s)$$, :priv_id),
	'42501', NULL, 'reader: raw INSERT into registry.subject_versions refused');
SELECT throws_ok(
	$$UPDATE registry.subject_versions SET deleted = true WHERE subject = 'priv-s'$$, '42501', NULL,
	'reader: raw UPDATE of registry.subject_versions refused');
SELECT throws_ok(
	$$INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'priv-s', 'NONE')$$, '42501', NULL,
	'reader: raw INSERT into registry.config refused');
SELECT throws_ok(
	$$SELECT nextval('registry.default_context_ids')$$, '42501', NULL,
	'reader: nextval on the id sequence refused');
RESET ROLE;
SELECT results_eq($$SELECT * FROM registry.versions('priv-s')$$, $$VALUES (1)$$,
	'nothing changed by the reader');

-- ---------------------------------------------------------------------------
-- registry_writer
-- ---------------------------------------------------------------------------
SET ROLE tap_writer;
SELECT is(current_user::text, 'tap_writer', 'now acting as tap_writer');
SELECT lives_ok(
	$$SELECT registry.register_schema('priv-s', '{"type":"record","name":"P","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":""}]}')$$,
	'writer: register_schema of a new version');
SELECT results_eq($$SELECT * FROM registry.versions('priv-s')$$, $$VALUES (1), (2)$$,
	'writer: the new version is there');
SELECT is((registry.register_schema_version('priv-w', '"bytes"')).subject_version, 1,
	'writer: register_schema_version of a new subject');
SELECT throws_ok(
	$$SELECT registry.register_schema('priv-s', '{"type":"record","name":"P","fields":[{"name":"c","type":"int"}]}')$$,
	'R0901', NULL, 'writer: incompatible registration still refused (R0901)');
SELECT lives_ok(
	$$SELECT registry.register_schema(':.tapctx:priv-c', '"int"')$$,
	'writer: register in a new context (creates context and its id sequence)');
SELECT is((registry.get_version(':.tapctx:priv-c')).version, 1, 'writer: the new context subject has version 1');
SELECT lives_ok(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '"float"')$$,
	'writer: raw INSERT into registry.schemas');
SELECT lives_ok(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id)
	  SELECT '.', 'priv-raw', s.id FROM registry.schemas s WHERE s.context = '.' AND s.schema = '"float"'$$,
	'writer: raw INSERT into registry.subject_versions');
SELECT is((SELECT registry.delete_version('priv-del', '1')), 1, 'writer: delete_version (soft)');
-- Confluent lets any writer hard-delete a subject (DELETE /subjects/{s}?permanent=true);
-- removing the last version also removes the subject's config and mode rows.
SELECT lives_ok($$SELECT registry.delete_version('priv-del', '1', true)$$,
	'writer: delete_version (permanent) of the last version of a subject');
SELECT lives_ok($$SELECT registry.delete_subject('priv-w')$$, 'writer: delete_subject (soft)');
SELECT lives_ok($$SELECT registry.delete_subject('priv-w', true)$$, 'writer: delete_subject (permanent)');
SELECT lives_ok($$SELECT registry.register_schema('priv-w', '"bytes"')$$, 'writer: registers the subject again');
SELECT throws_ok(
	$$SELECT registry.set_compatibility('NONE', 'priv-s')$$, '42501', NULL,
	'writer: set_compatibility refused');
SELECT throws_ok(
	$$SELECT registry.set_compatibility('NONE')$$, '42501', NULL,
	'writer: global set_compatibility refused');
SELECT throws_ok(
	$$SELECT registry.set_mode('READONLY', 'priv-s')$$, '42501', NULL,
	'writer: set_mode refused');
SELECT throws_ok(
	$$SELECT registry.set_mode('READONLY')$$, '42501', NULL,
	'writer: global set_mode refused');
SELECT throws_ok(
	$$SELECT registry.delete_compatibility('priv-s')$$, '42501', NULL,
	'writer: delete_compatibility refused');
SELECT throws_ok(
	$$SELECT registry.delete_mode('priv-s')$$, '42501', NULL,
	'writer: delete_mode refused');
SELECT throws_ok(
	$$INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'priv-s', 'NONE')$$, '42501', NULL,
	'writer: raw INSERT into registry.config refused');
SELECT throws_ok(
	$$INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 'priv-s', 'READONLY')$$, '42501', NULL,
	'writer: raw INSERT into registry.modes refused');
RESET ROLE;
SELECT ok(NOT EXISTS (SELECT 1 FROM registry.config WHERE subject = 'priv-s'), 'no subject config was written by the writer');

-- ---------------------------------------------------------------------------
-- registry_admin
-- ---------------------------------------------------------------------------
SET ROLE tap_admin;
SELECT is(current_user::text, 'tap_admin', 'now acting as tap_admin');
SELECT is(registry.set_compatibility('full', 'priv-s'), 'FULL', 'admin: set_compatibility on a subject');
SELECT is(registry.get_compatibility('priv-s', false), 'FULL', 'admin: the subject level is stored');
SELECT is(registry.set_compatibility('NONE'), 'NONE', 'admin: global set_compatibility');
SELECT is(registry.get_compatibility(NULL, false), 'NONE', 'admin: the global level is stored');
SELECT is(registry.set_mode('READONLY', 'priv-s'), 'READONLY', 'admin: set_mode on a subject');
SELECT is(registry.get_mode('priv-s', false), 'READONLY', 'admin: the subject mode is stored');
SELECT is(registry.delete_mode('priv-s'), 'READONLY', 'admin: delete_mode');
SELECT is(registry.delete_compatibility('priv-s'), 'FULL', 'admin: delete_compatibility');
SELECT is(registry.get_compatibility('priv-s'), 'NONE', 'admin: the subject falls back to the global level');
SELECT lives_ok(
	$$INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'priv-w', 'forward')$$,
	'admin: raw INSERT into registry.config');
SELECT is(registry.get_compatibility('priv-w'), 'FORWARD', 'admin: raw config row is normalised to upper case');
SELECT lives_ok(
	$$SELECT registry.register_schema('priv-s', '{"type":"record","name":"P","fields":[{"name":"z","type":"int"}]}')$$,
	'admin (a writer too): registers under NONE');
SELECT is(registry.delete_compatibility(), 'NONE', 'admin: global delete_compatibility');
RESET ROLE;

-- a reader cannot see through to writes via the SECURITY DEFINER trigger function
SET ROLE tap_reader;
SELECT throws_ok(
	$$INSERT INTO registry.contexts (context) VALUES ('.sneaky')$$, '42501', NULL,
	'reader: raw INSERT into registry.contexts refused');
SELECT throws_ok(
	$$SELECT registry.contexts_before_insert()$$, '42501', NULL,
	'reader: cannot call the SECURITY DEFINER trigger function');
RESET ROLE;

-- registry.rest() checks each route's gating function for its caller
-- before the route runs: Confluent's 403 names the operation denied
SET ROLE tap_reader;
SELECT is((SELECT status FROM registry.rest('GET', '/subjects')), 200,
	'reader: GET /subjects through registry.rest()');
SELECT is((SELECT status || ' ' || response FROM registry.rest('POST', '/subjects/priv-r/versions', NULL, '{"schema":"\"int\""}')),
	'403 {"error_code":40301,"message":"User is denied operation Write on Subject: priv-r"}',
	'reader: POST /subjects/{s}/versions through registry.rest() is 403');
SELECT is((SELECT status || ' ' || response FROM registry.rest('DELETE', '/subjects/priv-s')),
	'403 {"error_code":40301,"message":"User is denied operation Delete on Subject: priv-s"}',
	'reader: DELETE /subjects/{s} through registry.rest() is 403');
RESET ROLE;
SET ROLE tap_writer;
SELECT is((SELECT status || ' ' || response FROM registry.rest('PUT', '/mode', NULL, '{"mode":"READONLY"}')),
	'403 {"error_code":40301,"message":"User is denied operation AlterCompatibility on Schema Registry"}',
	'writer: PUT /mode through registry.rest() is 403');
RESET ROLE;
-- a role given registry.rest() alone may use only the ungated routes
GRANT USAGE ON SCHEMA registry TO tap_nobody;
GRANT EXECUTE ON FUNCTION registry.rest(text, text, text, text, text, text) TO tap_nobody;
SET ROLE tap_nobody;
SELECT is((SELECT status || ' ' || response FROM registry.rest('GET', '/schemas/ids/' || :priv_id)),
	'403 {"error_code":40301,"message":"User is denied operation Read on Schema Registry"}',
	'registry.rest() alone: GET /schemas/ids/{id} is 403');
SELECT is((SELECT status FROM registry.rest('GET', '/schemas/types')), 200,
	'registry.rest() alone: GET /schemas/types (ungated) is 200');
RESET ROLE;
-- with the registry's tables readable, each listing is still refused by its
-- gate: the EXECUTE privilege of its SQL function, whatever its arguments
GRANT SELECT ON ALL TABLES IN SCHEMA registry TO tap_nobody;
SET ROLE tap_nobody;
SELECT is((SELECT string_agg(status::text, ',') FROM (VALUES ('/subjects'), ('/schemas'),
		('/subjects/priv-r/versions'), ('/schemas/ids/' || :priv_id || '/versions'),
		('/schemas/ids/' || :priv_id || '/subjects')) AS r(path),
		LATERAL registry.rest('GET', r.path)),
	'403,403,403,403,403',
	'tables readable, no EXECUTE: every listing is 403');
RESET ROLE;
-- GET /schemas by association or with aliases is gated by the SQL function
-- that reads the same rows, not by list_schemas
CREATE FUNCTION pg_temp.schemas_statuses() RETURNS text LANGUAGE sql AS $$
	SELECT string_agg(r.status::text, ',' ORDER BY q.n)
	  FROM (VALUES (1, NULL), (2, 'resourceType=topic'), (3, 'associationType=value'),
				   (4, 'lifecycle=STRONG'), (5, 'aliases=true'), (6, 'aliases=true&lifecycle=WEAK'),
				   (7, 'resourceType=&associationType=&ruleType=x')) AS q(n, query),
		   LATERAL registry.rest('GET', '/schemas', q.query) r
$$;
GRANT EXECUTE ON FUNCTION registry.list_schemas(text, boolean, boolean, integer, integer) TO tap_nobody;
SET ROLE tap_nobody;
SELECT is(pg_temp.schemas_statuses(), '200,403,403,403,403,403,200',
	'list_schemas alone: GET /schemas, but not by association nor with aliases');
RESET ROLE;
GRANT EXECUTE ON FUNCTION registry.list_schemas_by_association(text, text, text[], text[], boolean, boolean) TO tap_nobody;
SET ROLE tap_nobody;
SELECT is(pg_temp.schemas_statuses(), '200,200,200,200,403,403,200',
	'with list_schemas_by_association: GET /schemas by association too, not with aliases');
RESET ROLE;
REVOKE EXECUTE ON FUNCTION registry.list_schemas(text, boolean, boolean, integer, integer) FROM tap_nobody;
GRANT EXECUTE ON FUNCTION registry.list_schemas_with_aliases(text, boolean, boolean, integer, integer) TO tap_nobody;
SET ROLE tap_nobody;
SELECT is(pg_temp.schemas_statuses(), '403,200,200,200,200,200,403',
	'list_schemas_with_aliases and list_schemas_by_association without list_schemas: each its variant');
RESET ROLE;
REVOKE SELECT ON ALL TABLES IN SCHEMA registry FROM tap_nobody;
-- a role that passes a route's gate but lacks a privilege its SQL needs gets
-- the route's 403, never PostgreSQL's words (they go to the log)
GRANT EXECUTE ON FUNCTION registry.subjects(text, boolean, boolean, integer, integer) TO tap_nobody;
SET ROLE tap_nobody;
SELECT is((SELECT status || ' ' || response FROM registry.rest('GET', '/subjects')),
	'403 {"error_code":40301,"message":"User is denied operation Read on Schema Registry"}',
	'a gate passed but a table not granted: the route''s 403, no internal text');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
