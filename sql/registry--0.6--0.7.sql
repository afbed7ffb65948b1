/*
 * registry--0.6--0.7.sql: from 0.6 to 0.7.
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION registry UPDATE TO '0.7'" to load this file. \quit

-- issue 32 part 3: Confluent's guid for every schema (see registry--0.7.sql).
CREATE FUNCTION registry.schema_guid(schema text, refs jsonb DEFAULT '[]',
									 metadata jsonb DEFAULT NULL, rule_set jsonb DEFAULT NULL)
	RETURNS uuid
	AS 'MODULE_PATHNAME', 'registry_schema_guid'
	LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) IS 'Confluent''s guid of a schema text as given, with its references, metadata and rule set (a stored schema''s guid is this of its stored text)';
REVOKE ALL ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) TO registry_reader;
-- 0.6 stored another identity for a schema with references, metadata or a
-- rule set: those rows get Confluent's guid (schemas are otherwise
-- immutable, so the trigger that says so is off for this one statement)
ALTER TABLE registry.schemas DISABLE TRIGGER schemas_before_write;
UPDATE registry.schemas s
   SET fingerprint = pg_catalog.uuid_send(registry.schema_guid(s.schema, s.refs, s.metadata, s.rule_set))
 WHERE s.refs <> '[]'::jsonb OR s.metadata IS NOT NULL OR s.rule_set IS NOT NULL;
ALTER TABLE registry.schemas ENABLE TRIGGER schemas_before_write;
