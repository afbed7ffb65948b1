-- The REST API through registry.rest(): every route, status codes, Confluent error bodies.
\set SHOW_CONTEXT never
CREATE FUNCTION pg_temp.r(method text, path text, query text DEFAULT NULL, body text DEFAULT NULL,
	ct text DEFAULT NULL, accept text DEFAULT NULL) RETURNS text LANGUAGE sql AS $$
	SELECT status || ' ' || response FROM regress.rest(method, path, query, body, ct, accept)
$$;
SELECT pg_temp.r('GET', '/');
SELECT pg_temp.r('POST', '/');
SELECT pg_temp.r('GET', '/schemas/types');
SELECT pg_temp.r('GET', '/v1/metadata/version');

-- register, dedup, versions
SELECT pg_temp.r('POST', '/subjects/rest-orders/versions', NULL,
	'{"schema":"{\"type\":\"record\",\"name\":\"O\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}"}');
SELECT pg_temp.r('POST', '/subjects/rest-orders/versions', NULL,
	'{"schema":"{ \"type\" : \"record\", \"name\" : \"O\", \"fields\" : [ {\"name\":\"id\",\"type\":{\"type\":\"long\"}} ] }", "schemaType":"AVRO", "unknownField": 1}',
	'application/vnd.schemaregistry.v1+json');
SELECT pg_temp.r('POST', '/subjects/rest-orders/versions', NULL,
	'{"schema":"{\"type\":\"record\",\"name\":\"O\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"n\",\"type\":\"string\",\"default\":\"\"}]}"}',
	'application/json');
SELECT pg_temp.r('POST', '/subjects/rest-orders/versions', NULL, '{"schema":"\"string\""}', 'application/octet-stream');
SELECT pg_temp.r('GET', '/subjects/rest-orders/versions');
SELECT pg_temp.r('GET', '/subjects/rest-orders/versions/latest');
SELECT pg_temp.r('GET', '/subjects/rest-orders/versions/-1');
SELECT pg_temp.r('GET', '/subjects/rest-orders/versions/1/schema');
SELECT pg_temp.r('GET', '/subjects', 'subjectPrefix=rest-');
SELECT pg_temp.r('GET', '/schemas', 'subjectPrefix=rest-');
SELECT pg_temp.r('GET', '/schemas', 'subjectPrefix=rest-&latestOnly=true');
SELECT pg_temp.r('GET', '/schemas', 'subjectPrefix=rest-&offset=1&limit=1');
SELECT pg_temp.r('GET', '/schemas/ids/1');
SELECT pg_temp.r('GET', '/schemas/ids/1', 'fetchMaxId=true');
SELECT pg_temp.r('GET', '/schemas/ids/1/schema');
SELECT pg_temp.r('GET', '/schemas/ids/1/subjects');
SELECT pg_temp.r('GET', '/schemas/ids/1/versions');
-- lookup
SELECT pg_temp.r('POST', '/subjects/rest-orders', NULL,
	'{"schema":"{\"type\":\"record\",\"name\":\"O\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}"}');
SELECT pg_temp.r('POST', '/subjects/rest-orders', NULL, '{"schema":"\"int\""}');
SELECT pg_temp.r('POST', '/subjects/rest-none', NULL, '{"schema":"\"int\""}');

-- compatibility
SELECT pg_temp.r('POST', '/compatibility/subjects/rest-orders/versions/latest', NULL,
	'{"schema":"{\"type\":\"record\",\"name\":\"O\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"x\",\"type\":\"int\"}]}"}');
SELECT pg_temp.r('POST', '/compatibility/subjects/rest-orders/versions/latest', 'verbose=true',
	'{"schema":"{\"type\":\"record\",\"name\":\"O\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"x\",\"type\":\"int\"}]}"}');
SELECT pg_temp.r('POST', '/compatibility/subjects/rest-orders/versions', 'verbose=true',
	'{"schema":"{\"type\":\"record\",\"name\":\"O\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}"}');
SELECT pg_temp.r('POST', '/compatibility/subjects/rest-orders/versions/9', NULL, '{"schema":"\"int\""}');
SELECT pg_temp.r('POST', '/compatibility/subjects/rest-nobody/versions/latest', NULL, '{"schema":"\"int\""}');
SELECT pg_temp.r('POST', '/compatibility/subjects/rest-orders/versions/latest', 'verbose=true', '{"schema":"{\"type\":"}');
SELECT pg_temp.r('POST', '/subjects/rest-orders/versions', NULL,
	'{"schema":"{\"type\":\"record\",\"name\":\"O\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"x\",\"type\":\"int\"}]}"}');

-- config and mode
SELECT pg_temp.r('GET', '/config');
SELECT pg_temp.r('PUT', '/config/rest-orders', NULL, '{"compatibility":"forward_transitive"}');
SELECT pg_temp.r('GET', '/config/rest-orders');
SELECT pg_temp.r('GET', '/config/rest-other');
SELECT pg_temp.r('GET', '/config/rest-other', 'defaultToGlobal=true');
SELECT pg_temp.r('PUT', '/config/rest-orders', NULL, '{"compatibility":"SOMETIMES"}');
SELECT pg_temp.r('DELETE', '/config/rest-orders');
SELECT pg_temp.r('DELETE', '/config/rest-orders');
SELECT pg_temp.r('GET', '/mode');
SELECT pg_temp.r('GET', '/mode/rest-orders');
SELECT pg_temp.r('GET', '/mode/rest-orders', 'defaultToGlobal=true');
SELECT pg_temp.r('PUT', '/mode/rest-orders', NULL, '{"mode":"READONLY"}');
SELECT pg_temp.r('POST', '/subjects/rest-orders/versions', NULL, '{"schema":"\"bytes\""}');
SELECT pg_temp.r('DELETE', '/subjects/rest-orders/versions/1');
SELECT pg_temp.r('PUT', '/mode/rest-orders', NULL, '{"mode":"WRITEONLY"}');
SELECT pg_temp.r('PUT', '/mode/rest-orders', NULL, '{}');
SELECT pg_temp.r('DELETE', '/mode/rest-orders');
SELECT pg_temp.r('DELETE', '/mode/rest-orders');

-- delete
SELECT pg_temp.r('DELETE', '/subjects/rest-orders/versions/1', 'permanent=true');
SELECT pg_temp.r('DELETE', '/subjects/rest-orders/versions/1');
SELECT pg_temp.r('DELETE', '/subjects/rest-orders/versions/1');
SELECT pg_temp.r('GET', '/subjects/rest-orders/versions', 'deleted=true');
SELECT pg_temp.r('GET', '/subjects/rest-orders/versions', 'deletedOnly=true');
SELECT pg_temp.r('DELETE', '/subjects/rest-orders', 'permanent=true');
SELECT pg_temp.r('DELETE', '/subjects/rest-orders');
SELECT pg_temp.r('DELETE', '/subjects/rest-orders');
SELECT pg_temp.r('GET', '/subjects/rest-orders/versions');
SELECT pg_temp.r('DELETE', '/subjects/rest-orders', 'permanent=true');
SELECT pg_temp.r('GET', '/subjects/rest-orders/versions', 'deleted=true');

-- contexts
SELECT pg_temp.r('POST', '/subjects/:.rest-ctx:events/versions', NULL, '{"schema":"\"bytes\""}');
SELECT pg_temp.r('POST', '/contexts/.rest-ctx/subjects/more/versions', NULL, '{"schema":"\"double\""}');
SELECT pg_temp.r('GET', '/contexts/.rest-ctx/subjects');
SELECT pg_temp.r('GET', '/contexts/.rest-ctx/schemas/ids/2');
SELECT pg_temp.r('GET', '/schemas/ids/2', 'subject=:.rest-ctx:');
SELECT pg_temp.r('GET', '/contexts');

-- references
SELECT pg_temp.r('POST', '/subjects/rest-money/versions', NULL, '{"schema":"{\"type\":\"fixed\",\"name\":\"Money\",\"size\":8}"}');
SELECT pg_temp.r('POST', '/subjects/rest-price/versions', NULL,
	'{"schema":"{\"type\":\"record\",\"name\":\"Price\",\"fields\":[{\"name\":\"m\",\"type\":\"Money\"}]}","references":[{"name":"Money","subject":"rest-money","version":1}]}');
SELECT pg_temp.r('GET', '/subjects/rest-money/versions/1/referencedby');
SELECT pg_temp.r('DELETE', '/subjects/rest-money/versions/1');

-- subjects with odd characters: an encoded slash stays in the name
SELECT pg_temp.r('POST', '/subjects/team%2Forders%20v1/versions', NULL, '{"schema":"\"int\""}');
SELECT pg_temp.r('GET', '/subjects/team%2Forders%20v1/versions/1');
SELECT pg_temp.r('POST', '/subjects/bad%01name/versions', NULL, '{"schema":"\"int\""}');

-- bad requests
SELECT pg_temp.r('GET', '/nothing/here');
SELECT pg_temp.r('PUT', '/subjects');
SELECT pg_temp.r('GET', '/schemas/ids/abc');
SELECT pg_temp.r('GET', '/schemas/ids/99999');
SELECT pg_temp.r('GET', '/subjects/rest-money/versions/abc');
SELECT pg_temp.r('GET', '/subjects/rest-money/versions/0');
SELECT pg_temp.r('GET', '/subjects/rest-money/versions/2');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{"schema":');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '[1,2]');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{}');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{"schema":{"type":"int"}}');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{"schema":"\"int\"","schemaType":"XML"}');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{"schema":"{\"type\":\"record\",\"name\":\"R\"}"}');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{"schema":"\"int\"","references":[{"name":"A","subject":"missing","version":1}]}');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{"schema":"\"int\"","id":"seven"}');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{"schema":"\"int\"","id":5}');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, '{"schema":"\"int\""}', 'text/plain');
SELECT pg_temp.r('GET', '/subjects', NULL, NULL, NULL, 'text/html');
SELECT pg_temp.r('GET', '/subjects', NULL, NULL, NULL, 'application/vnd.schemaregistry.v1+json, text/html');
SELECT pg_temp.r('POST', '/subjects/rest-x/versions', NULL, repeat('[', 5000) || repeat(']', 5000));
SELECT pg_temp.r('GET', '/subjects/rest-x/versions');
-- schemaType is matched exactly, as Confluent does: "avro" is refused and nothing is stored
SELECT pg_temp.r('POST', '/subjects/rest-case/versions', NULL, '{"schema":"\"int\"","schemaType":"avro"}');
SELECT pg_temp.r('POST', '/subjects/rest-case/versions', NULL, '{"schema":"syntax = \"proto3\"; message C { }","schemaType":"Protobuf"}');
SELECT pg_temp.r('GET', '/subjects/rest-case/versions');
-- a compatibility check against a version of a subject that does not exist: 40402, as Confluent
SELECT pg_temp.r('POST', '/compatibility/subjects/rest-nosuch/versions/1', NULL, '{"schema":"\"int\""}');
SELECT pg_temp.r('POST', '/compatibility/subjects/rest-nosuch/versions/latest', NULL, '{"schema":"\"int\""}');
-- lookup finds a schema registered with metadata: with the same metadata, and without any
-- (the latest version's metadata applied, as Confluent does); other metadata is another schema
SELECT pg_temp.r('POST', '/subjects/rest-meta/versions', NULL, '{"schema":"\"int\"","metadata":{"properties":{"owner":"bob"}}}');
SELECT pg_temp.r('POST', '/subjects/rest-meta', NULL, '{"schema":"\"int\"","metadata":{"properties":{"owner":"bob"}}}');
SELECT pg_temp.r('POST', '/subjects/rest-meta', NULL, '{"schema":"\"int\""}');
SELECT pg_temp.r('POST', '/subjects/rest-meta', NULL, '{"schema":"\"int\"","metadata":{"properties":{"owner":"alice"}}}');
SELECT version, metadata FROM registry.lookup_schema('rest-meta', '"int"', metadata => '{"properties":{"owner":"bob"}}');
SELECT version, metadata FROM registry.lookup_schema('rest-meta', '"int"');
-- GET /subjects/{s}/metadata: the latest version whose metadata properties hold every pair
SELECT pg_temp.r('POST', '/subjects/rest-meta/versions', NULL, '{"schema":"\"long\"","metadata":{"properties":{"owner":"bob","team":"b"}}}');
SELECT pg_temp.r('GET', '/subjects/rest-meta/metadata', 'key=owner&value=bob');
SELECT pg_temp.r('GET', '/subjects/rest-meta/metadata', 'key=owner&value=bob&key=team&value=b');
SELECT pg_temp.r('GET', '/subjects/rest-meta/metadata', 'key=team&value=a');
SELECT pg_temp.r('GET', '/subjects/rest-nometa/metadata', 'key=owner&value=bob');
SELECT version FROM registry.latest_with_metadata('rest-meta', '{"owner":"bob"}');
-- answers write strings as PostgreSQL's own JSON escaping (to_json) does,
-- byte for byte: quotes, backslashes and non-ASCII text in a schema's
-- text, every control character in an error message
SELECT status FROM registry.rest('POST', '/subjects/rest-esc/versions', NULL,
       '{"schema":"{\"type\":\"record\",\"name\":\"Esc\",\"doc\":\"q\\\" b\\\\\\\\ ü ☃ \\\\u0001 \\\\t\",\"fields\":[]}"}');
SELECT status, (response::jsonb)->>'schema' ~ '"q\\" b\\\\\\\\ ü ☃' AS kept,
       strpos(response, to_json((response::jsonb)->>'schema')::text) > 0 AS schema_escaped
  FROM registry.rest('GET', '/subjects/rest-esc/versions/latest');
SELECT status, (response::jsonb)->>'message' ~ E'\x01' AS control_kept,
       strpos(response, to_json((response::jsonb)->>'message')::text) > 0 AS message_escaped
  FROM registry.rest('GET', '/subjects/' || 'esc' || (SELECT string_agg(chr(c), '' ORDER BY c) FROM generate_series(1, 31) c) || '"\ü' || '/versions');
