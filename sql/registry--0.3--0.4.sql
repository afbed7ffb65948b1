/*
 * registry--0.3--0.4.sql: from 0.3 to 0.4.
 *
 * 0.4 reads versions in C (resolve_version, get_version); the rest of its
 * catalog is 0.3's as its script now stands.  Installs of 0.3 made
 * with that script's earlier forms (2026-12-01 and 2026-12-02) lack some
 * of it; each statement here brings one difference to 0.4 and leaves an
 * install that already has it as it is, so that ALTER EXTENSION registry
 * UPDATE gives every 0.3 the catalog of a fresh 0.4 install
 * (test/tap/t/090_upgrade.pl compares their pg_dump --schema-only).
 * Every change to registry--0.4.sql is made here too.
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.4'" to load this file. \quit

-- Lookups by guid go by the fingerprint, whose bytes the guid is, through
-- the (fingerprint, context) key: the guid's own index was one more to keep
-- up on every schema written
DROP INDEX IF EXISTS registry.schemas_guid_idx;

-- The stored-text index keeps only schemas with a data contract: one
-- without metadata or rule set is found by its fingerprint.  Made again
-- unless it is already so (the build locks registry.schemas against writes
-- while it runs).
DO $$
DECLARE
	idx regclass := pg_catalog.to_regclass('registry.schemas_text_idx');
BEGIN
	IF idx IS NOT NULL AND EXISTS (SELECT 1 FROM pg_catalog.pg_index i
								   WHERE i.indexrelid = idx AND pg_catalog.pg_get_expr(i.indpred, i.indrelid) =
									   '((metadata IS NOT NULL) OR (rule_set IS NOT NULL))') THEN
		RETURN;
	END IF;
	DROP INDEX IF EXISTS registry.schemas_text_idx;
	CREATE INDEX schemas_text_idx ON registry.schemas (pg_catalog.md5(schema), context)
		WHERE metadata IS NOT NULL OR rule_set IS NOT NULL;
END
$$;

-- A mode written tells the settings caches at commit, as a config written
-- does
CREATE OR REPLACE TRIGGER modes_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.modes
	FOR EACH ROW EXECUTE FUNCTION registry.config_after_write();
ALTER TABLE registry.modes ENABLE ALWAYS TRIGGER modes_after_write;
CREATE OR REPLACE TRIGGER modes_after_truncate AFTER TRUNCATE ON registry.modes
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.modes ENABLE ALWAYS TRIGGER modes_after_truncate;
COMMENT ON FUNCTION registry.config_after_write() IS 'tells the processes that cache schema answers and settings, at commit, that a config (a subject''s alias, a setting) or a mode changed';

CREATE OR REPLACE FUNCTION registry.schema_by_guid(guid uuid)
	RETURNS registry.schema_info
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	result registry.schema_info;
BEGIN
	SELECT s.id, s.schema_type, s.schema, s.refs, s.metadata, s.rule_set, s.guid, s.context,
		   NULL, NULL, NULL, s.created_at
	  INTO result
	  FROM registry.schemas s WHERE s.fingerprint = pg_catalog.uuid_send(schema_by_guid.guid)
	 ORDER BY s.context <> '.', s.context LIMIT 1;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'schema % not found', schema_by_guid.guid USING ERRCODE = 'R0403';
	END IF;
	RETURN result;
END
$$;

CREATE OR REPLACE FUNCTION registry.schema_ids_by_guid(guid uuid, OUT context text, OUT id integer)
	RETURNS SETOF record
	LANGUAGE sql STABLE
	BEGIN ATOMIC
		SELECT s.context, s.id FROM registry.schemas s
		 WHERE s.fingerprint = pg_catalog.uuid_send(schema_ids_by_guid.guid)
		 ORDER BY s.context, s.id;
	END;

-- Which version a subject's 'latest', -1 or N names, and that version's
-- row, are read by the C code that serves GET /subjects/{s}/versions/{v}:
-- Confluent's 40401 and 40402 have one home
CREATE OR REPLACE FUNCTION registry.resolve_version(subject text, version text, deleted boolean DEFAULT false,
	OUT context text, OUT subject_name text, OUT version_number integer)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_resolve_version'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.get_version(subject text, version text DEFAULT 'latest', deleted boolean DEFAULT false)
	RETURNS registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_get_version'
	LANGUAGE C STABLE;
