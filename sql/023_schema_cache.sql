-- The backend's cache of parsed schemas keeps to registry.schema_cache_size,
-- evicting the least recently used, and an evicted schema is parsed again
-- when it is needed.
CREATE FUNCTION pg_temp.cache_kb() RETURNS bigint LANGUAGE sql AS $$
	SELECT coalesce(sum(total_bytes), 0) / 1024 FROM pg_backend_memory_contexts
	 WHERE name IN ('registry schema cache', 'registry parsed schema')
$$;
-- 50-field records, each with a field of its own name: 300 distinct schemas
CREATE FUNCTION pg_temp.record(i int) RETURNS text LANGUAGE sql AS $$
	SELECT format('{"type":"record","name":"C%s","fields":[%s]}', i,
		(SELECT string_agg(format('{"name":"f%s_%s","type":["null","long"],"default":null}', i, f), ',')
		   FROM generate_series(1, 50) f))
$$;
SHOW registry.schema_cache_size;
SELECT registry.set_config(':.cache:', '{"compatibility":"NONE"}');
SELECT count(*) AS registered FROM generate_series(1, 300) i,
	LATERAL registry.register_schema(format(':.cache:c%s', i), pg_temp.record(i)) r;
-- under the default limit all of them stay: well over 1 MB
SELECT pg_temp.cache_kb() > 1024 AS all_cached;
-- a smaller limit: the next schema cached brings the cache under it
SET registry.schema_cache_size = '512kB';
SELECT registry.register_schema(':.cache:c301', pg_temp.record(301)) > 0 AS registered;
SELECT pg_temp.cache_kb() <= 512 + 64 AS within_limit;
-- evicted schemas are parsed again when a check needs them, and stay within it
SELECT count(*) FILTER (WHERE (registry.check_compatibility(format(':.cache:c%s', i), pg_temp.record(i))).is_compatible) AS compatible
  FROM generate_series(1, 300) i;
SELECT pg_temp.cache_kb() <= 512 + 64 AS within_limit;
RESET registry.schema_cache_size;
SELECT registry.delete_config(':.cache:');
