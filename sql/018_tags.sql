-- Schema tags: registry.schema_with_tags() (Confluent's schemaTagsToAdd /
-- schemaTagsToRemove on a schema's text) and registry.schema_tags()
-- (findTags), outside any subject.
\set SHOW_CONTEXT never
\set VERBOSITY default
CREATE FUNCTION pg_temp.tags(path text, type text, VARIADIC tags text[]) RETURNS jsonb
	LANGUAGE sql AS $$
	SELECT jsonb_build_array(jsonb_build_object('schemaEntity',
		jsonb_build_object('entityPath', path, 'entityType', type), 'tags', to_jsonb(tags)))
$$;
-- Avro: a field's tags are its last property, a record's come after its fields
SELECT registry.schema_with_tags(
	'{"type": "record", "name": "Rec", "namespace": "ns", "fields": [{"name": "f", "type": "string"}]}',
	'AVRO', pg_temp.tags('ns.Rec.f', 'sr_field', 'PII'));
SELECT registry.schema_with_tags(
	'{"type":"record","name":"Rec","namespace":"ns","aliases":["Old"],"fields":[{"name":"f","type":"string"}]}',
	'AVRO', pg_temp.tags('ns.Rec', 'sr_record', 'B', 'A', 'B'));
-- existing tags keep their place; tags to remove go after those to add
SELECT registry.schema_with_tags(
	'{"type":"record","name":"R","fields":[{"name":"a","type":"int","confluent:tags":["A"],"x":1}]}',
	'AVRO', pg_temp.tags('R.a', 'sr_field', 'B', 'C'), pg_temp.tags('R.a', 'sr_field', 'C'));
SELECT registry.schema_with_tags(
	'{"type":"record","name":"R","fields":[{"name":"a","type":"int","confluent:tags":["A"],"x":1}]}',
	'AVRO', '[]', pg_temp.tags('R.a', 'sr_field', 'A'));
-- a record in a union found without its namespace, two entities in one list
SELECT registry.schema_with_tags(
	'{"type":"record","name":"O","namespace":"a","fields":[{"name":"u","type":["null",{"type":"record","name":"In","fields":[{"name":"x","type":"long"}]}]}]}',
	'AVRO', pg_temp.tags('In.x', 'sr_field', 'T') || pg_temp.tags('a.O', 'sr_record', 'R'));
-- errors: no such entity, the path of a field given as a record, a malformed list
SELECT registry.schema_with_tags('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}',
	'AVRO', pg_temp.tags('R.b', 'sr_field', 'T'));
SELECT registry.schema_with_tags('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}',
	'AVRO', pg_temp.tags('R.a', 'sr_record', 'T'));
SELECT registry.schema_with_tags('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}',
	'AVRO', pg_temp.tags('R.a', 'SR_FIELD', 'T'));
SELECT registry.schema_with_tags('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}',
	'AVRO', '{"tags":["T"]}');
SELECT registry.schema_with_tags('{"type":"record","name":"R"}', 'AVRO', pg_temp.tags('R', 'sr_record', 'T'));
SELECT registry.schema_with_tags('{}', 'XML', '[]');
-- JSON Schema: the path walks the document
SELECT registry.schema_with_tags(
	'{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "object", "properties": {"c": {"type": "integer"}}}}}',
	'JSON', pg_temp.tags('object.a', 'sr_field', 'PII') || pg_temp.tags('object.b.object.c', 'sr_field', 'X')
		|| pg_temp.tags('object', 'sr_record', 'R'));
SELECT registry.schema_with_tags('{"type":"object","properties":{"a":{"confluent:tags":["PII"],"type":"string"}}}',
	'JSON', '[]', pg_temp.tags('object.a', 'sr_field', 'PII'));
SELECT registry.schema_with_tags('{"type":"object","properties":{"a":{}}}', 'JSON',
	pg_temp.tags('object.b', 'sr_field', 'T'));
-- findTags: the tagged entities with one of the tags, or all of them
SELECT registry.schema_tags(
	'{"type":"record","name":"R","namespace":"n","confluent:tags":["REC"],"fields":[{"name":"a","type":"int","confluent:tags":["PII","X"]},{"name":"b","type":{"type":"record","name":"S","fields":[{"name":"c","type":"string","confluent:tags":["PII"]}]}}]}');
SELECT registry.schema_tags(
	'{"type":"record","name":"R","namespace":"n","confluent:tags":["REC"],"fields":[{"name":"a","type":"int","confluent:tags":["PII","X"]},{"name":"b","type":{"type":"record","name":"S","fields":[{"name":"c","type":"string","confluent:tags":["PII"]}]}}]}',
	'AVRO', '{X}');
SELECT registry.schema_tags('{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}');
-- the tags added are what schema_tags finds
SELECT registry.schema_tags(registry.schema_with_tags(
	'{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}', 'AVRO', pg_temp.tags('R.a', 'sr_field', 'PII')));
-- only Avro schemas have tagged entities (Confluent's ParsedSchema default elsewhere)
SELECT registry.schema_tags('{"type":"object","confluent:tags":["A"]}', 'JSON');
