/*
 * registry--0.7--0.8.sql: from 0.7 to 0.8.
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION registry UPDATE TO '0.8'" to load this file. \quit

-- issue 33, item 3 (a lookup of the exact text in one probe): a version row
-- carries the key of its schema's exact text where the schema row vouches
-- for that text (parses_to_itself, no references, metadata or rule set), so
-- that a lookup of the text finds the subject's version without reading the
-- schema row first.  The insert trigger sets it from the schema row, never
-- from what an insert says; the update from 0.7 gives the versions stored
-- before it theirs.  A version without one (written in the replica role
-- without it) is found through its schema row, as before.
ALTER TABLE registry.subject_versions ADD COLUMN text_key bytea;
COMMENT ON COLUMN registry.subject_versions.text_key IS 'the schema''s fingerprint followed by its type''s name, where the schema row vouches that the text is its own stored form without normalize and it has no references, metadata or rule set; else NULL (set by the insert trigger)';
-- the key first: a descent compares its bytes, not the subject's text by collation
CREATE INDEX subject_versions_text_key_idx ON registry.subject_versions (text_key, context, subject);

COMMENT ON FUNCTION registry.deks_before_write() IS 'a DEK''s rules: created under an existing KEK (a live DEK only under a live KEK) with a valid subject, algorithm and key material; only its deleted flag changes; undeleted only under a live KEK; hard-deleted only once soft-deleted';

-- the versions stored before the update get their text_key as the insert
-- trigger would have given it (rows are immutable to UPDATE, so the row
-- triggers are off for it: the replica role, which keeps the ALWAYS ones
-- that tell the caches; then the role as it was)
CREATE FUNCTION registry.version_text_key_0_8(context text, schema_id integer) RETURNS bytea
	AS 'MODULE_PATHNAME', 'registry_version_text_key'
	LANGUAGE C STABLE STRICT;
DO $$
DECLARE
	role text := pg_catalog.current_setting('session_replication_role');
BEGIN
	PERFORM pg_catalog.set_config('session_replication_role', 'replica', true);
	UPDATE registry.subject_versions
	   SET text_key = registry.version_text_key_0_8(context, schema_id);
	PERFORM pg_catalog.set_config('session_replication_role', role, true);
END
$$;
DROP FUNCTION registry.version_text_key_0_8(text, integer);
