/*
 * registry--0.5--0.6.sql: from 0.5 to 0.6.
 *
 * Every change to registry--0.6.sql is made here too
 * (test/tap/t/090_upgrade.pl compares the two catalogs).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.6'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- Audit trail: every write to the registry's tables (SQL API, REST API, raw
-- DML), who made it and how it ended; announced on NOTIFY registry_changes
-- (src/pg/audit.c)
-- ---------------------------------------------------------------------------

CREATE SEQUENCE registry.audit_ids AS bigint MINVALUE 1;
COMMENT ON SEQUENCE registry.audit_ids IS 'ids of the audit rows';

CREATE TABLE registry.audit (
	id			bigint PRIMARY KEY DEFAULT pg_catalog.nextval('registry.audit_ids'),
	at			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	xact		xid8,
	role		text,
	http_user	text,
	http_peer	text,
	operation	text NOT NULL,
	context		text,
	subject		text,
	version		integer,
	schema_id	integer,
	result		text NOT NULL,
	before		jsonb,
	after		jsonb
);
CREATE INDEX audit_at_idx ON registry.audit (at);
COMMENT ON TABLE registry.audit IS 'the audit trail: each row written to the registry''s tables, and each REST write that failed; written only by the registry''s triggers and REST workers';
COMMENT ON COLUMN registry.audit.at IS 'when the row was written (registry.audit_retention counts from it)';
COMMENT ON COLUMN registry.audit.xact IS 'the transaction that wrote it: the rows of one operation (a subject''s versions and what their delete took along) share it';
COMMENT ON COLUMN registry.audit.role IS 'the role that acted: the session''s (SET ROLE, outside any SECURITY DEFINER function), or the one a REST request ran as; NULL for a request refused before it ran';
COMMENT ON COLUMN registry.audit.http_user IS 'the user of a REST request''s Basic credentials (verified, unless the result says otherwise); NULL for SQL and anonymous requests';
COMMENT ON COLUMN registry.audit.http_peer IS 'the address a REST request came from; NULL for SQL';
COMMENT ON COLUMN registry.audit.operation IS 'object.verb (version.register, version.soft_delete, version.hard_delete, schema.create, subject.delete, config.set, mode.delete, <object>.truncate, ...), or "rest METHOD /route" for a failed REST write';
COMMENT ON COLUMN registry.audit.result IS '"ok", or the Confluent error code a failed REST write answered';
COMMENT ON COLUMN registry.audit.before IS 'the row before the change (NULL for an insert); a schema as its id, type and guid';
COMMENT ON COLUMN registry.audit.after IS 'the row after the change (NULL for a delete); a schema as its id, type and guid';

SELECT pg_catalog.pg_extension_config_dump('registry.audit', '');
SELECT pg_catalog.pg_extension_config_dump('registry.audit_ids', '');

CREATE FUNCTION registry.audit_row() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_audit_row' LANGUAGE C;
COMMENT ON FUNCTION registry.audit_row() IS 'records a row written to one of the registry''s tables in registry.audit (not one a restore brings back) and announces it on registry_changes at commit';

CREATE FUNCTION registry.audit_truncate() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_audit_truncate' LANGUAGE C;
COMMENT ON FUNCTION registry.audit_truncate() IS 'records a truncation of one of the registry''s tables in registry.audit';

CREATE FUNCTION registry.purge_audit(older_than interval) RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_purge_audit'
	LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION registry.purge_audit(interval) IS 'deletes the audit rows older than older_than and returns how many (for a server that runs no REST worker; registry.audit_retention otherwise)';

-- one trigger of each kind on each table, named to fire first among its
-- AFTER triggers: a version's schema is still there when its hard delete
-- is recorded
DO $$
DECLARE
	t record;
BEGIN
	FOR t IN SELECT * FROM (VALUES ('contexts', 'context'), ('schemas', 'schema'),
			('subjects', 'subject'), ('subject_versions', 'version'),
			('config', 'config'), ('modes', 'mode')) AS v(tab, object) LOOP
		EXECUTE pg_catalog.format('CREATE TRIGGER audit_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.%I'
								  ' FOR EACH ROW EXECUTE FUNCTION registry.audit_row(%L)', t.tab, t.object);
		EXECUTE pg_catalog.format('CREATE TRIGGER audit_after_truncate AFTER TRUNCATE ON registry.%I'
								  ' FOR EACH STATEMENT EXECUTE FUNCTION registry.audit_truncate(%L)', t.tab, t.object);
	END LOOP;
END
$$;

-- admins read the trail; nobody but its owner writes it (the triggers and
-- workers insert and delete as the owner); purge_audit is a superuser's
-- unless granted
REVOKE ALL ON registry.audit, registry.audit_ids FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION registry.audit_row(), registry.audit_truncate(),
	registry.purge_audit(interval) FROM PUBLIC;
GRANT SELECT ON registry.audit TO registry_admin;
