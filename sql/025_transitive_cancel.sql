-- A BACKWARD_TRANSITIVE check against 1,000 versions honours
-- statement_timeout (the cancel a client's timeout sends takes the same
-- path): the statement stops with 57014, the session goes on, and without
-- the timeout the same check runs through.
-- fixed50: version k is {c1 .. c49: long, x_k: optional string}
CREATE FUNCTION regress.fixed50(k int) RETURNS text LANGUAGE sql AS $$
	SELECT format('{"type":"record","name":"F","fields":[%s,{"name":"x%s","type":["null","string"],"default":null}]}',
		(SELECT string_agg(format('{"name":"c%s","type":"long"}', f), ',') FROM generate_series(1, 49) f), k)
$$;
SELECT registry.set_compatibility('NONE', ':.transitive:t') IS NOT NULL AS level_set;
SELECT count(*) AS registered FROM generate_series(1, 1000) k,
	LATERAL registry.register_schema(':.transitive:t', regress.fixed50(k)) r;
SELECT registry.set_compatibility('BACKWARD_TRANSITIVE', ':.transitive:t') IS NOT NULL AS level_set;
-- a new session: every stored version is parsed again, then checked
\c
SELECT pg_backend_pid() AS pid \gset
\set VERBOSITY terse
SET statement_timeout = '10ms';
SELECT is_compatible FROM registry.check_compatibility(':.transitive:t', regress.fixed50(1001), version => NULL);
RESET statement_timeout;
\set VERBOSITY default
SELECT pg_backend_pid() = :pid AS same_session;
SELECT is_compatible FROM registry.check_compatibility(':.transitive:t', regress.fixed50(1001), version => NULL);
-- and a registration, which checks the same versions
SELECT registry.register_schema(':.transitive:t', regress.fixed50(1001)) > 0 AS registered;
SELECT registry.delete_config(':.transitive:t') IS NOT NULL AS config_removed;
SELECT count(*) AS versions_deleted FROM registry.delete_subject(':.transitive:t') v;
SELECT count(*) AS versions_forgotten FROM registry.delete_subject(':.transitive:t', permanent => true) v;
DROP FUNCTION regress.fixed50(int);
