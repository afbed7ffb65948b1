-- Schema tags on PROTOBUF schemas: Confluent's ProtobufSchema merges them
-- into the (confluent.message_meta) option of a message and the
-- (confluent.field_meta) option of a field
\set SHOW_CONTEXT never
\set VERBOSITY default
CREATE FUNCTION pg_temp.tags(path text, type text, VARIADIC tags text[]) RETURNS jsonb
	LANGUAGE sql AS $$
	SELECT jsonb_build_array(jsonb_build_object('schemaEntity',
		jsonb_build_object('entityPath', path, 'entityType', type), 'tags', to_jsonb(tags)))
$$;
-- a field and a nested message, by their names under the file (no package);
-- confluent/meta.proto imported for the new options
SELECT registry.schema_with_tags(
	'syntax = "proto3"; package shop; message Order { string id = 1; message Line { string sku = 1 [deprecated = true]; } oneof pay { string card = 2; } }',
	'PROTOBUF', pg_temp.tags('Order.id', 'sr_field', 'PII') || pg_temp.tags('Order.Line', 'sr_record', 'LINE')
		|| pg_temp.tags('Order.Line.sku', 'sr_field', 'SKU') || pg_temp.tags('Order.pay.card', 'sr_field', 'PCI'));
-- the meta options of a field merged into one, its doc kept; the last tag removed
SELECT registry.schema_with_tags(
	'syntax = "proto3"; import "confluent/meta.proto"; message M { int32 a = 1 [(confluent.field_meta).doc = "the a", (confluent.field_meta).tags = "A"]; }',
	'PROTOBUF', pg_temp.tags('M.a', 'sr_field', 'B'));
SELECT registry.schema_with_tags(
	'syntax = "proto3"; import "confluent/meta.proto"; message M { option (confluent.message_meta) = { tags: ["R"] }; int32 a = 1; }',
	'PROTOBUF', '[]', pg_temp.tags('M', 'sr_record', 'R'));
-- no such entity: Confluent's messages
SELECT registry.schema_with_tags('syntax = "proto3"; package p; message M { int32 a = 1; }', 'PROTOBUF',
	pg_temp.tags('p.M', 'sr_record', 'T'));
SELECT registry.schema_with_tags('syntax = "proto3"; message M { int32 a = 1; }', 'PROTOBUF',
	pg_temp.tags('M.b', 'sr_field', 'T'));
-- a version of a subject tagged: a new version, its references kept
SELECT registry.register_schema('ptags-common', 'syntax = "proto3"; package common; message Money { int64 cents = 1; }',
	'PROTOBUF') > 0 AS registered;
SELECT registry.register_schema('ptags-value',
	'syntax = "proto3"; package shop; import "common.proto"; message Order { common.Money total = 1; string email = 2; }',
	'PROTOBUF', '[{"name": "common.proto", "subject": "ptags-common", "version": 1}]') > 0 AS registered;
SELECT subject_version, schema_type, stored_schema, schema_refs
FROM registry.tag_schema_version('ptags-value', '1', tags_to_add => pg_temp.tags('Order.email', 'sr_field', 'PII'));
SELECT subject_version, stored_schema
FROM registry.tag_schema_version('ptags-value', 'latest', tags_to_remove => pg_temp.tags('Order.email', 'sr_field', 'PII'));
-- tags given at registration
SELECT (registry.register_schema_version('ptags-plain', 'syntax = "proto3"; message P { bytes secret = 1; }', 'PROTOBUF',
	tags_to_add => pg_temp.tags('P.secret', 'sr_field', 'SECRET'))).stored_schema;
-- PROTOBUF schemas list no tagged entities, as Confluent's ParsedSchema default
SELECT registry.schema_tags(registry.schema_with_tags('syntax = "proto3"; message M { int32 a = 1; }', 'PROTOBUF',
	pg_temp.tags('M.a', 'sr_field', 'PII')), 'PROTOBUF');
SELECT count(*) AS soft_deleted FROM unnest(ARRAY['ptags-plain', 'ptags-value']) s, registry.delete_subject(s);
SELECT count(*) AS hard_deleted FROM unnest(ARRAY['ptags-plain', 'ptags-value']) s, registry.delete_subject(s, true);
SELECT count(*) AS soft_deleted FROM registry.delete_subject('ptags-common');
SELECT count(*) AS hard_deleted FROM registry.delete_subject('ptags-common', true);
