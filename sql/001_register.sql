-- Registration, dedup, reads and bad input through the SQL API.
\set SHOW_CONTEXT never

-- first registration: id 1, version 1
SELECT registry.register_schema('orders-value',
	'{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"long"}]}');
-- the same schema, other whitespace and key order: same id, no new version
SELECT registry.register_schema('orders-value',
	'{ "fields" : [ { "type" : "long", "name" : "id" } ], "namespace" : "shop", "name" : "Order", "type" : "record" }');
-- {"type":"long"} is "long"
SELECT registry.register_schema('orders-value',
	'{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":{"type":"long"}}]}');
SELECT * FROM registry.versions('orders-value');
-- the same schema in another subject keeps its id and gets version 1 there
SELECT * FROM registry.register_schema_version('orders-copy',
	'{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"long"}]}');
-- a compatible evolution: a new id and version 2
SELECT * FROM registry.register_schema_version('orders-value',
	'{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"long"},{"name":"note","type":["null","string"],"default":null}]}');
SELECT * FROM registry.versions('orders-value');
SELECT subject, version, id, schema_type, schema, refs FROM registry.get_version('orders-value', 'latest');
SELECT subject, version, id, schema FROM registry.get_version('orders-value', '1');
SELECT subject, version, id FROM registry.get_version('orders-value', '-1');
SELECT id, schema_type, schema FROM registry.schema_by_id(2);
SELECT * FROM registry.subjects();
SELECT * FROM registry.subjects('orders-c');
SELECT subject, version, id, schema FROM registry.lookup_schema('orders-value',
	'{"type":"record","namespace":"shop","name":"Order","fields":[{"name":"id","type":"long"}]}');
-- primitives and the stored form
SELECT registry.register_schema('plain-string', '{"type":"string"}');
SELECT schema FROM registry.get_version('plain-string', 'latest');

-- reads that find nothing
SELECT regress.try($$SELECT registry.schema_by_id(999)$$);
SELECT regress.try($$SELECT registry.versions('no-such-subject')$$);
-- NULL arguments: a NULL subject is an error, a NULL flag filters as
-- false, and a NULL deleted_only raises nothing
SELECT regress.try($$SELECT registry.versions(NULL)$$);
SELECT regress.try($$SELECT registry.versions(NULL, deleted_only => true)$$);
SELECT count(*) AS none FROM registry.versions('no-such-subject', deleted_only => NULL);
SELECT * FROM registry.versions('orders-value', deleted => NULL, deleted_only => NULL);
SELECT regress.try($$SELECT registry.get_version('orders-value', '99')$$);
SELECT regress.try($$SELECT registry.get_version('no-such-subject', 'latest')$$);
SELECT regress.try($$SELECT registry.lookup_schema('no-such-subject', '"int"')$$);
SELECT regress.try($$SELECT registry.lookup_schema('orders-value', '"int"')$$);
SELECT regress.try($$SELECT registry.get_version('orders-value', 'abc')$$);
SELECT regress.try($$SELECT registry.get_version('orders-value', '0')$$);
SELECT regress.try($$SELECT registry.get_version('orders-value', '-2')$$);
SELECT regress.try($$SELECT registry.get_version('orders-value', '2147483648')$$);

-- bad input: a clear error, and nothing changes
SELECT regress.counts() AS before \gset
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"record"')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', 'not json at all')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"record","name":"R"}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"record","name":"R","fields":[{"name":"a","type":"nosuchtype"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"record","name":"1R","fields":[]}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"enum","name":"E","symbols":["A","A"]}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"enum","name":"E","symbols":["A"],"default":"B"}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"fixed","name":"F","size":-1}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '["int",["long"]]')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '["int","int"]')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"record","name":"R","fields":[{"name":"a","type":"int","default":"x"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"record","name":"R","fields":[{"name":"a","type":["null","int"],"default":1}]}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"record","name":"R","fields":[]}}]}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '"int"', 'XML')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', NULL)$$);
SELECT regress.try($$SELECT registry.register_schema(NULL, '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema('', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema(E'bad\x01name', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema('__GLOBAL', '"int"')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '"int"', 'AVRO', '{"not":"an array"}')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '"int"', 'AVRO', '[{"name":"x"}]')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '"int"', 'AVRO', '[{"name":"x","subject":"nope","version":1}]')$$);
SELECT regress.try($$SELECT registry.register_schema('bad', '"int"', 'AVRO', '[{"name":"x","subject":"orders-value","version":"one"}]')$$);
-- invalid UTF-8 never reaches the registry: PostgreSQL refuses it at the door
SELECT regress.try($$SELECT registry.register_schema('bad', convert_from('\x22ff22'::bytea, 'UTF8'))$$);
-- a JSON escape that is not valid Unicode text
SELECT regress.try($$SELECT registry.register_schema('bad', '{"type":"record","name":"R","doc":"\udc00","fields":[]}')$$);
-- deep nesting
SELECT regress.try(format($$SELECT registry.register_schema('bad', %L)$$,
	repeat('{"type":"array","items":', 300) || '"int"' || repeat('}', 300)));
SELECT regress.try(format($$SELECT registry.register_schema('bad', %L)$$, repeat('[', 100000)));
SELECT regress.counts() = :'before' AS unchanged;

-- a huge but valid schema: 5,000 fields
SELECT registry.register_schema('huge', format('{"type":"record","name":"Huge","fields":[%s]}',
	(SELECT string_agg(format('{"name":"f%s","type":"long","default":%s}', i, i), ',') FROM generate_series(1, 5000) i))) > 0 AS registered;
SELECT length(schema) FROM registry.get_version('huge', 'latest');
