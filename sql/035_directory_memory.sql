-- The subject directory (catalog_directory.c) a deep page builds: a SQL
-- session keeps it across transactions only while it fits in
-- registry.scope_cache_size; a larger one lasts for its transaction only,
-- so an idle session holds none of it.  (The REST API's workers keep
-- theirs: they are a fixed few.)
\set SHOW_CONTEXT never
SELECT registry.set_compatibility('NONE', 'dirmem-' || n)
  FROM generate_series(1, 1500) n \g /dev/null
SELECT count(*) FROM generate_series(1, 1500) n,
  registry.register_schema('dirmem-' || n, '"string"');
-- is a directory kept in this session now?
CREATE FUNCTION pg_temp.kept() RETURNS boolean LANGUAGE sql AS $$
	SELECT count(*) > 0 FROM pg_backend_memory_contexts WHERE name = 'registry subject directory'
$$;
-- the default bound: a deep page's directory outlives its transaction
SELECT count(*) FROM registry.subjects(page_offset => 1200, page_limit => 5);
SELECT pg_temp.kept() AS kept_after_commit;
-- it answers a second page (one that answered only its own would make the
-- next generation's first deep pages walk instead of building)
SELECT count(*) FROM registry.subjects(page_offset => 1300, page_limit => 5);
-- a version written moves the generation: the next deep page builds again
SELECT registry.register_schema('dirmem-1', '"int"') IS NOT NULL AS registered;
-- a bound below its size: kept while its transaction lasts, then dropped
SET registry.scope_cache_size = 64;
BEGIN;
SELECT count(*) FROM registry.subjects(page_offset => 1200, page_limit => 5);
SELECT pg_temp.kept() AS kept_in_transaction;
COMMIT;
SELECT pg_temp.kept() AS kept_after_commit;
-- the same after an abort, and the next deep page is still right
BEGIN;
SELECT min(s) LIKE 'dirmem-%' AS page FROM registry.subjects(subject_prefix => 'dirmem-', page_offset => 1400, page_limit => 5) s;
SELECT pg_temp.kept() AS kept_in_transaction;
ROLLBACK;
SELECT pg_temp.kept() AS kept_after_abort;
SELECT count(*) FROM registry.subjects(subject_prefix => 'dirmem-', page_offset => 1495);
RESET registry.scope_cache_size;
