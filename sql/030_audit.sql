-- The audit trail (registry.audit): every write through the SQL API and raw
-- DML is recorded with the role that acted, its target and the row before
-- and after; admins read it, nobody else; old rows are purged; restored rows
-- are not recorded again.
\set SHOW_CONTEXT never
CREATE ROLE regress_audit_admin IN ROLE registry_admin;
CREATE ROLE regress_audit_writer IN ROLE registry_writer;
CREATE ROLE regress_audit_reader IN ROLE registry_reader;
GRANT USAGE ON SCHEMA regress TO regress_audit_admin, regress_audit_writer, regress_audit_reader;
SELECT COALESCE(max(id), 0) AS mark FROM registry.audit \gset
-- the audit rows since the mark, without what changes from run to run
CREATE FUNCTION regress.audit_since(mark bigint) RETURNS TABLE (
	operation text, role text, http_user text, http_peer text, context text, subject text,
	version integer, has_id boolean, result text, before jsonb, after jsonb)
	LANGUAGE sql AS $$
	SELECT a.operation, CASE WHEN a.role = current_user THEN '(superuser)' ELSE a.role END,
		   a.http_user, a.http_peer, a.context, a.subject, a.version, a.schema_id IS NOT NULL,
		   a.result,
		   a.before - '{created_at,updated_at,schema_id,id,guid,text_key}'::text[],
		   a.after - '{created_at,updated_at,schema_id,id,guid,text_key}'::text[]
	  FROM registry.audit a WHERE a.id > mark ORDER BY a.id
$$;

-- SQL API writes: a registration (a new subject and a new schema), the same
-- schema again (nothing written, nothing recorded), a second version
SET ROLE regress_audit_writer;
SELECT registry.register_schema('audit-value', '{"type":"record","name":"A","fields":[{"name":"a","type":"int"}]}') > 0 AS registered;
SELECT registry.register_schema('audit-value', '{"type":"record","name":"A","fields":[{"name":"a","type":"int"}]}') > 0 AS again;
SELECT registry.register_schema('audit-value', '{"type":"record","name":"A","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}') > 0 AS registered;
RESET ROLE;
SELECT * FROM regress.audit_since(:mark);
-- a version's row names its schema by id, type and guid (never its text)
SELECT (a.after->>'id')::integer = a.schema_id AS same_id, a.after->>'schemaType' AS type,
	   (a.after->>'guid')::uuid = s.guid AS same_guid, a.after ? 'schema' AS has_text
  FROM registry.audit a JOIN registry.schemas s ON s.context = a.context AND s.id = a.schema_id
 WHERE a.id > :mark AND a.operation = 'schema.create' ORDER BY a.id;
SELECT a.after->>'schemaType' AS type, (a.after->>'guid')::uuid = s.guid AS same_guid
  FROM registry.audit a JOIN registry.schemas s ON s.context = a.context AND s.id = a.schema_id
 WHERE a.id > :mark AND a.operation = 'version.register' ORDER BY a.id;
SELECT COALESCE(max(id), 0) AS mark FROM registry.audit \gset

-- config and mode: the old and the new values; soft and hard delete, with
-- what the hard delete takes along, all as the role that acted (the
-- cleanup runs in a SECURITY DEFINER trigger)
SET ROLE regress_audit_admin;
SELECT registry.set_compatibility('NONE', 'audit-value');
SELECT registry.set_compatibility('FULL', 'audit-value');
SELECT registry.set_mode('READONLY', 'audit-value');
SELECT registry.delete_mode('audit-value');
SELECT registry.delete_version('audit-value', '2');
SELECT registry.delete_version('audit-value', '2', true);
SELECT registry.delete_subject('audit-value');
SELECT registry.delete_subject('audit-value', true);
RESET ROLE;
SELECT operation, role, subject, version, before, after FROM regress.audit_since(:mark);
SELECT COALESCE(max(id), 0) AS mark FROM registry.audit \gset

-- the REST API called from SQL is a SQL caller: no HTTP user or peer
SELECT status FROM registry.rest('PUT', '/config/audit-rest', NULL, '{"compatibility":"NONE"}');
SELECT operation, role, http_user, http_peer, subject, after->>'compatibility' AS compatibility
  FROM regress.audit_since(:mark);
SELECT COALESCE(max(id), 0) AS mark FROM registry.audit \gset

-- raw DML is recorded as the API's writes are; a refused write leaves no row
SET ROLE regress_audit_admin;
UPDATE registry.config SET compatibility = 'BACKWARD' WHERE subject = 'audit-rest';
DELETE FROM registry.config WHERE subject = 'audit-rest';
SELECT split_part(regress.try($$INSERT INTO registry.modes (subject, mode) VALUES ('audit-raw', 'WRONG')$$), ':', 1) AS refused;
RESET ROLE;
SELECT operation, role, subject, before->>'compatibility' AS before, after->>'compatibility' AS after
  FROM regress.audit_since(:mark);
-- a truncation is recorded too (rolled back here with what it removed)
BEGIN;
TRUNCATE registry.modes;
SELECT operation, context, subject FROM regress.audit_since(:mark) WHERE operation LIKE '%truncate';
ROLLBACK;
SELECT count(*) AS after_rollback FROM regress.audit_since(:mark) WHERE operation LIKE '%truncate';
SELECT COALESCE(max(id), 0) AS mark FROM registry.audit \gset

-- registry_admin reads the trail and may not write it; readers and writers
-- may not even read it
SET ROLE regress_audit_admin;
SELECT count(*) > 0 AS admin_reads FROM registry.audit;
SELECT regress.try($$INSERT INTO registry.audit (operation, result) VALUES ('forged', 'ok')$$) AS admin_inserts;
SELECT regress.try($$UPDATE registry.audit SET role = 'someone'$$) AS admin_updates;
SELECT regress.try($$DELETE FROM registry.audit$$) AS admin_deletes;
SELECT regress.try($$SELECT registry.purge_audit('1 day')$$) AS admin_purges;
SET ROLE regress_audit_writer;
SELECT regress.try('SELECT count(*) FROM registry.audit') AS writer_reads;
SET ROLE regress_audit_reader;
SELECT regress.try('SELECT count(*) FROM registry.audit') AS reader_reads;
RESET ROLE;

-- retention: purge_audit deletes the rows older than it is given
INSERT INTO registry.audit (at, operation, result) VALUES
	(now() - interval '400 days', 'regress.old', 'ok'),
	(now() - interval '10 days', 'regress.recent', 'ok');
SELECT registry.purge_audit('365 days') AS purged;
SELECT operation FROM registry.audit WHERE operation LIKE 'regress.%' ORDER BY id;
SELECT regress.try($$SELECT registry.purge_audit('-1 day')$$) AS negative;
DELETE FROM registry.audit WHERE operation LIKE 'regress.%';
-- the sweep's setting: a year by default; -1 keeps rows forever, 0 is refused
SHOW registry.audit_retention;
ALTER SYSTEM SET registry.audit_retention = 0;
SELECT COALESCE(max(id), 0) AS mark FROM registry.audit \gset

-- rows a restore brings back (complete, by a superuser, from before the
-- transaction) are not recorded again: their audit rows come with the dump;
-- the same rows written now are recorded
INSERT INTO registry.subjects (subject, created_at) VALUES ('audit-restored', now() - interval '1 day');
INSERT INTO registry.config (subject, compatibility, updated_at) VALUES ('audit-restored', 'NONE', now() - interval '1 day');
SELECT count(*) AS recorded FROM regress.audit_since(:mark);
INSERT INTO registry.subjects (subject) VALUES ('audit-new');
INSERT INTO registry.config (subject, compatibility) VALUES ('audit-new', 'NONE');
SELECT operation, role, subject FROM regress.audit_since(:mark);
DELETE FROM registry.config WHERE subject IN ('audit-restored', 'audit-new');
DELETE FROM registry.subjects WHERE subject IN ('audit-restored', 'audit-new');

DROP FUNCTION regress.audit_since(bigint);
REVOKE USAGE ON SCHEMA regress FROM regress_audit_admin, regress_audit_writer, regress_audit_reader;
DROP ROLE regress_audit_admin, regress_audit_writer, regress_audit_reader;
