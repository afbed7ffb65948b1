-- DELETE /contexts/{context} (Confluent 8.1): only an empty context goes,
-- with its settings, leftovers and id sequence; 42211 while it has versions
\set SHOW_CONTEXT never

SELECT registry.register_schema(':.gone:s', '"int"') > 0 AS registered;
SELECT registry.set_config(':.gone:', '{"compatibility":"NONE"}') IS NOT NULL AS configured;
SELECT registry.set_mode('READWRITE', ':.gone:s') IS NOT NULL AS moded;
SELECT c.id_sequence::text AS seq FROM registry.contexts c WHERE c.context = '.gone' \gset
-- a context with a version (soft-deleted too) is not empty
SELECT * FROM regress.rest('DELETE', '/contexts/.gone', NULL, NULL);
SELECT count(*) AS soft_deleted FROM registry.delete_subject(':.gone:s');
SELECT * FROM regress.rest('DELETE', '/contexts/gone', NULL, NULL);
SELECT count(*) AS hard_deleted FROM registry.delete_subject(':.gone:s', true);
-- empty now: 204, and nothing of it is left
SELECT * FROM regress.rest('DELETE', '/contexts/.gone', NULL, NULL);
SELECT (SELECT count(*) FROM registry.contexts WHERE context = '.gone') AS contexts,
	   (SELECT count(*) FROM registry.schemas WHERE context = '.gone') AS schemas,
	   (SELECT count(*) FROM registry.subjects WHERE context = '.gone') AS subjects,
	   (SELECT count(*) FROM registry.config WHERE context = '.gone') AS config,
	   (SELECT count(*) FROM registry.modes WHERE context = '.gone') AS modes,
	   to_regclass(:'seq') IS NULL AS sequence_dropped;
SELECT status, NOT (response::jsonb ? '.gone') AS not_listed FROM regress.rest('GET', '/contexts', NULL, NULL);
-- gone is 40401; the default context cannot go; a writer may not
SELECT * FROM regress.rest('DELETE', '/contexts/.gone', NULL, NULL);
SELECT * FROM regress.rest('DELETE', '/contexts/.', NULL, NULL);
SELECT registry.register_schema(':.again:s', '"int"') > 0 AS registered;
SELECT count(*) AS soft_deleted FROM registry.delete_subject(':.again:s');
SELECT count(*) AS hard_deleted FROM registry.delete_subject(':.again:s', true);
SELECT has_function_privilege('registry_writer', 'registry.delete_context(text)', 'EXECUTE') AS writer_may,
	   has_function_privilege('registry_admin', 'registry.delete_context(text)', 'EXECUTE') AS admin_may;
SELECT registry.delete_context('again');
-- the context can be made again, its ids from 1
SELECT registry.register_schema(':.again:s', '"string"') AS id_again;

-- over REST as registry_admin (not a superuser): 204; as a writer: 403
SELECT registry.register_schema(':.third:s', '"int"') > 0 AS registered;
SELECT count(*) AS soft_deleted FROM registry.delete_subject(':.third:s');
SELECT count(*) AS hard_deleted FROM registry.delete_subject(':.third:s', true);
CREATE ROLE ctx_writer IN ROLE registry_writer;
CREATE ROLE ctx_admin IN ROLE registry_admin;
SET ROLE ctx_writer;
SELECT status, response FROM registry.rest('DELETE', '/contexts/.third');
SET ROLE ctx_admin;
SELECT status, response FROM registry.rest('DELETE', '/contexts/.third');
RESET ROLE;
SELECT count(*) AS third_left FROM registry.contexts WHERE context = '.third';
DROP ROLE ctx_writer, ctx_admin;
