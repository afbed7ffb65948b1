-- 042_version_handoff.sql: a registration hands what it decided about its
-- version row to that row's trigger (version_handoff.c); the decision never
-- reaches another row, a later statement or a rolled-back subtransaction,
-- which get every check of the trigger.
BEGIN;
SELECT plan(13);

-- ho, ho-sk and ho-rb have version 1, R with an int a; ho-other has R with a
-- string a (incompatible with it under BACKWARD) and R with an optional b
-- (compatible)
SELECT registry.register_schema('ho', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}') AS v1 \gset
SELECT registry.register_schema('ho-sk', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}');
SELECT registry.register_schema('ho-rb', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}');
SELECT registry.set_compatibility('NONE', 'ho-other');
SELECT registry.register_schema('ho-other', '{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}') AS bad \gset
SELECT registry.register_schema('ho-other', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}') AS good \gset

-- a DBA's trigger that fires before the registry's own on subject_versions:
-- it skips the row, puts another schema in it, fails, or soft-deletes the
-- subject's latest version first, as test.handoff says
CREATE FUNCTION pg_temp.meddle() RETURNS trigger
	LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('test.handoff', true) = 'skip' THEN
		RETURN NULL;
	END IF;
	IF current_setting('test.handoff', true) = 'swap' THEN
		NEW.schema_id := current_setting('test.swap_to')::integer;
	END IF;
	IF current_setting('test.handoff', true) = 'fail' THEN
		RAISE EXCEPTION 'refused by a DBA trigger';
	END IF;
	IF current_setting('test.handoff', true) = 'softdelete' THEN
		UPDATE registry.subject_versions SET deleted = true
		 WHERE context = NEW.context AND subject = NEW.subject AND version =
			(SELECT max(version) FROM registry.subject_versions
			  WHERE context = NEW.context AND subject = NEW.subject AND NOT deleted);
	END IF;
	RETURN NEW;
END $$;
CREATE TRIGGER aa_meddle BEFORE INSERT ON registry.subject_versions
	FOR EACH ROW EXECUTE FUNCTION pg_temp.meddle();

-- ---------------------------------------------------------------------------
-- the row the registration decided, changed before the registry's trigger
-- sees it, is checked in full
-- ---------------------------------------------------------------------------
SELECT set_config('test.swap_to', :'bad', true);
SELECT set_config('test.handoff', 'swap', true);
SELECT throws_ok($$SELECT registry.register_schema('ho', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}')$$,
	'R0901', NULL, 'a registration''s row given an incompatible schema by another trigger is refused (R0901)');
SELECT is((SELECT count(*)::integer FROM registry.subject_versions WHERE subject = 'ho'), 1,
	'and no version was added');
SELECT set_config('test.handoff', 'off', true);

-- ---------------------------------------------------------------------------
-- a registration whose row never reached the registry's trigger, then a raw
-- INSERT of that very row in the same transaction once version 1 is gone:
-- every check (the number is not the next one)
-- ---------------------------------------------------------------------------
SELECT registry.set_compatibility('NONE');
SELECT registry.set_compatibility('NONE', 'ho-sk');
SELECT set_config('test.handoff', 'skip', true);
SELECT is(registry.register_schema('ho-sk', '{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}'),
	:'bad'::integer, 'under NONE the registration decides version 2 (the DBA trigger then skips its row)');
SELECT set_config('test.handoff', 'off', true);
SELECT is((SELECT count(*)::integer FROM registry.subject_versions WHERE subject = 'ho-sk'), 1,
	'the skipped row was not inserted');
SELECT registry.delete_version('ho-sk', '1');
SELECT registry.delete_version('ho-sk', '1', true);
SELECT throws_ok(format($$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'ho-sk', 2, %s)$$, :'bad'),
	'R2201', NULL, 'a later raw INSERT of the same row, with version 1 gone, is refused (R2201)');

-- ---------------------------------------------------------------------------
-- a registration rolled back with its subtransaction, then the same row by
-- a raw INSERT once version 1 is gone: every check
-- ---------------------------------------------------------------------------
SELECT registry.set_compatibility('NONE', 'ho-rb');
SELECT set_config('test.handoff', 'fail', true);
SELECT throws_ok(format($$SELECT registry.register_schema('ho-rb', %L)$$,
	'{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}'), 'P0001', NULL,
	'a registration refused by a DBA trigger is rolled back with its subtransaction');
SELECT set_config('test.handoff', 'off', true);
SELECT registry.delete_version('ho-rb', '1');
SELECT registry.delete_version('ho-rb', '1', true);
SELECT throws_ok(format($$INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ('.', 'ho-rb', 2, %s)$$, :'bad'),
	'R2201', NULL, 'the same row by a raw INSERT after it is refused (R2201)');
SELECT registry.set_compatibility('BACKWARD');

-- ---------------------------------------------------------------------------
-- the subject's latest version soft-deleted by another trigger while the
-- registration inserts its row: the decision was checked against that
-- version, so the row is checked in full against the one now latest (the
-- other trigger's UPDATE ran in a command of its own, so the decision,
-- bound to the INSERT's command, does not match); R with an int a and a
-- required b reads what version 2 wrote, not what version 1 wrote
-- ---------------------------------------------------------------------------
SELECT registry.register_schema('ho-sd', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}');
SELECT registry.register_schema('ho-sd', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}');
SELECT set_config('test.handoff', 'softdelete', true);
SELECT throws_ok($$SELECT registry.register_schema('ho-sd', '{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"}]}')$$,
	'R0901', NULL, 'a registration whose subject''s latest version another trigger soft-deletes is checked against the new latest (R0901)');
SELECT set_config('test.handoff', 'off', true);
SELECT is((SELECT count(*)::integer FROM registry.subject_versions WHERE subject = 'ho-sd' AND NOT deleted), 2,
	'and the subject keeps its two live versions');

-- ---------------------------------------------------------------------------
-- and with nobody in the way, the registration and a raw INSERT work as
-- they always did
-- ---------------------------------------------------------------------------
SELECT is(registry.register_schema('ho',
	'{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}'), :'good'::integer,
	'a compatible registration under BACKWARD is version 2');
SELECT throws_ok(format($$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'ho', %s)$$, :'bad'),
	'R0901', NULL, 'a raw INSERT of an incompatible schema is refused');
SELECT registry.set_mode('READONLY', 'ho');
SELECT throws_ok(format($$INSERT INTO registry.subject_versions (context, subject, schema_id) VALUES ('.', 'ho', %s)$$, :'good'),
	'R2205', NULL, 'a raw INSERT in READONLY mode is refused');
SELECT registry.set_mode('READWRITE', 'ho');
SELECT results_eq($$SELECT version, schema_id FROM registry.subject_versions WHERE subject = 'ho' ORDER BY version$$,
	format($$VALUES (1, %s), (2, %s)$$, :'v1', :'good'),
	'the subject has the two versions registered');

SELECT * FROM finish();
ROLLBACK;
