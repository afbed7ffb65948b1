/*
 * registry--0.6--0.7.sql: from 0.6 to 0.7.
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION registry UPDATE TO '0.7'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- CloudEvents envelopes (registry.cloudevent, registry.cloudevent_data)
-- ---------------------------------------------------------------------------
CREATE FUNCTION registry.cloudevent(subject text, value jsonb, type text, source text,
	version text DEFAULT 'latest', message text DEFAULT NULL, extensions jsonb DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_cloudevent'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.cloudevent(text, jsonb, text, text, text, text, jsonb)
	IS 'a CloudEvents 1.0 envelope (JSON format) of a value encoded as registry.encode encodes it: id, source, type, specversion, time, datacontenttype, dataschema (where the registry serves the schema), data (JSON Schema) or data_base64 (the wire-format message), and extension attributes';

CREATE FUNCTION registry.cloudevent_data(envelope jsonb)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_cloudevent_data'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.cloudevent_data(jsonb)
	IS 'the value of a CloudEvents envelope that registry.cloudevent made: data_base64 decoded with its writer''s schema, JSON data checked against the schema its dataschema names';

REVOKE ALL ON FUNCTION registry.cloudevent(text, jsonb, text, text, text, text, jsonb),
	registry.cloudevent_data(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.cloudevent(text, jsonb, text, text, text, text, jsonb),
	registry.cloudevent_data(jsonb) TO registry_reader;

-- The reads are C services (src/pg/schema_service.c, read_service.c) that the
-- SQL functions wrap as the REST routes call them: same signatures,
-- volatility and grants, no PL/pgSQL or SQL body
CREATE OR REPLACE FUNCTION registry.schema_by_id(id integer, subject text DEFAULT NULL)
	RETURNS registry.schema_info
	AS 'MODULE_PATHNAME', 'registry_schema_by_id_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.latest_with_metadata(subject text, properties jsonb, deleted boolean DEFAULT false)
	RETURNS registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_latest_with_metadata_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.referenced_by(subject text, version text DEFAULT 'latest')
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_referenced_by_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.schema_by_guid(guid uuid)
	RETURNS registry.schema_info
	AS 'MODULE_PATHNAME', 'registry_schema_by_guid_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.schema_ids_by_guid(guid uuid, OUT context text, OUT id integer)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_schema_ids_by_guid_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.list_schemas(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	latest_only boolean DEFAULT false)
	RETURNS SETOF registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_list_schemas_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.list_schemas_with_aliases(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	latest_only boolean DEFAULT false)
	RETURNS TABLE (schema_version registry.subject_version, aliases text[])
	AS 'MODULE_PATHNAME', 'registry_list_schemas_with_aliases_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.schema_versions(id integer, subject text DEFAULT NULL, deleted boolean DEFAULT false,
	OUT subject_name text, OUT version integer)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_schema_versions_sql'
	LANGUAGE C STABLE;

-- registry.schemas.guid is computed by the C code's one function of it: the
-- generated column is made again over it (PostgreSQL 15 cannot change a
-- generation expression in place), still the table's last column
CREATE FUNCTION registry.fingerprint_guid(fingerprint bytea) RETURNS uuid
	AS 'MODULE_PATHNAME', 'registry_fingerprint_guid_sql'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.fingerprint_guid(bytea) IS 'Confluent''s guid of a schema from its fingerprint (the generated column registry.schemas.guid)';
REVOKE ALL ON FUNCTION registry.fingerprint_guid(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.fingerprint_guid(bytea) TO registry_reader;
ALTER TABLE registry.schemas DROP COLUMN guid;
ALTER TABLE registry.schemas ADD COLUMN guid uuid GENERATED ALWAYS AS (registry.fingerprint_guid(fingerprint)) STORED;
COMMENT ON COLUMN registry.schemas.guid IS 'the fingerprint as a UUID: Confluent''s guid of the schema, the same in every context that has it';

-- the references of a new schema as rows: C triggers (reference_triggers.c)
CREATE OR REPLACE FUNCTION registry.schemas_after_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schemas_after_insert'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
CREATE OR REPLACE FUNCTION registry.schema_references_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schema_references_before_insert'
	LANGUAGE C;

-- issue 33, item 3 (a lookup of the exact text without a parse): whether a
-- schema's stored text is shown to be its own stored form when parsed
-- without references, without normalize (parses_to_itself) and with it
-- (normalizes_to_itself).  The insert trigger sets both from the parse that
-- made the row, never from what an insert says; a row stored before 0.7
-- has neither, and a lookup of its text is parsed as before.
ALTER TABLE registry.schemas
	ADD COLUMN parses_to_itself boolean NOT NULL DEFAULT false,
	ADD COLUMN normalizes_to_itself boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN registry.schemas.parses_to_itself IS 'the schema text, parsed without normalize or references, gives itself back as its stored form (set by the insert trigger)';
COMMENT ON COLUMN registry.schemas.normalizes_to_itself IS 'the same, parsed with normalize (set by the insert trigger)';
