-- The C code's queries cannot be redirected by a caller's search_path: a
-- session that puts its own "=" for text ahead of pg_catalog still gets
-- the registry's answers.  The hijacking operator says every two texts are
-- equal; the queries use it only if they resolve "=" through search_path.
\set SHOW_CONTEXT never
CREATE SCHEMA hijack;
CREATE FUNCTION hijack.always_equal(text, text) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR hijack.= (LEFTARG = text, RIGHTARG = text, FUNCTION = hijack.always_equal);
SELECT registry.register_schema('sp-a', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"}]}') > 0 AS a1;
SELECT registry.register_schema('sp-a', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"},{"name":"y","type":"int","default":0}]}') > 0 AS a2;
-- a new session: no plan of the registry's is prepared yet
\c
\set SHOW_CONTEXT never
SET search_path = hijack, pg_catalog, public;
SELECT 'a' = 'b' AS hijacked_equality;
-- a new subject starts at version 1 (a hijacked "=" would count sp-a's versions)
SELECT * FROM registry.register_schema_version('sp-b', '"string"');
-- lookups and checks see only their own subject
SELECT subject, version FROM registry.lookup_schema('sp-b', '"string"');
SELECT regress.try($$SELECT registry.lookup_schema('sp-b', '{"type":"record","name":"A","fields":[{"name":"x","type":"int"}]}')$$);
SELECT is_compatible FROM registry.check_compatibility('sp-b', '"int"');
SELECT registry.effective_compatibility('.', 'sp-b');
SELECT status, response::jsonb->>'subject' AS subject, response::jsonb->'version' AS version
  FROM registry.rest('GET', '/subjects/sp-b/versions/latest');
SELECT status, response FROM registry.rest('GET', '/subjects/sp-a/versions');
RESET search_path;
SELECT subject, version FROM registry.subject_versions WHERE subject LIKE 'sp-%' ORDER BY 1, 2;
DROP SCHEMA hijack CASCADE;
