-- 055_list_pages.sql: the SQL listings' pages (issue 33 item 1):
-- page_offset rows skipped, then at most page_limit (NULL, 0 or less: all;
-- a NULL or negative offset: 0), after the filters, as GET's offset and
-- limit page the REST listings.
BEGIN;
SELECT plan(20);

SELECT registry.set_compatibility('NONE', 'pg-' || s) FROM unnest(ARRAY['a', 'b', 'c', 'd']) s;
SELECT registry.register_schema('pg-' || s, '{"type":"record","name":"P' || s || k || '","fields":[]}')
	FROM unnest(ARRAY['a', 'b', 'c', 'd']) s, generate_series(1, 3) k;
SELECT registry.delete_version('pg-b', '2');
SELECT registry.delete_subject('pg-c');

-- subjects()
SELECT results_eq($$SELECT * FROM registry.subjects('pg-', false, false, 1, 1)$$,
	$$VALUES ('pg-b')$$, 'subjects(): offset 1, limit 1');
SELECT results_eq($$SELECT * FROM registry.subjects('pg-', false, false, 1, NULL)$$,
	$$VALUES ('pg-b'), ('pg-d')$$, 'subjects(): a NULL limit is all');
SELECT results_eq($$SELECT * FROM registry.subjects('pg-', false, false, 1, 0)$$,
	$$VALUES ('pg-b'), ('pg-d')$$, 'subjects(): limit 0 is all');
SELECT results_eq($$SELECT * FROM registry.subjects('pg-', true, false, 2, 1)$$,
	$$VALUES ('pg-c')$$, 'subjects(deleted): the soft-deleted subject is paged with the rest');
SELECT is_empty($$SELECT * FROM registry.subjects('pg-', false, false, 3, 5)$$,
	'subjects(): an offset past the end is empty');
SELECT results_eq($$SELECT * FROM registry.subjects('pg-', false, false, -4, 1)$$,
	$$VALUES ('pg-a')$$, 'subjects(): a negative offset is 0');
SELECT results_eq($$SELECT * FROM registry.subjects(subject_prefix => 'pg-', page_limit => 2)$$,
	$$VALUES ('pg-a'), ('pg-b')$$, 'subjects(): by name');

-- versions()
SELECT results_eq($$SELECT * FROM registry.versions('pg-b', false, false, 1, 5)$$,
	$$VALUES (3)$$, 'versions(): the soft-deleted version 2 is left out before the page');
SELECT results_eq($$SELECT * FROM registry.versions('pg-b', true, false, 1, 1)$$,
	$$VALUES (2)$$, 'versions(deleted): version 2 at offset 1');
SELECT is_empty($$SELECT * FROM registry.versions('pg-a', false, false, 3, 1)$$,
	'versions(): an offset past the end is empty');
SELECT throws_ok($$SELECT * FROM registry.versions('pg-none', false, false, 3, 1)$$,
	'R0401', NULL, 'versions(): a subject without versions is 40401 whatever the page');

-- list_schemas()
SELECT results_eq($$SELECT subject, version FROM registry.list_schemas('pg-', false, false, 2, 3)$$,
	$$VALUES ('pg-a', 3), ('pg-b', 1), ('pg-b', 3)$$, 'list_schemas(): offset 2, limit 3');
SELECT results_eq($$SELECT subject, version FROM registry.list_schemas('pg-', true, false, 9, 2)$$,
	$$VALUES ('pg-d', 1), ('pg-d', 2)$$, 'list_schemas(deleted): the soft-deleted ones counted');
SELECT results_eq($$SELECT subject, version FROM registry.list_schemas('pg-', false, true, 1, 5)$$,
	$$VALUES ('pg-b', 3), ('pg-d', 3)$$, 'list_schemas(latest_only): paged over subjects');
SELECT is(count(*), 8::bigint, 'list_schemas(): without a page, every live version')
	FROM registry.list_schemas('pg-');
SELECT is_empty($$SELECT * FROM registry.list_schemas('pg-', false, false, 8, 10)$$,
	'list_schemas(): an offset past the end is empty');
SELECT results_eq($$SELECT (schema_version).subject, (schema_version).version
	FROM registry.list_schemas_with_aliases('pg-', false, false, 7, 4)$$,
	$$VALUES ('pg-d', 3)$$, 'list_schemas_with_aliases(): the last row at offset 7');

-- schema_versions(): one schema in three subjects
SELECT registry.register_schema('pg-' || s, '{"type":"record","name":"Shared","fields":[]}')
	FROM unnest(ARRAY['a', 'b', 'd']) s;
SELECT results_eq($$SELECT subject_name, version FROM registry.schema_versions(
		registry.register_schema('pg-a', '{"type":"record","name":"Shared","fields":[]}'), NULL, false, 1, 1)$$,
	$$VALUES ('pg-b', 4)$$, 'schema_versions(): offset 1, limit 1');
SELECT results_eq($$SELECT subject_name, version FROM registry.schema_versions(
		registry.register_schema('pg-a', '{"type":"record","name":"Shared","fields":[]}'), NULL, false, 2, NULL)$$,
	$$VALUES ('pg-d', 4)$$, 'schema_versions(): the rest from offset 2');
SELECT is_empty($$SELECT * FROM registry.schema_versions(
		registry.register_schema('pg-a', '{"type":"record","name":"Shared","fields":[]}'), NULL, false, 3, 1)$$,
	'schema_versions(): an offset past the end is empty');

SELECT * FROM finish();
ROLLBACK;
