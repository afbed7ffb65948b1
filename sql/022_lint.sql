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
