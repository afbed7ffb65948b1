-- Semantic lints: registry.lint() always answers; a config's "lint" (NONE,
-- the default, WARN or FAIL) applies them to registrations and checks.
\set SHOW_CONTEXT never

-- ---------------------------------------------------------------------------
-- registry.lint(): a rename without an alias (Avro)
-- ---------------------------------------------------------------------------
SELECT registry.set_config('lint-avro', '{"compatibility":"BACKWARD"}');
SELECT registry.register_schema('lint-avro',
	'{"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"total","type":"double"}]}') > 0 AS registered;
-- "total" renamed "amount" without an alias: BACKWARD accepts it, old orders read amount = 0
SELECT * FROM registry.lint('lint-avro',
	'{"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"amount","type":"double","default":0}]}');
-- with the alias there is nothing to say
SELECT count(*) AS findings FROM registry.lint('lint-avro',
	'{"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"amount","type":"double","default":0,"aliases":["total"]}]}');
-- the default config applies no lint: the rename registers, silently
SELECT (registry.check_compatibility('lint-avro',
	'{"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"amount","type":"double","default":0}]}',
	verbose => true)).*;

-- ---------------------------------------------------------------------------
-- registry.lint(): Protobuf field numbers and names
-- ---------------------------------------------------------------------------
SELECT registry.set_config('lint-proto', '{"compatibility":"NONE"}');
SELECT registry.register_schema('lint-proto',
	'syntax = "proto3"; package shop; message Item { string sku = 1; double price = 2; }', 'PROTOBUF') > 0 AS registered;
-- price deleted without reserving it
SELECT * FROM registry.lint('lint-proto',
	'syntax = "proto3"; package shop; message Item { string sku = 1; }', 'PROTOBUF');
SELECT registry.register_schema('lint-proto',
	'syntax = "proto3"; package shop; message Item { string sku = 1; }', 'PROTOBUF') > 0 AS registered;
-- number 2 given to another field: against version 1, not only the latest
SELECT * FROM registry.lint('lint-proto',
	'syntax = "proto3"; package shop; message Item { string sku = 1; int64 discount = 2; }', 'PROTOBUF');
-- a lint of a schema that does not parse is 42201, as a registration
SELECT regress.try($$SELECT * FROM registry.lint('lint-proto', 'message {', 'PROTOBUF')$$);
-- a subject with no versions has nothing to compare against
SELECT count(*) AS findings FROM registry.lint('lint-none', '"int"');

-- ---------------------------------------------------------------------------
-- "lint": "WARN": registrations pass with a NOTICE, verbose checks show them
-- ---------------------------------------------------------------------------
SELECT registry.set_config('lint-warn', '{"compatibility":"BACKWARD","lint":"warn"}');
SELECT registry.get_config('lint-warn');
SELECT registry.register_schema('lint-warn',
	'{"type":"record","name":"T","fields":[{"name":"a","type":"string"}]}') > 0 AS registered;
SELECT (registry.check_compatibility('lint-warn',
	'{"type":"record","name":"T","fields":[{"name":"b","type":"string","default":""}]}',
	verbose => true)).*;
SELECT * FROM regress.rest('POST', '/compatibility/subjects/lint-warn/versions', 'verbose=true',
	'{"schema":"{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"b\",\"type\":\"string\",\"default\":\"\"}]}"}');
SELECT registry.register_schema('lint-warn',
	'{"type":"record","name":"T","fields":[{"name":"b","type":"string","default":""}]}') > 0 AS registered;
-- an incompatible schema fails as before, the lint after Confluent's differences
SELECT (registry.check_compatibility('lint-warn',
	'{"type":"record","name":"T","fields":[{"name":"c","type":"string"}]}',
	verbose => true)).*;

-- ---------------------------------------------------------------------------
-- "lint": "FAIL": a finding refuses the registration, and changes nothing
-- ---------------------------------------------------------------------------
SELECT registry.set_config('lint-fail', '{"compatibility":"NONE","lint":"FAIL"}');
SELECT registry.register_schema('lint-fail',
	'syntax = "proto3"; message M { string a = 1; string b = 2; }', 'PROTOBUF') > 0 AS registered;
SELECT regress.counts() AS before_fail \gset
SELECT regress.try($$SELECT registry.register_schema('lint-fail',
	'syntax = "proto3"; message M { string a = 1; }', 'PROTOBUF')$$);
SELECT regress.counts() = :'before_fail' AS nothing_written;
SELECT * FROM regress.rest('POST', '/subjects/lint-fail/versions', NULL,
	'{"schemaType":"PROTOBUF","schema":"syntax = \"proto3\"; message M { string a = 1; }"}');
-- reserving the number and the name satisfies it
SELECT registry.register_schema('lint-fail',
	'syntax = "proto3"; message M { string a = 1; reserved 2; reserved "b"; }', 'PROTOBUF') > 0 AS registered;
SELECT (registry.check_compatibility('lint-fail',
	'syntax = "proto3"; message M { string a = 1; reserved 2; reserved "b"; int32 c = 3; }', 'PROTOBUF',
	verbose => true)).*;

-- ---------------------------------------------------------------------------
-- the config is inherited and overridden as any other field; bad values are 42203
-- ---------------------------------------------------------------------------
SELECT registry.set_config(':.lintctx:', '{"lint":"FAIL"}');
SELECT registry.register_schema(':.lintctx:s',
	'{"type":"record","name":"T","fields":[{"name":"a","type":"string"}]}') > 0 AS registered;
SELECT regress.try($$SELECT registry.register_schema(':.lintctx:s',
	'{"type":"record","name":"T","fields":[{"name":"b","type":"string","default":""}]}')$$);
SELECT registry.set_config(':.lintctx:s', '{"lint":"NONE"}');
SELECT registry.register_schema(':.lintctx:s',
	'{"type":"record","name":"T","fields":[{"name":"b","type":"string","default":""}]}') > 0 AS registered;
SELECT regress.try($$SELECT registry.set_config('lint-bad', '{"lint":"LOUD"}')$$);
SELECT regress.try($$SELECT registry.set_config('lint-bad', '{"lint":true}')$$);
SELECT * FROM regress.rest('PUT', '/config/lint-bad', NULL, '{"lint":"LOUD"}');
SELECT regress.try($$SELECT registry.get_config('lint-bad')$$) AS nothing_stored;

-- ---------------------------------------------------------------------------
-- the practices: "lintRules" picks which lints a config applies (the
-- data-loss ones when absent); a first version is linted too
-- ---------------------------------------------------------------------------
SELECT registry.set_config('lint-practice', '{"compatibility":"BACKWARD","lint":"FAIL","lintRules":"practices"}');
SELECT registry.get_config('lint-practice');
-- a field without a default, in a first version
SELECT regress.try($$SELECT registry.register_schema('lint-practice',
	'{"type":"record","name":"E","fields":[{"name":"id","type":"long"}]}')$$);
SELECT registry.register_schema('lint-practice',
	'{"type":"record","name":"E","fields":[{"name":"id","type":"long","default":0},{"name":"note","type":["null","string"],"default":null}]}') > 0 AS registered;
-- a field removed without being deprecated first, then in two steps
SELECT regress.try($$SELECT registry.register_schema('lint-practice',
	'{"type":"record","name":"E","fields":[{"name":"id","type":"long","default":0}]}')$$);
SELECT registry.register_schema('lint-practice',
	'{"type":"record","name":"E","fields":[{"name":"id","type":"long","default":0},{"name":"note","type":["null","string"],"default":null,"deprecated":true}]}') > 0 AS registered;
SELECT registry.register_schema('lint-practice',
	'{"type":"record","name":"E","fields":[{"name":"id","type":"long","default":0}]}') > 0 AS registered;
-- long to double: Avro's promotion, so BACKWARD accepts it; the lint names the direction
SELECT (registry.check_compatibility('lint-practice',
	'{"type":"record","name":"E","fields":[{"name":"id","type":"double","default":0}]}',
	verbose => true)).*;
-- the data-loss lints are not among the practices: a deprecated field deleted
-- without reserving its number passes
SELECT registry.set_config('lint-practice-proto', '{"compatibility":"NONE","lint":"FAIL","lintRules":"PRACTICES"}');
SELECT registry.register_schema('lint-practice-proto',
	'syntax = "proto3"; message M { string a = 1; string b = 2 [deprecated = true]; }', 'PROTOBUF') > 0 AS registered;
SELECT (registry.check_compatibility('lint-practice-proto',
	'syntax = "proto3"; message M { string a = 1; }', 'PROTOBUF', verbose => true)).*;
-- registry.lint() answers every lint, and advises a transitive level for a subject with history
SELECT * FROM registry.lint('lint-practice',
	'{"type":"record","name":"E","fields":[{"name":"key","type":"long","default":0}]}');
SELECT registry.set_config('lint-practice', '{"compatibility":"BACKWARD_TRANSITIVE","lint":"FAIL","lintRules":"practices"}');
SELECT count(*) AS advice FROM registry.lint('lint-practice',
	'{"type":"record","name":"E","fields":[{"name":"id","type":"long","default":0}]}');
-- JSON Schema: a required property, and a property removed without "deprecated"
SELECT registry.set_config('lint-json', '{"compatibility":"NONE"}');
SELECT registry.register_schema('lint-json',
	'{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}}}', 'JSON') > 0 AS registered;
SELECT * FROM registry.lint('lint-json',
	'{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}', 'JSON');
-- Protobuf: int32 to int64, and a proto2 required field
SELECT registry.set_config('lint-proto2', '{"compatibility":"NONE"}');
SELECT registry.register_schema('lint-proto2',
	'syntax = "proto2"; message P { optional int32 n = 1; }', 'PROTOBUF') > 0 AS registered;
SELECT * FROM registry.lint('lint-proto2',
	'syntax = "proto2"; message P { optional int64 n = 1; required string s = 2; }', 'PROTOBUF');
-- lintRules: names, groups, any case; anything else is 42203 and stores nothing
SELECT registry.set_config('lint-rules', '{"lintRules":"DATA_LOSS, field_type_changed"}');
SELECT regress.try($$SELECT registry.set_config('lint-bad', '{"lintRules":"PRACTICE"}')$$);
SELECT regress.try($$SELECT registry.set_config('lint-bad', '{"lintRules":["ALL"]}')$$);
SELECT * FROM regress.rest('PUT', '/config/lint-bad', NULL, '{"lintRules":"NON_TRANSITIVE_LEVEL"}');
SELECT regress.try($$SELECT registry.get_config('lint-bad')$$) AS nothing_stored;
