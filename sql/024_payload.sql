-- Payloads in SQL: registry.encode and registry.decode of AVRO values (the
-- JSON form of every type, unions, logical types, references, contexts),
-- decoding as a reader schema (defaults, promotions, aliases, enum
-- default), registry.check_data, and the errors (unknown id, bad header,
-- truncated and trailing bytes, values of the wrong shape).
\set SHOW_CONTEXT never
-- (the errors' details name schema ids)
\set VERBOSITY terse

-- ids are compared to themselves, never printed: they depend on earlier tests
SELECT registry.register_schema('pay-user', $${"type":"record","name":"User","namespace":"com.x","fields":[
	{"name":"id","type":"long"},
	{"name":"name","type":"string"},
	{"name":"email","type":["null","string"],"default":null},
	{"name":"address","type":{"type":"record","name":"Address","fields":[{"name":"zip","type":"int"}]}},
	{"name":"tags","type":{"type":"array","items":"string"},"default":[]},
	{"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","GREEN","BLUE"]},"default":"RED"}
]}$$) AS user_id \gset

-- the wire format: magic byte, the id big-endian, the payload
SELECT registry.encode('pay-user', '{"id":1,"name":"Ann","address":{"zip":12345}}')
	= registry.wire_header(:user_id) || '\x0206416e6e00f2c0010000'::bytea AS wire_format;
SELECT registry.decode(registry.encode('pay-user', '{"id":1,"name":"Ann","address":{"zip":12345}}'));
SELECT registry.decode(registry.encode('pay-user', '{"id":-2,"name":"Bo","email":"b@x","address":{"zip":1},"tags":["a","b"],"color":"BLUE"}', '1'));
-- Avro's JSON encoding of unions is read too
SELECT registry.decode(registry.encode('pay-user', '{"id":3,"name":"C","email":{"string":"c@x"},"address":{"zip":1}}', 'latest'));
SELECT registry.decode(registry.encode('pay-user', '{"id":3,"name":"C","address":{"zip":1}}', '-1'))->>'color' AS default_color;

-- values the schema does not admit: 22023 with the path
SELECT registry.encode('pay-user', '{"id":1,"name":"Ann","address":{"zip":"x"}}');
SELECT registry.encode('pay-user', '{"id":1,"name":"Ann","address":{"zip":1},"extra":true}');
SELECT registry.encode('pay-user', '{"id":1,"address":{"zip":1}}');
SELECT registry.encode('pay-user', '{"id":1,"name":"Ann","address":{"zip":1},"tags":["a",5]}');
SELECT registry.encode('pay-user', '{"id":1,"name":"Ann","address":{"zip":1},"color":"PINK"}');
SELECT registry.encode('pay-user', '[1]');
-- a NULL value is a NULL message; a missing subject or version is Confluent's error
SELECT registry.encode('pay-user', NULL) IS NULL AS null_value;
SELECT registry.encode('pay-nobody', '{}');
SELECT registry.encode('pay-user', '{}', '7');

-- every type, and the logical types
SELECT registry.register_schema('pay-types', $${"type":"record","name":"T","fields":[
	{"name":"b","type":"boolean"},{"name":"i","type":"int"},{"name":"l","type":"long"},
	{"name":"f","type":"float"},{"name":"d","type":"double"},{"name":"s","type":"string"},
	{"name":"y","type":"bytes"},{"name":"x","type":{"type":"fixed","name":"F","size":2}},
	{"name":"m","type":{"type":"map","values":"int"}},
	{"name":"u","type":["null","int","long"]},
	{"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":20,"scale":4}},
	{"name":"dfx","type":{"type":"fixed","name":"D","size":8,"logicalType":"decimal","precision":18,"scale":2}},
	{"name":"day","type":{"type":"int","logicalType":"date"}},
	{"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
	{"name":"tu","type":{"type":"long","logicalType":"time-micros"}},
	{"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
	{"name":"tx","type":{"type":"long","logicalType":"timestamp-micros"}},
	{"name":"lt","type":{"type":"long","logicalType":"local-timestamp-millis"}},
	{"name":"id","type":{"type":"string","logicalType":"uuid"}}
]}$$) AS types_id \gset
SELECT jsonb_pretty(registry.decode(registry.encode('pay-types', $${
	"b":true,"i":-5,"l":9007199254740993,"f":0.1,"d":1e-7,"s":"h\u00e9 \"q\"",
	"y":"AAEC/w==","x":"//8=","m":{"k":1,"a b":2},"u":{"long":7},
	"dec":"12345678901234.5678","dfx":-0.5,
	"day":"2024-02-29","tm":"12:34:56.789","tu":"23:59:59.999999",
	"ts":"2024-01-31T14:34:56.789+02:00","tx":1706711696123456,"lt":"2024-01-31T12:34:56.789",
	"id":"123e4567-e89b-12d3-a456-426614174000"}$$)));
-- decimals are exact: a number with more digits than a double holds
SELECT registry.decode(registry.encode('pay-types', $${"b":false,"i":0,"l":0,"f":0,"d":0,"s":"","y":"","x":"AAA=","m":{},"u":null,
	"dec":1234567890123456.7891,"dfx":"9999999999999999.99","day":0,"tm":0,"tu":0,"ts":0,"tx":0,"lt":0,"id":"x"}$$)) - 'y' - 'x';
SELECT registry.encode('pay-types', $${"b":false,"i":0,"l":0,"f":0,"d":0,"s":"","y":"","x":"AAA=","m":{},"u":null,
	"dec":1.23456,"dfx":0,"day":0,"tm":0,"tu":0,"ts":0,"tx":0,"lt":0,"id":"x"}$$);

-- Avro's JSON encoding of bytes, fixed and decimals (strings of code points
-- U+0000..U+00FF, one byte each) is read as well as decode's form (base64,
-- numbers), which decode always writes; a string that is both: bytes take
-- valid base64 as base64, fixed the form of its size, decimals number text
-- as the number
SELECT registry.register_schema('pay-codepoints', $${"type":"record","name":"P","fields":[
	{"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}},
	{"name":"cents","type":{"type":"fixed","name":"C","size":2,"logicalType":"decimal","precision":4,"scale":2}},
	{"name":"raw","type":"bytes"},{"name":"pair","type":{"type":"fixed","name":"Two","size":2}}]}$$) AS cp_id \gset
-- (jsonb holds no \u0000: a value with a zero byte goes in decode's form)
SELECT registry.encode('pay-codepoints', '{"amount":"\u00d6","cents":"\u0001\u0005","raw":"\u0001\u00ff","pair":"ab"}')
	= registry.wire_header(:cp_id) || '\x02d601050401ff6162'::bytea AS avro_json_encoding;
SELECT registry.decode(registry.encode('pay-codepoints', '{"amount":"\u00d6","cents":"\u0001\u0005","raw":"\u0001\u00ff","pair":"ab"}'));
-- the same values in decode's form encode to the same message
SELECT registry.encode('pay-codepoints', '{"amount":-0.42,"cents":2.61,"raw":"Af8=","pair":"YWI="}')
	= registry.encode('pay-codepoints', '{"amount":"\u00d6","cents":"\u0001\u0005","raw":"\u0001\u00ff","pair":"ab"}') AS same_message;
-- both forms at once: "12" is the decimal 12.00, "abcd" is base64
SELECT registry.decode(registry.encode('pay-codepoints', '{"amount":"12","cents":"1","raw":"abcd","pair":"\u0001\u0002"}'));
SELECT registry.encode('pay-codepoints', '{"amount":"\u20ac","cents":0,"raw":"","pair":"ab"}');
SELECT registry.encode('pay-codepoints', '{"amount":0,"cents":"\u0001","raw":"","pair":"ab"}');
SELECT registry.encode('pay-codepoints', '{"amount":0,"cents":0,"raw":"\u0100","pair":"ab"}');
SELECT registry.encode('pay-codepoints', '{"amount":0,"cents":0,"raw":"","pair":"abcde"}');

-- references: the referenced type's values encode and decode in place
SELECT registry.register_schema('pay-money', '{"type":"record","name":"Money","namespace":"m","fields":[{"name":"cents","type":"long"}]}') AS money_id \gset
SELECT registry.register_schema('pay-order', '{"type":"record","name":"Order","fields":[{"name":"total","type":"m.Money"},{"name":"lines","type":{"type":"array","items":"m.Money"}}]}',
	'AVRO', '[{"name":"m.Money","subject":"pay-money","version":1}]') AS order_id \gset
SELECT registry.decode(registry.encode('pay-order', '{"total":{"cents":250},"lines":[{"cents":100},{"cents":150}]}'));

-- contexts: a subject's context holds its schema; a message's id is read in the
-- reader subject's context (ids are per context)
SELECT registry.register_schema(':.pay:ctx-subject', '{"type":"record","name":"C","fields":[{"name":"v","type":"int"}]}') AS ctx_id \gset
SELECT substring(registry.encode(':.pay:ctx-subject', '{"v":42}') FROM 1 FOR 5) = registry.wire_header(:ctx_id) AS context_id;
SELECT registry.decode(registry.encode(':.pay:ctx-subject', '{"v":42}'), ':.pay:ctx-subject');

-- reading as another version: the reader's defaults, promotions, aliases, enum default
SELECT registry.set_compatibility('NONE', 'pay-user');
SELECT registry.register_schema('pay-user', $${"type":"record","name":"User","namespace":"com.y","fields":[
	{"name":"id","type":"double"},
	{"name":"full_name","type":"string","aliases":["name"]},
	{"name":"address","type":{"type":"record","name":"Address","fields":[{"name":"zip","type":"long"},{"name":"country","type":"string","default":"FR"}]}},
	{"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","OTHER"],"default":"OTHER"}},
	{"name":"vip","type":"boolean","default":false}
]}$$) AS user2_id \gset
SELECT registry.encode('pay-user', '{"id":7,"name":"Ann","address":{"zip":75001},"color":"BLUE"}', '1') AS v1_message \gset
SELECT registry.decode(:'v1_message');
SELECT registry.decode(:'v1_message', 'pay-user');
SELECT registry.decode(:'v1_message', 'pay-user', '2');
SELECT registry.decode(:'v1_message', 'pay-user', '1');
-- a reader that cannot read it: 22023 naming the field
SELECT registry.register_schema('pay-strict', '{"type":"record","name":"User","namespace":"com.x","fields":[{"name":"id","type":"long"},{"name":"phone","type":"string"}]}') AS strict_id \gset
SELECT registry.decode(:'v1_message', 'pay-strict');

-- check_data: replay stored messages through a proposed schema
CREATE TEMP TABLE pay_events AS
SELECT registry.encode('pay-user', format('{"id":%s,"name":"n%s","address":{"zip":%s},"color":"%s"}',
		i, i, i, CASE WHEN i % 3 = 0 THEN 'BLUE' ELSE 'RED' END)::jsonb, '1') AS message
  FROM generate_series(1, 9) i;
INSERT INTO pay_events VALUES ('\x00deadbeef00'), ('\x01');
SELECT * FROM registry.check_data('pay-user', $${"type":"record","name":"User","fields":[
	{"name":"id","type":"long"},
	{"name":"address","type":{"type":"record","name":"Address","fields":[{"name":"zip","type":"int"},{"name":"city","type":"string","default":""}]}},
	{"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","GREEN"],"default":"GREEN"}}]}$$,
	(SELECT array_agg(message) FROM pay_events))
 ORDER BY first_sample, path NULLS FIRST, outcome;
-- the same with a proposed schema that reads everything as written
SELECT * FROM registry.check_data('pay-user', (SELECT schema FROM registry.get_version('pay-user', '1')),
	(SELECT array_agg(message) FROM pay_events WHERE get_byte(message, 0) = 0 AND length(message) > 6));
-- a reader without a default for a field the data lacks: unreadable, with its path
SELECT * FROM registry.check_data('pay-user', '{"type":"record","name":"User","fields":[{"name":"phone","type":"string"}]}',
	(SELECT array_agg(message) FROM pay_events WHERE length(message) > 6));

-- bad messages: 22P03 or schema not found, never a crash
SELECT registry.decode('\x00'::bytea);
SELECT registry.decode('\x01000000010000'::bytea);
SELECT registry.decode('\x007fffffff00'::bytea);
SELECT registry.decode(substring(registry.encode('pay-user', '{"id":1,"name":"Ann","address":{"zip":1}}', '1') FROM 1 FOR 9));
SELECT registry.decode(registry.encode('pay-user', '{"id":1,"name":"Ann","address":{"zip":1}}', '1') || '\x00'::bytea);
SELECT registry.decode(registry.wire_header(:user_id) || '\xffffffffffffffffffff01'::bytea);
-- a block count of 2^62 items that take no bytes
SELECT registry.register_schema('pay-nulls', '{"type":"array","items":"null"}') AS nulls_id \gset
SELECT registry.decode(registry.wire_header(:nulls_id) || '\x80808080808080808001'::bytea);
SELECT registry.decode(registry.wire_header(:nulls_id) || '\x0600'::bytea);
-- a payload nested deeper than the limit
SELECT registry.register_schema('pay-list', '{"type":"record","name":"L","fields":[{"name":"next","type":["null","L"]}]}') AS list_id \gset
SELECT registry.decode(registry.wire_header(:list_id) || decode(repeat('02', 5000) || '00', 'hex'));
SELECT length(registry.decode(registry.wire_header(:list_id) || decode(repeat('02', 100) || '00', 'hex'))::text) AS hundred_levels;

-- the per-statement lookup: one statement over many rows, and a new
-- version is seen by the next statement
SELECT count(DISTINCT registry.decode(registry.encode('pay-user', format('{"id":%s,"full_name":"x","address":{"zip":1},"color":"RED"}', i)::jsonb))) AS distinct_values
  FROM generate_series(1, 1000) i;
SELECT registry.register_schema('pay-user', '{"type":"record","name":"User","fields":[{"name":"id","type":"long"}]}') AS user3_id \gset
SELECT substring(registry.encode('pay-user', '{"id":1}') FROM 1 FOR 5) = registry.wire_header(:user3_id) AS latest_is_new;
SELECT registry.decode(registry.encode('pay-user', '{"id":1}'));
SELECT registry.delete_subject('pay-user');
SELECT registry.delete_subject('pay-user', true);
SELECT registry.encode('pay-user', '{}');
