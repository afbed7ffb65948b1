-- Bounds on a compatibility check (doc/design.md#limits): a JSON Schema or
-- Protobuf schema whose definitions each use the previous one twice is
-- compared in polynomial time and lists at most 10,000 differences; a
-- comparison past the budget is 42201 (422 over REST), quickly, and the
-- session goes on.  A reader can send all of these.
\set SHOW_CONTEXT never
CREATE ROLE regress_bounds_reader IN ROLE registry_reader;
GRANT USAGE ON SCHEMA regress TO regress_bounds_reader;
-- a JSON schema of n definitions, each an object of two $refs to the one below
CREATE FUNCTION regress.json_chain(n int, max_length int) RETURNS text LANGUAGE sql AS $$
	SELECT format('{"definitions":{"a0":{"type":"string","maxLength":%s}', max_length)
		|| string_agg(format(',"a%s":{"type":"object","properties":{"x":{"$ref":"#/definitions/a%s"},"y":{"$ref":"#/definitions/a%s"}}}',
			k, k - 1, k - 1), '' ORDER BY k)
		|| format('},"$ref":"#/definitions/a%s"}', n)
	FROM generate_series(1, n) k
$$;
-- anyOf of n objects, n * n pairs to compare
CREATE FUNCTION regress.json_wide(n int, t text) RETURNS text LANGUAGE sql AS $$
	SELECT '{"anyOf":[' || string_agg(format('{"type":"object","properties":{"p%s":{"type":"%s"},"q":{"type":"%s"}},"required":["p%s"]}',
		k, t, t, k), ',' ORDER BY k) || ']}'
	FROM generate_series(1, n) k
$$;
-- a .proto file of n messages, each with two fields of the one below
CREATE FUNCTION regress.proto_chain(n int, bottom text) RETURNS text LANGUAGE sql AS $$
	SELECT format('syntax = "proto3"; package lib; message M0 { %s v = 1; }', bottom)
		|| string_agg(format(' message M%s { M%s a = 1; M%s b = 2; }', k, k - 1, k - 1), '' ORDER BY k)
	FROM generate_series(1, n) k
$$;

SELECT registry.register_schema(':.bounds:chain', regress.json_chain(60, 10), 'JSON') > 0 AS chain_registered;
SELECT registry.register_schema(':.bounds:wide', regress.json_wide(3000, 'string'), 'JSON') > 0 AS wide_registered,
	registry.register_schema(':.bounds:wide1k', regress.json_wide(1000, 'string'), 'JSON') > 0 AS wide1k_registered;
SELECT registry.set_compatibility('NONE', ':.bounds:lib') IS NOT NULL AS level_set;
SELECT registry.register_schema(':.bounds:lib', regress.proto_chain(60, 'int32'), 'PROTOBUF') > 0 AS lib_v1,
	registry.register_schema(':.bounds:lib', regress.proto_chain(60, 'string'), 'PROTOBUF') > 0 AS lib_v2;
SELECT registry.register_schema(':.bounds:pb',
	'syntax = "proto3"; package app; import "lib.proto"; message Root { lib.M60 top = 1; }', 'PROTOBUF',
	'[{"name":"lib.proto","subject":"lib","version":1}]') > 0 AS pb_registered;

SET ROLE regress_bounds_reader;
SELECT pg_backend_pid() AS pid \gset
-- 2^60 incompatible differences: 10,000 listed, one line with the rest, Confluent's three closing lines
SELECT clock_timestamp() AS t0 \gset
SELECT is_compatible, cardinality(messages) AS n_messages,
	messages[1] LIKE '{errorType:"MAX_LENGTH_DECREASED", description:"The value at path ''#/properties/x/properties/x/%' AS first_is_the_bottom,
	messages[10001] AS more, messages[10004] AS closing
	FROM registry.check_compatibility(':.bounds:chain', regress.json_chain(60, 5), 'JSON', verbose => true);
SELECT clock_timestamp() - :'t0'::timestamptz < interval '5 seconds' AS answered_in_time;
-- widened, every difference compatible
SELECT is_compatible, cardinality(messages) AS n_messages
	FROM registry.check_compatibility(':.bounds:chain', regress.json_chain(60, 20), 'JSON', verbose => true);
-- the same over REST
SELECT status, (response::jsonb)->'is_compatible' AS is_compatible,
	jsonb_array_length((response::jsonb)->'messages') AS n_messages
	FROM regress.rest('POST', '/compatibility/subjects/:.bounds:chain/versions/latest', 'verbose=true',
		jsonb_build_object('schemaType', 'JSON', 'schema', regress.json_chain(60, 5))::text);

-- past the budget (9 million pairs of objects): 42201, 422 over REST
SELECT clock_timestamp() AS t0 \gset
SELECT regress.try(format('SELECT * FROM registry.check_compatibility(%L, %L, %L)',
	':.bounds:wide', regress.json_wide(3000, 'integer'), 'JSON'));
SELECT status, response
	FROM regress.rest('POST', '/compatibility/subjects/:.bounds:wide/versions/latest', NULL,
		jsonb_build_object('schemaType', 'JSON', 'schema', regress.json_wide(3000, 'integer'))::text);
SELECT clock_timestamp() - :'t0'::timestamptz < interval '10 seconds' AS stopped_in_time;
-- 1,000 against 1,000 (a million pairs) spends the step budget; a cancel
-- reaches the diff's loops: with statement_timeout at a tenth of the time
-- the check takes, 57014 comes within half of it
SELECT regress.json_wide(1000, 'integer') AS wide_update \gset
SELECT clock_timestamp() AS t0 \gset
SELECT regress.try(format('SELECT * FROM registry.check_compatibility(%L, %L, %L)',
	':.bounds:wide1k', :'wide_update', 'JSON')) LIKE 'R2201:%' AS too_large;
SELECT greatest((extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000)::int, 1) AS check_ms \gset
SELECT greatest(:check_ms / 10, 1) AS cancel_ms \gset
SET statement_timeout = :cancel_ms;
SELECT clock_timestamp() AS t0 \gset
SELECT is_compatible FROM registry.check_compatibility(':.bounds:wide1k', :'wide_update', 'JSON');
RESET statement_timeout;
SELECT extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000 < :check_ms / 2.0 AS cancelled_early;
-- a registration meets the same bound
RESET ROLE;
SELECT regress.try(format('SELECT registry.register_schema(%L, %L, %L)',
	':.bounds:wide', regress.json_wide(3000, 'integer'), 'JSON'));
SET ROLE regress_bounds_reader;

-- Protobuf: a type used twice at each of 60 levels of an import
SELECT is_compatible, cardinality(messages) AS n_messages, messages[1] AS first
	FROM registry.check_compatibility(':.bounds:pb',
		'syntax = "proto3"; package app; import "lib.proto"; message Root { lib.M60 top = 1; }', 'PROTOBUF',
		'[{"name":"lib.proto","subject":"lib","version":2}]', verbose => true);

-- patternProperties go through the registry's matcher: a nested counted
-- repetition (4 GB in glibc's regcomp) stops the check at its bound
RESET ROLE;
SELECT registry.register_schema(':.bounds:pattern',
	'{"type":"object","patternProperties":{"((a{1,1000}){1,1000}){1,1000}":{"type":"string"}},"additionalProperties":false}',
	'JSON') > 0 AS pattern_registered;
SET ROLE regress_bounds_reader;
SELECT regress.try($$SELECT * FROM registry.check_compatibility(':.bounds:pattern',
	'{"type":"object","properties":{"aaa":{"type":"string"}},"patternProperties":{"((a{1,1000}){1,1000}){1,1000}":{"type":"string"}},"additionalProperties":false}',
	'JSON')$$);
SELECT pg_backend_pid() = :pid AS same_session;
RESET ROLE;

SELECT count(*) AS versions_deleted
	FROM unnest(ARRAY[':.bounds:chain', ':.bounds:wide', ':.bounds:wide1k', ':.bounds:pb', ':.bounds:lib', ':.bounds:pattern']) s,
		registry.delete_subject(s) v;
SELECT count(*) AS versions_forgotten
	FROM unnest(ARRAY[':.bounds:chain', ':.bounds:wide', ':.bounds:wide1k', ':.bounds:pb', ':.bounds:lib', ':.bounds:pattern']) s,
		registry.delete_subject(s, permanent => true) v;
DROP FUNCTION regress.json_chain(int, int);
DROP FUNCTION regress.json_wide(int, text);
DROP FUNCTION regress.proto_chain(int, text);
REVOKE USAGE ON SCHEMA regress FROM regress_bounds_reader;
DROP ROLE regress_bounds_reader;
