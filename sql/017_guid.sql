-- Confluent 8.x: guid and ts, /schemas/guids/{guid}[/ids], the subject version
-- that GET /schemas/ids/{id}?subject= names, PUT /config answering the stored
-- configuration, and empty schemas in lookups and registrations.
\set SHOW_CONTEXT never
CREATE FUNCTION pg_temp.r(method text, path text, query text DEFAULT NULL, body text DEFAULT NULL)
	RETURNS text LANGUAGE sql AS $$
	SELECT status || ' ' || response FROM regress.rest(method, path, query, body)
$$;

-- the guid is the fingerprint as a UUID: for a schema without references,
-- metadata or rule set, the MD5 of its stored text, as Confluent's
SELECT registry.register_schema('guid-a', '{"type":"record","name":"G","fields":[{"name":"a","type":"int"}]}') AS ga \gset
SELECT guid = md5(schema)::uuid AS confluent_guid, guid = encode(fingerprint, 'hex')::uuid AS fingerprint_guid
  FROM registry.schemas WHERE context = '.' AND id = :ga;
SELECT count(*) AS guid_not_the_fingerprint FROM registry.schemas
 WHERE guid IS DISTINCT FROM encode(fingerprint, 'hex')::uuid;
SELECT guid AS g FROM registry.schemas WHERE context = '.' AND id = :ga \gset
-- with metadata, another identity: another guid
SELECT registry.register_schema('guid-m', '{"type":"record","name":"G","fields":[{"name":"a","type":"int"}]}',
	metadata => '{"properties":{"owner":"g"}}') AS gm \gset
SELECT guid <> :'g' AS metadata_changes_the_guid FROM registry.schemas WHERE context = '.' AND id = :gm;

-- the same schema in another context: the same guid, that context's id
SELECT registry.register_schema(':.guid:b', '{"type":"record","name":"G","fields":[{"name":"a","type":"int"}]}') AS gb \gset
SELECT id = :ga AS default_context_id, context, subject IS NULL AS no_subject FROM registry.schema_by_guid(:'g');
SELECT context, id = CASE context WHEN '.' THEN :ga ELSE :gb END AS its_id FROM registry.schema_ids_by_guid(:'g');
SELECT regress.try($$SELECT registry.schema_by_guid('00000000-0000-0000-0000-000000000000')$$);
SELECT count(*) AS ids FROM registry.schema_ids_by_guid('00000000-0000-0000-0000-000000000000');

-- REST: GET /schemas/guids/{guid} is a SchemaString without subject or version
SELECT status, (response::jsonb - 'ts') = jsonb_build_object('guid', :'g', 'schemaType', 'AVRO',
		'schema', '{"type":"record","name":"G","fields":[{"name":"a","type":"int"}]}') AS schema_string,
	   jsonb_typeof(response::jsonb->'ts') AS ts
  FROM registry.rest('GET', '/schemas/guids/' || :'g');
SELECT status, response::jsonb = jsonb_build_array(jsonb_build_object('context', '.', 'id', :ga),
		jsonb_build_object('context', '.guid', 'id', :gb)) AS ids
  FROM registry.rest('GET', '/schemas/guids/' || :'g' || '/ids');
SELECT pg_temp.r('GET', '/schemas/guids/00000000-0000-0000-0000-000000000000');
SELECT pg_temp.r('GET', '/schemas/guids/00000000-0000-0000-0000-000000000000/ids');
SELECT pg_temp.r('GET', '/schemas/guids/not-a-guid');
SELECT pg_temp.r('GET', '/schemas/guids/not-a-guid/ids');
SELECT status, response::jsonb->>'error_code' AS error_code FROM registry.rest('GET', '/schemas/guids/' || upper(:'g'));
-- every answer about the schema carries the same guid
SELECT response::jsonb->>'guid' = :'g' AS by_id, jsonb_typeof(response::jsonb->'ts') AS ts,
	   response::jsonb ? 'subject' AS has_subject, response::jsonb ? 'deleted' AS has_deleted
  FROM registry.rest('GET', '/schemas/ids/' || :ga);
SELECT response::jsonb->>'guid' = :'g' AS by_version, jsonb_typeof(response::jsonb->'ts') AS ts,
	   response::jsonb->'deleted' AS deleted
  FROM registry.rest('GET', '/subjects/guid-a/versions/1');
SELECT response::jsonb->>'guid' = :'g' AS lookup, jsonb_typeof(response::jsonb->'ts') AS ts,
	   response::jsonb ? 'deleted' AS has_deleted
  FROM registry.rest('POST', '/subjects/guid-a', NULL,
	'{"schema":"{\"type\":\"record\",\"name\":\"G\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}"}');
SELECT response::jsonb->0->>'guid' = :'g' AS listed, response::jsonb->0->'deleted' AS deleted
  FROM registry.rest('GET', '/schemas', 'subjectPrefix=guid-a');
SELECT response::jsonb->>'guid' = :'g' AS registered, jsonb_typeof(response::jsonb->'ts') AS ts,
	   response::jsonb->'deleted' AS deleted
  FROM registry.rest('POST', '/subjects/guid-c/versions', NULL,
	'{"schema":"{\"type\":\"record\",\"name\":\"G\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}"}');
-- ts is when the version was registered, in ms
SELECT (response::jsonb->>'ts')::bigint = floor(extract(epoch FROM sv.created_at) * 1000)::bigint AS ts_is_created_at
  FROM registry.rest('GET', '/subjects/guid-c/versions/1'),
	   registry.subject_versions sv WHERE sv.context = '.' AND sv.subject = 'guid-c' AND sv.version = 1;

-- GET /schemas/ids/{id}?subject=: the subject's latest version with the id
SELECT registry.register_schema('guid-a',
	'{"type":"record","name":"G","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}') > 0 AS v2;
SELECT registry.delete_version('guid-a', '1');
SELECT registry.register_schema('guid-a', '{"type":"record","name":"G","fields":[{"name":"a","type":"int"}]}') = :ga AS v3_same_id;
SELECT subject, version, deleted, id = :ga AS id FROM registry.schema_by_id(:ga, 'guid-a');
SELECT response::jsonb->'subject' AS subject, response::jsonb->'version' AS version, response::jsonb->'deleted' AS deleted
  FROM registry.rest('GET', '/schemas/ids/' || :ga, 'subject=guid-a');
-- a soft-deleted version is still the one named, deleted
SELECT registry.delete_version('guid-a', '3');
SELECT response::jsonb->'subject' AS subject, response::jsonb->'version' AS version, response::jsonb->'deleted' AS deleted
  FROM registry.rest('GET', '/schemas/ids/' || :ga, 'subject=guid-a');
-- an unqualified subject without the id: a version of the default context that has it
SELECT subject, version FROM registry.schema_by_id(:ga, 'guid-nobody');
-- an unqualified subject of another context: found there, with that context's schema
SELECT subject, version, context, guid = :'g' AS same_guid FROM registry.schema_by_id(:gb, 'b');
-- a context: a version of it that has the id
SELECT subject, version FROM registry.schema_by_id(:gb, ':.guid:');
-- a qualified subject without the id: 40403, as Confluent
SELECT regress.try(format('SELECT registry.schema_by_id(%s, %L)', :gb, ':.guid:nobody'));
SELECT pg_temp.r('GET', '/schemas/ids/' || :gb, 'subject=:.guid:nobody');

-- PUT /config answers the scope's configuration as stored after it (8.x)
SELECT pg_temp.r('PUT', '/config/guid-a', NULL, '{"compatibility":"full"}');
SELECT pg_temp.r('PUT', '/config/guid-a', NULL, '{}');
SELECT pg_temp.r('PUT', '/config/guid-a', NULL, '{"normalize":true}');
SELECT pg_temp.r('GET', '/config/guid-a');
SELECT pg_temp.r('DELETE', '/config/guid-a');
SELECT (registry.rest('PUT', '/config', NULL, '{}')).response::jsonb =
	COALESCE((SELECT c.settings || jsonb_strip_nulls(jsonb_build_object('compatibility', c.compatibility, 'normalize', c."normalize"))
				FROM registry.config c WHERE c.context = '.' AND c.subject = ''), '{}') AS global_as_stored;

-- empty schemas: Java's trim() leaves nothing, so no schema at all
SELECT regress.counts() AS before_empty_schemas \gset
SELECT regress.try($$SELECT registry.lookup_schema('guid-c', '')$$);
SELECT regress.try($$SELECT registry.lookup_schema('guid-c', E' \n\t\r ')$$);
SELECT regress.try($$SELECT registry.lookup_schema('guid-nobody', '')$$);
SELECT regress.try($$SELECT registry.register_schema('guid-new', E' \n ')$$);
SELECT pg_temp.r('POST', '/subjects/guid-c', NULL, '{"schema":""}');
SELECT pg_temp.r('POST', '/subjects/guid-c', NULL, '{"schema":" \n\t "}');
SELECT pg_temp.r('POST', '/subjects/guid-c', NULL, '{}');
SELECT pg_temp.r('POST', '/subjects/guid-nobody', NULL, '{"schema":""}');
SELECT pg_temp.r('POST', '/subjects/guid-new/versions', NULL, '{"schema":" \n "}');
SELECT pg_temp.r('POST', '/subjects/guid-new/versions', NULL, '{"schema":""}');
SELECT pg_temp.r('POST', '/compatibility/subjects/guid-c/versions/latest', NULL, '{"schema":" "}');
SELECT regress.counts() = :'before_empty_schemas' AS empty_schemas_changed_nothing;
