-- Nesting limits: schemas nested deeper than a recursive parser can take are refused
-- with a clean 42201 before any parser recurses, through the SQL API and registry.rest,
-- also for a role that may only read; the backend lives on.  Legitimately deep schemas
-- at the limits still register.
\set SHOW_CONTEXT never
CREATE ROLE regress_limits_reader IN ROLE registry_reader;
CREATE ROLE regress_limits_writer IN ROLE registry_writer;
GRANT USAGE ON SCHEMA regress TO regress_limits_reader, regress_limits_writer;
SELECT registry.register_schema(':.limits:pb', 'syntax = "proto3"; message M0 { int32 a = 1; }', 'PROTOBUF') > 0 AS pb_registered;
SELECT registry.register_schema(':.limits:av', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}') > 0 AS av_registered;
SELECT regress.counts() AS before \gset

-- message M0 { message M1 { ... } }: 20,000 deep, about 320 KB
SELECT 'syntax = "proto3";' || string_agg(format('message M%s { ', i), '' ORDER BY i) || repeat('} ', 20000) AS deep_proto
	FROM generate_series(0, 19999) i \gset
SELECT length(:'deep_proto') AS deep_proto_bytes;
-- 20,000 nested Avro arrays, and a chain of 20,000 records each defaulting the previous
SELECT repeat('{"type":"array","items":', 20000) || '"int"' || repeat('}', 20000) AS deep_avro \gset
SELECT '[{"type":"record","name":"R0","fields":[{"name":"a","type":"int","default":1}]}'
	|| string_agg(format(',{"type":"record","name":"R%s","fields":[{"name":"f","type":"R%s","default":{}}]}', i, i - 1), '' ORDER BY i)
	|| ']' AS chain_avro
	FROM generate_series(1, 19999) i \gset

-- a reader checks compatibility: refused, fast
SET ROLE regress_limits_reader;
SELECT clock_timestamp() AS t0 \gset
SELECT regress.try(format('SELECT registry.check_compatibility(%L, %L, %L)', ':.limits:pb', :'deep_proto', 'PROTOBUF'));
SELECT clock_timestamp() - :'t0'::timestamptz < interval '2 seconds' AS refused_fast;
-- (verbose: the error comes back as the check's message, which quotes the schema)
SELECT is_compatible, cardinality(messages) AS n, right(messages[1], 124) AS message_end
	FROM registry.check_compatibility(':.limits:pb', :'deep_proto', 'PROTOBUF', verbose => true);
SELECT regress.try(format('SELECT registry.check_compatibility(%L, %L)', ':.limits:av', :'deep_avro'));
SELECT regress.try(format('SELECT registry.check_compatibility(%L, %L)', ':.limits:av', :'chain_avro'));
SELECT regress.try(format('SELECT registry.lookup_schema(%L, %L, %L)', ':.limits:pb', :'deep_proto', 'PROTOBUF'));
-- a reader may not register at all
SELECT regress.try(format('SELECT registry.register_schema(%L, %L, %L)', ':.limits:pb', :'deep_proto', 'PROTOBUF'));
-- registry.rest as a reader: the compatibility route parses, and answers 422
SELECT status, response::jsonb->'error_code' AS error_code, left(response::jsonb->>'message', 140) AS message
	FROM registry.rest('POST', '/compatibility/subjects/:.limits:pb/versions/latest', NULL,
		json_build_object('schema', :'deep_proto', 'schemaType', 'PROTOBUF')::text);
SELECT status, response::jsonb->'error_code' AS error_code, left(response::jsonb->>'message', 140) AS message
	FROM registry.rest('POST', '/compatibility/subjects/:.limits:av/versions/latest', NULL,
		json_build_object('schema', :'deep_avro')::text);
SELECT status, response::jsonb->'error_code' AS error_code
	FROM registry.rest('POST', '/subjects/:.limits:pb/versions', NULL,
		json_build_object('schema', :'deep_proto', 'schemaType', 'PROTOBUF')::text);
RESET ROLE;

-- a writer registers: refused the same way, SQL and REST
SET ROLE regress_limits_writer;
SELECT regress.try(format('SELECT registry.register_schema(%L, %L, %L)', ':.limits:pb', :'deep_proto', 'PROTOBUF'));
SELECT regress.try(format('SELECT registry.register_schema(%L, %L)', ':.limits:av', :'deep_avro'));
SELECT status, response::jsonb->'error_code' AS error_code, left(response::jsonb->>'message', 140) AS message
	FROM registry.rest('POST', '/subjects/:.limits:pb/versions', NULL,
		json_build_object('schema', :'deep_proto', 'schemaType', 'PROTOBUF')::text);
RESET ROLE;
-- the session is the same one, and nothing was stored
SELECT pg_backend_pid() = pg_backend_pid() AS same_backend, regress.counts() = :'before' AS unchanged;

-- at the limits: 31 nested messages (libprotoc's own limit) holding an option value
-- 69 deep make 100 levels, accepted; one more level is refused
SELECT 'syntax = "proto2"; import "google/protobuf/descriptor.proto";
message Rec { optional Rec a = 1; optional int32 v = 2; }
extend google.protobuf.MessageOptions { optional Rec rec = 50000; }
' || repeat('message N { ', 31) || 'option (rec) = { ' || repeat('a { ', 68) || 'v: 1 ' || repeat('} ', 68)
	|| '}; optional int32 x = 1; ' || repeat('} ', 31) AS legal_proto \gset
SELECT registry.register_schema(':.limits:legal-pb', :'legal_proto', 'PROTOBUF') > 0 AS at_limit_registered;
SELECT regress.try(format('SELECT registry.register_schema(%L, %L, %L)', ':.limits:legal-pb',
	replace(:'legal_proto', 'option (rec) = { ', 'option (rec) = { a { ') || ' }', 'PROTOBUF'));
-- 250 nested Avro records (750 levels of JSON) register
SELECT string_agg(format('{"type":"record","name":"R%s","fields":[{"name":"f","type":', i), '' ORDER BY i)
	|| '"int"' || repeat('}]}', 250) AS legal_avro
	FROM generate_series(1, 250) i \gset
SELECT registry.register_schema(':.limits:legal-av', :'legal_avro') > 0 AS deep_avro_registered;

-- the checker's budget: a union of 1,500 records, each holding the previous one
SELECT '[{"type":"record","name":"R0","fields":[{"name":"a","type":"int"}]}'
	|| string_agg(format(',{"type":"record","name":"R%s","fields":[{"name":"f","type":"R%s"}]}', i, i - 1), '' ORDER BY i)
	|| ']' AS union_chain
	FROM generate_series(1, 1499) i \gset
SELECT registry.register_schema(':.limits:chain', :'union_chain') > 0 AS chain_registered;
-- q's SQLSTATE ('ok' when it ran through) and how long it took, in ms
CREATE FUNCTION regress.timed(q text, OUT state text, OUT ms float8) LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE q;
	state := 'ok';
	ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
EXCEPTION WHEN query_canceled THEN
	state := SQLSTATE;
	ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
END $$;
SET ROLE regress_limits_reader;
SELECT clock_timestamp() AS t0 \gset
SELECT is_compatible, messages[1] AS first_message FROM registry.check_compatibility(':.limits:chain',
	replace(:'union_chain', '"name":"a","type":"int"', '"name":"a","type":"long"'), verbose => true);
SELECT clock_timestamp() - :'t0'::timestamptz < interval '10 seconds' AS stopped_in_time;
-- a cancel stops the checker itself, not only the statement once the check
-- is over: with statement_timeout at a tenth of the check's own run time,
-- 57014 comes within half of it, and the session goes on
SELECT (extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000)::int AS check_ms,
	pg_backend_pid() AS pid \gset
SELECT greatest(:check_ms / 10, 1) AS cancel_ms \gset
SET statement_timeout = :cancel_ms;
SELECT state, ms < :check_ms / 2.0 AS cancelled_early FROM regress.timed(format(
	'SELECT * FROM registry.check_compatibility(%L, %L, verbose => true)', ':.limits:chain',
	replace(:'union_chain', '"name":"a","type":"int"', '"name":"a","type":"long"')));
RESET statement_timeout;
SELECT pg_backend_pid() = :pid AS same_session;
RESET ROLE;

SELECT count(*) AS versions_deleted
	FROM unnest(ARRAY[':.limits:pb', ':.limits:av', ':.limits:legal-pb', ':.limits:legal-av', ':.limits:chain']) s,
		registry.delete_subject(s) v;
SELECT count(*) AS versions_forgotten
	FROM unnest(ARRAY[':.limits:pb', ':.limits:av', ':.limits:legal-pb', ':.limits:legal-av', ':.limits:chain']) s,
		registry.delete_subject(s, permanent => true) v;
DROP FUNCTION regress.timed(text);
REVOKE USAGE ON SCHEMA regress FROM regress_limits_reader, regress_limits_writer;
DROP ROLE regress_limits_reader;
DROP ROLE regress_limits_writer;
