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

-- Logical replication: the id sequence of a context in one function (also
-- for a subscriber's replicated contexts, which come without one), ...
CREATE FUNCTION registry.context_id_sequence(context text) RETURNS regclass
	LANGUAGE plpgsql VOLATILE STRICT
	SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	seqname text := 'context_ids_' || md5(context);
BEGIN
	IF pg_catalog.to_regclass(format('registry.%I', seqname)) IS NULL THEN
		EXECUTE format('CREATE SEQUENCE registry.%I AS integer MINVALUE 1', seqname);
	END IF;
	EXECUTE format('GRANT USAGE ON SEQUENCE registry.%I TO registry_writer', seqname);
	RETURN format('registry.%I', seqname)::regclass;
END
$$;
COMMENT ON FUNCTION registry.context_id_sequence(text) IS 'the schema id sequence of a context other than ".", made when it does not exist yet';
REVOKE ALL ON FUNCTION registry.context_id_sequence(text) FROM PUBLIC;

CREATE OR REPLACE FUNCTION registry.contexts_before_insert() RETURNS trigger
	LANGUAGE plpgsql SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM registry.check_context(NEW.context);
	IF NEW.id_sequence IS NOT NULL THEN
		RAISE EXCEPTION 'the id sequence of a context is chosen by the registry'
			USING ERRCODE = 'R2205', DETAIL = 'Insert the context without id_sequence.';
	END IF;
	NEW.id_sequence := registry.context_id_sequence(NEW.context);
	RETURN NEW;
END
$$;

COMMENT ON FUNCTION registry.schemas_after_delete() IS 'tells the processes that cache schema content, at commit, that a schema was hard-deleted (also when a subscriber applies the delete)';

-- ... the cache invalidation triggers as row triggers that fire in every
-- replication role (a subscriber's apply fires row triggers only), ...
DROP TRIGGER schemas_after_delete ON registry.schemas;
CREATE TRIGGER schemas_after_delete AFTER DELETE ON registry.schemas
	FOR EACH ROW EXECUTE FUNCTION registry.schemas_after_delete();
ALTER TABLE registry.schemas ENABLE ALWAYS TRIGGER schemas_after_delete;
DROP TRIGGER config_after_write ON registry.config;
CREATE TRIGGER config_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.config
	FOR EACH ROW EXECUTE FUNCTION registry.config_after_write();
ALTER TABLE registry.config ENABLE ALWAYS TRIGGER config_after_write;

-- ... and the sequences of a subscriber that is to take writes raised above
-- the ids it holds
CREATE FUNCTION registry.raise_id_sequences(OUT context text, OUT last_id bigint)
	RETURNS SETOF record
	LANGUAGE plpgsql VOLATILE SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	c record;
	seq regclass;
	top integer;
BEGIN
	FOR c IN SELECT x.context, x.id_sequence FROM registry.contexts x ORDER BY x.context FOR UPDATE
	LOOP
		seq := c.id_sequence;
		-- a context as logical replication brings it: without its sequence
		IF seq IS NULL THEN
			seq := registry.context_id_sequence(c.context);
			UPDATE registry.contexts x SET id_sequence = seq WHERE x.context = c.context;
		END IF;
		SELECT max(s.id) INTO top FROM registry.schemas s WHERE s.context = c.context;
		IF top > COALESCE(pg_sequence_last_value(seq), 0) THEN
			PERFORM setval(seq, top);
		END IF;
		context := c.context;
		last_id := pg_sequence_last_value(seq);
		RETURN NEXT;
	END LOOP;
END
$$;
COMMENT ON FUNCTION registry.raise_id_sequences() IS 'moves the id sequence of every context above the highest schema id the context holds (never back), giving a context without one its sequence; for a logical replication subscriber that is to take writes, whose sequences replication does not carry';
REVOKE ALL ON FUNCTION registry.raise_id_sequences() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.raise_id_sequences() TO registry_admin;
