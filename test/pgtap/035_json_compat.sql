-- 035_json_compat.sql: JSON Schema under the seven levels and both of
-- Confluent's compatibilityPolicy values, through registry.check_compatibility,
-- registry.register_schema and a raw subject_versions insert (the trigger).
--
-- Each pair is (old, new); "backward" is whether new reads old's data
-- (Confluent's SchemaDiff.compare(original = old, update = new) has no
-- incompatible difference), "forward" the other way.  With one earlier
-- version every level follows: NONE always, BACKWARD[_TRANSITIVE] backward,
-- FORWARD[_TRANSITIVE] forward, FULL[_TRANSITIVE] both.
BEGIN;
SELECT plan(224);

CREATE TEMP TABLE pair (n int PRIMARY KEY, what text, old text, new text,
	bw_strict boolean, fw_strict boolean, bw_lenient boolean, fw_lenient boolean);
INSERT INTO pair VALUES
	-- TYPE_EXTENDED / TYPE_NARROWED
	(1, 'integer -> number', '{"type":"integer"}', '{"type":"number"}', true, false, true, false),
	-- TYPE_CHANGED both ways
	(2, 'string -> integer', '{"type":"string"}', '{"type":"integer"}', false, false, false, false),
	-- MAX_LENGTH_ADDED / MAX_LENGTH_REMOVED
	(3, 'maxLength added', '{"type":"string"}', '{"type":"string","maxLength":10}', false, true, false, true),
	-- ENUM_ARRAY_EXTENDED / ENUM_ARRAY_NARROWED
	(4, 'enum extended', '{"enum":["a","b"]}', '{"enum":["a","b","c"]}', true, false, true, false),
	-- OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL (lenient only) / PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL
	(5, 'optional property added to an open object',
		'{"type":"object","properties":{"a":{"type":"string"}}}',
		'{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}', false, true, true, true),
	-- OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL / PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL (lenient only)
	(6, 'optional property added to a closed object',
		'{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}',
		'{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"additionalProperties":false}', true, false, true, true),
	-- REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL (both policies) / PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL
	(7, 'required property added to an open object',
		'{"type":"object","properties":{"a":{"type":"string"}}}',
		'{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["b"]}', false, true, false, true),
	-- ADDITIONAL_PROPERTIES_REMOVED (lenient only) / ADDITIONAL_PROPERTIES_ADDED
	(8, 'additionalProperties closed', '{"type":"object"}', '{"type":"object","additionalProperties":false}', false, true, true, true),
	-- ADDITIONAL_PROPERTIES_NARROWED (lenient only) / ADDITIONAL_PROPERTIES_EXTENDED
	(9, 'additionalProperties narrowed to a schema', '{"type":"object"}',
		'{"type":"object","additionalProperties":{"type":"string"}}', false, true, true, true),
	-- MAX_ITEMS_ADDED / MAX_ITEMS_REMOVED
	(10, 'maxItems added', '{"type":"array","items":{"type":"string"}}', '{"type":"array","items":{"type":"string"},"maxItems":3}',
		false, true, false, true),
	-- SUM_TYPE_EXTENDED / SUM_TYPE_NARROWED
	(11, 'anyOf extended', '{"anyOf":[{"type":"string"},{"type":"integer"}]}',
		'{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"boolean"}]}', true, false, true, false),
	-- a type made a type array: SUM_TYPE_EXTENDED; back: TYPE_CHANGED
	(12, 'string -> [string, null]', '{"type":"string"}', '{"type":["string","null"]}', true, false, true, false),
	-- REQUIRED_ATTRIBUTE_REMOVED / REQUIRED_ATTRIBUTE_ADDED
	(13, 'required removed', '{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}',
		'{"type":"object","properties":{"a":{"type":"string"}}}', true, false, true, false),
	-- {} reads anything; a string schema does not read everything
	(14, '{} -> string', '{}', '{"type":"string"}', false, true, false, true),
	-- NOT_TYPE_EXTENDED / NOT_TYPE_NARROWED: "not string or integer" admits less than "not string"
	(15, 'not over more types', '{"not":{"type":"string"}}', '{"not":{"type":["string","integer"]}}', false, true, false, true);

CREATE TEMP TABLE level (lvl text PRIMARY KEY, bw boolean, fw boolean);
INSERT INTO level VALUES ('NONE', false, false), ('BACKWARD', true, false), ('BACKWARD_TRANSITIVE', true, false),
	('FORWARD', false, true), ('FORWARD_TRANSITIVE', false, true), ('FULL', true, true), ('FULL_TRANSITIVE', true, true);

-- the subject of a pair: its old schema as the one version
CREATE FUNCTION pg_temp.subj(n int) RETURNS text LANGUAGE sql IMMUTABLE RETURN 'jm-' || n;
SELECT is((SELECT count(registry.register_schema(pg_temp.subj(n), old, 'JSON'))::int FROM pair), 15,
		  'every pair''s old schema registers');

-- the level and policy set, then the new schema against every live version
CREATE FUNCTION pg_temp.verdict(n int, lvl text, policy text, sch text) RETURNS boolean
	LANGUAGE plpgsql AS $$
BEGIN
	PERFORM registry.set_config(pg_temp.subj(n), jsonb_build_object('compatibility', lvl, 'compatibilityPolicy', policy));
	RETURN (registry.check_compatibility(pg_temp.subj(n), sch, 'JSON', version => NULL)).is_compatible;
END $$;

SELECT is(pg_temp.verdict(p.n, l.lvl, pol.policy, p.new),
		  (NOT l.bw OR CASE pol.policy WHEN 'LENIENT' THEN p.bw_lenient ELSE p.bw_strict END)
		  AND (NOT l.fw OR CASE pol.policy WHEN 'LENIENT' THEN p.fw_lenient ELSE p.fw_strict END),
		  format('%s, %s, %s', p.what, l.lvl, pol.policy))
  FROM pair p, level l, (VALUES ('STRICT'), ('LENIENT')) AS pol(policy)
 ORDER BY p.n, l.lvl, pol.policy;

-- the policy from the wider scopes: the context's, then the global one
DO $$
BEGIN
	PERFORM registry.delete_config(pg_temp.subj(5));
	PERFORM registry.set_config(':.jm:', '{"compatibilityPolicy":"LENIENT"}');
	PERFORM registry.register_schema(':.jm:open', '{"type":"object","properties":{"a":{"type":"string"}}}', 'JSON');
END $$;
CREATE FUNCTION pg_temp.open_add_ok(subj text) RETURNS boolean LANGUAGE sql
	RETURN (registry.check_compatibility(subj, (SELECT new FROM pair WHERE n = 5), 'JSON')).is_compatible;
SELECT ok(pg_temp.open_add_ok(':.jm:open'), 'a context''s LENIENT applies to its subjects');
SELECT ok(NOT pg_temp.open_add_ok(pg_temp.subj(5)), '... and not to another context''s');
DO $$ BEGIN PERFORM registry.set_config(NULL, '{"compatibilityPolicy":"LENIENT"}'); END $$;
SELECT ok(pg_temp.open_add_ok(pg_temp.subj(5)), 'the global LENIENT applies where nothing narrower is set');
DO $$ BEGIN PERFORM registry.set_config(pg_temp.subj(5), '{"compatibilityPolicy":"STRICT"}'); END $$;
SELECT ok(NOT pg_temp.open_add_ok(pg_temp.subj(5)), 'a subject''s STRICT wins over the global LENIENT');
DO $$
BEGIN
	PERFORM registry.delete_config(pg_temp.subj(5));
	UPDATE registry.config SET settings = settings - 'compatibilityPolicy' WHERE context = '.' AND subject = '';
END $$;

-- registration honours the policy, and so does a raw version insert (the trigger)
SELECT throws_ok(format($$SELECT registry.register_schema(%L, %L, 'JSON')$$, pg_temp.subj(5), (SELECT new FROM pair WHERE n = 5)),
				 'R0901', NULL, 'STRICT: registering an optional property added to an open object is refused');
DO $$ BEGIN PERFORM registry.set_config(pg_temp.subj(5), '{"compatibilityPolicy":"LENIENT"}'); END $$;
SELECT ok(registry.register_schema(pg_temp.subj(5), (SELECT new FROM pair WHERE n = 5), 'JSON') > 0,
		  'LENIENT: it registers');
CREATE FUNCTION pg_temp.raw_version(subj text, sch text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	sid integer;
BEGIN
	INSERT INTO registry.schemas (context, schema_type, schema) VALUES ('.', 'JSON', sch) RETURNING id INTO sid;
	INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', subj, sid);
END $$;
SELECT lives_ok($$SELECT pg_temp.raw_version('jm-5', '{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"boolean"}}}')$$,
				'LENIENT: a raw insert of a version adding another optional property passes the trigger');
DO $$ BEGIN PERFORM registry.set_config(pg_temp.subj(5), '{"compatibilityPolicy":"STRICT"}'); END $$;
SELECT throws_ok($$SELECT pg_temp.raw_version('jm-5', '{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"boolean"},"d":{"type":"null"}}}')$$,
				 'R0901', NULL, 'STRICT: the trigger refuses the next one');
SELECT is((SELECT count(*)::int FROM registry.subject_versions WHERE context = '.' AND subject = 'jm-5'), 3,
		  'jm-5 has the three versions LENIENT let in');

-- transitive levels look past the latest version: v1 string, v2 integer
DO $$
BEGIN
	PERFORM registry.set_compatibility('NONE', 'jm-t');
	PERFORM registry.register_schema('jm-t', '{"type":"string"}', 'JSON');
	PERFORM registry.register_schema('jm-t', '{"type":"integer"}', 'JSON');
END $$;
CREATE FUNCTION pg_temp.at(lvl text, sch text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	PERFORM registry.set_compatibility(lvl, 'jm-t');
	RETURN (registry.check_compatibility('jm-t', sch, 'JSON', version => NULL)).is_compatible;
END $$;
SELECT is(pg_temp.at(l.lvl, l.sch), l.expect, format('v1 string, v2 integer, new %s: %s', l.sch, l.lvl))
  FROM (VALUES ('BACKWARD', '{"type":"number"}', true), ('BACKWARD_TRANSITIVE', '{"type":"number"}', false),
			   ('FORWARD', '{"type":"integer","maximum":9}', true), ('FORWARD_TRANSITIVE', '{"type":"integer","maximum":9}', false))
	   AS l(lvl, sch, expect);

SELECT * FROM finish();
ROLLBACK;
