-- bench/scale_setup.sql: the bulk data set of scale.sh and lookup_scale.sh
-- (run after CREATE EXTENSION registry): bench.build(prefix, lo, hi, batch)
-- makes versions k in [lo, hi) of small distinct Avro records.
SELECT registry.set_compatibility('NONE');
CREATE SCHEMA bench;
-- the k-th schema of the data set (k >= 0): a small record, distinct per k
CREATE FUNCTION bench.schema_text(k bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format('{"type":"record","name":"Event","namespace":"bench.n%s","fields":[{"name":"id","type":"long"},{"name":"kind","type":"string"},{"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}}]}', k) $$;
-- versions k in [lo, hi): schema k becomes version (k - lo) % 10 + 1 of
-- subject prefix || ((k - lo) / 10), through raw inserts (the tables' triggers check and
-- number them as they do for the SQL API)
CREATE UNLOGGED TABLE bench.pending (id integer, k bigint);
CREATE PROCEDURE bench.build(prefix text, lo bigint, hi bigint, batch bigint) LANGUAGE plpgsql AS $$
DECLARE
  a bigint := lo;
BEGIN
  WHILE a < hi LOOP
    WITH ins AS (
      INSERT INTO registry.schemas (context, schema)
        SELECT '.', bench.schema_text(k) FROM generate_series(a, least(a + batch, hi) - 1) k
        RETURNING id, schema)
    INSERT INTO bench.pending SELECT id, substring(schema FROM 'bench[.]n([0-9]+)')::bigint FROM ins;
    INSERT INTO registry.subject_versions (context, subject, schema_id)
      SELECT '.', prefix || ((k - lo) / 10), id FROM bench.pending ORDER BY k;
    TRUNCATE bench.pending;
    COMMIT;
    a := a + batch;
  END LOOP;
END $$;
