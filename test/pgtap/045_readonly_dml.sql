-- 045_readonly_dml.sql: a read-only mode refuses every write a writer can
-- make with raw DML, creation times are the registry's own, and a context
-- whose ids are used up answers Confluent's 42205 instead of a store error.
BEGIN;
SELECT plan(31);

CREATE ROLE tap_ro_writer LOGIN IN ROLE registry_writer;
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	result text;
BEGIN
	EXECUTE stmt INTO result;
	RETURN result;
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE;
END $$;
GRANT EXECUTE ON FUNCTION pg_temp.try(text) TO tap_ro_writer;

SELECT registry.register_schema('ro-a', '{"type":"record","name":"Ro","fields":[{"name":"a","type":"int"}]}') AS ro_id \gset

-- ---------------------------------------------------------------------------
-- creation times are set by the registry, never by a writer
-- ---------------------------------------------------------------------------
SET ROLE tap_ro_writer;
SELECT throws_ok(
	$$UPDATE registry.subject_versions SET created_at = '1999-01-01' WHERE subject = 'ro-a'$$,
	'R2205', NULL, 'a writer cannot move a version''s creation time');
SELECT lives_ok(
	$$INSERT INTO registry.schemas (schema, created_at) VALUES ('{"type":"fixed","name":"RoTime","size":3}'::text, '2099-01-01')$$,
	'a raw schema insert with a creation time of its own');
SELECT is((SELECT created_at FROM registry.schemas WHERE schema = '{"type":"fixed","name":"RoTime","size":3}' AND context = '.'), now(),
	'the schema''s creation time is the transaction''s, not the writer''s');
SELECT lives_ok(
	$$INSERT INTO registry.subjects (subject, created_at) VALUES ('ro-time-subject', '1999-01-01')$$,
	'a raw subject insert with a creation time of its own');
SELECT is((SELECT created_at FROM registry.subjects WHERE subject = 'ro-time-subject'), now(),
	'the subject''s creation time is the registry''s');
SELECT lives_ok(
	$$INSERT INTO registry.subject_versions (subject, schema_id, created_at)
	  VALUES ('ro-time-subject', (SELECT id FROM registry.schemas WHERE schema = '{"type":"fixed","name":"RoTime","size":3}' AND context = '.'), '1999-01-01')$$,
	'a raw version insert with a creation time of its own');
SELECT is((SELECT created_at FROM registry.subject_versions WHERE subject = 'ro-time-subject'), now(),
	'the version''s creation time is the registry''s');
SELECT lives_ok($$INSERT INTO registry.contexts (context, created_at) VALUES ('.ro-time', '1999-01-01')$$,
	'a raw context insert with a creation time of its own');
SELECT is((SELECT created_at FROM registry.contexts WHERE context = '.ro-time'), now(),
	'the context''s creation time is the registry''s');
RESET ROLE;

-- ---------------------------------------------------------------------------
-- READONLY refuses every write a writer can make
-- ---------------------------------------------------------------------------
SELECT is(registry.set_mode('READONLY'), 'READONLY', 'the registry is READONLY');
SET ROLE tap_ro_writer;
SELECT is(pg_temp.try($$UPDATE registry.subject_versions SET created_at = created_at WHERE subject = 'ro-a' RETURNING 'updated'$$),
	'ERROR R2205', 'READONLY: an UPDATE of a version that changes nothing is refused too');
SELECT is(pg_temp.try($$INSERT INTO registry.schemas (schema) VALUES ('{"type":"fixed","name":"RoOrphan","size":2}') RETURNING id::text$$),
	'ERROR R2205', 'READONLY: a raw schema insert is refused');
SELECT is(pg_temp.try($$INSERT INTO registry.contexts (context) VALUES ('.ro-new') RETURNING context$$),
	'ERROR R2205', 'READONLY: a raw context insert is refused');
SELECT is(pg_temp.try($$INSERT INTO registry.subjects (subject) VALUES ('ro-new') RETURNING subject$$),
	'ERROR R2205', 'READONLY: a raw subject insert is refused');
SELECT is(pg_temp.try($$SELECT registry.register_schema('ro-a', '{"type":"record","name":"Ro","fields":[{"name":"a","type":"int"}]}')::text$$),
	:'ro_id', 'READONLY: the same schema again still answers its id');
-- rows as a dump carries them (old creation times, every column given) are
-- a restore's only when a superuser inserts them
SELECT is(pg_temp.try($$INSERT INTO registry.subjects (subject, created_at) VALUES ('ro-old', '2001-01-01') RETURNING subject$$),
	'ERROR R2205', 'READONLY: a writer''s subject row with an old creation time is still refused');
SELECT is(pg_temp.try($$INSERT INTO registry.contexts (context, id_sequence, created_at)
	VALUES ('.ro-time', (SELECT id_sequence FROM registry.contexts WHERE context = '.ro-time'), '2001-01-01') RETURNING context$$),
	'ERROR R2205', 'READONLY: a writer''s complete context row is still refused');
SELECT is(pg_temp.try($$INSERT INTO registry.subject_versions (subject, version, schema_id, created_at)
	VALUES ('ro-a', 2, (SELECT id FROM registry.schemas WHERE schema = '{"type":"fixed","name":"RoTime","size":3}' AND context = '.'), '2001-01-01') RETURNING version::text$$),
	'ERROR R2205', 'READONLY: a writer''s complete version row is still refused');
RESET ROLE;
SELECT is((SELECT count(*)::integer FROM registry.schemas WHERE schema IN ('{"type":"fixed","name":"RoOrphan","size":2}')), 0, 'no orphan schema was stored');
SELECT is((SELECT count(*)::integer FROM registry.contexts WHERE context = '.ro-new'), 0, 'no context was made');
SELECT is((SELECT count(*)::integer FROM pg_class WHERE relname = 'context_ids_' || md5('.ro-new')), 0,
	'and no id sequence for it');
SELECT is(registry.set_mode('READWRITE', 'ro-rw'), 'READWRITE', 'a subject with its own READWRITE mode');
SET ROLE tap_ro_writer;
SELECT is(pg_temp.try($$INSERT INTO registry.subjects (subject) VALUES ('ro-rw') RETURNING subject$$),
	'ro-rw', 'a READWRITE subject in a READONLY registry can be made');
RESET ROLE;
SELECT is(registry.delete_mode(), 'READONLY', 'the registry is READWRITE again');
SET ROLE tap_ro_writer;
SELECT is(pg_temp.try($$INSERT INTO registry.schemas (id, schema, fingerprint, created_at)
	SELECT 900001, '{"type":"fixed","name":"RoCopy","size":3}', fingerprint, '2001-01-01'
	  FROM registry.schemas WHERE schema = '{"type":"fixed","name":"RoTime","size":3}' AND context = '.' RETURNING id::text$$),
	'ERROR R2205', 'a writer''s schema row with an id, a fingerprint and an old time is not taken as restored (the id needs IMPORT)');
RESET ROLE;

-- ---------------------------------------------------------------------------
-- a context whose ids are used up
-- ---------------------------------------------------------------------------
SELECT registry.register_schema(':.ro-full:a', '"int"') AS full_first \gset
SELECT setval(id_sequence, 2147483647) AS full_last FROM registry.contexts WHERE context = '.ro-full' \gset
SELECT throws_ok($$SELECT registry.register_schema(':.ro-full:b', '"long"')$$,
	'R2205', 'context ".ro-full" has no schema id left', 'a context without ids left refuses a registration with 42205');
SELECT is((registry.rest('POST', '/subjects/:.ro-full:b/versions', NULL, '{"schema":"\"long\""}')).status,
	422, 'over REST it is a 422, not a 500');
SELECT alike((registry.rest('POST', '/subjects/:.ro-full:b/versions', NULL, '{"schema":"\"long\""}')).response,
	'%"error_code":42205%ids go up to 2147483647%', 'with error code 42205 and the reason');
SELECT is(registry.register_schema(':.ro-full:a', '"int"'), 1, 'an existing schema still answers its id');

-- ---------------------------------------------------------------------------
-- the extension drops cleanly with the contexts' id sequences (last: the
-- transaction is rolled back)
-- ---------------------------------------------------------------------------
SELECT lives_ok($$DROP EXTENSION registry$$, 'DROP EXTENSION without CASCADE, with contexts made at run time');
SELECT is((SELECT count(*)::integer FROM pg_class WHERE relname LIKE 'context\_ids\_%'), 0,
	'their id sequences went with it');

SELECT * FROM finish();
ROLLBACK;
