-- 032_protobuf_oneof.sql: fields moved into and out of Protobuf oneofs
-- under the seven levels, through registry.check_compatibility (with
-- Confluent's messages) and registry.register_schema.
--
-- Confluent's diff (doc/design.md#protobuf-rules): a oneof of the update
-- that gathers fields from more than one origin (an original oneof, or
-- each original top-level field) makes independent fields exclusive:
-- FIELD_MOVED_TO_EXISTING_ONEOF, or MULTIPLE_FIELDS_MOVED_TO_ONEOF when
-- more than one was top-level.  A member moved out of its oneof
-- (ONEOF_FIELD_MOVED_TO_TOP_LEVEL) and one field made the only old
-- member of a new oneof are compatible.  So a move into a oneof fails
-- BACKWARD, a move out fails FORWARD (which diffs the other way round),
-- and both fail FULL; a member dropped from a oneof (ONEOF_FIELD_REMOVED)
-- fails BACKWARD.
BEGIN;
SELECT plan(62);

CREATE TEMP TABLE pair (n int PRIMARY KEY, what text, old text, new text,
	bw text, fw text);
INSERT INTO pair VALUES
	(1, 'a top-level field moved into an existing oneof',
		'syntax = "proto3"; message M { int32 a = 1; oneof o { int32 b = 2; } }',
		'syntax = "proto3"; message M { oneof o { int32 a = 1; int32 b = 2; } }',
		'{errorType:"FIELD_MOVED_TO_EXISTING_ONEOF", description:"A field in the oneof at path ''#/M/o'' in the new schema is outside an existing oneof in the old schema"}',
		NULL),
	(2, 'a member moved out of a oneof that stays',
		'syntax = "proto3"; message M { oneof o { int32 a = 1; int32 b = 2; } }',
		'syntax = "proto3"; message M { int32 a = 1; oneof o { int32 b = 2; } }',
		NULL,
		'{errorType:"FIELD_MOVED_TO_EXISTING_ONEOF", description:"A field in the oneof at path ''#/M/o'' in the old schema is outside an existing oneof in the new schema"}'),
	(3, 'two top-level fields moved into a new oneof',
		'syntax = "proto3"; message M { int32 a = 1; int32 b = 2; }',
		'syntax = "proto3"; message M { oneof o { int32 a = 1; int32 b = 2; } }',
		'{errorType:"MULTIPLE_FIELDS_MOVED_TO_ONEOF", description:"Multiple fields in the oneof at path ''#/M/o'' in the new schema are outside a oneof in the old schema"}',
		NULL),
	(4, 'a oneof dissolved into top-level fields',
		'syntax = "proto3"; message M { oneof o { int32 a = 1; int32 b = 2; } }',
		'syntax = "proto3"; message M { int32 a = 1; int32 b = 2; }',
		NULL,
		'{errorType:"MULTIPLE_FIELDS_MOVED_TO_ONEOF", description:"Multiple fields in the oneof at path ''#/M/o'' in the old schema are outside a oneof in the new schema"}'),
	(5, 'one field made the only member of a new oneof',
		'syntax = "proto3"; message M { int32 a = 1; int32 b = 2; }',
		'syntax = "proto3"; message M { int32 a = 1; oneof o { int32 b = 2; } }',
		NULL, NULL),
	(6, 'the only member of a oneof moved out of it',
		'syntax = "proto3"; message M { int32 a = 1; oneof o { int32 b = 2; } }',
		'syntax = "proto3"; message M { int32 a = 1; int32 b = 2; }',
		NULL, NULL),
	(7, 'two oneofs merged into one',
		'syntax = "proto3"; message M { oneof x { int32 a = 1; } oneof y { int32 b = 2; } }',
		'syntax = "proto3"; message M { oneof x { int32 a = 1; int32 b = 2; } }',
		'{errorType:"FIELD_MOVED_TO_EXISTING_ONEOF", description:"A field in the oneof at path ''#/M/x'' in the new schema is outside an existing oneof in the old schema"}',
		NULL),
	(8, 'a member dropped from a oneof',
		'syntax = "proto3"; message M { oneof o { int32 a = 1; string b = 2; } }',
		'syntax = "proto3"; message M { oneof o { int32 a = 1; } }',
		'{errorType:"ONEOF_FIELD_REMOVED", description:"The new schema is missing a oneof field at path ''#/M/o/2'' in the old schema"}',
		NULL);

CREATE TEMP TABLE level (lvl text PRIMARY KEY, bw boolean, fw boolean);
INSERT INTO level VALUES ('NONE', false, false), ('BACKWARD', true, false), ('BACKWARD_TRANSITIVE', true, false),
	('FORWARD', false, true), ('FORWARD_TRANSITIVE', false, true), ('FULL', true, true), ('FULL_TRANSITIVE', true, true);

-- the subject of a pair: its old schema as the one version
CREATE FUNCTION pg_temp.subj(n int) RETURNS text LANGUAGE sql IMMUTABLE RETURN 'pbo-' || n;
SELECT is((SELECT count(registry.register_schema(pg_temp.subj(n), old, 'PROTOBUF'))::int FROM pair), 8,
		  'every pair''s old schema registers');

-- at a level, the new schema against every live version: 'compatible' or
-- the first message
CREATE FUNCTION pg_temp.verdict(n int, lvl text, sch text) RETURNS text
	LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	PERFORM registry.set_compatibility(lvl, pg_temp.subj(n));
	r := registry.check_compatibility(pg_temp.subj(n), sch, 'PROTOBUF', version => NULL, verbose => true);
	RETURN CASE WHEN r.is_compatible THEN 'compatible' ELSE r.messages[1] END;
END $$;

-- BACKWARD checks first, so FULL fails with the BACKWARD message if there is one
SELECT is(pg_temp.verdict(p.n, l.lvl, p.new),
		  CASE WHEN l.bw AND p.bw IS NOT NULL THEN p.bw
			   WHEN l.fw AND p.fw IS NOT NULL THEN p.fw
			   ELSE 'compatible' END,
		  format('%s, %s', p.what, l.lvl))
  FROM pair p, level l
 ORDER BY p.n, l.lvl;

-- registration: refused where the level fails, and nothing is stored
DO $$ BEGIN PERFORM registry.set_compatibility('BACKWARD', pg_temp.subj(1)); END $$;
SELECT throws_ok(format($$SELECT registry.register_schema(%L, %L, 'PROTOBUF')$$, pg_temp.subj(1), (SELECT new FROM pair WHERE n = 1)),
				 'R0901', NULL, 'BACKWARD: registering a field moved into an existing oneof is refused');
DO $$ BEGIN PERFORM registry.set_compatibility('FULL', pg_temp.subj(2)); END $$;
SELECT throws_ok(format($$SELECT registry.register_schema(%L, %L, 'PROTOBUF')$$, pg_temp.subj(2), (SELECT new FROM pair WHERE n = 2)),
				 'R0901', NULL, 'FULL: registering a member moved out of its oneof is refused');
DO $$ BEGIN PERFORM registry.set_compatibility('BACKWARD', pg_temp.subj(2)); END $$;
SELECT ok(registry.register_schema(pg_temp.subj(2), (SELECT new FROM pair WHERE n = 2), 'PROTOBUF') > 0,
		  'BACKWARD: a member moved out of its oneof registers');
DO $$ BEGIN PERFORM registry.set_compatibility('FULL', pg_temp.subj(6)); END $$;
SELECT ok(registry.register_schema(pg_temp.subj(6), (SELECT new FROM pair WHERE n = 6), 'PROTOBUF') > 0,
		  'FULL: the only member of a oneof moved out of it registers');
SELECT is((SELECT count(*)::int FROM registry.subject_versions WHERE context = '.' AND subject IN ('pbo-1', 'pbo-2', 'pbo-6')), 5,
		  'the refused registrations stored nothing');

SELECT * FROM finish();
ROLLBACK;
