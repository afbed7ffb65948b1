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
