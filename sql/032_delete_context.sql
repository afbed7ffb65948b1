-- DELETE /contexts/{context} (Confluent 8.1): only an empty context goes,
-- with its settings, leftovers and id sequence; 42211 while it has versions
\set SHOW_CONTEXT never

SELECT registry.register_schema(':.gone:s', '"int"') > 0 AS registered;
SELECT registry.set_config(':.gone:', '{"compatibility":"NONE"}') IS NOT NULL AS configured;
SELECT registry.set_mode('READWRITE', ':.gone:s') IS NOT NULL AS moded;
SELECT c.id_sequence::text AS seq FROM registry.contexts c WHERE c.context = '.gone' \gset
-- a context with a version (soft-deleted too) is not empty
SELECT * FROM regress.rest('DELETE', '/contexts/.gone', NULL, NULL);
SELECT registry.delete_subject(':.gone:s') IS NOT NULL AS soft_deleted;
SELECT * FROM regress.rest('DELETE', '/contexts/gone', NULL, NULL);
SELECT registry.delete_subject(':.gone:s', true) IS NOT NULL AS hard_deleted;
-- empty now: 204, and nothing of it is left
SELECT * FROM regress.rest('DELETE', '/contexts/.gone', NULL, NULL);
SELECT (SELECT count(*) FROM registry.contexts WHERE context = '.gone') AS contexts,
	   (SELECT count(*) FROM registry.schemas WHERE context = '.gone') AS schemas,
	   (SELECT count(*) FROM registry.subjects WHERE context = '.gone') AS subjects,
	   (SELECT count(*) FROM registry.config WHERE context = '.gone') AS config,
	   (SELECT count(*) FROM registry.modes WHERE context = '.gone') AS modes,
	   to_regclass(:'seq') IS NULL AS sequence_dropped;
SELECT * FROM regress.rest('GET', '/contexts', NULL, NULL);
-- gone is 40401; the default context cannot go; a writer may not
SELECT * FROM regress.rest('DELETE', '/contexts/.gone', NULL, NULL);
SELECT * FROM regress.rest('DELETE', '/contexts/.', NULL, NULL);
SELECT registry.register_schema(':.again:s', '"int"') > 0 AS registered;
SELECT registry.delete_subject(':.again:s') IS NOT NULL AND registry.delete_subject(':.again:s', true) IS NOT NULL AS deleted;
SET ROLE registry_writer;
SELECT regress.try($$SELECT registry.delete_context('.again')$$);
RESET ROLE;
SELECT registry.delete_context('again');
-- the context can be made again, its ids from 1
SELECT registry.register_schema(':.again:s', '"string"') AS id_again;
