-- Compatibility levels, which versions each considers, and the messages.
\set SHOW_CONTEXT never
-- v1 {a}, v2 {a, b default}, candidates below
CREATE TEMP TABLE s(name text PRIMARY KEY, body text);
INSERT INTO s VALUES
	('v1', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}'),
	('v2', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":""}]}'),
	('add_no_default', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":""},{"name":"c","type":"int"}]}'),
	('drop_a', '{"type":"record","name":"R","fields":[{"name":"b","type":"string","default":""}]}'),
	('a_long', '{"type":"record","name":"R","fields":[{"name":"a","type":"long"},{"name":"b","type":"string","default":""}]}'),
	('a_string', '{"type":"record","name":"R","fields":[{"name":"a","type":"string"},{"name":"b","type":"string","default":""}]}'),
	('drop_b', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}');

-- the default level is BACKWARD
SELECT registry.get_compatibility();
SELECT registry.register_schema('c-back', body) FROM s WHERE name = 'v1';
SELECT registry.register_schema('c-back', body) FROM s WHERE name = 'v2';
-- BACKWARD: the new schema must read data written with the latest
SELECT name, (registry.check_compatibility('c-back', body)).is_compatible
  FROM s WHERE name IN ('add_no_default', 'drop_a', 'a_long', 'a_string') ORDER BY name;
SELECT unnest(messages) FROM registry.check_compatibility('c-back',
	(SELECT body FROM s WHERE name = 'add_no_default'), verbose => true);
SELECT unnest(messages) FROM registry.check_compatibility('c-back',
	(SELECT body FROM s WHERE name = 'a_string'), verbose => true);
-- a compatible verdict has an empty message list when verbose, none otherwise
SELECT * FROM registry.check_compatibility('c-back', (SELECT body FROM s WHERE name = 'drop_a'), verbose => true);
SELECT * FROM registry.check_compatibility('c-back', (SELECT body FROM s WHERE name = 'drop_a'));
-- registering an incompatible schema: 40901 with Confluent's message, nothing stored
SELECT regress.try($$SELECT registry.register_schema('c-back', (SELECT body FROM s WHERE name = 'add_no_default'))$$);
SELECT * FROM registry.versions('c-back');
-- a refused schema used no id: the next schema gets the next id
SELECT max(id) AS max_id FROM registry.schemas \gset
SELECT registry.register_schema('c-back', body) = :max_id + 1 AS dense_ids FROM s WHERE name = 'a_long';

-- FORWARD: the latest must read data written with the new schema
SELECT registry.set_compatibility('FORWARD', 'c-fwd');
SELECT registry.register_schema('c-fwd', body) FROM s WHERE name = 'v1';
SELECT registry.register_schema('c-fwd', body) FROM s WHERE name = 'v2';
SELECT name, (registry.check_compatibility('c-fwd', body)).is_compatible
  FROM s WHERE name IN ('add_no_default', 'drop_a', 'a_long', 'drop_b') ORDER BY name;
SELECT unnest(messages) FROM registry.check_compatibility('c-fwd',
	(SELECT body FROM s WHERE name = 'drop_a'), verbose => true);

-- FULL: both directions; the old-schema info follows the backward half only
SELECT registry.set_compatibility('FULL', 'c-full');
SELECT registry.register_schema('c-full', body) FROM s WHERE name = 'v1';
SELECT registry.register_schema('c-full', body) FROM s WHERE name = 'v2';
SELECT name, (registry.check_compatibility('c-full', body)).is_compatible
  FROM s WHERE name IN ('add_no_default', 'drop_a', 'a_long', 'drop_b') ORDER BY name;
SELECT unnest(messages) FROM registry.check_compatibility('c-full',
	(SELECT body FROM s WHERE name = 'a_string'), verbose => true);

-- NONE: anything goes
SELECT registry.set_compatibility('none', 'c-none');
SELECT registry.register_schema('c-none', body) FROM s WHERE name = 'v1';
SELECT (registry.register_schema('c-none', '"string"') > 0) AS registered;
SELECT * FROM registry.versions('c-none');

-- transitive levels look at every live version, newest first; others at the latest only
SELECT registry.set_compatibility('BACKWARD', 'c-trans');
SELECT registry.register_schema('c-trans', '{"type":"record","name":"T","fields":[{"name":"a","type":"int"}]}');
SELECT registry.register_schema('c-trans', '{"type":"record","name":"T","fields":[{"name":"a","type":"int","default":0}]}');
SELECT registry.register_schema('c-trans', '{"type":"record","name":"T","fields":[{"name":"b","type":"string","default":""}]}');
-- {a int (no default)} can read v2 and v3? BACKWARD: only v3 matters
SELECT (registry.check_compatibility('c-trans', '{"type":"record","name":"T","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":""}]}', version => NULL)).is_compatible AS backward;
SELECT registry.set_compatibility('BACKWARD_TRANSITIVE', 'c-trans');
-- now v2 and v1 count too: v3 {b} lacks a, so a reader with "a" and no default fails on v3 already
SELECT unnest(messages) FROM registry.check_compatibility('c-trans',
	'{"type":"record","name":"T","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":""}]}',
	version => NULL, verbose => true);
-- a candidate that fails only against v1 (a long reader? no: a string) is caught by transitivity
SELECT registry.set_compatibility('BACKWARD', 'c-trans2');
SELECT registry.register_schema('c-trans2', '{"type":"record","name":"T","fields":[{"name":"a","type":"int"}]}');
SELECT registry.register_schema('c-trans2', '{"type":"record","name":"T","fields":[{"name":"x","type":"int","default":0}]}');
SELECT (registry.check_compatibility('c-trans2', '{"type":"record","name":"T","fields":[{"name":"x","type":"int","default":0},{"name":"a","type":"string","default":""}]}', version => NULL)).is_compatible AS backward;
SELECT registry.set_compatibility('BACKWARD_TRANSITIVE', 'c-trans2');
SELECT unnest(messages) FROM registry.check_compatibility('c-trans2',
	'{"type":"record","name":"T","fields":[{"name":"x","type":"int","default":0},{"name":"a","type":"string","default":""}]}',
	version => NULL, verbose => true);
SELECT regress.try($$SELECT registry.register_schema('c-trans2', '{"type":"record","name":"T","fields":[{"name":"x","type":"int","default":0},{"name":"a","type":"string","default":""}]}')$$);
-- a check against one named version looks at that version only, whatever the level
SELECT (registry.check_compatibility('c-trans2', '{"type":"record","name":"T","fields":[{"name":"x","type":"int","default":0},{"name":"a","type":"string","default":""}]}', version => '2')).is_compatible AS against_v2;
SELECT (registry.check_compatibility('c-trans2', '{"type":"record","name":"T","fields":[{"name":"x","type":"int","default":0},{"name":"a","type":"string","default":""}]}', version => '1')).is_compatible AS against_v1;
-- soft-deleted versions are ignored: deleting v1 unblocks the registration
SELECT registry.delete_version('c-trans2', '1');
SELECT registry.register_schema('c-trans2', '{"type":"record","name":"T","fields":[{"name":"x","type":"int","default":0},{"name":"a","type":"string","default":""}]}') > 0 AS registered;
SELECT * FROM registry.versions('c-trans2', deleted => true);

-- check_compatibility edge cases
SELECT * FROM registry.check_compatibility('c-empty', '"int"');
SELECT regress.try($$SELECT registry.check_compatibility('c-empty', '"int"', version => '1')$$);
SELECT regress.try($$SELECT registry.check_compatibility('c-back', '"int"', version => '42')$$);
SELECT regress.try($$SELECT registry.check_compatibility('c-back', '"int"', version => 'x')$$);
SELECT regress.try($$SELECT registry.check_compatibility('c-back', '{"type":')$$);
-- with verbose an invalid schema is a negative verdict carrying the parser's words
SELECT * FROM registry.check_compatibility('c-back', '{"type":', verbose => true);
-- an unknown level is refused and changes nothing
SELECT regress.try($$SELECT registry.set_compatibility('SIDEWAYS', 'c-back')$$);
SELECT registry.get_compatibility('c-back');
