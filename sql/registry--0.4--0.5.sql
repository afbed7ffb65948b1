/*
 * registry--0.4--0.5.sql: from 0.4 to 0.5.
 *
 * 0.5 keeps acknowledged ids from being handed out again after a
 * promotion (registry.id_fence and the functions that fence the id
 * sequences on a new WAL timeline), and the triggers hold against raw
 * DML in a read-only mode: a new context or subject needs a writable
 * scope, every update of a subject version does too, and creation times
 * are the registry's own.  Every change to registry--0.5.sql is made here
 * too (test/tap/t/090_upgrade.pl compares the two catalogs).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.5'" to load this file. \quit

-- a sequence, not a table: what a fence did survives the rollback of the
-- transaction that did it, as the id sequences it moved do
CREATE SEQUENCE registry.id_fence AS bigint MINVALUE 0;
COMMENT ON SEQUENCE registry.id_fence IS 'the WAL timeline on which the id sequences were last moved past the ids an old primary may have handed out (is_called: whether they ever were); not dumped';

CREATE FUNCTION registry.wal_timeline() RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_wal_timeline'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.wal_timeline() IS 'the WAL timeline this server writes (on a standby: replays)';

CREATE FUNCTION registry.fence_id_sequences() RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_fence_id_sequences'
	LANGUAGE C VOLATILE SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.fence_id_sequences() IS 'on a WAL timeline not fenced yet, moves every context''s id sequence up by registry.failover_id_gap and records the timeline; returns how many sequences moved';

CREATE FUNCTION registry.new_context_id_floor() RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_new_context_id_floor'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.new_context_id_floor() IS 'where a new context''s ids start: 0, or registry.failover_id_gap once the ids were fenced after a promotion';

SELECT pg_catalog.setval('registry.id_fence', registry.wal_timeline(), false);

CREATE OR REPLACE FUNCTION registry.context_id_sequence(context text) RETURNS regclass
	LANGUAGE plpgsql VOLATILE STRICT
	SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	seqname text := 'context_ids_' || md5(context);
	floor bigint;
BEGIN
	IF pg_catalog.to_regclass(format('registry.%I', seqname)) IS NULL THEN
		EXECUTE format('CREATE SEQUENCE registry.%I AS integer MINVALUE 1', seqname);
		-- after a promotion a new context starts above the gap: the old
		-- primary may have made it and handed out its first ids
		floor := registry.new_context_id_floor();
		IF floor > 0 THEN
			PERFORM pg_catalog.setval(format('registry.%I', seqname)::regclass, floor);
		END IF;
		-- dropped with the contexts table, so with the extension
		EXECUTE format('ALTER SEQUENCE registry.%I OWNED BY registry.contexts.id_sequence', seqname);
	END IF;
	EXECUTE format('GRANT USAGE ON SEQUENCE registry.%I TO registry_writer', seqname);
	RETURN format('registry.%I', seqname)::regclass;
END
$$;

CREATE OR REPLACE FUNCTION registry.contexts_before_insert() RETURNS trigger
	LANGUAGE plpgsql SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM registry.check_context(NEW.context);
	-- a restored context keeps its time and the sequence the registry gave it
	IF registry.is_restored_row(NEW.created_at)
	   AND NEW.id_sequence = registry.context_id_sequence(NEW.context) THEN
		RETURN NEW;
	END IF;
	PERFORM registry.check_writable(NEW.context, '');
	IF NEW.id_sequence IS NOT NULL THEN
		RAISE EXCEPTION 'the id sequence of a context is chosen by the registry'
			USING ERRCODE = 'R2205', DETAIL = 'Insert the context without id_sequence.';
	END IF;
	NEW.id_sequence := registry.context_id_sequence(NEW.context);
	NEW.created_at := pg_catalog.now();
	RETURN NEW;
END
$$;

COMMENT ON FUNCTION registry.contexts_before_insert() IS 'refuses a context that cannot hold subjects or a read-only one; gives a new context its own schema id sequence and the time it was made';

CREATE OR REPLACE FUNCTION registry.versions_before_update() RETURNS trigger
	LANGUAGE plpgsql
	SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	-- every column but deleted is the registry's, its creation time included
	IF (pg_catalog.to_jsonb(NEW) - 'deleted') IS DISTINCT FROM (pg_catalog.to_jsonb(OLD) - 'deleted')
	   OR (OLD.deleted AND NOT NEW.deleted) THEN
		RAISE EXCEPTION 'a subject version can only be soft-deleted'
			USING ERRCODE = 'R2205', DETAIL = 'Versions are immutable; register a new version instead.';
	END IF;
	PERFORM registry.check_writable(OLD.context, OLD.subject);
	IF NEW.deleted AND NOT OLD.deleted THEN
		PERFORM registry.check_not_referenced(OLD.context, OLD.subject, OLD.version, true);
	END IF;
	RETURN NEW;
END
$$;

COMMENT ON FUNCTION registry.versions_before_update() IS 'only soft delete is an update; every update needs a writable mode, a soft delete no live reference';

CREATE FUNCTION registry.is_restored_row(created_at timestamptz) RETURNS boolean
	AS 'MODULE_PATHNAME', 'registry_is_restored_row_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.is_restored_row(timestamptz) IS 'is a row with this creation time, inserted now by this role, one a restore brings back (a superuser''s, from before the transaction)?';

CREATE FUNCTION registry.schema_references_before_insert() RETURNS trigger
	LANGUAGE plpgsql
	SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	-- a restore brings back the rows schemas_after_insert made already
	IF EXISTS (SELECT 1 FROM registry.schema_references r
				WHERE r.context = NEW.context AND r.schema_id = NEW.schema_id
				  AND r.position = NEW.position AND r.name = NEW.name
				  AND r.ref_subject = NEW.ref_subject AND r.ref_version = NEW.ref_version) THEN
		RETURN NULL;
	END IF;
	RETURN NEW;
END
$$;
COMMENT ON FUNCTION registry.schema_references_before_insert() IS 'a reference that its schema''s insert recorded already (a restore brings it again) is not inserted twice';

CREATE FUNCTION registry.subjects_before_insert() RETURNS trigger
	LANGUAGE plpgsql
	SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF registry.is_restored_row(NEW.created_at) THEN
		RETURN NEW;
	END IF;
	PERFORM registry.check_writable(NEW.context, NEW.subject);
	NEW.created_at := pg_catalog.now();
	RETURN NEW;
END
$$;
COMMENT ON FUNCTION registry.subjects_before_insert() IS 'a new subject needs a writable mode; it gets the time it was made';

CREATE TRIGGER schema_references_before_insert BEFORE INSERT ON registry.schema_references
	FOR EACH ROW EXECUTE FUNCTION registry.schema_references_before_insert();
CREATE TRIGGER subjects_before_insert BEFORE INSERT ON registry.subjects
	FOR EACH ROW EXECUTE FUNCTION registry.subjects_before_insert();

GRANT EXECUTE ON FUNCTION registry.wal_timeline() TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.fence_id_sequences() TO registry_writer;
REVOKE ALL ON FUNCTION registry.wal_timeline(), registry.fence_id_sequences(),
	registry.new_context_id_floor(), registry.subjects_before_insert(),
	registry.is_restored_row(timestamptz), registry.schema_references_before_insert() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.is_restored_row(timestamptz) TO registry_reader;

-- the id sequences of contexts made so far belong to the contexts table
-- (DROP EXTENSION takes them along, as it does new ones)
DO $$
DECLARE
	seq regclass;
BEGIN
	FOR seq IN SELECT c.id_sequence FROM registry.contexts c
				WHERE c.id_sequence IS NOT NULL AND c.id_sequence <> 'registry.default_context_ids'::regclass
	LOOP
		EXECUTE format('ALTER SEQUENCE %s OWNED BY registry.contexts.id_sequence', seq);
	END LOOP;
END
$$;
