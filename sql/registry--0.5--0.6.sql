/*
 * registry--0.5--0.6.sql: from 0.5 to 0.6.
 *
 * 0.6 serves the config, mode and delete operations and the reads
 * (subjects, versions, list_contexts) from C, one function per Confluent operation that the REST routes call too (the PL/pgSQL
 * bodies go; a function's comment, grants and signature stay).  IMPORT
 * over live subjects without force is refused by set_mode() itself, no
 * longer through the registry.force_mode setting.  The rules of new
 * contexts and subjects and of soft and hard deletes are C triggers too.
 * The audit trail (registry.audit, its triggers, registry.purge_audit())
 * is new.
 *
 * Every change to registry--0.6.sql is made here too
 * (test/tap/t/090_upgrade.pl compares the two catalogs).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.6'" to load this file. \quit

-- Config, mode and deletes: C functions shared with the REST routes
CREATE OR REPLACE FUNCTION registry.delete_version(subject text, version text, permanent boolean DEFAULT false)
	RETURNS integer
	AS 'MODULE_PATHNAME', 'registry_delete_version_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.delete_subject(subject text, permanent boolean DEFAULT false)
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_delete_subject_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.set_compatibility(level text, subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_set_compatibility_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.get_compatibility(subject text DEFAULT NULL, default_to_global boolean DEFAULT true)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_get_compatibility_sql'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.delete_compatibility(subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_delete_compatibility_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.set_mode(mode text, subject text DEFAULT NULL, force boolean DEFAULT false)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_set_mode_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.get_mode(subject text DEFAULT NULL, default_to_global boolean DEFAULT true)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_get_mode_sql'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.delete_mode(subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_delete_mode_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.get_config(subject text DEFAULT NULL, default_to_global boolean DEFAULT false)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_get_config_sql'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.set_config(subject text, config jsonb)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_set_config_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.delete_config(subject text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_delete_config_sql'
	LANGUAGE C VOLATILE;

-- Reads: C functions shared with the REST routes
CREATE OR REPLACE FUNCTION registry.list_contexts()
	RETURNS SETOF text
	AS 'MODULE_PATHNAME', 'registry_list_contexts_sql'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.subjects(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false, deleted_only boolean DEFAULT false)
	RETURNS SETOF text
	AS 'MODULE_PATHNAME', 'registry_subjects_sql'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.versions(subject text, deleted boolean DEFAULT false, deleted_only boolean DEFAULT false)
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_versions_sql'
	LANGUAGE C STABLE;

-- The rules of contexts, subjects and deletes: C triggers
CREATE OR REPLACE FUNCTION registry.contexts_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_contexts_before_insert'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
CREATE OR REPLACE FUNCTION registry.check_not_referenced(context text, subject text, version integer, live_only boolean) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_check_not_referenced_sql'
	LANGUAGE C STABLE STRICT;
CREATE OR REPLACE FUNCTION registry.versions_before_update() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_before_update'
	LANGUAGE C;
CREATE OR REPLACE FUNCTION registry.versions_before_delete() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_before_delete'
	LANGUAGE C;
CREATE OR REPLACE FUNCTION registry.versions_after_delete() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_after_delete'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
CREATE OR REPLACE FUNCTION registry.subjects_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_subjects_before_insert'
	LANGUAGE C;
CREATE OR REPLACE FUNCTION registry.subjects_before_update() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_subjects_before_update'
	LANGUAGE C;

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
