-- bench/new_schema.sql: the Avro record the benchmarks register, made
-- distinct by n in a last optional field "x<n>"; included (\i) after CREATE
-- SCHEMA bench.  new_schema (about 1 KB stored) is the HTTP read
-- benchmarks' (http_get.sh, http_reads.sh), reg_schema (about 770 bytes)
-- the registration benchmarks' (register_rate.sh, http_register.sh,
-- register_profile.sh).
CREATE FUNCTION bench.record_schema(doc text, n text) RETURNS text LANGUAGE sql AS $$
  SELECT format('{"type":"record","name":"Order","namespace":"com.example.bench","doc":"%s",'
    '"fields":[{"name":"id","type":"long"},{"name":"customer","type":"string"},'
    '{"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":12,"scale":2}},'
    '{"name":"currency","type":{"type":"enum","name":"Currency","symbols":["EUR","USD","GBP","JPY"]}},'
    '{"name":"created","type":{"type":"long","logicalType":"timestamp-millis"}},'
    '{"name":"tags","type":{"type":"array","items":"string"},"default":[]},'
    '{"name":"attrs","type":{"type":"map","values":"string"},"default":{}},'
    '{"name":"note","type":["null","string"],"default":null},'
    '{"name":"qty","type":"int","default":1},'
    '{"name":"status","type":"string","default":"new"},'
    '{"name":"x%s","type":["null","string"],"default":null}]}', doc, n) $$;
CREATE FUNCTION bench.new_schema(n bigint) RETURNS text LANGUAGE sql AS $$
  SELECT bench.record_schema(rtrim(repeat('bench record ', 18)), n::text) $$;
CREATE FUNCTION bench.reg_schema(n text) RETURNS text LANGUAGE sql AS $$
  SELECT bench.record_schema('bench record', n) $$;
