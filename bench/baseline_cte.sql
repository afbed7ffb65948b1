-- bench/baseline_cte.sql: the registration benchmarks' single-statement
-- baseline, a pgbench script: the schema text into a plain "schemas" table
-- and a row into a plain "versions" table (bench/register_tables.sql) in
-- one data-modifying CTE.
WITH s AS (INSERT INTO bench.b_schemas (id, schema) SELECT nextval('bench.b_ids'), bench.reg_schema(nextval('bench.n')::text) RETURNING id)
INSERT INTO bench.b_versions (subject, version, schema_id) SELECT 'c' || :client_id, id, id FROM s;
