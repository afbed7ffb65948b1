-- The catalog's point reads are index scans (catalog_scan.c), not SQL:
-- they must answer as the statements they replaced.  A backend remembers
-- each subject's newest version number as a hint for the next read; the
-- answers must not depend on it.
CREATE FUNCTION regress.rec(n int) RETURNS text LANGUAGE sql AS $$
	SELECT format('{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"f%s","type":["null","int"],"default":null}]}', n)
$$;
SELECT registry.set_compatibility('NONE', 'reads-a') IS NOT NULL AS level_set;
SELECT count(registry.register_schema('reads-a', regress.rec(k))) AS registered FROM generate_series(1, 3) k;
SELECT version FROM registry.get_version('reads-a');
-- the newest version soft-deleted: the hint (3) finds no live version at or above it
SELECT count(*) AS deleted FROM registry.delete_version('reads-a', '3');
SELECT version FROM registry.get_version('reads-a');
SELECT version FROM registry.get_version('reads-a', '3', deleted => true);
-- and removed for good: nothing at or above the hint
SELECT count(*) AS removed FROM registry.delete_version('reads-a', '3', permanent => true);
SELECT version FROM registry.get_version('reads-a');
-- the next version counts from the versions there are
SELECT subject_version FROM registry.register_schema_version('reads-a', regress.rec(4));
SELECT registry.delete_config('reads-a') IS NOT NULL AS config_removed;
-- every version soft-deleted: no latest (40401), but deleted ones when asked
SELECT count(*) AS deleted FROM registry.delete_subject('reads-a');
\set VERBOSITY terse
SELECT count(*) AS live FROM registry.versions('reads-a');
SELECT version FROM registry.get_version('reads-a');
\set VERBOSITY default
SELECT count(*) AS all_versions FROM registry.versions('reads-a', deleted => true);
-- a deleted schema registered again: a new version, not the deleted one
SELECT subject_version FROM registry.register_schema_version('reads-a', regress.rec(2));
SELECT version FROM registry.get_version('reads-a');
SELECT count(*) AS versions_deleted FROM registry.delete_subject('reads-a');
SELECT count(*) AS versions_forgotten FROM registry.delete_subject('reads-a', permanent => true);

-- a DBA's raw INSERT is seen by the reads that follow in its transaction
BEGIN;
SELECT registry.set_compatibility('NONE', 'reads-b') IS NOT NULL AS level_set;
SELECT registry.register_schema('reads-b', regress.rec(1)) > 0 AS registered;
SELECT registry.register_schema('reads-c', regress.rec(9)) AS c_id \gset
INSERT INTO registry.subject_versions (subject, schema_id) VALUES ('reads-b', :c_id);
SELECT version, id = :c_id AS inserted_schema FROM registry.get_version('reads-b');
SELECT subject_version FROM registry.register_schema_version('reads-b', regress.rec(9));
ROLLBACK;
\set VERBOSITY terse
SELECT count(*) AS after_rollback FROM registry.versions('reads-b');
\set VERBOSITY default

-- reads check the role's privileges as the statements did
CREATE ROLE regress_reads_nobody;
GRANT registry_reader TO regress_reads_nobody;
REVOKE SELECT ON registry.config FROM registry_reader;
SET ROLE regress_reads_nobody;
\set VERBOSITY terse
SELECT registry.get_compatibility('reads-d');
\set VERBOSITY default
RESET ROLE;
GRANT SELECT ON registry.config TO registry_reader;
SET ROLE regress_reads_nobody;
SELECT registry.get_compatibility('reads-d');
RESET ROLE;
DROP ROLE regress_reads_nobody;

-- row-level security on a registry table is refused, not read past
ALTER TABLE registry.config ENABLE ROW LEVEL SECURITY;
CREATE ROLE regress_reads_rls;
GRANT registry_reader TO regress_reads_rls;
SET ROLE regress_reads_rls;
\set VERBOSITY terse
SELECT registry.get_compatibility('reads-d');
\set VERBOSITY default
RESET ROLE;
ALTER TABLE registry.config DISABLE ROW LEVEL SECURITY;
DROP ROLE regress_reads_rls;

-- an index of the name the scans use, made again by hand with other key
-- columns, is refused rather than read with the wrong keys
BEGIN;
ALTER INDEX registry.config_pkey RENAME TO config_pkey_kept;
CREATE UNIQUE INDEX config_pkey ON registry.config (subject, context);
\set VERBOSITY terse
SELECT registry.get_compatibility('reads-d');
\set VERBOSITY default
ROLLBACK;
SELECT registry.get_compatibility('reads-d');
-- so is the stored-text index made again keeping other rows than the ones
-- with metadata; one keeping every row (as made before) is read as well
BEGIN;
ALTER INDEX registry.schemas_text_idx RENAME TO schemas_text_idx_kept;
CREATE INDEX schemas_text_idx ON registry.schemas (pg_catalog.md5(schema), context) WHERE rule_set IS NOT NULL;
\set VERBOSITY terse
SELECT registry.register_schema('reads-text', '"int"');
\set VERBOSITY default
ROLLBACK;
BEGIN;
ALTER INDEX registry.schemas_text_idx RENAME TO schemas_text_idx_kept;
CREATE INDEX schemas_text_idx ON registry.schemas (pg_catalog.md5(schema), context);
SELECT registry.register_schema('reads-text', '"int"') AS text_v1 \gset
SELECT registry.register_schema('reads-text', '"int"', 'AVRO', '[]', false,
	'{"properties":{"owner":"o"}}') <> :text_v1 AS other_metadata_new_id;
SELECT registry.register_schema('reads-text', '"int"', 'AVRO', '[]', false,
	'{"properties":{"confluent:version":"1"}}') = :text_v1 AS cv_is_v1,
	registry.register_schema('reads-text', '"int"', 'AVRO', '[]', false,
	'{"properties":{"owner":"o","confluent:version":"5"}}') <> :text_v1 AS cv_owner_is_v2;
SELECT version FROM registry.subject_versions WHERE subject = 'reads-text' ORDER BY version;
ROLLBACK;
-- so is an index of another access method with the registry's key
-- columns: an ordered scan relies on a B-tree's order
SELECT registry.register_schema('reads-brin', '"int"') > 0 AS registered;
BEGIN;
ALTER INDEX registry.subject_versions_schema_idx RENAME TO subject_versions_schema_idx_kept;
CREATE INDEX subject_versions_schema_idx ON registry.subject_versions USING brin (context, schema_id);
\set VERBOSITY terse
SELECT registry.register_schema('reads-brin-2', '"int"');
\set VERBOSITY default
ROLLBACK;
-- and a table whose column is no longer where the registry reads it
-- (dropped and added again, at the end): an error, not a read of another
-- column
BEGIN;
ALTER TABLE registry.config DROP COLUMN normalize;
ALTER TABLE registry.config ADD COLUMN normalize boolean;
\set VERBOSITY terse
SELECT registry.get_compatibility('reads-d');
\set VERBOSITY default
ROLLBACK;
SELECT registry.get_compatibility('reads-d');
-- get_version and resolve_version are the C reads of GET
-- /subjects/{s}/versions/{v}: the same rows and errors as that route, a
-- NULL argument an error
SELECT count(registry.register_schema('reads-c', regress.rec(k))) AS registered FROM generate_series(1, 2) k;
SELECT count(*) AS deleted FROM registry.delete_version('reads-c', '2');
SELECT subject, version, schema_type, refs, metadata, rule_set, deleted FROM registry.get_version('reads-c');
SELECT version, deleted FROM registry.get_version('reads-c', '-1', deleted => true);
SELECT * FROM registry.resolve_version('reads-c', 'latest');
SELECT * FROM registry.resolve_version('reads-c', 'LATEST', true);
SELECT (registry.get_version('reads-c', '1')).schema = (SELECT schema FROM registry.schemas s
	JOIN registry.subject_versions v ON v.context = s.context AND v.schema_id = s.id
	WHERE v.subject = 'reads-c' AND v.version = 1) AS stored_text;
SELECT regress.try($$SELECT registry.resolve_version('reads-c', '2')$$);
SELECT regress.try($$SELECT registry.resolve_version('reads-none', '1')$$);
SELECT regress.try($$SELECT registry.resolve_version('reads-c', 'x')$$);
SELECT regress.try($$SELECT registry.get_version(NULL)$$);
SELECT regress.try($$SELECT registry.get_version('reads-c', NULL)$$);
SELECT regress.try($$SELECT registry.resolve_version(NULL, '1')$$);
SELECT count(*) AS rows FROM registry.get_version('reads-c', '1', NULL);
-- A transitive check reads each version's schema where this backend last
-- found its row (a hint) and its parsed form from the backend's cache; its
-- answers must not depend on either, when rows move or an id is given to
-- other content.
CREATE FUNCTION regress.trec(n int, a_type text DEFAULT 'int') RETURNS text LANGUAGE sql AS $$
	SELECT format('{"type":"record","name":"T","fields":[{"name":"a","type":"%s"},{"name":"t%s","type":["null","int"],"default":null}]}', a_type, n)
$$;
SELECT registry.set_compatibility('NONE', 'reads-t') IS NOT NULL AS level_set;
SELECT count(registry.register_schema('reads-t', regress.trec(k))) AS registered FROM generate_series(1, 3) k;
SELECT registry.set_compatibility('BACKWARD_TRANSITIVE', 'reads-t') IS NOT NULL AS level_set;
SELECT is_compatible FROM registry.check_compatibility('reads-t', regress.trec(4), version => NULL);
-- every row moved: the hints lead nowhere or to other rows
VACUUM FULL registry.schemas;
SELECT is_compatible FROM registry.check_compatibility('reads-t', regress.trec(4), version => NULL);
SELECT is_compatible, cardinality(messages) > 0 AS has_messages
  FROM registry.check_compatibility('reads-t', regress.trec(4, 'string'), version => NULL,
		verbose => true);
-- version 3's id, freed by a hard delete, imported again with a: string
SELECT id AS t3_id FROM registry.get_version('reads-t', '3') \gset
SELECT count(*) AS deleted FROM registry.delete_version('reads-t', '3');
SELECT count(*) AS removed FROM registry.delete_version('reads-t', '3', permanent => true);
SELECT count(*) AS schema_rows FROM registry.schemas WHERE context = '.' AND id = :t3_id;
SELECT registry.set_mode('IMPORT', force => true);
-- (every version checked: version => NULL; the default is the latest)
-- by raw INSERTs, which leave this backend's cache as it was
INSERT INTO registry.schemas (id, schema) VALUES (:t3_id, regress.trec(3, 'string'));
INSERT INTO registry.subject_versions (subject, version, schema_id) VALUES ('reads-t', 4, :t3_id);
SELECT registry.delete_mode();
-- the check reads version 4 as it now is: an int cannot read its string,
-- nor a string the ints of versions 1 and 2
SELECT is_compatible FROM registry.check_compatibility('reads-t', regress.trec(5), version => NULL);
SELECT is_compatible FROM registry.check_compatibility('reads-t', regress.trec(5, 'string'), version => NULL);
SELECT registry.set_compatibility('NONE', 'reads-t') IS NOT NULL AS level_set;
SELECT count(*) AS deleted FROM registry.delete_subject('reads-t');
SELECT count(*) AS removed FROM registry.delete_subject('reads-t', permanent => true);
-- the latest version is read by the scan that finds it: one scan of the
-- versions' index for "latest", live, and with the deleted ones after the
-- newest is soft-deleted, and one of the schemas' for its row (counted by
-- the statistics, flushed by each transaction)
SELECT registry.set_compatibility('NONE', 'reads-l') IS NOT NULL AS level_set;
SELECT count(registry.register_schema('reads-l', regress.rec(k))) AS registered FROM generate_series(1, 2) k;
SELECT pg_stat_force_next_flush();
SELECT regress.scans_mark();
SELECT version FROM registry.get_version('reads-l');
SELECT pg_stat_force_next_flush();
SELECT * FROM regress.scans_since();
SELECT count(*) AS deleted FROM registry.delete_version('reads-l', '2');
SELECT pg_stat_force_next_flush();
SELECT regress.scans_mark();
SELECT version, deleted FROM registry.get_version('reads-l', 'latest', deleted => true);
SELECT pg_stat_force_next_flush();
SELECT * FROM regress.scans_since();
SELECT registry.delete_config('reads-l') IS NOT NULL AS config_removed;
SELECT count(*) AS deleted FROM registry.delete_subject('reads-l');
SELECT count(*) AS removed FROM registry.delete_subject('reads-l', permanent => true);
DROP FUNCTION regress.trec(int, text);
DROP FUNCTION regress.rec(int);
