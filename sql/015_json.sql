-- JSON Schema: registration, the stored form, dedup across formatting, normalize,
-- references (relative names and $id URLs, referencedby, delete protection),
-- compatibility under every level with Confluent's messages, bad input.
\set SHOW_CONTEXT never

-- registration: the stored form is the compact document in its own key order
SELECT registry.register_schema(':.js:person', $${
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "Person",
  "type": "object",
  "properties": {
    "name": {"type": "string", "maxLength": 100},
    "age": {"type": "integer", "minimum": 0},
    "score": {"type": "number", "multipleOf": 0.5}
  },
  "required": ["name"]
}$$, 'JSON') AS person_id \gset
SELECT id, schema_type, schema, refs FROM registry.get_version(':.js:person', 'latest');
SELECT status, response FROM regress.rest('GET', '/schemas/ids/' || :person_id, 'subject=:.js:');
SELECT status, response FROM regress.rest('GET', '/schemas/ids/' || :person_id || '/schema', 'subject=:.js:');
-- format= other than the default changes nothing for JSON
SELECT status, response FROM regress.rest('GET', '/schemas/ids/' || :person_id || '/schema', 'subject=:.js:&format=serialized');
SELECT status, response FROM regress.rest('GET', '/schemas/types');
-- the same document with other whitespace is the same schema: same id, no new version
SELECT registry.register_schema(':.js:person', '{"$schema":"http://json-schema.org/draft-07/schema#","title":"Person","type":"object","properties":{"name":{"type":"string","maxLength":100},"age":{"type":"integer","minimum":0},"score":{"type":"number","multipleOf":0.5}},"required":["name"]}',
	'JSON') = :person_id AS same_id;
SELECT * FROM registry.versions(':.js:person');
SELECT subject, version, id = :person_id AS same FROM registry.lookup_schema(':.js:person',
	$$ {"$schema" : "http://json-schema.org/draft-07/schema#", "title" : "Person", "type" : "object",
	    "properties" : {"name" : {"type" : "string", "maxLength" : 100}, "age" : {"type" : "integer", "minimum" : 0},
	    "score" : {"type" : "number", "multipleOf" : 0.5}}, "required" : ["name"]} $$, 'JSON');
-- the same text under another subject gets the same id
SELECT registry.register_schema(':.js:person-copy', (SELECT schema FROM registry.get_version(':.js:person', '1')), 'JSON') = :person_id AS same_id;
-- schemaType is matched exactly, as Confluent matches it: "json" is refused, nothing is stored
SELECT regress.try($$SELECT registry.register_schema(':.js:lower', '{"type":"string"}', 'json')$$);
SELECT count(*) FROM registry.subject_versions WHERE subject = 'lower';
-- keys in another order are another schema, unless normalize sorts them
SELECT regress.try($$SELECT registry.lookup_schema(':.js:person', '{"type":"object","title":"Person","$schema":"http://json-schema.org/draft-07/schema#","required":["name"],"properties":{"score":{"multipleOf":0.5,"type":"number"},"age":{"minimum":0,"type":"integer"},"name":{"maxLength":100,"type":"string"}}}', 'JSON')$$);
SELECT registry.register_schema(':.js:norm', '{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}', 'JSON',
	"normalize" => true) AS norm_id \gset
SELECT registry.register_schema(':.js:norm', '{"properties":{"a":{"type":"integer"},"b":{"type":"string"}},"type":"object"}', 'JSON',
	"normalize" => true) = :norm_id AS same_id;
SELECT schema FROM registry.schema_by_id(:norm_id, ':.js:');
SELECT subject, version FROM registry.lookup_schema(':.js:norm', '{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}}}', 'JSON',
	"normalize" => true);
-- boolean schemas and the empty schema
SELECT registry.register_schema(':.js:any', '{}', 'JSON') AS empty_id, registry.register_schema(':.js:true', 'true', 'JSON') AS true_id;
SELECT schema FROM registry.get_version(':.js:true', 'latest');

-- references: a relative name and an absolute $id URL, local definitions beside them
SELECT registry.register_schema(':.js:address', $${"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}},"required":["street"]}$$,
	'JSON') AS address_id \gset
SELECT registry.register_schema(':.js:money', $${"$id":"https://example.com/money.json","type":"object","properties":{"currency":{"type":"string"},"units":{"type":"integer"}}}$$,
	'JSON') AS money_id \gset
SELECT registry.register_schema(':.js:customer', $${"title":"Customer","type":"object","properties":{
	"name":{"type":"string"},
	"home":{"$ref":"address.json"},
	"balance":{"$ref":"https://example.com/money.json"},
	"tags":{"$ref":"#/definitions/tags"}},
  "definitions":{"tags":{"type":"array","items":{"type":"string"}}}}$$, 'JSON',
	'[{"name":"address.json","subject":"address","version":1},{"name":"https://example.com/money.json","subject":"money","version":-1}]') AS customer_id \gset
SELECT schema, refs FROM registry.get_version(':.js:customer', 'latest');
SELECT * FROM registry.referenced_by(':.js:address', '1');
SELECT * FROM registry.referenced_by(':.js:money', 'latest');
SELECT status, response FROM regress.rest('GET', '/subjects/:.js:address/versions/1/referencedby');
-- a referenced version cannot be deleted while something refers to it (42206)
SELECT regress.try($$SELECT registry.delete_version(':.js:address', '1')$$);
SELECT regress.try($$SELECT registry.delete_subject(':.js:money')$$);
SELECT status, response FROM regress.rest('DELETE', '/subjects/:.js:address/versions/1');
-- the same text without the references does not resolve: 42201, nothing stored
SELECT regress.counts() AS before \gset
SELECT regress.try($$SELECT registry.register_schema(':.js:customer2', '{"type":"object","properties":{"home":{"$ref":"address.json"}}}', 'JSON')$$);
SELECT regress.try($$SELECT registry.register_schema(':.js:customer2', '{"type":"object","properties":{"home":{"$ref":"#/definitions/nowhere"}}}', 'JSON')$$);
SELECT regress.try($$SELECT registry.register_schema(':.js:customer2', '{"type":"object","properties":{"home":{"$ref":"address.json"}}}', 'JSON',
	'[{"name":"address.json","subject":"no-such-subject","version":1}]')$$);
SELECT regress.counts() = :'before' AS unchanged;
-- lookup and compatibility follow the references
SELECT subject, version, id = :customer_id AS same FROM registry.lookup_schema(':.js:customer',
	(SELECT schema FROM registry.get_version(':.js:customer', '1')), 'JSON',
	'[{"name":"address.json","subject":"address","version":1},{"name":"https://example.com/money.json","subject":"money","version":1}]');
-- normalize sorts the references by subject and version and drops an exact repeat, as Confluent
SELECT registry.register_schema(':.js:customer-norm', (SELECT schema FROM registry.get_version(':.js:customer', '1')), 'JSON',
	'[{"name":"https://example.com/money.json","subject":"money","version":-1},{"name":"address.json","subject":"address","version":1},{"name":"address.json","subject":"address","version":1}]',
	"normalize" => true) AS customer_norm_id \gset
SELECT schema, refs FROM registry.schema_by_id(:customer_norm_id, ':.js:');
SELECT registry.register_schema(':.js:customer-norm', (SELECT schema FROM registry.get_version(':.js:customer', '1')), 'JSON',
	'[{"name":"address.json","subject":"address","version":1},{"name":"https://example.com/money.json","subject":"money","version":1}]',
	"normalize" => true) = :customer_norm_id AS same_id;
SELECT registry.set_compatibility('NONE', ':.js:address');
SELECT registry.register_schema(':.js:address', $${"type":"object","properties":{"street":{"type":"integer"},"city":{"type":"string"}},"required":["street"]}$$,
	'JSON') IS NOT NULL AS address_v2;
SELECT unnest(messages) FROM registry.check_compatibility(':.js:customer',
	(SELECT schema FROM registry.get_version(':.js:customer', '1')), 'JSON',
	'[{"name":"address.json","subject":"address","version":2},{"name":"https://example.com/money.json","subject":"money","version":1}]',
	verbose => true);

-- compatibility (BACKWARD by default): Confluent's messages, then the version and the schema
SELECT unnest(messages) FROM registry.check_compatibility(':.js:person', $${
  "$schema": "http://json-schema.org/draft-07/schema#", "title": "Person", "type": "object",
  "properties": {"name": {"type": "string", "maxLength": 50}, "age": {"type": "string"},
    "score": {"type": "number", "multipleOf": 0.5}},
  "required": ["name", "age"]}$$, 'JSON', verbose => true);
-- removing an optional property of an open object is compatible; adding one is not (STRICT)
SELECT * FROM registry.check_compatibility(':.js:person', '{"$schema":"http://json-schema.org/draft-07/schema#","title":"Person","type":"object","properties":{"name":{"type":"string","maxLength":100},"age":{"type":"integer","minimum":0}},"required":["name"]}',
	'JSON', verbose => true);
SELECT unnest(messages) FROM registry.check_compatibility(':.js:person', '{"$schema":"http://json-schema.org/draft-07/schema#","title":"Person","type":"object","properties":{"name":{"type":"string","maxLength":100},"age":{"type":"integer","minimum":0},"score":{"type":"number","multipleOf":0.5},"email":{"type":"string"}},"required":["name"]}',
	'JSON', verbose => true);
-- a closed object takes new optional properties
SELECT registry.register_schema(':.js:closed', '{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}', 'JSON') IS NOT NULL AS closed_v1;
SELECT is_compatible FROM registry.check_compatibility(':.js:closed', '{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"additionalProperties":false}', 'JSON');
-- integer -> number widens (compatible backward, not forward)
SELECT registry.register_schema(':.js:num', '{"type":"integer"}', 'JSON') IS NOT NULL AS num_v1;
SELECT is_compatible FROM registry.check_compatibility(':.js:num', '{"type":"number"}', 'JSON');
SELECT registry.set_compatibility('FORWARD', ':.js:num');
SELECT unnest(messages) FROM registry.check_compatibility(':.js:num', '{"type":"number"}', 'JSON', verbose => true);
SELECT registry.set_compatibility('FULL', ':.js:num');
SELECT unnest(messages) FROM registry.check_compatibility(':.js:num', '{"type":"number"}', 'JSON', verbose => true);
-- every level on one history: v1 string, v2 integer; "number" reads both histories' data
-- only backward and only from v2, an integer with a maximum is read by v2 (forward)
SELECT registry.register_schema(':.js:levels', '{"type":"string"}', 'JSON') IS NOT NULL AS v1;
SELECT registry.set_compatibility('NONE', ':.js:levels');
SELECT registry.register_schema(':.js:levels', '{"type":"integer"}', 'JSON') IS NOT NULL AS v2;
CREATE FUNCTION pg_temp.at_level(level text, schema text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	PERFORM registry.set_compatibility(level, ':.js:levels');
	RETURN (SELECT is_compatible FROM registry.check_compatibility(':.js:levels', schema, 'JSON', version => NULL));
END $$;
SELECT level, pg_temp.at_level(level, '{"type":"number"}') AS number,
	pg_temp.at_level(level, '{"type":"integer","maximum":10}') AS bounded
FROM unnest(ARRAY['NONE', 'BACKWARD', 'BACKWARD_TRANSITIVE', 'FORWARD', 'FORWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE']) AS level;
SELECT registry.set_compatibility('BACKWARD_TRANSITIVE', ':.js:levels');
SELECT unnest(messages) FROM registry.check_compatibility(':.js:levels', '{"type":"number"}', 'JSON', version => NULL, verbose => true);
SELECT registry.set_compatibility('FULL', ':.js:levels');
SELECT unnest(messages) FROM registry.check_compatibility(':.js:levels', '{"type":"integer","maximum":10}', 'JSON', version => NULL, verbose => true);
-- an incompatible registration is refused with Confluent's 40901 text
SELECT regress.try($$SELECT registry.register_schema(':.js:levels', '{"type":"number"}', 'JSON')$$);
-- another schema type in the same subject is incompatible, both ways
SELECT unnest(messages) FROM registry.check_compatibility(':.js:person', '"string"', 'AVRO', verbose => true);
SELECT registry.register_schema(':.js:avro', '"string"') IS NOT NULL AS avro_v1;
SELECT unnest(messages) FROM registry.check_compatibility(':.js:avro', '{"type":"string"}', 'JSON', verbose => true);

-- compatibilityPolicy (Confluent's config field): LENIENT takes an optional property added
-- to an open object, STRICT (the default) does not; subject, context and global scopes
SELECT registry.set_config(':.js:person', '{"compatibilityPolicy":"LENIENT"}');
SELECT registry.get_config(':.js:person');
SELECT is_compatible FROM registry.check_compatibility(':.js:person', '{"$schema":"http://json-schema.org/draft-07/schema#","title":"Person","type":"object","properties":{"name":{"type":"string","maxLength":100},"age":{"type":"integer","minimum":0},"score":{"type":"number","multipleOf":0.5},"email":{"type":"string"}},"required":["name"]}',
	'JSON');
SELECT registry.set_config(':.js:person', '{"compatibilityPolicy":"STRICT"}');
SELECT is_compatible FROM registry.check_compatibility(':.js:person', '{"$schema":"http://json-schema.org/draft-07/schema#","title":"Person","type":"object","properties":{"name":{"type":"string","maxLength":100},"age":{"type":"integer","minimum":0},"score":{"type":"number","multipleOf":0.5},"email":{"type":"string"}},"required":["name"]}',
	'JSON');
SELECT registry.delete_config(':.js:person');
SELECT registry.set_config(':.js:', '{"compatibilityPolicy":"lenient"}');
SELECT registry.register_schema(':.js:person', '{"$schema":"http://json-schema.org/draft-07/schema#","title":"Person","type":"object","properties":{"name":{"type":"string","maxLength":100},"age":{"type":"integer","minimum":0},"score":{"type":"number","multipleOf":0.5},"email":{"type":"string"}},"required":["name"]}',
	'JSON') > :person_id AS lenient_v2;
SELECT registry.delete_config(':.js:');
-- LENIENT still refuses what both policies refuse, and leaves other formats alone
SELECT registry.set_config(NULL, '{"compatibilityPolicy":"LENIENT"}');
SELECT unnest(messages) FROM registry.check_compatibility(':.js:num', '{"type":"string"}', 'JSON', verbose => true);
SELECT is_compatible FROM registry.check_compatibility(':.js:avro', '"int"', 'AVRO');
UPDATE registry.config SET settings = settings - 'compatibilityPolicy' WHERE context = '.' AND subject = '';
SELECT registry.get_config();

-- a DBA's raw INSERT of a JSON schema is parsed and stored in the same form
INSERT INTO registry.schemas (context, schema_type, schema)
	VALUES ('.js', 'JSON', '{ "type" : "array", "items" : { "type" : "string" } }')
	RETURNING schema_type, schema;
SELECT regress.try($$INSERT INTO registry.schemas (context, schema_type, schema) VALUES ('.js', 'JSON', '{"type":5}')$$);

-- the wire header of a JSON message is the id alone
SELECT * FROM registry.wire_parse(registry.wire_header(:person_id) || convert_to('{"name":"x"}', 'UTF8'));

-- bad input: 42201 in Confluent's words, nothing stored
SELECT regress.counts() AS before \gset
SELECT regress.try($$SELECT registry.register_schema(':.js:bad', '{"type":', 'JSON')$$);
SELECT regress.try($$SELECT registry.register_schema(':.js:bad', '{"type":5}', 'JSON')$$);
SELECT regress.try($$SELECT registry.register_schema(':.js:bad', '{"type":"object","required":"x"}', 'JSON')$$);
SELECT regress.try($$SELECT registry.register_schema(':.js:bad', '{"properties":[]}', 'JSON')$$);
SELECT regress.try($$SELECT registry.register_schema(':.js:bad', '42', 'JSON')$$);
SELECT regress.try($$SELECT registry.register_schema(':.js:bad', '', 'JSON')$$);
SELECT regress.try(format($$SELECT registry.register_schema(':.js:bad', %L, 'JSON')$$,
	repeat('{"items":', 5000) || '{}' || repeat('}', 5000)));
-- a $ref cycle that never reaches a schema
SELECT regress.try($$SELECT registry.register_schema(':.js:bad', '{"$ref":"#/definitions/a","definitions":{"a":{"$ref":"#/definitions/b"},"b":{"$ref":"#/definitions/a"}}}', 'JSON')$$);
SELECT regress.counts() = :'before' AS unchanged;
-- with verbose, compatibility answers an invalid schema with the parser's words
SELECT * FROM registry.check_compatibility(':.js:person', '{"type":5}', 'JSON', verbose => true);
SELECT status, response FROM regress.rest('POST', '/subjects/:.js:person/versions', NULL, '{"schemaType":"JSON","schema":"{\"type\":5}"}');
-- a recursive schema is fine
SELECT registry.register_schema(':.js:tree', '{"type":"object","properties":{"value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#"}}}}', 'JSON') IS NOT NULL AS tree;
SELECT is_compatible FROM registry.check_compatibility(':.js:tree', '{"type":"object","properties":{"value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#"}}}}', 'JSON');
-- a big valid document: 2,000 properties
SELECT registry.register_schema(':.js:big', format('{"type":"object","properties":{%s}}',
	(SELECT string_agg(format('"p%s":{"type":"integer"}', i), ',') FROM generate_series(1, 2000) i)), 'JSON') > 0 AS registered;
