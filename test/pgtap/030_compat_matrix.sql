-- 030_compat_matrix.sql: Confluent's compatibility levels and Avro's
-- reader/writer rules, through registry.check_compatibility and
-- registry.register_schema (see doc/design.md#levels and #avro-rules).
--
-- Primitive: read(R, W) = "can reader R read data written with W".
--   BACKWARD:  read(new, P)      FORWARD: read(P, new)     FULL: both
--   plain levels check the latest live version only, *_TRANSITIVE every live version.
BEGIN;
SELECT plan(504);

-- ---------------------------------------------------------------------------
-- helpers (pg_temp: gone at the end of the session, rolled back anyway)
-- ---------------------------------------------------------------------------
CREATE FUNCTION pg_temp.rec(fields text, name text DEFAULT 'R') RETURNS text
	LANGUAGE sql IMMUTABLE
	RETURN '{"type":"record","name":"' || name || '","fields":[' || fields || ']}';
-- a record with one field "f" of the given type
CREATE FUNCTION pg_temp.fld(ftype text) RETURNS text
	LANGUAGE sql IMMUTABLE
	RETURN '{"type":"record","name":"R","fields":[{"name":"f","type":' || ftype || '}]}';
-- set the subject's level, then test a schema against every live version
-- (version NULL: as registration does) or against the latest one only
CREATE FUNCTION pg_temp.compat_at(subj text, lvl text, sch text, ver text DEFAULT NULL) RETURNS boolean
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM registry.set_compatibility(lvl, subj);
	RETURN (registry.check_compatibility(subj, sch, version => ver)).is_compatible;
END $$;
CREATE FUNCTION pg_temp.first_message(subj text, lvl text, sch text) RETURNS text
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM registry.set_compatibility(lvl, subj);
	RETURN (registry.check_compatibility(subj, sch, version => NULL, verbose => true)).messages[1];
END $$;
CREATE FUNCTION pg_temp.nversions(subj text) RETURNS integer
	LANGUAGE sql STABLE
	RETURN (SELECT count(*)::integer FROM registry.subject_versions sv
	         WHERE sv.context = '.' AND sv.subject = subj AND NOT sv.deleted);

-- ---------------------------------------------------------------------------
-- Part 1: the seven levels.
--
-- Subject family "ab": v1 = A {a:int}, v2 = B {a:int, b:string="x"}
-- Subject family "x":  v1 = X1 {a:int, c:int}, v2 = X2 {a:int, c:int=0}
-- (v1 -> v2 is fully compatible both ways, so every level accepts the fixture.)
--
-- candidate                          read(new,v2) read(new,v1) read(v2,new) read(v1,new)
-- C {a:int, b:string}  (no default)        ok          FAIL         ok           ok
-- E {a:int, b="x", d:long}                 FAIL        FAIL         ok           ok
-- F {b:string="x"}   (a removed)           ok          ok           FAIL         FAIL
-- G {a:long, b="x"}  (int -> long)         ok          ok           FAIL         FAIL
-- H {a:string}                             FAIL        FAIL         FAIL         FAIL
-- X3 {a:int}  (c removed)  on "x"          ok          ok           ok           FAIL
-- ---------------------------------------------------------------------------
CREATE TEMP TABLE fam (fam text PRIMARY KEY, v1 text, v2 text);
INSERT INTO fam VALUES
	('ab', pg_temp.rec('{"name":"a","type":"int"}'),
	       pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string","default":"x"}')),
	('x',  pg_temp.rec('{"name":"a","type":"int"},{"name":"c","type":"int"}'),
	       pg_temp.rec('{"name":"a","type":"int"},{"name":"c","type":"int","default":0}'));

CREATE TEMP TABLE cand (cand text PRIMARY KEY, fam text, sch text,
	bw_latest boolean, bw_first boolean, fw_latest boolean, fw_first boolean);
INSERT INTO cand VALUES
	('C',  'ab', pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string"}'),                                   true,  false, true,  true),
	('E',  'ab', pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string","default":"x"},{"name":"d","type":"long"}'), false, false, true, true),
	('F',  'ab', pg_temp.rec('{"name":"b","type":"string","default":"x"}'),                                               true,  true,  false, false),
	('G',  'ab', pg_temp.rec('{"name":"a","type":"long"},{"name":"b","type":"string","default":"x"}'),                     true,  true,  false, false),
	('H',  'ab', pg_temp.rec('{"name":"a","type":"string"}'),                                                              false, false, false, false),
	('X3', 'x',  pg_temp.rec('{"name":"a","type":"int"}'),                                                                 true,  true,  true,  false);

-- expected outcome per level, written out (derived from the table above)
CREATE TEMP TABLE matrix (lvl text, cand text, all_versions boolean, latest_only boolean, PRIMARY KEY (lvl, cand));
INSERT INTO matrix VALUES
	--  level                  cand  all    latest
	('NONE',                   'C',  true,  true),
	('NONE',                   'E',  true,  true),
	('NONE',                   'F',  true,  true),
	('NONE',                   'G',  true,  true),
	('NONE',                   'H',  true,  true),
	('NONE',                   'X3', true,  true),
	('BACKWARD',               'C',  true,  true),
	('BACKWARD',               'E',  false, false),
	('BACKWARD',               'F',  true,  true),
	('BACKWARD',               'G',  true,  true),
	('BACKWARD',               'H',  false, false),
	('BACKWARD',               'X3', true,  true),
	('BACKWARD_TRANSITIVE',    'C',  false, true),
	('BACKWARD_TRANSITIVE',    'E',  false, false),
	('BACKWARD_TRANSITIVE',    'F',  true,  true),
	('BACKWARD_TRANSITIVE',    'G',  true,  true),
	('BACKWARD_TRANSITIVE',    'H',  false, false),
	('BACKWARD_TRANSITIVE',    'X3', true,  true),
	('FORWARD',                'C',  true,  true),
	('FORWARD',                'E',  true,  true),
	('FORWARD',                'F',  false, false),
	('FORWARD',                'G',  false, false),
	('FORWARD',                'H',  false, false),
	('FORWARD',                'X3', true,  true),
	('FORWARD_TRANSITIVE',     'C',  true,  true),
	('FORWARD_TRANSITIVE',     'E',  true,  true),
	('FORWARD_TRANSITIVE',     'F',  false, false),
	('FORWARD_TRANSITIVE',     'G',  false, false),
	('FORWARD_TRANSITIVE',     'H',  false, false),
	('FORWARD_TRANSITIVE',     'X3', false, true),
	('FULL',                   'C',  true,  true),
	('FULL',                   'E',  false, false),
	('FULL',                   'F',  false, false),
	('FULL',                   'G',  false, false),
	('FULL',                   'H',  false, false),
	('FULL',                   'X3', true,  true),
	('FULL_TRANSITIVE',        'C',  false, true),
	('FULL_TRANSITIVE',        'E',  false, false),
	('FULL_TRANSITIVE',        'F',  false, false),
	('FULL_TRANSITIVE',        'G',  false, false),
	('FULL_TRANSITIVE',        'H',  false, false),
	('FULL_TRANSITIVE',        'X3', false, true);

-- the written-out matrix agrees with the per-direction table (guards typos in either)
SELECT is_empty(
	$$SELECT m.lvl, m.cand FROM matrix m JOIN cand c USING (cand)
	   WHERE m.all_versions IS DISTINCT FROM CASE m.lvl
			WHEN 'NONE' THEN true
			WHEN 'BACKWARD' THEN c.bw_latest
			WHEN 'BACKWARD_TRANSITIVE' THEN c.bw_latest AND c.bw_first
			WHEN 'FORWARD' THEN c.fw_latest
			WHEN 'FORWARD_TRANSITIVE' THEN c.fw_latest AND c.fw_first
			WHEN 'FULL' THEN c.bw_latest AND c.fw_latest
			WHEN 'FULL_TRANSITIVE' THEN c.bw_latest AND c.bw_first AND c.fw_latest AND c.fw_first END
	      OR m.latest_only IS DISTINCT FROM CASE
			WHEN m.lvl = 'NONE' THEN true
			WHEN m.lvl LIKE 'BACKWARD%' THEN c.bw_latest
			WHEN m.lvl LIKE 'FORWARD%' THEN c.fw_latest
			ELSE c.bw_latest AND c.fw_latest END$$,
	'matrix is consistent with the per-direction expectations');

-- fixtures: one subject per (level, candidate), level set before v1
DO $$
DECLARE r record;
BEGIN
	FOR r IN SELECT 'm-' || m.lvl || '-' || m.cand AS subj, m.lvl, f.v1, f.v2
	           FROM matrix m JOIN cand c USING (cand) JOIN fam f USING (fam) ORDER BY m.lvl, m.cand
	LOOP
		PERFORM registry.set_compatibility(r.lvl, r.subj);
		PERFORM registry.register_schema(r.subj, r.v1);
		PERFORM registry.register_schema(r.subj, r.v2);
	END LOOP;
END $$;
SELECT is(
	(SELECT count(*)::int FROM matrix m WHERE pg_temp.nversions('m-' || m.lvl || '-' || m.cand) = 2),
	42, 'every level accepted v1 and v2 of its fixture subject');
SELECT is(
	(SELECT count(*)::int FROM matrix m WHERE registry.get_compatibility('m-' || m.lvl || '-' || m.cand, false) = m.lvl),
	42, 'every fixture subject has its level configured');

-- check_compatibility against every live version (what registration uses)
SELECT is((registry.check_compatibility('m-' || m.lvl || '-' || m.cand, c.sch, version => NULL)).is_compatible,
          m.all_versions,
          format('%s, candidate %s vs all versions: %s', m.lvl, m.cand, CASE WHEN m.all_versions THEN 'compatible' ELSE 'incompatible' END))
  FROM matrix m JOIN cand c USING (cand) ORDER BY m.lvl, m.cand;

-- check_compatibility against the latest version only (transitivity is moot)
SELECT is((registry.check_compatibility('m-' || m.lvl || '-' || m.cand, c.sch, version => 'latest')).is_compatible,
          m.latest_only,
          format('%s, candidate %s vs latest: %s', m.lvl, m.cand, CASE WHEN m.latest_only THEN 'compatible' ELSE 'incompatible' END))
  FROM matrix m JOIN cand c USING (cand)
 WHERE m.lvl IN ('BACKWARD_TRANSITIVE', 'FORWARD_TRANSITIVE', 'FULL_TRANSITIVE', 'BACKWARD', 'FORWARD', 'FULL')
 ORDER BY m.lvl, m.cand;

-- registration: refused with R0901 exactly when incompatible with some live version
SELECT CASE WHEN m.all_versions
	THEN lives_ok(format('SELECT registry.register_schema(%L, %L)', 'm-' || m.lvl || '-' || m.cand, c.sch),
	              format('%s, candidate %s: register accepted', m.lvl, m.cand))
	ELSE throws_ok(format('SELECT registry.register_schema(%L, %L)', 'm-' || m.lvl || '-' || m.cand, c.sch),
	               'R0901', NULL, format('%s, candidate %s: register refused with R0901', m.lvl, m.cand))
	END
  FROM matrix m JOIN cand c USING (cand) ORDER BY m.lvl, m.cand;

SELECT is(pg_temp.nversions('m-' || m.lvl || '-' || m.cand), CASE WHEN m.all_versions THEN 3 ELSE 2 END,
          format('%s, candidate %s: %s versions afterwards', m.lvl, m.cand, CASE WHEN m.all_versions THEN 3 ELSE 2 END))
  FROM matrix m ORDER BY m.lvl, m.cand;

-- a specific version: FORWARD vs v1 / BACKWARD vs v1 of the "ab" family
SELECT is(pg_temp.compat_at('m-FORWARD-E', 'BACKWARD', (SELECT sch FROM cand WHERE cand = 'C'), '1'), false,
	'BACKWARD, C against version 1 only: incompatible');
SELECT is(pg_temp.compat_at('m-FORWARD-E', 'FORWARD', (SELECT sch FROM cand WHERE cand = 'C'), '1'), true,
	'FORWARD, C against version 1 only: compatible');
SELECT is(pg_temp.compat_at('m-FORWARD-E', 'BACKWARD', (SELECT sch FROM cand WHERE cand = 'C'), '2'), true,
	'BACKWARD, C against version 2 only: compatible');
SELECT is(pg_temp.compat_at('m-FORWARD-E', 'BACKWARD_TRANSITIVE', (SELECT sch FROM cand WHERE cand = 'C'), '1'), false,
	'BACKWARD_TRANSITIVE, C against version 1 only: incompatible');

-- already registered schemas: identical to the latest or to an earlier live version
-- -> the existing id is returned, no check, no new version (even under FULL_TRANSITIVE)
SELECT is(pg_temp.compat_at('m-FULL_TRANSITIVE-H', 'FULL_TRANSITIVE', (SELECT v2 FROM fam WHERE fam = 'ab')), true,
	'FULL_TRANSITIVE: v2 itself is compatible');
SELECT is(registry.register_schema('m-FULL_TRANSITIVE-H', (SELECT v1 FROM fam WHERE fam = 'ab')),
          (registry.get_version('m-FULL_TRANSITIVE-H', '1')).id,
	'register of v1 again returns v1''s id');
SELECT is(registry.register_schema('m-FULL_TRANSITIVE-H', (SELECT v2 FROM fam WHERE fam = 'ab')),
          (registry.get_version('m-FULL_TRANSITIVE-H', '2')).id,
	'register of v2 again returns v2''s id');
SELECT is(pg_temp.nversions('m-FULL_TRANSITIVE-H'), 2, 're-registering existing schemas adds no version');

-- soft-deleted versions are not checked (register uses the live versions only)
SELECT is(registry.delete_version('m-BACKWARD_TRANSITIVE-C', '1'), 1, 'soft-delete v1 of a BACKWARD_TRANSITIVE subject');
SELECT is(pg_temp.compat_at('m-BACKWARD_TRANSITIVE-C', 'BACKWARD_TRANSITIVE', (SELECT sch FROM cand WHERE cand = 'C')), true,
	'BACKWARD_TRANSITIVE ignores the soft-deleted v1: C is now compatible');
SELECT lives_ok($$SELECT registry.register_schema('m-BACKWARD_TRANSITIVE-C', pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string"}'))$$,
	'BACKWARD_TRANSITIVE: C registers once v1 is soft-deleted');
SELECT results_eq($$SELECT * FROM registry.versions('m-BACKWARD_TRANSITIVE-C')$$, $$VALUES (2), (3)$$,
	'versions 2 and 3 live, 1 soft-deleted');

-- NONE: anything goes, even a different type
SELECT lives_ok($$SELECT registry.register_schema('m-NONE-C', '"string"')$$, 'NONE: a record subject accepts "string"');
SELECT is(pg_temp.nversions('m-NONE-C'), 4, 'NONE: 4 versions');

-- message of a refused FULL check: backward half reported with the old schema info
SELECT matches(pg_temp.first_message('m-BACKWARD-H', 'BACKWARD', (SELECT sch FROM cand WHERE cand = 'H')),
	'^\{errorType:''TYPE_MISMATCH''', 'BACKWARD, H: first message is a TYPE_MISMATCH');
SELECT ok((registry.check_compatibility('m-BACKWARD-H', (SELECT sch FROM cand WHERE cand = 'H'), verbose => true)).messages
          @> ARRAY['{oldSchemaVersion: 2}', '{validateFields: ''false'', compatibility: ''BACKWARD''}'],
	'BACKWARD, H: messages carry the old version and the level');
SELECT ok((registry.check_compatibility('m-BACKWARD-H', (SELECT sch FROM cand WHERE cand = 'H'))).messages IS NULL,
	'without verbose there are no messages');

-- the level in force is the subject's, else the global one
SELECT is(registry.set_compatibility('NONE'), 'NONE', 'global level NONE');
SELECT is(registry.delete_compatibility('m-BACKWARD-H'), 'BACKWARD', 'drop the subject level of m-BACKWARD-H');
SELECT is((registry.check_compatibility('m-BACKWARD-H', (SELECT sch FROM cand WHERE cand = 'H'))).is_compatible, true,
	'without a subject level the global NONE applies');
SELECT is(registry.delete_compatibility(), 'NONE', 'drop the global level');
SELECT is((registry.check_compatibility('m-BACKWARD-H', (SELECT sch FROM cand WHERE cand = 'H'))).is_compatible, false,
	'without any level the default BACKWARD applies');

-- ---------------------------------------------------------------------------
-- Part 2: Avro reader/writer rules (doc/design.md#avro-rules).
-- old = the registered version, new = the candidate.
-- bw = BACKWARD = read(new, old); fw = FORWARD = read(old, new); FULL = bw AND fw.
-- bw_err: the errorType of the first BACKWARD message when bw is false.
-- ---------------------------------------------------------------------------
CREATE TEMP TABLE rules (n serial PRIMARY KEY, rule text, old text, new text, bw boolean, fw boolean, bw_err text);
INSERT INTO rules (rule, old, new, bw, fw, bw_err) VALUES
	-- promotions
	('int -> long',           pg_temp.fld('"int"'),    pg_temp.fld('"long"'),   true,  false, NULL),
	('int -> float',          pg_temp.fld('"int"'),    pg_temp.fld('"float"'),  true,  false, NULL),
	('int -> double',         pg_temp.fld('"int"'),    pg_temp.fld('"double"'), true,  false, NULL),
	('long -> float',         pg_temp.fld('"long"'),   pg_temp.fld('"float"'),  true,  false, NULL),
	('long -> double',        pg_temp.fld('"long"'),   pg_temp.fld('"double"'), true,  false, NULL),
	('float -> double',       pg_temp.fld('"float"'),  pg_temp.fld('"double"'), true,  false, NULL),
	('long -> int',           pg_temp.fld('"long"'),   pg_temp.fld('"int"'),    false, true,  'TYPE_MISMATCH'),
	('double -> float',       pg_temp.fld('"double"'), pg_temp.fld('"float"'),  false, true,  'TYPE_MISMATCH'),
	('float -> long',         pg_temp.fld('"float"'),  pg_temp.fld('"long"'),   false, true,  'TYPE_MISMATCH'),
	('double -> int',         pg_temp.fld('"double"'), pg_temp.fld('"int"'),    false, true,  'TYPE_MISMATCH'),
	('string -> bytes',       pg_temp.fld('"string"'), pg_temp.fld('"bytes"'),  true,  true,  NULL),
	('bytes -> string',       pg_temp.fld('"bytes"'),  pg_temp.fld('"string"'), true,  true,  NULL),
	('int -> string',         pg_temp.fld('"int"'),    pg_temp.fld('"string"'), false, false, 'TYPE_MISMATCH'),
	('boolean -> int',        pg_temp.fld('"boolean"'), pg_temp.fld('"int"'),   false, false, 'TYPE_MISMATCH'),
	('array<int> -> array<long>', pg_temp.fld('{"type":"array","items":"int"}'), pg_temp.fld('{"type":"array","items":"long"}'), true, false, NULL),
	('map<int> -> map<double>',   pg_temp.fld('{"type":"map","values":"int"}'),  pg_temp.fld('{"type":"map","values":"double"}'), true, false, NULL),
	('array<int> -> map<int>',    pg_temp.fld('{"type":"array","items":"int"}'), pg_temp.fld('{"type":"map","values":"int"}'), false, false, 'TYPE_MISMATCH'),
	('logicalType ignored (date -> int)', pg_temp.fld('{"type":"int","logicalType":"date"}'), pg_temp.fld('"int"'), true, true, NULL),
	-- enums
	('enum symbol added',
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B"]}'),
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B","C"]}'), true, false, NULL),
	('enum symbol added, old has enum default',
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B"],"default":"A"}'),
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B","C"]}'), true, true, NULL),
	('enum symbol removed',
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B","C"]}'),
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B"]}'), false, true, 'MISSING_ENUM_SYMBOLS'),
	('enum symbol removed, new has enum default',
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B","C"]}'),
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B"],"default":"A"}'), true, true, NULL),
	('enum symbol removed, only the writer (old) has an enum default',
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B","C"],"default":"A"}'),
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B"]}'), false, true, 'MISSING_ENUM_SYMBOLS'),
	('enum symbol removed, a field default does not help',
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B","C"]}'),
		'{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"enum","name":"E","symbols":["A","B"]},"default":"A"}]}',
		false, true, 'MISSING_ENUM_SYMBOLS'),
	('enum renamed',
		pg_temp.fld('{"type":"enum","name":"E","symbols":["A","B"]}'),
		pg_temp.fld('{"type":"enum","name":"E2","symbols":["A","B"]}'), false, false, 'NAME_MISMATCH'),
	-- unions
	('union branch added',
		pg_temp.fld('["null","string"]'), pg_temp.fld('["null","string","int"]'), true, false, NULL),
	('union branch removed',
		pg_temp.fld('["null","string","int"]'), pg_temp.fld('["null","string"]'), false, true, 'MISSING_UNION_BRANCH'),
	('string -> union [null,string]',
		pg_temp.fld('"string"'), pg_temp.fld('["null","string"]'), true, false, NULL),
	('union [null,string] -> string',
		pg_temp.fld('["null","string"]'), pg_temp.fld('"string"'), false, true, 'TYPE_MISMATCH'),
	('single-branch union [string] <-> string',
		pg_temp.fld('["string"]'), pg_temp.fld('"string"'), true, true, NULL),
	('int -> union [null,long] (promotion inside a union)',
		pg_temp.fld('"int"'), pg_temp.fld('["null","long"]'), true, false, NULL),
	('union [int,string] -> [long,bytes]',
		pg_temp.fld('["int","string"]'), pg_temp.fld('["long","bytes"]'), true, false, NULL),
	('int -> union [null,string] (no readable branch)',
		pg_temp.fld('"int"'), pg_temp.fld('["null","string"]'), false, false, 'MISSING_UNION_BRANCH'),
	('record inside a union promoted',
		pg_temp.fld('["null",' || pg_temp.rec('{"name":"x","type":"int"}', 'N') || ']'),
		pg_temp.fld('["null",' || pg_temp.rec('{"name":"x","type":"long"}', 'N') || ']'), true, false, NULL),
	('union branches reordered',
		pg_temp.fld('["null","string","int"]'), pg_temp.fld('["int","null","string"]'), true, true, NULL),
	-- record names and aliases
	('record renamed without alias',
		pg_temp.rec('{"name":"a","type":"int"}', 'R'), pg_temp.rec('{"name":"a","type":"int"}', 'S'), false, false, 'NAME_MISMATCH'),
	('record renamed with alias',
		pg_temp.rec('{"name":"a","type":"int"}', 'R'),
		'{"type":"record","name":"S","aliases":["R"],"fields":[{"name":"a","type":"int"}]}', true, false, NULL),
	('record namespace changed, same name',
		'{"type":"record","name":"R","namespace":"a","fields":[{"name":"x","type":"int"}]}',
		'{"type":"record","name":"R","namespace":"b","fields":[{"name":"x","type":"int"}]}', true, true, NULL),
	('record renamed, alias qualified by the reader namespace',
		'{"type":"record","name":"R","namespace":"a","fields":[{"name":"x","type":"int"}]}',
		'{"type":"record","name":"S","namespace":"a","aliases":["R"],"fields":[{"name":"x","type":"int"}]}', true, false, NULL),
	('record renamed, alias resolves to another namespace',
		'{"type":"record","name":"R","namespace":"a","fields":[{"name":"x","type":"int"}]}',
		'{"type":"record","name":"S","namespace":"b","aliases":["R"],"fields":[{"name":"x","type":"int"}]}', false, false, 'NAME_MISMATCH'),
	('record renamed, fully qualified alias',
		'{"type":"record","name":"R","namespace":"a","fields":[{"name":"x","type":"int"}]}',
		'{"type":"record","name":"S","namespace":"b","aliases":["a.R"],"fields":[{"name":"x","type":"int"}]}', true, false, NULL),
	('field renamed with alias',
		pg_temp.rec('{"name":"f","type":"int"}'), pg_temp.rec('{"name":"g","type":"int","aliases":["f"]}'), true, false, NULL),
	('error <-> record (same Avro type)',
		'{"type":"error","name":"R","fields":[{"name":"a","type":"int"}]}', pg_temp.rec('{"name":"a","type":"int"}'), true, true, NULL),
	('named types: namespaces ignored at every level',
		'{"type":"record","name":"a.R","fields":[{"name":"f","type":{"type":"enum","name":"E","symbols":["A"]}}]}',
		'{"type":"record","name":"b.R","fields":[{"name":"f","type":{"type":"enum","name":"E","symbols":["A"]}}]}', true, true, NULL),
	('record -> string',
		pg_temp.rec('{"name":"a","type":"int"}'), '"string"', false, false, 'TYPE_MISMATCH'),
	-- fixed
	('fixed size changed',
		pg_temp.fld('{"type":"fixed","name":"F","size":16}'), pg_temp.fld('{"type":"fixed","name":"F","size":8}'), false, false, 'FIXED_SIZE_MISMATCH'),
	('fixed renamed',
		pg_temp.fld('{"type":"fixed","name":"F","size":16}'), pg_temp.fld('{"type":"fixed","name":"G","size":16}'), false, false, 'NAME_MISMATCH'),
	('fixed renamed with alias',
		pg_temp.fld('{"type":"fixed","name":"F","size":16}'), pg_temp.fld('{"type":"fixed","name":"G","size":16,"aliases":["F"]}'), true, false, NULL),
	('fixed -> bytes',
		pg_temp.fld('{"type":"fixed","name":"F","size":16}'), pg_temp.fld('"bytes"'), false, false, 'TYPE_MISMATCH'),
	-- fields
	('field added with default',
		pg_temp.rec('{"name":"a","type":"int"}'), pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string","default":"x"}'), true, true, NULL),
	('field added without default',
		pg_temp.rec('{"name":"a","type":"int"}'), pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string"}'), false, true, 'READER_FIELD_MISSING_DEFAULT_VALUE'),
	('field added with null default',
		pg_temp.rec('{"name":"a","type":"int"}'), pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":["null","string"],"default":null}'), true, true, NULL),
	('field removed (it had no default)',
		pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string"}'), pg_temp.rec('{"name":"a","type":"int"}'), true, false, NULL),
	('field removed (it had a default)',
		pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string","default":"x"}'), pg_temp.rec('{"name":"a","type":"int"}'), true, true, NULL),
	('enum field added with an enum default but no field default (upstream quirk)',
		pg_temp.rec('{"name":"a","type":"int"}'),
		pg_temp.rec('{"name":"a","type":"int"},{"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"],"default":"X"}}'),
		false, true, 'TYPE_MISMATCH'),
	('field default value changed',
		pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string","default":"x"}'),
		pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"string","default":"y"}'), true, true, NULL),
	('nested record field promoted',
		pg_temp.fld(pg_temp.rec('{"name":"x","type":"int"}', 'N')), pg_temp.fld(pg_temp.rec('{"name":"x","type":"long"}', 'N')), true, false, NULL),
	('recursive record, field promoted',
		'{"type":"record","name":"L","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","L"]}]}',
		'{"type":"record","name":"L","fields":[{"name":"v","type":"long"},{"name":"next","type":["null","L"]}]}', true, false, NULL);

DO $$
DECLARE r record;
BEGIN
	FOR r IN SELECT * FROM rules ORDER BY n LOOP
		PERFORM registry.set_compatibility('NONE', 'rule-' || r.n);
		PERFORM registry.register_schema('rule-' || r.n, r.old);
	END LOOP;
END $$;

SELECT is(pg_temp.compat_at('rule-' || n, 'BACKWARD', new), bw,
          format('BACKWARD, %s: %s', rule, CASE WHEN bw THEN 'compatible' ELSE 'incompatible' END))
  FROM rules ORDER BY n;
SELECT is(pg_temp.compat_at('rule-' || n, 'FORWARD', new), fw,
          format('FORWARD, %s: %s', rule, CASE WHEN fw THEN 'compatible' ELSE 'incompatible' END))
  FROM rules ORDER BY n;
SELECT is(pg_temp.compat_at('rule-' || n, 'FULL', new), bw AND fw,
          format('FULL, %s: %s', rule, CASE WHEN bw AND fw THEN 'compatible' ELSE 'incompatible' END))
  FROM rules ORDER BY n;
SELECT matches(pg_temp.first_message('rule-' || n, 'BACKWARD', new), '^\{errorType:''' || bw_err || '''',
          format('BACKWARD, %s: reported as %s', rule, bw_err))
  FROM rules WHERE bw_err IS NOT NULL ORDER BY n;

-- a reader field whose name and alias match two writer fields: Avro throws,
-- Confluent reports it as an incompatibility
SELECT lives_ok($$SELECT registry.register_schema('rule-ambiguous', pg_temp.rec('{"name":"a","type":"int"},{"name":"b","type":"int"}'))$$,
	'fixture for the ambiguous alias case');
SELECT is(pg_temp.compat_at('rule-ambiguous', 'BACKWARD', pg_temp.rec('{"name":"a","type":"int","aliases":["b"]}')), false,
	'BACKWARD, reader field matching two writer fields: incompatible');
SELECT matches(pg_temp.first_message('rule-ambiguous', 'BACKWARD', pg_temp.rec('{"name":"a","type":"int","aliases":["b"]}')),
	'^Unexpected exception during compatibility check: ', 'BACKWARD, reader field matching two writer fields: reported as an unexpected exception');
SELECT throws_ok($$SELECT registry.register_schema('rule-ambiguous', pg_temp.rec('{"name":"a","type":"int","aliases":["b"]}'))$$,
	'R0901', NULL, 'register of the ambiguous reader refused with R0901');

-- register under BACKWARD: refused with R0901 exactly when the BACKWARD check fails
SELECT is((SELECT count(*)::int FROM rules WHERE registry.set_compatibility('BACKWARD', 'rule-' || n) = 'BACKWARD'),
          (SELECT count(*)::int FROM rules), 'every rule subject set to BACKWARD');
SELECT CASE WHEN bw
	THEN lives_ok(format('SELECT registry.register_schema(%L, %L)', 'rule-' || n, new),
	              format('register under BACKWARD, %s: accepted', rule))
	ELSE throws_ok(format('SELECT registry.register_schema(%L, %L)', 'rule-' || n, new),
	               'R0901', NULL, format('register under BACKWARD, %s: refused with R0901', rule))
	END
  FROM rules ORDER BY n;
SELECT is(pg_temp.nversions('rule-' || n), CASE WHEN bw THEN 2 ELSE 1 END,
          format('%s: %s version(s) afterwards', rule, CASE WHEN bw THEN 2 ELSE 1 END))
  FROM rules ORDER BY n;

SELECT * FROM finish();
ROLLBACK;
