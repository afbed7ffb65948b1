-- bench/baseline_two_insert.sql: issue 13's baseline as worded, "a plain
-- two-INSERT transaction run by pgbench": the same two rows as
-- bench/baseline_cte.sql in four statements.
BEGIN;
INSERT INTO bench.b_schemas (id, schema) VALUES (nextval('bench.b_ids'), bench.reg_schema(nextval('bench.n')::text));
INSERT INTO bench.b_versions (subject, version, schema_id) VALUES ('c' || :client_id, currval('bench.b_ids'), currval('bench.b_ids'));
END;
