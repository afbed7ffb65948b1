/*
 * registry--0.2--0.3.sql: from 0.2 to 0.3.
 *
 * Every change to registry--0.3.sql is made here too, so that ALTER
 * EXTENSION registry UPDATE gives the catalog a fresh 0.3 install has
 * (test/tap/t/090_upgrade.pl compares their pg_dump --schema-only).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.3'" to load this file. \quit

-- A subject version written tells the caches of subject answers at commit (a
-- row trigger, enabled ALWAYS), and so does a TRUNCATE of a table they read
-- from (statement triggers, enabled ALWAYS)
CREATE FUNCTION registry.versions_after_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_after_write' LANGUAGE C;
COMMENT ON FUNCTION registry.versions_after_write() IS 'tells the processes that cache subject answers (latest version, lookup), at commit, that a subject version was written (also when a subscriber applies it)';
REVOKE ALL ON FUNCTION registry.versions_after_write() FROM PUBLIC;
CREATE TRIGGER versions_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.subject_versions
	FOR EACH ROW EXECUTE FUNCTION registry.versions_after_write();
ALTER TABLE registry.subject_versions ENABLE ALWAYS TRIGGER versions_after_write;
CREATE FUNCTION registry.caches_after_truncate() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_caches_after_truncate' LANGUAGE C;
COMMENT ON FUNCTION registry.caches_after_truncate() IS 'tells the processes that cache schema content and subject answers, at commit, that a table they read from was truncated (also when a subscriber applies it)';
REVOKE ALL ON FUNCTION registry.caches_after_truncate() FROM PUBLIC;
CREATE TRIGGER schemas_after_truncate AFTER TRUNCATE ON registry.schemas
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.schemas ENABLE ALWAYS TRIGGER schemas_after_truncate;
CREATE TRIGGER versions_after_truncate AFTER TRUNCATE ON registry.subject_versions
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.subject_versions ENABLE ALWAYS TRIGGER versions_after_truncate;
CREATE TRIGGER config_after_truncate AFTER TRUNCATE ON registry.config
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.config ENABLE ALWAYS TRIGGER config_after_truncate;
-- a mode written tells the settings caches at commit, as a config written does
CREATE TRIGGER modes_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.modes
	FOR EACH ROW EXECUTE FUNCTION registry.config_after_write();
ALTER TABLE registry.modes ENABLE ALWAYS TRIGGER modes_after_write;
CREATE TRIGGER modes_after_truncate AFTER TRUNCATE ON registry.modes
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.modes ENABLE ALWAYS TRIGGER modes_after_truncate;
COMMENT ON FUNCTION registry.config_after_write() IS 'tells the processes that cache schema answers and settings, at commit, that a config (a subject''s alias, a setting) or a mode changed';

-- Payloads in SQL: values as jsonb, messages in the wire format ---------------

CREATE FUNCTION registry.encode(subject text, value jsonb, version text DEFAULT 'latest',
	message text DEFAULT NULL)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'registry_encode'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.encode(text, jsonb, text, text)
	IS 'a value checked against a subject version''s schema and encoded as a Confluent wire-format message (message: the PROTOBUF message, by default the first)';

CREATE FUNCTION registry.decode(payload bytea)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_decode'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.decode(bytea)
	IS 'a Confluent wire-format message decoded with the schema its id names (the default context, else the first context that has the id)';

CREATE FUNCTION registry.decode(payload bytea, subject text, version text DEFAULT 'latest')
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_decode_as'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.decode(bytea, text, text)
	IS 'a Confluent wire-format message read as a subject version''s schema reads it (schema resolution: defaults, promotions, aliases); the writer''s id is looked up in the subject''s context';

CREATE FUNCTION registry.check_data(subject text, schema text, samples bytea[],
	schema_type text DEFAULT 'AVRO', refs jsonb DEFAULT '[]')
	RETURNS TABLE(path text, outcome text, samples integer, first_sample integer)
	AS 'MODULE_PATHNAME', 'registry_check_data'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.check_data(text, text, bytea[], text, jsonb)
	IS 'stored wire-format messages read with a proposed schema as the reader: per path, what falls back to a default, is dropped or cannot be read, and how many samples';

REVOKE ALL ON FUNCTION registry.encode(text, jsonb, text, text),
	registry.decode(bytea), registry.decode(bytea, text, text),
	registry.check_data(text, text, bytea[], text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.encode(text, jsonb, text, text),
	registry.decode(bytea), registry.decode(bytea, text, text),
	registry.check_data(text, text, bytea[], text, jsonb) TO registry_reader;

-- Lookups by guid go by the fingerprint, whose bytes the guid is, through
-- the (fingerprint, context) key: the guid's own index was one more to keep
-- up on every schema written
DROP INDEX registry.schemas_guid_idx;

-- The stored-text index keeps only schemas with a data contract: one
-- without metadata or rule set is found by its fingerprint
DROP INDEX registry.schemas_text_idx;
CREATE INDEX schemas_text_idx ON registry.schemas (pg_catalog.md5(schema), context)
	WHERE metadata IS NOT NULL OR rule_set IS NOT NULL;

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
COMMENT ON FUNCTION registry.schema_by_guid(uuid) IS 'the schema with this guid: in the default context, else in the first context that has it';

CREATE OR REPLACE FUNCTION registry.schema_ids_by_guid(guid uuid, OUT context text, OUT id integer)
	RETURNS SETOF record
	LANGUAGE sql STABLE
	BEGIN ATOMIC
		SELECT s.context, s.id FROM registry.schemas s
		 WHERE s.fingerprint = pg_catalog.uuid_send(schema_ids_by_guid.guid)
		 ORDER BY s.context, s.id;
	END;
COMMENT ON FUNCTION registry.schema_ids_by_guid(uuid) IS 'the id the schema with this guid has in each context that has it';
