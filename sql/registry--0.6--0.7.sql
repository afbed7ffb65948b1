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

-- ---------------------------------------------------------------------------
-- Who still reads a schema (issue 34 part 3): the reads the REST API
-- answered per schema id and per subject, counted in shared memory by the
-- HTTP workers and flushed here by the primary's first worker
-- (src/pg/usage.c); a standby's own reads stay in its shared memory
-- (registry.pending_usage()), which the views add
-- ---------------------------------------------------------------------------

CREATE TABLE registry.schema_reads (
	context		text NOT NULL,
	schema_id	integer NOT NULL,
	read_count	bigint NOT NULL DEFAULT 0,
	unlisted_reads bigint NOT NULL DEFAULT 0,
	last_read	timestamptz NOT NULL,
	readers		text[] NOT NULL DEFAULT '{}',
	PRIMARY KEY (context, schema_id)
);
COMMENT ON TABLE registry.schema_reads IS 'reads of each schema id (in its context) the REST API answered, flushed from shared memory by the primary''s REST worker; registry.schema_usage adds what is not flushed yet';
COMMENT ON COLUMN registry.schema_reads.unlisted_reads IS 'reads by roles the readers list could not name (4 per key in shared memory, 64 here)';
COMMENT ON COLUMN registry.schema_reads.readers IS 'the roles the reads ran as (the HTTP Basic user, or the anonymous role), in order';

CREATE TABLE registry.subject_reads (
	context		text NOT NULL,
	subject		text NOT NULL,
	read_count	bigint NOT NULL DEFAULT 0,
	unlisted_reads bigint NOT NULL DEFAULT 0,
	last_read	timestamptz NOT NULL,
	readers		text[] NOT NULL DEFAULT '{}',
	PRIMARY KEY (context, subject)
);
COMMENT ON TABLE registry.subject_reads IS 'reads of each subject (a version, its schema, a lookup) the REST API answered, flushed from shared memory by the primary''s REST worker; registry.subject_usage adds what is not flushed yet';
COMMENT ON COLUMN registry.subject_reads.unlisted_reads IS 'reads by roles the readers list could not name (4 per key in shared memory, 64 here)';
COMMENT ON COLUMN registry.subject_reads.readers IS 'the roles the reads ran as (the HTTP Basic user, or the anonymous role), in order';

SELECT pg_catalog.pg_extension_config_dump('registry.schema_reads', '');
SELECT pg_catalog.pg_extension_config_dump('registry.subject_reads', '');

CREATE FUNCTION registry.pending_usage(OUT kind text, OUT context text, OUT schema_id integer,
	OUT subject text, OUT read_count bigint, OUT unlisted_reads bigint,
	OUT last_read timestamptz, OUT readers text[])
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_pending_usage'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.pending_usage() IS 'the reads this server counted in shared memory and has not flushed to the tables (on a standby: all of its own); readers only for registry_admin';

CREATE FUNCTION registry.flush_usage() RETURNS integer
	AS 'MODULE_PATHNAME', 'registry_flush_usage'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.flush_usage() IS 'adds the reads counted in shared memory to registry.schema_reads and registry.subject_reads now (the primary''s REST worker does it every 10 s); how many schema ids and subjects';

CREATE FUNCTION registry.usage_stats(OUT tracking boolean, OUT max_entries integer,
	OUT entries_used integer, OUT untracked_reads bigint, OUT evicted_entries bigint,
	OUT evicted_reads bigint, OUT incomplete_before timestamptz, OUT last_flush timestamptz)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_usage_stats'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.usage_stats() IS 'the read counting of this server: on or off, its shared table''s size and use, the reads it could not keep (names too long, keys evicted when full), the latest of those reads (counts after it miss nothing) and the last flush';

-- registry.schema_usage and registry.subject_usage: the tables' rows and
-- this server's pending ones, one row per key
DO $$
DECLARE
	v record;
BEGIN
	FOR v IN SELECT * FROM (VALUES ('schema', 'schema_id', 'schema id'), ('subject', 'subject', 'subject'))
			AS x(kind, key, what) LOOP
		EXECUTE pg_catalog.format($view$
			CREATE VIEW registry.%1$I AS
			SELECT COALESCE(t.context, p.context) AS context,
				   COALESCE(t.%3$I, p.%3$I) AS %3$I,
				   COALESCE(t.read_count, 0) + COALESCE(p.read_count, 0) AS read_count,
				   GREATEST(t.last_read, p.last_read) AS last_read,
				   CASE WHEN pg_catalog.pg_has_role('registry_admin', 'USAGE')
						THEN ARRAY(SELECT DISTINCT u.x FROM pg_catalog.unnest(t.readers || p.readers) AS u(x) ORDER BY u.x)
				   END AS readers,
				   COALESCE(t.unlisted_reads, 0) + COALESCE(p.unlisted_reads, 0) AS unlisted_reads
			  FROM registry.%2$I t
			  FULL JOIN (SELECT * FROM registry.pending_usage() WHERE kind = %4$L) p
				ON p.context = t.context AND p.%3$I = t.%3$I$view$,
			v.kind || '_usage', v.kind || '_reads', v.key, v.kind);
		EXECUTE pg_catalog.format('COMMENT ON VIEW registry.%I IS %L', v.kind || '_usage',
			'reads of each ' || v.what || ': the flushed ones and this server''s pending ones; readers only for registry_admin (NULL for others)');
	END LOOP;
END
$$;

-- a name longer than the shared table holds (256 bytes) is never counted:
-- left out rather than called unread
CREATE FUNCTION registry.unread_schemas(since timestamptz)
	RETURNS TABLE (context text, schema_id integer, schema_type text, created_at timestamptz,
				   last_read timestamptz, subjects text[])
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
	SELECT s.context, s.id, s.schema_type, s.created_at, u.last_read,
		   ARRAY(SELECT DISTINCT registry.qualify_subject(sv.context, sv.subject)
				   FROM registry.subject_versions sv
				  WHERE sv.context = s.context AND sv.schema_id = s.id ORDER BY 1)
	  FROM registry.schemas s
	  LEFT JOIN registry.schema_usage u ON u.context = s.context AND u.schema_id = s.id
	 WHERE (u.last_read IS NULL OR u.last_read < unread_schemas.since)
	   AND octet_length(s.context) <= 256
	 ORDER BY s.context, s.id
$$;
COMMENT ON FUNCTION registry.unread_schemas(timestamptz) IS 'the schemas nobody read over the REST API since a time (as far as registry.usage_stats() says the counts are complete), with the subjects whose versions use them';

CREATE FUNCTION registry.unread_subjects(since timestamptz)
	RETURNS TABLE (context text, subject text, created_at timestamptz, last_read timestamptz,
				   live_versions integer)
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
	SELECT sb.context, sb.subject, sb.created_at, u.last_read,
		   (SELECT count(*)::integer FROM registry.subject_versions sv
			 WHERE sv.context = sb.context AND sv.subject = sb.subject AND NOT sv.deleted)
	  FROM registry.subjects sb
	  LEFT JOIN registry.subject_usage u ON u.context = sb.context AND u.subject = sb.subject
	 WHERE (u.last_read IS NULL OR u.last_read < unread_subjects.since)
	   AND octet_length(registry.qualify_subject(sb.context, sb.subject)) <= 256
	 ORDER BY sb.context, sb.subject
$$;
COMMENT ON FUNCTION registry.unread_subjects(timestamptz) IS 'the subjects nobody read over the REST API since a time (as far as registry.usage_stats() says the counts are complete), with their live versions';

-- readers see the counts and the last reads (the views, the unread lists);
-- who read what (the readers columns, the tables) is registry_admin's, as
-- the audit trail is; only the registry writes the tables (as their owner)
REVOKE ALL ON registry.schema_reads, registry.subject_reads,
	registry.schema_usage, registry.subject_usage FROM PUBLIC;
REVOKE ALL ON FUNCTION registry.pending_usage(), registry.flush_usage(), registry.usage_stats(),
	registry.unread_schemas(timestamptz), registry.unread_subjects(timestamptz) FROM PUBLIC;
GRANT SELECT ON registry.schema_usage, registry.subject_usage TO registry_reader;
GRANT SELECT ON registry.schema_reads, registry.subject_reads TO registry_admin;
GRANT EXECUTE ON FUNCTION registry.pending_usage(), registry.usage_stats(),
	registry.unread_schemas(timestamptz), registry.unread_subjects(timestamptz)
	TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.flush_usage() TO registry_admin;
