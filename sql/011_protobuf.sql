-- PROTOBUF: registration with references and well-known types, dedup across formatting,
-- compatibility messages, message indexes, the wire header, format=serialized, bad input.
\set SHOW_CONTEXT never

SELECT registry.register_schema(':.pb:common', $$syntax = "proto3";
package shop.common;
message Money { string currency = 1; int64 units = 2; }
$$, 'PROTOBUF') AS common_id \gset
-- an import resolved through a reference, a well-known type without one
SELECT registry.register_schema(':.pb:orders', $$syntax = "proto3";
package shop;

import "common.proto";
import "google/protobuf/timestamp.proto";

// an order and its lines
message Order {
  string id = 1;
  repeated Line lines = 2;
  shop.common.Money total = 3;
  google.protobuf.Timestamp placed = 4;
  map<string, string> labels = 5;
  oneof payment { string card = 6; string voucher = 7; }
  message Line { string sku = 1; int32 qty = 2; }
  reserved 9, 10 to 12;
  reserved "legacy";
}
message Refund { string order_id = 1; shop.common.Money amount = 2; }
enum Status { STATUS_UNKNOWN = 0; STATUS_OPEN = 1; }
$$, 'PROTOBUF', '[{"name":"common.proto","subject":"common","version":1}]') AS orders_id \gset
SELECT schema_type, schema, refs FROM registry.get_version(':.pb:orders', 'latest');
-- the same schema formatted differently (whitespace, comments) is the same schema
SELECT registry.register_schema(':.pb:orders', $$syntax="proto3"; package shop; import "common.proto";
import "google/protobuf/timestamp.proto";
message Order { string id = 1; repeated Line lines = 2; shop.common.Money total = 3;
  google.protobuf.Timestamp placed = 4; map<string,string> labels = 5;
  oneof payment { string card = 6; /* gift */ string voucher = 7; }
  message Line { string sku = 1; int32 qty = 2; } reserved 9, 10 to 12; reserved "legacy"; }
message Refund { string order_id = 1; shop.common.Money amount = 2; }
enum Status { STATUS_UNKNOWN = 0; STATUS_OPEN = 1; }$$,
	'PROTOBUF', '[{"name":"common.proto","subject":"common","version":1}]') = :orders_id AS same_id;
SELECT * FROM registry.versions(':.pb:orders');
SELECT subject, version FROM registry.lookup_schema(':.pb:orders', (SELECT schema FROM registry.get_version(':.pb:orders', '1')),
	'PROTOBUF', '[{"name":"common.proto","subject":"common","version":1}]');
SELECT * FROM registry.referenced_by(':.pb:common', '1');

-- compatibility: a field's scalar kind changed, a message removed
SELECT unnest(messages) FROM registry.check_compatibility(':.pb:orders', $$syntax = "proto3";
package shop;
import "common.proto";
message Order { int64 id = 1; shop.common.Money total = 3; }
$$, 'PROTOBUF', '[{"name":"common.proto","subject":"common","version":1}]', verbose => true);
-- compatible: a new field, a renamed field, int32 -> int64
SELECT * FROM registry.check_compatibility(':.pb:orders', $$syntax = "proto3";
package shop;
import "common.proto";
import "google/protobuf/timestamp.proto";
message Order {
  string id = 1; repeated Line lines = 2; shop.common.Money total = 3; google.protobuf.Timestamp placed = 4;
  map<string, string> labels = 5; oneof payment { string card = 6; string voucher = 7; }
  message Line { string sku = 1; int64 quantity = 2; }
  string note = 8;
}
message Refund { string order_id = 1; shop.common.Money amount = 2; }
enum Status { STATUS_UNKNOWN = 0; STATUS_OPEN = 1; }
$$, 'PROTOBUF', '[{"name":"common.proto","subject":"common","version":1}]');
-- another schema type in the same subject is incompatible
SELECT unnest(messages) FROM registry.check_compatibility(':.pb:orders', '"string"', 'AVRO', verbose => true);

-- message indexes and the wire header
SELECT registry.protobuf_message_indexes(:orders_id, 'shop.Order', ':.pb:') AS order_idx,
       registry.protobuf_message_indexes(:orders_id, 'shop.Refund', ':.pb:') AS refund_idx,
       registry.protobuf_message_indexes(:orders_id, 'shop.Order.Line', ':.pb:') AS line_idx;
SELECT registry.protobuf_message_name(:orders_id, '{1}', ':.pb:'), registry.protobuf_message_name(:orders_id, '{0,0}', ':.pb:'),
       registry.protobuf_message_name(:orders_id, '{}', ':.pb:');
SELECT regress.try(format($$SELECT registry.protobuf_message_indexes(%s, 'shop.Nope', ':.pb:')$$, :orders_id));
SELECT regress.try(format($$SELECT registry.protobuf_message_name(%s, '{7}', ':.pb:')$$, :orders_id));
SELECT registry.wire_header(:orders_id, '{0}'), registry.wire_header(:orders_id, '{1}'), registry.wire_header(:orders_id, '{0,0}');
SELECT * FROM registry.wire_parse(registry.wire_header(:orders_id, '{0,0}') || '\x0a0141'::bytea, true);
SELECT * FROM registry.wire_parse('\x00000000020a0141'::bytea);
SELECT regress.try($$SELECT registry.wire_parse('\x01'::bytea)$$);

-- the REST view of it
SELECT status, response FROM regress.rest('GET', '/schemas/ids/1', 'subject=:.pb:');
SELECT status, left(response::jsonb->>'schema', 40) FROM registry.rest('GET', '/schemas/ids/1', 'subject=:.pb:&format=serialized');
SELECT status, response::jsonb->>'subject' AS subject, left(response::jsonb->>'schema', 40) AS schema FROM registry.rest('GET', '/subjects/:.pb:common/versions/1', 'format=serialized');
SELECT status, response FROM regress.rest('GET', '/schemas/types');
SELECT status, response FROM regress.rest('POST', '/subjects/:.pb:orders', NULL, '{"schemaType":"PROTOBUF","schema":"syntax = \"proto3\"; message X { }"}');

-- bad input: the parser's words with a position, nothing stored
SELECT regress.counts() AS before \gset
SELECT regress.try($$SELECT registry.register_schema(':.pb:bad', 'syntax = "proto3"; message A { string a = 1 }', 'PROTOBUF')$$);
SELECT regress.try($$SELECT registry.register_schema(':.pb:bad', 'syntax = "proto3"; import "missing.proto"; message A { Missing m = 1; }', 'PROTOBUF')$$);
SELECT regress.try($$SELECT registry.register_schema(':.pb:bad', 'syntax = "proto3"; message A { string a = 1; int32 b = 1; }', 'PROTOBUF')$$);
SELECT regress.try($$SELECT registry.register_schema(':.pb:bad', 'syntax = "proto3"; message A { Undefined u = 1; }', 'PROTOBUF')$$);
SELECT regress.try($$SELECT registry.register_schema(':.pb:bad', 'not a proto at all {', 'PROTOBUF')$$);
SELECT regress.try(format($$SELECT registry.register_schema(':.pb:bad', %L, 'PROTOBUF')$$,
	'syntax = "proto3"; message A { ' || repeat('message N { ', 200) || repeat('} ', 200) || '}'));
SELECT regress.counts() = :'before' AS unchanged;
-- a big valid file: 2,000 fields
SELECT registry.register_schema(':.pb:big', format('syntax = "proto3"; message Big { %s }',
	(SELECT string_agg(format('int64 f%s = %s;', i, i), ' ') FROM generate_series(1, 2000) i)), 'PROTOBUF') > 0 AS registered;
