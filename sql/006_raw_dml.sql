-- A DBA's raw DML on the tables meets the same rules as the SQL API.
\set SHOW_CONTEXT never
-- a raw schema insert is parsed, stored in Confluent's form, given an id and an identity
INSERT INTO registry.schemas (context, schema)
	VALUES ('.', '{ "type" : "record", "name" : "Raw", "fields" : [ { "name" : "a", "type" : { "type" : "int" } } ] }')
	RETURNING id AS raw_id, schema_type, schema, length(fingerprint) AS fingerprint_bytes \gset
SELECT :raw_id > 0 AS has_id, :'schema_type' AS schema_type, :'schema' AS stored, :fingerprint_bytes AS fingerprint_bytes;
-- the SQL API finds it by content
SELECT registry.register_schema('raw-s', '{"type":"record","name":"Raw","fields":[{"name":"a","type":"int"}]}') = :raw_id AS same_id;
SELECT regress.try($$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"type":"record","name":"Raw"')$$);
SELECT regress.try($$INSERT INTO registry.schemas (context, schema) VALUES ('.', '{"type":"record","name":"Raw","fields":[{"name":"a","type":"int"}]}')$$);
SELECT regress.try(format('UPDATE registry.schemas SET schema = %L WHERE id = %s', '"int"', :raw_id));
-- a raw version insert: next number by default, mode and compatibility enforced
INSERT INTO registry.schemas (context, schema)
	VALUES ('.', '{"type":"record","name":"Raw","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"}]}')
	RETURNING id AS incompatible_id \gset
SELECT regress.try(format($$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-s', %s)$$, :incompatible_id));
INSERT INTO registry.schemas (context, schema)
	VALUES ('.', '{"type":"record","name":"Raw","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}')
	RETURNING id AS compatible_id \gset
SELECT regress.try(format($$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-s', 7, %s)$$, :compatible_id));
INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-s', :compatible_id) RETURNING version;
-- a raw insert into a new subject creates it
INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-new', :raw_id) RETURNING version;
SELECT * FROM registry.subjects() WHERE subjects LIKE 'raw%';
-- versions are immutable but for a soft delete; no undelete
SELECT regress.try($$UPDATE registry.subject_versions SET version = 9 WHERE subject = 'raw-s' AND version = 2$$);
SELECT regress.try($$DELETE FROM registry.subject_versions WHERE subject = 'raw-s' AND version = 2$$);
UPDATE registry.subject_versions SET deleted = true WHERE subject = 'raw-s' AND version = 2;
SELECT regress.try($$UPDATE registry.subject_versions SET deleted = false WHERE subject = 'raw-s' AND version = 2$$);
DELETE FROM registry.subject_versions WHERE subject = 'raw-s' AND version = 2;
SELECT * FROM registry.versions('raw-s', deleted => true);
-- READONLY applies to raw DML too
SELECT registry.set_mode('READONLY');
SELECT regress.try(format($$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'raw-s', %s)$$, :compatible_id));
SELECT regress.try($$UPDATE registry.subject_versions SET deleted = true WHERE subject = 'raw-new'$$);
SELECT regress.try($$INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'raw-s', 'NONE')$$);
SELECT registry.set_mode('READWRITE');
-- config and modes are validated
SELECT regress.try($$INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'raw-s', 'SOMETIMES')$$);
SELECT regress.try($$INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 'raw-s', 'WRITEONLY')$$);
INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'raw-s', 'full_transitive') RETURNING compatibility;
SELECT registry.get_compatibility('raw-s');
-- IMPORT mode accepts explicit versions and skips compatibility
INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 'raw-imp', 'import');
INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-imp', 10, :incompatible_id);
INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'raw-imp', 3, :raw_id);
SELECT * FROM registry.versions('raw-imp');
DELETE FROM registry.modes WHERE subject = 'raw-imp';
-- NULLs in a raw config or mode row meet the rules as SQL compares them
SELECT left(regress.try($$INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 'raw-n', NULL)$$), 5) AS null_mode;
SELECT regress.try($$INSERT INTO registry.modes (context, subject, mode) VALUES (NULL, 'raw-n', 'forward')$$) AS forward_in_null_context;
SELECT left(regress.try($$INSERT INTO registry.modes (context, subject, mode) VALUES (NULL, '', 'forward')$$), 5) AS forward_null_context_only;
SELECT regress.try($$INSERT INTO registry.config (context, subject, compatibility) VALUES (NULL, 'raw-n', 'bogus')$$) AS level_in_null_context;
SELECT left(regress.try($$INSERT INTO registry.config (context, subject, compatibility) VALUES (NULL, 'raw-n', 'none')$$), 5) AS valid_level_null_context;
-- IMPORT over live subjects needs set_mode's force, a rule of the request
-- (Confluent's ?force=true); a raw mode row is an administrator's write,
-- taken as forced
INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 'raw-s', 'readWrite') RETURNING mode;
SELECT regress.try($$SELECT registry.set_mode('IMPORT', 'raw-s')$$);
SELECT regress.try($$UPDATE registry.modes SET mode = 'Import' WHERE context = '.' AND subject = 'raw-s'$$);
SELECT registry.set_mode('IMPORT', 'raw-imp', force => true);
SELECT regress.try($$UPDATE registry.modes SET mode = 'import' WHERE context = '.' AND subject = 'raw-imp'$$);
SELECT mode FROM registry.modes WHERE context = '.' AND subject = 'raw-imp';
SELECT regress.try($$UPDATE registry.modes SET mode = 'forward' WHERE context = '.' AND subject = 'raw-imp'$$);
DELETE FROM registry.modes WHERE subject IN ('raw-s', 'raw-imp');
-- a config row's level is stored upper-cased, on update too
INSERT INTO registry.config (context, subject, compatibility) VALUES ('.', 'raw-new', 'forward') RETURNING compatibility;
UPDATE registry.config SET compatibility = 'Full' WHERE subject = 'raw-new' RETURNING compatibility;
SELECT regress.try($$UPDATE registry.config SET compatibility = 'fully' WHERE subject = 'raw-new'$$);
DELETE FROM registry.config WHERE subject = 'raw-new';
-- the default context is every table's default: a DBA's insert may leave it out
INSERT INTO registry.schemas (schema) VALUES ('{"type":"fixed","name":"DefCtx","size":4}') RETURNING context, schema_type;
INSERT INTO registry.subject_versions (subject, schema_id)
	SELECT 'raw-defctx', id FROM registry.schemas WHERE schema = '{"type":"fixed","name":"DefCtx","size":4}'
	RETURNING context, subject, version;
INSERT INTO registry.subjects (subject) VALUES ('raw-defctx-2') RETURNING context, subject;
INSERT INTO registry.modes (subject, mode) VALUES ('raw-defctx', 'readonly') RETURNING context, mode;
DELETE FROM registry.modes WHERE subject = 'raw-defctx';
INSERT INTO registry.config (subject, compatibility) VALUES ('raw-defctx', 'none') RETURNING context, compatibility;
DELETE FROM registry.config WHERE subject = 'raw-defctx';
-- A schema row names no subject: its context takes it when a subject of it
-- could take the version.  An explicit id needs the context, or a subject
-- of it, importing; a read-only context takes a new schema only when a
-- subject of it sets a writable mode for itself.
SELECT regress.try($$INSERT INTO registry.schemas (context, id, schema) VALUES ('.raw6', 900001, '"string"')$$) AS explicit_id_not_importing;
INSERT INTO registry.modes (context, subject, mode) VALUES ('.raw6', 'imp', 'IMPORT');
SELECT regress.try($$INSERT INTO registry.schemas (context, id, schema) VALUES ('.raw6', 900001, '"string"')$$) AS explicit_id_subject_importing;
SELECT registry.register_schema(':.raw6:imp', '"boolean"', id => 900002) AS imported_id;
DELETE FROM registry.modes WHERE context = '.raw6';
INSERT INTO registry.modes (context, subject, mode) VALUES ('.raw6', '', 'READONLY');
SELECT regress.try($$INSERT INTO registry.schemas (context, schema) VALUES ('.raw6', '"bytes"')$$) AS readonly_context;
INSERT INTO registry.modes (context, subject, mode) VALUES ('.raw6', 'rw', 'READWRITE');
SELECT regress.try($$INSERT INTO registry.schemas (context, schema) VALUES ('.raw6', '"bytes"')$$) AS readonly_context_writable_subject;
SELECT registry.register_schema(':.raw6:rw', '"int"') > 0 AS writable_subject_registers;
SELECT regress.try($$SELECT registry.register_schema(':.raw6:other', '"long"')$$) AS read_only_subject_refused;
DELETE FROM registry.modes WHERE context = '.raw6';
-- A raw insert of what a registration parsed, after the savepoint that made
-- its reference was rolled back: the reference must still resolve (a
-- parse with references is never taken as read)
BEGIN;
SAVEPOINT before_dep;
SELECT registry.register_schema('raw-dep', '{"type":"fixed","name":"RawDep","size":2}') > 0 AS dep;
SELECT registry.register_schema('raw-user', '{"type":"record","name":"RawUser","fields":[{"name":"d","type":"RawDep"}]}',
	refs => '[{"name":"RawDep","subject":"raw-dep","version":1}]') > 0 AS user_registered;
SELECT s.schema AS raw_user_schema, s.refs::text AS raw_user_refs, encode(s.fingerprint, 'hex') AS raw_user_fp
	FROM registry.schemas s WHERE s.schema LIKE '%RawUser%' \gset
ROLLBACK TO before_dep;
SELECT regress.try(format($$INSERT INTO registry.schemas (context, schema, refs, fingerprint) VALUES ('.', %L, %L, decode(%L, 'hex'))$$,
	:'raw_user_schema', :'raw_user_refs', :'raw_user_fp')) AS rolled_back_reference;
ROLLBACK;
