-- Avro's stored form (Confluent's canonical string), normalize, Parsing Canonical Form, fingerprint.
\set SHOW_CONTEXT never
SELECT registry.set_compatibility('NONE', 'f-forms');
CREATE FUNCTION pg_temp.stored(s text, n boolean DEFAULT false) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	id integer := registry.register_schema('f-forms', s, 'AVRO', '[]', n);
BEGIN
	RETURN (registry.schema_by_id(id)).schema;
END $$;
-- namespaces: nested types in the same namespace are written without it
SELECT pg_temp.stored('{"type":"record","name":"a.b.Outer","fields":[{"name":"in","type":{"type":"record","name":"Inner","fields":[{"name":"x","type":"int"}]}},{"name":"again","type":"a.b.Inner"}]}');
SELECT pg_temp.stored('{"type":"record","name":"Outer","namespace":"a","fields":[{"name":"in","type":{"type":"enum","name":"x.E","symbols":["A","B"],"default":"A"}}]}');
-- doc, defaults, order, aliases, custom properties and logical types are kept
SELECT pg_temp.stored('{"type":"record","name":"P","doc":"a doc","aliases":["Q","z.R"],"custom":{"k":[1,2.5,true,null]},"fields":[{"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2},"doc":"money","default":"\u0000","order":"descending","aliases":["amt"],"x-prop":"v"},{"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"},"default":0},{"name":"d","type":"double","default":1e3}]}');
-- normalize: aliases and properties sorted, empty doc dropped
SELECT pg_temp.stored('{"type":"record","name":"N","doc":"","aliases":["Z","A"],"zz":1,"aa":2,"fields":[{"name":"f","type":"int","aliases":["y","b"]}]}', true);
SELECT pg_temp.stored('{"type":"record","name":"N","doc":"","aliases":["Z","A"],"zz":1,"aa":2,"fields":[{"name":"f","type":"int","aliases":["y","b"]}]}', false);
-- normalize rebuilds object defaults (a map's, a record's) in the server process too
-- (in a context of its own, so the default context's ids stay as the later tests know them)
SELECT registry.register_schema(':.forms:d', '{"type":"record","name":"D","fields":[{"name":"m","type":{"type":"map","values":"int"},"default":{"b":2,"a":1}},{"name":"r","type":{"type":"record","name":"In","fields":[{"name":"x","type":"int"}]},"default":{"x":7}}]}',
	'AVRO', '[]', true) AS forms_id \gset
SELECT schema FROM registry.schema_by_id(:forms_id, ':.forms:d');
SELECT registry.delete_subject(':.forms:d');
SELECT registry.delete_subject(':.forms:d', true);
DELETE FROM registry.contexts WHERE context = '.forms';
-- Parsing Canonical Form and its CRC-64-AVRO fingerprint
SELECT registry.avro_canonical_form('{"type":"record","name":"P","namespace":"x","doc":"gone","fields":[{"name":"a","type":{"type":"int","logicalType":"date"},"default":1}]}');
SELECT registry.avro_fingerprint('"int"'), registry.avro_fingerprint('{"type":"int"}'), registry.avro_fingerprint('"string"');
SELECT registry.avro_fingerprint('{"type":"fixed","name":"F","size":16}') =
       registry.avro_fingerprint('{"name":"F","size":16,"type":"fixed","doc":"ignored"}') AS same_fingerprint;
