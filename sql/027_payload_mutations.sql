-- Payloads in SQL under mutated input: valid messages of each format with
-- bytes changed, removed and inserted (a fixed seed, so the same mutations
-- each run) go through registry.decode, decode as the subject reads them and
-- check_data.  Each is read or refused with a payload error; no other error
-- and no crash.
\set SHOW_CONTEXT never
SELECT registry.register_schema(':.mut:fa', '{"type":"record","name":"R","fields":[{"name":"a","type":"long"},{"name":"b","type":["null","string",{"type":"array","items":"R"}]},{"name":"m","type":{"type":"map","values":{"type":"bytes","logicalType":"decimal","precision":20,"scale":3}}},{"name":"t","type":{"type":"long","logicalType":"timestamp-micros"}},{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"]}},{"name":"f","type":{"type":"fixed","name":"F","size":3}}]}') > 0 AS registered;
SELECT registry.register_schema(':.mut:fp', 'syntax = "proto3"; package p; import "google/protobuf/any.proto"; message M { int64 a = 1; repeated M kids = 2; map<string, M> m = 3; oneof o { string s = 4; bytes b = 5; } google.protobuf.Any any = 6; enum E { Z = 0; O = 1; } E e = 7; }', 'PROTOBUF') > 0 AS registered;
SELECT registry.register_schema(':.mut:fj', '{"type":"object","properties":{"a":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#"}},"s":{"type":"string","pattern":"^(a|b)*c$"}},"required":["a"]}', 'JSON') > 0 AS registered;
CREATE TABLE regress.seeds AS
SELECT ':.mut:fa' AS s, registry.encode(':.mut:fa', '{"a":1,"b":{"array":[{"a":2,"b":"x","m":{"k":1.5},"t":"2024-01-01T00:00:00Z","e":"Y","f":"AAEC"}]},"m":{"q":"123.456"},"t":0,"e":"X","f":"AAAA"}') AS p
UNION ALL SELECT ':.mut:fp', registry.encode(':.mut:fp', '{"a":"5","kids":[{"a":"1","s":"hi"}],"m":{"k":{"b":"AAE="}},"e":"O"}')
UNION ALL SELECT ':.mut:fj', registry.encode(':.mut:fj', '{"a":1,"kids":[{"a":2,"s":"ababc"}]}');
CREATE FUNCTION regress.mutate(p bytea, seed int) RETURNS bytea LANGUAGE plpgsql AS $$
DECLARE r bytea := p; n int; i int; k int;
BEGIN
  PERFORM setseed((seed % 1000) / 1000.0);
  n := 1 + (random() * 6)::int;
  FOR k IN 1 .. n LOOP
    i := 5 + (random() * greatest(length(r) - 6, 0))::int;
    CASE (random() * 3)::int
      WHEN 0 THEN r := set_byte(r, least(i, length(r) - 1), (random() * 255)::int);
      WHEN 1 THEN r := substr(r, 1, i) || substr(r, i + 2);
      WHEN 2 THEN r := substr(r, 1, i) || decode(lpad(to_hex((random() * 255)::int), 2, '0'), 'hex') || substr(r, i + 1);
      ELSE r := r || '\xff'::bytea;
    END CASE;
    IF length(r) < 6 THEN r := p; END IF;
  END LOOP;
  RETURN r;
END $$;
CREATE TABLE regress.outcomes (format text, outcome text);
DO $$
DECLARE s record; j int; m bytea; st text;
BEGIN
  FOR s IN SELECT * FROM regress.seeds LOOP
    FOR j IN 1 .. 400 LOOP
      m := regress.mutate(s.p, j);
      BEGIN
        PERFORM registry.decode(m);
        PERFORM registry.decode(m, s.s);
        PERFORM * FROM registry.check_data(s.s, (registry.get_version(s.s)).schema, ARRAY[m, s.p], (registry.get_version(s.s)).schema_type);
        INSERT INTO regress.outcomes VALUES (s.s, 'read');
      EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
        INSERT INTO regress.outcomes VALUES (s.s, CASE WHEN st IN ('22P03', '22023', 'R0403', '22P05') THEN 'refused' ELSE st END);
      END;
    END LOOP;
  END LOOP;
END $$;
-- every mutation is read or refused with a payload error, in every format;
-- nothing else (no internal error, no crash)
SELECT format, count(*) AS mutations, count(*) FILTER (WHERE outcome NOT IN ('read', 'refused')) AS other_errors,
       count(*) FILTER (WHERE outcome = 'refused') > 0 AS some_refused
  FROM regress.outcomes GROUP BY format ORDER BY format;
SELECT DISTINCT outcome FROM regress.outcomes WHERE outcome NOT IN ('read', 'refused');
DROP TABLE regress.seeds, regress.outcomes;
DROP FUNCTION regress.mutate(bytea, int);
SELECT count(*) AS versions_deleted FROM unnest(ARRAY[':.mut:fa', ':.mut:fp', ':.mut:fj']) s, registry.delete_subject(s) v;
SELECT count(*) AS versions_forgotten FROM unnest(ARRAY[':.mut:fa', ':.mut:fp', ':.mut:fj']) s, registry.delete_subject(s, true) v;
