-- bench/register_tables.sql: the registration benchmarks' schema "bench": the
-- baseline's plain tables (schemas by id, versions by subject and number),
-- its sequences and the records (new_schema.sql).
CREATE SCHEMA bench;
CREATE SEQUENCE bench.n;
CREATE SEQUENCE bench.b_ids;
CREATE TABLE bench.b_schemas (id bigint PRIMARY KEY, schema text NOT NULL);
CREATE TABLE bench.b_versions (subject text, version bigint, schema_id bigint NOT NULL,
                               PRIMARY KEY (subject, version));
\ir new_schema.sql
