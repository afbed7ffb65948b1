/*
 * registry--0.1--0.2.sql: from 0.1 to 0.2.
 *
 * Every change to registry--0.2.sql is made here too, so that ALTER
 * EXTENSION registry UPDATE gives the catalog a fresh 0.2 install has
 * (test/tap/t/090_upgrade.pl compares their pg_dump --schema-only).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.2'" to load this file. \quit

-- registry.lint(): the semantic lints, off by default in registration
CREATE FUNCTION registry.lint(
	subject text, schema text, schema_type text DEFAULT 'AVRO',
	refs jsonb DEFAULT '[]')
	RETURNS SETOF text
	AS 'MODULE_PATHNAME', 'registry_lint'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.lint(text, text, text, jsonb)
	IS 'the semantic lints of a schema against every live version of a subject (an Avro rename without an alias, a Protobuf field deleted without reserved, a field number or name used again), whatever the subject''s lint config';

REVOKE ALL ON FUNCTION registry.lint(text, text, text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.lint(text, text, text, jsonb) TO registry_reader;

-- the role the REST API's HTTP workers connect as (registry.http_worker_role):
-- it may log in (a background worker must) but has no password and no
-- privilege; each request runs as its own role (registry.http_auth)
DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'registry_http') THEN
		CREATE ROLE registry_http LOGIN NOINHERIT;
	END IF;
END
$$;
