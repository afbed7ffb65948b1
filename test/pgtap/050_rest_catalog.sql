-- 050_rest_catalog.sql: REST answers for which the SQL API returns NULL
-- (a schema found by id outside the context whose maxId is asked for).
BEGIN;
SELECT plan(3);

-- every file rolls back, so the default context has no schemas here
SELECT is((SELECT count(*)::integer FROM registry.schemas WHERE context = '.'), 0,
	'the default context has no schemas');
SELECT registry.register_schema(':.elsewhere:s', '"string"') AS id \gset
SELECT is((registry.rest('GET', '/schemas/ids/' || :id, 'fetchMaxId=true')).status, 200,
	'GET /schemas/ids/{id}?fetchMaxId=true answers for a schema of another context');
SELECT is((registry.rest('GET', '/schemas/ids/' || :id, 'fetchMaxId=true')).response::jsonb - 'ts',
	jsonb_build_object('schemaType', 'AVRO', 'schema', '"string"', 'guid', md5('"string"')::uuid::text),
	'maxId is left out when the default context has no schemas');

SELECT * FROM finish();
ROLLBACK;
