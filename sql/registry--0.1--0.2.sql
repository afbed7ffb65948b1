/*
 * registry--0.1--0.2.sql: from 0.1 to 0.2.
 *
 * Every change to registry--0.2.sql is made here too, so that ALTER
 * EXTENSION registry UPDATE gives the catalog a fresh 0.2 install has
 * (test/tap/t/090_upgrade.pl compares their pg_dump --schema-only).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.2'" to load this file. \quit

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
