-- Data contracts: metadata and rule sets in Confluent's canonical form, rule
-- set validation (42210), config defaults and overrides merged at
-- registration and lookup, metadata-only updates, confluent:version,
-- compatibilityGroup, validateFields with confluent:reserved, IMPORT of a
-- version that exists, and config under :.__GLOBAL:.
\set SHOW_CONTEXT never

-- the canonical form: maps and sets sorted, repeats dropped, unknown members gone
SELECT registry.register_schema(':.dc:canon', '"string"', 'AVRO', '[]', false,
	'{"sensitive":["b","a","a"],"properties":{"z":"1","a":"2"},"other":1}') AS canon_id \gset
SELECT metadata FROM registry.get_version(':.dc:canon', '1');
SELECT status, response FROM regress.rest('GET', '/subjects/:.dc:canon/versions/1');
-- the same metadata written otherwise is the same schema
SELECT registry.register_schema(':.dc:canon', '"string"', 'AVRO', '[]', false,
	'{"properties":{"a":"2","z":"1"},"sensitive":["a","b"]}') = :canon_id AS same_id;
-- a rule's kind and mode default as Confluent's Rule does; disabled is always written
SELECT registry.register_schema(':.dc:rules', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"checkLen","type":"CEL","expr":"size(message) < 10","tags":["PII","A"],"params":{"b":"2","a":"1"}}]}') IS NOT NULL AS registered;
SELECT rule_set FROM registry.get_version(':.dc:rules', '1');
SELECT status, response FROM regress.rest('GET', '/subjects/:.dc:rules/versions/1');

-- invalid rule sets: 42210 with Confluent's words, nothing stored
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"a","type":"CEL"},{"name":"a","type":"CEL"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"migrationRules":[{"name":"a","type":"CEL","mode":"UPGRADE"}],"domainRules":[{"name":"a","type":"CEL"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"a"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"type":"CEL"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"9lives","type":"CEL"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"a b","type":"CEL"}]}')$$);
SELECT regress.try(format($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"%s","type":"CEL"}]}')$$, repeat('x', 65)));
SELECT registry.register_schema(':.dc:longname', '"int"', 'AVRO', '[]', false, NULL,
	format('{"domainRules":[{"name":"%s","type":"CEL"}]}', repeat('x', 64))::jsonb) IS NOT NULL AS sixty_four_is_allowed;
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"a","type":"CEL","mode":"UPGRADE"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"migrationRules":[{"name":"a","type":"CEL","mode":"WRITE"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"encodingRules":[{"name":"a","type":"CEL","mode":"UPDOWN"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"a","type":"CEL","mode":"WRITE","onFailure":"ERROR,NONE"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"a","type":"CEL","kind":"MAGIC"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"a","type":"CEL","mode":"SIDEWAYS"}]}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, NULL, '[1]')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:bad', '"int"', 'AVRO', '[]', false, '{"properties":[1]}')$$);
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:bad/versions', '',
	'{"schema":"\"int\"","ruleSet":{"domainRules":[{"name":"a"}]}}');
SELECT count(*) AS bad_subjects FROM registry.subjects WHERE subject = 'bad';

-- a config's defaults and overrides are checked as a request's are
SELECT regress.try($$SELECT registry.set_config(':.dc:', '{"defaultRuleSet":{"domainRules":[{"name":"x"}]}}')$$);
SELECT regress.try($$SELECT registry.set_config(':.dc:', '{"overrideMetadata":{"sensitive":"x"}}')$$);
SELECT status, response FROM regress.rest('PUT', '/config/:.dc:', '', '{"overrideRuleSet":{"domainRules":[{"type":"CEL"}]}}');

-- config defaults and overrides: metadata = merge(merge(default, given or previous), override)
SELECT registry.set_config(':.dc:', '{"defaultMetadata":{"properties":{"owner":"team-a","tier":"1"}},
	"overrideMetadata":{"properties":{"tier":"gold"}},
	"defaultRuleSet":{"domainRules":[{"name":"r1","type":"CEL","expr":"true"}]}}');
SELECT registry.register_schema(':.dc:merged', '{"type":"record","name":"M","fields":[{"name":"a","type":"int"}]}',
	'AVRO', '[]', false, '{"properties":{"owner":"team-b","extra":"x"}}') AS merged_id \gset
SELECT metadata, rule_set FROM registry.get_version(':.dc:merged', '1');
-- the same request again is the same version (the merged identity)
SELECT registry.register_schema(':.dc:merged', '{"type":"record","name":"M","fields":[{"name":"a","type":"int"}]}',
	'AVRO', '[]', false, '{"properties":{"owner":"team-b","extra":"x"}}') = :merged_id AS same_id;
-- a lookup without metadata merges the defaults and the previous version's metadata in
SELECT version, id = :merged_id AS same FROM registry.lookup_schema(':.dc:merged',
	'{"type":"record","name":"M","fields":[{"name":"a","type":"int"}]}');
SELECT status, response::jsonb->'metadata' AS metadata FROM regress.rest('POST', '/subjects/:.dc:merged', '',
	'{"schema":"{\"type\":\"record\",\"name\":\"M\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}"}');
-- a new version without metadata keeps the previous version's, merged again
SELECT registry.register_schema(':.dc:merged', '{"type":"record","name":"M","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}') IS NOT NULL AS v2;
SELECT version, metadata FROM registry.get_version(':.dc:merged', '2');
SELECT registry.delete_config(':.dc:') IS NOT NULL AS cleared;

-- an empty schema is a metadata-only update of the latest version
SELECT registry.register_schema(':.dc:update', '{"type":"record","name":"U","fields":[]}') AS u1 \gset
SELECT schema_id <> :u1 AS new_id, subject_version, stored_schema FROM registry.register_schema_version(':.dc:update', '', 'AVRO', '[]', false,
	'{"properties":{"owner":"me"}}');
SELECT version, schema, metadata FROM registry.get_version(':.dc:update', 'latest');
-- without a previous version an empty schema is 42201 "Empty schema"
SELECT regress.try($$SELECT registry.register_schema(':.dc:none', '  ')$$);
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:none/versions', '', '{"schema":""}');

-- confluent:version: set when the request names a version, renumbered after
SELECT registry.register_schema(':.dc:ver', '"long"', 'AVRO', '[]', false, NULL, NULL, NULL, 1) AS ver1 \gset
SELECT metadata FROM registry.get_version(':.dc:ver', '1');
-- the same schema again (no version) is version 1, not a copy numbered 2
SELECT registry.register_schema(':.dc:ver', '"long"') = :ver1 AS same_id;
SELECT * FROM registry.versions(':.dc:ver');
-- a metadata-only update carries confluent:version 2
SELECT subject_version FROM registry.register_schema_version(':.dc:ver', '', 'AVRO', '[]', false,
	'{"properties":{"note":"x"}}');
SELECT metadata FROM registry.get_version(':.dc:ver', '2');

-- compatibilityGroup: only versions with the same value of the property are checked
SELECT registry.set_config(':.dc:grouped', '{"compatibilityGroup":"major"}');
SELECT registry.register_schema(':.dc:grouped', '{"type":"record","name":"G","fields":[{"name":"a","type":"int"}]}',
	'AVRO', '[]', false, '{"properties":{"major":"1"}}') IS NOT NULL AS g1;
SELECT registry.register_schema(':.dc:grouped', '{"type":"record","name":"G","fields":[{"name":"b","type":"string"}]}',
	'AVRO', '[]', false, '{"properties":{"major":"2"}}') IS NOT NULL AS g2_other_group;
SELECT regress.try($$SELECT registry.register_schema(':.dc:grouped', '{"type":"record","name":"G","fields":[{"name":"c","type":"string"}]}',
	'AVRO', '[]', false, '{"properties":{"major":"2"}}')$$);
-- a compatibility test without metadata belongs to the group without the property: no versions
SELECT * FROM registry.check_compatibility(':.dc:grouped', '{"type":"record","name":"G","fields":[{"name":"c","type":"string"}]}',
	'AVRO', '[]', NULL, true);
-- with the group's value it is tested against that group's versions, as Confluent's compatibility route does
SELECT * FROM registry.check_compatibility(':.dc:grouped', '{"type":"record","name":"G","fields":[{"name":"c","type":"string"}]}',
	'AVRO', '[]', NULL, true, metadata => '{"properties":{"major":"2"}}');
SELECT status, response FROM regress.rest('POST', '/compatibility/subjects/:.dc:grouped/versions', 'verbose=true',
	'{"schema":"{\"type\":\"record\",\"name\":\"G\",\"fields\":[{\"name\":\"c\",\"type\":\"string\"}]}","metadata":{"properties":{"major":"1"}}}');

-- validateFields: a reserved field may not be removed from the metadata
SELECT registry.set_config(':.dc:reserved', '{"validateFields":true}');
SELECT registry.register_schema(':.dc:reserved', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}',
	'AVRO', '[]', false, '{"properties":{"confluent:reserved":"x, y"}}') IS NOT NULL AS r1;
SELECT regress.try($$SELECT registry.register_schema(':.dc:reserved', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}',
	'AVRO', '[]', false, '{"properties":{"confluent:reserved":"x"}}')$$);
-- without validateFields the same registration is allowed
SELECT registry.set_config(':.dc:reserved', '{"validateFields":false}');
SELECT registry.register_schema(':.dc:reserved', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}',
	'AVRO', '[]', false, '{"properties":{"confluent:reserved":"x"}}') IS NOT NULL AS r2;

-- validateFields: a reserved name may not be a field at the schema's top level (409), in
-- each format; the same name deeper down is allowed
SELECT registry.set_config(':.dc:res_avro', '{"compatibility":"NONE","validateFields":true}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_avro/versions', '',
	'{"schema":"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}","metadata":{"properties":{"confluent:reserved":"b"}}}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_avro/versions', '',
	'{"schema":"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}","metadata":{"properties":{"confluent:reserved":"b"}}}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_avro/versions', '',
	'{"schema":"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"b\",\"type\":\"int\"}]}}]}","metadata":{"properties":{"confluent:reserved":"b"}}}');
SELECT registry.set_config(':.dc:res_proto', '{"compatibility":"NONE","validateFields":true}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_proto/versions', '',
	'{"schemaType":"PROTOBUF","schema":"syntax = \"proto3\";\nmessage M {\n  int32 a = 1;\n}\n","metadata":{"properties":{"confluent:reserved":"b, c"}}}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_proto/versions', '',
	'{"schemaType":"PROTOBUF","schema":"syntax = \"proto3\";\nmessage M {\n  int32 a = 1;\n}\nmessage N {\n  int32 b = 1;\n  int32 c = 2;\n}\n","metadata":{"properties":{"confluent:reserved":"b, c"}}}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_proto/versions', '',
	'{"schemaType":"PROTOBUF","schema":"syntax = \"proto3\";\nmessage M {\n  int32 a = 1;\n  oneof o {\n    int32 b = 2;\n  }\n}\n","metadata":{"properties":{"confluent:reserved":"b, c"}}}');
SELECT registry.set_config(':.dc:res_json', '{"compatibility":"NONE","validateFields":true}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_json/versions', '',
	'{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}","metadata":{"properties":{"confluent:reserved":"b"}}}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_json/versions', '',
	'{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}}}","metadata":{"properties":{"confluent:reserved":"b"}}}');
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:res_json/versions', '',
	'{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"properties\":{\"b\":{}}}}}","metadata":{"properties":{"confluent:reserved":"b"}}}');

-- IMPORT: a version the subject has is the answer for the same schema, refused for another
SELECT registry.set_mode('IMPORT', ':.dcimp:', true);
SELECT registry.register_schema(':.dcimp:s', '"int"', 'AVRO', '[]', false, NULL, NULL, 50, 3);
SELECT registry.register_schema(':.dcimp:s', '"int"', 'AVRO', '[]', false, NULL, NULL, 50, 3);
SELECT regress.try($$SELECT registry.register_schema(':.dcimp:s', '"long"', 'AVRO', '[]', false, NULL, NULL, 51, 3)$$);
SELECT status, response FROM regress.rest('POST', '/subjects/:.dcimp:s/versions', '',
	'{"schema":"\"string\"","id":52,"version":3}');
SELECT * FROM registry.versions(':.dcimp:s');
SELECT registry.set_mode('READWRITE', ':.dcimp:');

-- :.__GLOBAL: holds the defaults under every context
SELECT registry.set_config(':.__GLOBAL:', '{"compatibility":"NONE","compatibilityGroup":"g"}');
SELECT registry.get_compatibility(':.dcglobal:x');
SELECT registry.get_config(':.dcglobal:x', true);
-- the global level comes before :.__GLOBAL:
SELECT registry.set_compatibility('FULL');
SELECT registry.get_compatibility(':.dcglobal:x');
SELECT registry.delete_config(NULL) IS NOT NULL AS cleared;
SELECT registry.delete_config(':.__GLOBAL:') IS NOT NULL AS cleared;
SELECT registry.get_compatibility(':.dcglobal:x');
SELECT registry.set_mode('READONLY', ':.__GLOBAL:');
SELECT registry.get_mode(':.dcglobal:x');
SELECT registry.delete_mode(':.__GLOBAL:');
SELECT registry.get_mode(':.dcglobal:x');

-- a config field of the wrong type is refused and changes nothing (it would break every registration)
SELECT regress.try($$SELECT registry.set_config(':.dc:typed', '{"validateFields":"maybe"}')$$);
SELECT regress.try($$SELECT registry.set_config(':.dc:typed', '{"compatibilityGroup":{"a":1}}')$$);
SELECT count(*) AS typed_rows FROM registry.config WHERE context = '.dc' AND subject = 'typed';
-- numbers in metadata are their text; ones jansson cannot hold are 42201/42210, never a 500
SELECT schema_metadata FROM registry.register_schema_version(':.dc:num', '"int"', 'AVRO', '[]', false,
	'{"properties":{"a":0.1,"b":7,"c":true},"sensitive":[0.3]}');
SELECT regress.try($$SELECT registry.register_schema(':.dc:num2', '"int"', 'AVRO', '[]', false,
	'{"properties":{"k":10000000000000000000}}')$$);
SELECT regress.try($$SELECT registry.register_schema(':.dc:num2', '"int"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"r","type":"CEL","params":{"p":1e400}}]}')$$);
SELECT status, response FROM regress.rest('POST', '/subjects/:.dc:num2/versions', '',
	'{"schema":"\"int\"","metadata":{"properties":{"k":10000000000000000000}}}');
-- a reserved name given twice is one rule and one message
SELECT registry.set_config(':.dc:twice', '{"validateFields":true,"compatibility":"NONE"}');
SELECT regress.try($$SELECT registry.register_schema(':.dc:twice', '{"type":"record","name":"T","fields":[{"name":"x","type":"int"}]}',
	'AVRO', '[]', false, '{"properties":{"confluent:reserved":"x, x"}}')$$);
-- version -1 (latest) is a new version carrying confluent:version, unless the latest is this
-- schema (but for confluent:version), as Confluent's lookup of the latest version finds it
SELECT subject_version, schema_metadata FROM registry.register_schema_version(':.dc:latest', '"bytes"', 'AVRO', '[]', false,
	NULL, NULL, NULL, -1);
SELECT subject_version FROM registry.register_schema_version(':.dc:latest', '"bytes"', 'AVRO', '[]', false,
	NULL, NULL, NULL, -1);
SELECT subject_version, schema_metadata FROM registry.register_schema_version(':.dc:latest', '"string"', 'AVRO', '[]', false,
	NULL, NULL, NULL, -1);
-- a subject name too long for the catalog's keys is 42208, not a storage error
SELECT regress.try(format($$SELECT registry.register_schema(':.%s:x', '"int"')$$, repeat('c', 2100)));
SELECT regress.try(format($$SELECT registry.register_schema('%s', '"int"')$$, repeat('s', 2100)));
-- canLookup on the fast path: the same schema without confluent:version is the version that
-- has one, even when the latest version's metadata differs
SELECT registry.register_schema(':.dc:canlookup', '"float"', 'AVRO', '[]', false, NULL, NULL, NULL, 1) AS cl1 \gset
SELECT registry.register_schema(':.dc:canlookup', '"float"', 'AVRO', '[]', false, '{"properties":{"owner":"x"}}') IS NOT NULL AS cl2;
SELECT registry.register_schema(':.dc:canlookup', '"float"') = :cl1 AS same_as_v1;
SELECT * FROM registry.versions(':.dc:canlookup');
-- canLookup of a version stored without metadata: the same schema with only confluent:version
-- (any number) is that version; with other metadata it is a new version of the same text
SELECT registry.register_schema(':.dc:plain', '"double"') AS pl1 \gset
SELECT registry.register_schema(':.dc:plain', '"double"', 'AVRO', '[]', false,
	'{"properties":{"confluent:version":"1"}}') = :pl1 AS cv1_is_v1;
SELECT registry.register_schema(':.dc:plain', '"double"', 'AVRO', '[]', false,
	'{"properties":{"confluent:version":"7"}}') = :pl1 AS cv7_is_v1;
-- that lookup comes before the mode, as Confluent's lookup before register: in READONLY the
-- twin is still answered, and only a new version is refused
SELECT registry.set_mode('READONLY', ':.dc:plain');
SELECT registry.register_schema(':.dc:plain', '"double"', 'AVRO', '[]', false,
	'{"properties":{"confluent:version":"3"}}') = :pl1 AS readonly_twin_is_v1;
SELECT regress.try($$SELECT registry.register_schema(':.dc:plain', '"float"')$$);
SELECT registry.set_mode('READWRITE', ':.dc:plain');
SELECT subject_version, schema_metadata FROM registry.register_schema_version(':.dc:plain', '"double"', 'AVRO', '[]', false,
	'{"properties":{"owner":"y"}}');
SELECT subject_version FROM registry.register_schema_version(':.dc:plain', '"double"', 'AVRO', '[]', false,
	'{"properties":{"owner":"y","confluent:version":"1"}}');
SELECT version, schema_id = :pl1 AS first_id, deleted FROM registry.subject_versions
 WHERE context = '.dc' AND subject = 'plain' ORDER BY version;
-- a version stored without metadata but with a rule set is found by its text, whatever identity
-- its row has (0.1 hashed the rule set as given, not in its canonical form)
SET session_replication_role = replica;
INSERT INTO registry.subjects (context, subject) VALUES ('.dc', 'oldrules');
INSERT INTO registry.schemas (context, id, schema, rule_set, fingerprint)
	VALUES ('.dc', 9001, '"string"', '{"domainRules":[{"name":"r","type":"CEL","expr":"true"}]}',
			decode(md5('not the canonical identity'), 'hex'));
INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.dc', 'oldrules', 1, 9001);
RESET session_replication_role;
SELECT registry.register_schema(':.dc:oldrules', '"string"', 'AVRO', '[]', false, NULL,
	'{"domainRules":[{"name":"r","type":"CEL","expr":"true"}]}') AS old_rules_id;
SELECT count(*) AS oldrules_versions FROM registry.subject_versions WHERE context = '.dc' AND subject = 'oldrules';
