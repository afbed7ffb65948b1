-- 040_raw_dml.sql: plain INSERT/UPDATE/DELETE on the registry tables meet the
-- same rules as the SQL API (the triggers are the single place of the rules).
BEGIN;
SELECT plan(89);

CREATE FUNCTION pg_temp.sid(sch text, ctx text DEFAULT '.') RETURNS integer
	LANGUAGE sql STABLE
	RETURN (SELECT s.id FROM registry.schemas s WHERE s.context = ctx AND s.schema = sch);
-- run a statement; its first value as text, or 'ERROR <sqlstate>: <message>' (the
-- statement runs in a subtransaction, so a failure does not abort the test file)
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	result text;
BEGIN
	EXECUTE stmt INTO result;
	RETURN result;
EXCEPTION WHEN OTHERS THEN
	RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE FUNCTION pg_temp.nversions(subj text, ctx text DEFAULT '.') RETURNS integer
	LANGUAGE sql STABLE
	RETURN (SELECT count(*)::integer FROM registry.subject_versions sv WHERE sv.context = ctx AND sv.subject = subj);

-- ---------------------------------------------------------------------------
-- registry.schemas
-- ---------------------------------------------------------------------------
SELECT lives_ok(
	$$INSERT INTO registry.schemas (context, schema)
	  VALUES ('.', E'{ "type" : "record",\n  "name" : "R",\t"fields" : [ { "name" : "a", "type" : { "type" : "int" } } ] }')$$,
	'raw INSERT of a schema with non-canonical whitespace');
SELECT results_eq(
	$$SELECT schema, schema_type, refs FROM registry.schemas WHERE context = '.' AND schema LIKE '%"name":"R"%'$$,
	$$VALUES ('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}', 'AVRO', '[]'::jsonb)$$,
	'the stored text is Confluent''s canonical form, type AVRO, no references');
SELECT ok(pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}') > 0,
	'the trigger allocated a positive id');
SELECT ok((SELECT fingerprint IS NOT NULL AND length(fingerprint) = 16 FROM registry.schemas
	        WHERE id = pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}')),
	'the trigger computed a 16-byte (MD5) fingerprint');
SELECT is(
	(SELECT id FROM registry.schemas WHERE context = '.'
	   AND id = pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}')),
	(registry.schema_by_id(pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}'))).id,
	'schema_by_id finds the raw-inserted schema');
SELECT throws_ok(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}')$$,
	'23505', NULL, 'the same content again collides on (context, fingerprint)');
SELECT is_empty(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"fields":[{"type":"int","name":"a"}],"name":"R","type":"record"}')
	  ON CONFLICT (context, fingerprint) DO NOTHING RETURNING id$$,
	'the same schema with other key order is a duplicate (ON CONFLICT DO NOTHING inserts nothing)');
SELECT throws_ok(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"type":"recrd","name":"X","fields":[]}')$$,
	'R2201', NULL, 'an invalid Avro schema is refused with R2201');
SELECT throws_ok(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"type":')$$,
	'R2201', NULL, 'text that is not JSON is refused with R2201');
SELECT throws_ok(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"type":"record","name":"X","fields":[{"name":"a","type":"Nope"}]}')$$,
	'R2201', NULL, 'an unknown named type is refused with R2201');
SELECT throws_ok(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"type":"enum","name":"E","symbols":["A","A"]}')$$,
	'R2201', NULL, 'duplicate enum symbols are refused with R2201');
SELECT lives_ok(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}'),
	                                                         ('.', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":"x"}]}'),
	                                                         ('.', '{"type":"record","name":"R","fields":[{"name":"c","type":"string"}]}'),
	                                                         ('.', '"string"'), ('.', '"long"')$$,
	'more schemas for the version tests');
SELECT throws_ok(
	$$UPDATE registry.schemas SET schema = '"int"' WHERE context = '.' AND schema = '"string"'$$,
	'R2205', NULL, 'UPDATE of a schema text is refused with R2205');
SELECT throws_ok(
	$$UPDATE registry.schemas SET metadata = '{"properties":{"k":"v"}}' WHERE context = '.' AND schema = '"string"'$$,
	'R2205', NULL, 'UPDATE of a schema''s metadata is refused with R2205');
SELECT throws_ok(
	$$UPDATE registry.schemas SET id = id + 1000 WHERE context = '.' AND schema = '"string"'$$,
	'R2205', NULL, 'UPDATE of a schema id is refused with R2205');
SELECT is(pg_temp.sid('"string"') IS NOT NULL, true, 'the schema is unchanged');

-- ---------------------------------------------------------------------------
-- registry.subject_versions: numbering and compatibility
-- ---------------------------------------------------------------------------
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id)
	  VALUES ('.', 'raw-a', pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}'))
	  RETURNING version$$),
	'1', 'version omitted: the first version is 1');
SELECT ok(EXISTS (SELECT 1 FROM registry.subjects WHERE context = '.' AND subject = 'raw-a'),
	'the subject row was created');
SELECT results_eq($$SELECT * FROM registry.subjects('raw-a')$$, $$VALUES ('raw-a')$$, 'subjects() lists the raw subject');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id)
	  VALUES ('.', 'raw-a', pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}'))$$,
	'R0901', NULL, 'an incompatible raw insert (BACKWARD, field without default) is refused with R0901');
SELECT is(pg_temp.nversions('raw-a'), 1, 'no version added by the refused insert');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id)
	  VALUES ('.', 'raw-a', pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":"x"}]}'))
	  RETURNING version$$),
	'2', 'version omitted: a compatible schema gets version 2');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-a', 5, pg_temp.sid('"long"'))$$,
	'R2201', NULL, 'explicit version not max+1 (5 after 2) is refused with R2201');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-a', 2, pg_temp.sid('"long"'))$$,
	'R2201', NULL, 'explicit version equal to the latest is refused with R2201');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-a', 0, pg_temp.sid('"long"'))$$,
	'R2201', NULL, 'version 0 is refused with R2201');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id)
	  VALUES ('.', 'raw-a', 3, pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"c","type":"string"}]}'))$$,
	'R0901', NULL, 'explicit version max+1 is still checked for compatibility (R0901)');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-a', 2147483000)$$,
	'R0403', NULL, 'a schema id that does not exist is refused with R0403');
SELECT is(pg_temp.nversions('raw-a'), 2, 'still two versions');
SELECT is(registry.set_compatibility('NONE', 'raw-a'), 'NONE', 'subject raw-a set to NONE');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-a', 3, pg_temp.sid('"long"'))
	  RETURNING version$$),
	'3', 'explicit version max+1 under NONE is accepted');
SELECT is(registry.set_compatibility('BACKWARD', 'raw-a'), 'BACKWARD', 'subject raw-a back to BACKWARD');

-- ---------------------------------------------------------------------------
-- registry.subject_versions: updates and deletes
-- ---------------------------------------------------------------------------
SELECT throws_ok(
	$$UPDATE registry.subject_versions SET schema_id = pg_temp.sid('"string"') WHERE subject = 'raw-a' AND version = 3$$,
	'R2205', NULL, 'UPDATE of a version''s schema_id is refused with R2205');
SELECT throws_ok(
	$$UPDATE registry.subject_versions SET version = 9 WHERE subject = 'raw-a' AND version = 3$$,
	'R2205', NULL, 'UPDATE of a version number is refused with R2205');
SELECT throws_ok(
	$$UPDATE registry.subject_versions SET subject = 'raw-other' WHERE subject = 'raw-a' AND version = 3$$,
	'R2205', NULL, 'moving a version to another subject is refused with R2205');
SELECT throws_ok(
	$$DELETE FROM registry.subject_versions WHERE subject = 'raw-a' AND version = 3$$,
	'R0407', NULL, 'DELETE of a live version is refused with R0407');
SELECT lives_ok(
	$$UPDATE registry.subject_versions SET deleted = true WHERE subject = 'raw-a' AND version = 3$$,
	'soft delete by UPDATE deleted = true');
SELECT results_eq($$SELECT * FROM registry.versions('raw-a')$$, $$VALUES (1), (2)$$, 'version 3 is no longer live');
SELECT throws_ok(
	$$UPDATE registry.subject_versions SET deleted = false WHERE subject = 'raw-a' AND version = 3$$,
	'R2205', NULL, 'UPDATE deleted = false after true (undelete) is refused with R2205');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id)
	  VALUES ('.', 'raw-a', pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}'))
	  RETURNING version$$),
	'4', 'the soft-deleted number 3 is not reused: next is 4');
SELECT lives_ok(
	$$DELETE FROM registry.subject_versions WHERE subject = 'raw-a' AND version = 3$$,
	'DELETE of a soft-deleted version');
SELECT ok(pg_temp.sid('"long"') IS NULL, 'the schema no version uses any more is removed');
SELECT results_eq($$SELECT version FROM registry.subject_versions WHERE subject = 'raw-a' ORDER BY 1$$,
	$$VALUES (1), (2), (4)$$, 'versions 1, 2, 4 remain');

-- ---------------------------------------------------------------------------
-- modes: READONLY, subject-level READWRITE, IMPORT
-- ---------------------------------------------------------------------------
SELECT lives_ok($$INSERT INTO registry.schemas (context, schema) VALUES ('.', '"long"')$$, 'schema "long" again');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-rw', pg_temp.sid('"string"')) RETURNING version$$),
	'1', 'subject raw-rw version 1');
SELECT is(registry.set_mode('READWRITE', 'raw-rw'), 'READWRITE', 'raw-rw has its own READWRITE mode');
SELECT is(registry.set_mode('READONLY'), 'READONLY', 'the registry is READONLY');
SELECT is(registry.get_mode('raw-a'), 'READONLY', 'raw-a is read-only (global mode)');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id)
	  VALUES ('.', 'raw-a', pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":"x"}]}'))$$,
	'R2205', NULL, 'READONLY: raw INSERT of a version is refused with R2205');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-new', pg_temp.sid('"string"'))$$,
	'R2205', NULL, 'READONLY: raw INSERT of a new subject''s version is refused with R2205');
SELECT throws_ok(
	$$UPDATE registry.subject_versions SET deleted = true WHERE subject = 'raw-a' AND version = 4$$,
	'R2205', NULL, 'READONLY: soft delete by UPDATE is refused with R2205');
SELECT throws_ok(
	$$SELECT registry.register_schema('raw-a', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"z","type":"int","default":0}]}')$$,
	'R2205', NULL, 'READONLY: register_schema is refused with R2205');
SELECT is(pg_temp.nversions('raw-a'), 3, 'READONLY: raw-a unchanged');
SELECT is(registry.get_mode('raw-rw'), 'READWRITE', 'raw-rw keeps its READWRITE mode in a READONLY registry');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-rw', pg_temp.sid('"string"')) RETURNING version$$),
	'2', 'READONLY registry: a READWRITE subject still accepts a raw INSERT');
SELECT lives_ok(
	$$UPDATE registry.subject_versions SET deleted = true WHERE subject = 'raw-rw' AND version = 1$$,
	'READONLY registry: a READWRITE subject can soft-delete');
SELECT lives_ok(
	$$DELETE FROM registry.subject_versions WHERE subject = 'raw-rw' AND version = 1$$,
	'READONLY registry: a READWRITE subject can hard-delete');
SELECT is(registry.set_mode('READONLY', 'raw-rw'), 'READONLY', 'raw-rw itself READONLY');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-rw', pg_temp.sid('"string"'))$$,
	'R2205', NULL, 'READONLY subject: raw INSERT refused with R2205');
SELECT is(registry.delete_mode('raw-rw'), 'READONLY', 'drop the subject mode of raw-rw');
SELECT is(registry.delete_mode(), 'READONLY', 'the registry is READWRITE again');
SELECT lives_ok(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-rw', pg_temp.sid('"string"'))$$,
	'READWRITE again: raw INSERT accepted');

-- IMPORT: explicit versions, no compatibility check
SELECT throws_ok($$SELECT registry.set_mode('IMPORT', 'raw-a')$$, 'R2205', NULL,
	'IMPORT over a subject with live versions is refused without force (R2205)');
SELECT is(registry.set_mode('IMPORT', 'raw-imp'), 'IMPORT', 'IMPORT mode for the new subject raw-imp');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id)
	  VALUES ('.', 'raw-imp', 7, pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"c","type":"string"}]}')) RETURNING version$$),
	'7', 'IMPORT: explicit version 7 accepted as the first version');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id)
	  VALUES ('.', 'raw-imp', 9, pg_temp.sid('{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}')) RETURNING version$$),
	'9', 'IMPORT: an incompatible schema at explicit version 9 is accepted (no check)');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id)
	  VALUES ('.', 'raw-imp', 3, pg_temp.sid('"string"')) RETURNING version$$),
	'3', 'IMPORT: a lower explicit version 3 is accepted');
SELECT throws_ok(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-imp', 9, pg_temp.sid('"long"'))$$,
	'23505', NULL, 'IMPORT: an existing version number is refused');
SELECT results_eq($$SELECT * FROM registry.versions('raw-imp')$$, $$VALUES (3), (7), (9)$$, 'raw-imp has versions 3, 7, 9');
SELECT is(registry.set_mode('IMPORT', 'raw-a', true), 'IMPORT', 'IMPORT over raw-a with force');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-a', 20, pg_temp.sid('"long"')) RETURNING version$$),
	'20', 'forced IMPORT: raw-a accepts an incompatible schema at version 20');
SELECT is(registry.delete_mode('raw-a'), 'IMPORT', 'raw-a back to the mode in force');

-- ---------------------------------------------------------------------------
-- config and modes rows
-- ---------------------------------------------------------------------------
SELECT throws_ok(
	$$INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'raw-a', 'SIDEWAYS')$$,
	'R2203', NULL, 'config INSERT with an invalid level is refused with R2203');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'raw-cfg', 'full_transitive') RETURNING compatibility$$),
	'FULL_TRANSITIVE', 'config INSERT of a lower-case level is stored upper-case');
SELECT throws_ok(
	$$UPDATE registry.config SET compatibility = 'bogus' WHERE context = '.' AND subject = 'raw-cfg'$$,
	'R2203', NULL, 'config UPDATE to an invalid level is refused with R2203');
SELECT throws_ok(
	$$INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 'raw-a', 'WRITEONLY')$$,
	'R2204', NULL, 'mode INSERT with an invalid mode is refused with R2204');
SELECT throws_ok(
	$$INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 'raw-a', 'FORWARD')$$,
	'R2204', NULL, 'mode FORWARD on a subject is refused with R2204');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 'raw-md', 'readonly') RETURNING mode$$),
	'READONLY', 'mode INSERT of a lower-case mode is stored upper-case');

-- ---------------------------------------------------------------------------
-- contexts and references
-- ---------------------------------------------------------------------------
SELECT throws_ok(
	$$INSERT INTO registry.contexts (context) VALUES ('nodot')$$,
	'R2208', NULL, 'a context name must start with "."');
SELECT throws_ok(
	$$INSERT INTO registry.contexts (context) VALUES ('.sp ace')$$,
	'R2208', NULL, 'a context name has no space (nor "!", "@", "#", ":")');
SELECT throws_ok(
	$$INSERT INTO registry.contexts (context) VALUES ('.__GLOBAL')$$,
	'R2208', NULL, 'the .__GLOBAL context holds no subjects');
SELECT lives_ok($$INSERT INTO registry.contexts (context) VALUES ('.tapctx')$$, 'raw INSERT of context .tapctx');
SELECT ok((SELECT id_sequence IS NOT NULL FROM registry.contexts WHERE context = '.tapctx'),
	'the new context got its own id sequence');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.schemas (context, schema) VALUES ('.tapctx', '"int"') RETURNING id$$),
	'1', 'schema ids of a new context start at 1');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.schemas (context, schema, refs)
	  VALUES ('.', '{"type":"record","name":"Q","fields":[{"name":"r","type":"R"}]}',
	          '[{"name":"R","subject":"raw-a","version":1}]')
	  RETURNING schema$$),
	'{"type":"record","name":"Q","fields":[{"name":"r","type":"R"}]}',
	'a schema with a reference to raw-a version 1');
SELECT results_eq(
	$$SELECT position, name, ref_subject, ref_version FROM registry.schema_references
	   WHERE schema_id = pg_temp.sid('{"type":"record","name":"Q","fields":[{"name":"r","type":"R"}]}')$$,
	$$VALUES (1, 'R', 'raw-a', 1)$$,
	'the reference is recorded in schema_references');
SELECT is(pg_temp.try(
	$$INSERT INTO registry.subject_versions (context, subject, schema_id)
	  VALUES ('.', 'raw-q', pg_temp.sid('{"type":"record","name":"Q","fields":[{"name":"r","type":"R"}]}')) RETURNING version$$),
	'1', 'subject raw-q uses the referencing schema');
SELECT results_eq($$SELECT * FROM registry.referenced_by('raw-a', '1')$$,
	$$SELECT pg_temp.sid('{"type":"record","name":"Q","fields":[{"name":"r","type":"R"}]}')$$,
	'referenced_by sees the raw reference');
SELECT throws_ok(
	$$UPDATE registry.subject_versions SET deleted = true WHERE context = '.' AND subject = 'raw-a' AND version = 1$$,
	'R2206', NULL, 'soft delete of a version a live schema references is refused with R2206');
SELECT throws_ok(
	$$DELETE FROM registry.schemas WHERE context = '.' AND id = pg_temp.sid('"string"')$$,
	'23503', NULL, 'a schema that versions use cannot be deleted');

SELECT * FROM finish();
ROLLBACK;
