-- GET /schemas by association (Confluent 8.2+): resourceType,
-- associationType (repeated) and lifecycle (repeated; NONE: a subject
-- without one) keep the subjects that pass, each listed with its
-- associations that do; without them the listing is as before.
\set SHOW_CONTEXT never
-- each schema a listing answers: subject/version, then its associations'
-- type:lifecycle:resource in brackets when it has the member
CREATE FUNCTION pg_temp.listed(query text) RETURNS text LANGUAGE sql AS $$
	SELECT r.status || ' ' || COALESCE(string_agg(format('%s/%s%s', e->>'subject', e->>'version',
			(SELECT '[' || string_agg(format('%s:%s:%s', a->>'associationType', a->>'lifecycle',
											 a->>'resourceName'), ' ') || ']'
			   FROM jsonb_array_elements(e->'associations') a)), ' ' ORDER BY o)
		FILTER (WHERE e IS NOT NULL), '(none)')
	  FROM registry.rest('GET', '/schemas', query) r
	  LEFT JOIN LATERAL jsonb_array_elements(CASE WHEN r.status = 200 THEN r.response::jsonb END)
		   WITH ORDINALITY AS x(e, o) ON true
	 GROUP BY r.status
$$;

-- a topic's key (WEAK) and value (STRONG); another topic's value (WEAK),
-- whose subject has two versions; a subject with no association
SELECT registry.register_schema('ba-k', '{"type":"record","name":"K","fields":[{"name":"k","type":"int"}]}') > 0 AS registered;
SELECT registry.register_schema('ba-v', '{"type":"record","name":"V","fields":[{"name":"v","type":"int"}]}') > 0 AS registered;
SELECT registry.register_schema('ba-w', '{"type":"record","name":"W","fields":[{"name":"w","type":"int"}]}') > 0 AS registered;
SELECT registry.register_schema('ba-w', '{"type":"record","name":"W","fields":[{"name":"w","type":"int"},{"name":"x","type":"int","default":0}]}') > 0 AS registered;
SELECT registry.register_schema('ba-z', '"string"') > 0 AS registered;
SELECT registry.create_association('{"resourceName":"ba-t1","resourceNamespace":"lkc-ba","resourceId":"ba-r1",
	"associations":[{"subject":"ba-k","associationType":"key"},{"subject":"ba-v","lifecycle":"STRONG"}]}') IS NOT NULL AS created;
SELECT registry.create_association('{"resourceName":"ba-t2","resourceNamespace":"lkc-ba","resourceId":"ba-r2",
	"associations":[{"subject":"ba-w"}]}') IS NOT NULL AS created;

-- no association parameter: every version, without the member
SELECT pg_temp.listed('subjectPrefix=ba-');
-- associationType, repeated: the subjects with one of those types
SELECT pg_temp.listed('subjectPrefix=ba-&associationType=key');
SELECT pg_temp.listed('subjectPrefix=ba-&associationType=value');
SELECT pg_temp.listed('subjectPrefix=ba-&associationType=key&associationType=value');
-- resourceType alone: the subjects with an association of that type
SELECT pg_temp.listed('subjectPrefix=ba-&resourceType=topic');
SELECT pg_temp.listed('subjectPrefix=ba-&resourceType=table');
-- lifecycle, repeated; NONE is a subject with no association of the
-- resource and association types asked for
SELECT pg_temp.listed('subjectPrefix=ba-&lifecycle=STRONG');
SELECT pg_temp.listed('subjectPrefix=ba-&lifecycle=WEAK');
SELECT pg_temp.listed('subjectPrefix=ba-&lifecycle=NONE');
SELECT pg_temp.listed('subjectPrefix=ba-&lifecycle=WEAK&lifecycle=NONE');
SELECT pg_temp.listed('subjectPrefix=ba-&lifecycle=STRONG&lifecycle=WEAK');
SELECT pg_temp.listed('subjectPrefix=ba-&associationType=key&lifecycle=NONE');
SELECT pg_temp.listed('subjectPrefix=ba-&resourceType=table&lifecycle=NONE');
-- empty values are not given; a lifecycle of another name is Jersey's 404
SELECT pg_temp.listed('subjectPrefix=ba-&associationType=&lifecycle=&resourceType=');
SELECT status, response FROM registry.rest('GET', '/schemas', 'subjectPrefix=ba-&lifecycle=weak');
-- with latestOnly, and paged after the filter
SELECT pg_temp.listed('subjectPrefix=ba-&associationType=value&latestOnly=true');
SELECT pg_temp.listed('subjectPrefix=ba-&associationType=value&offset=1&limit=1');
-- the member holds Association entities, after the schema's members
SELECT e - 'schema' - 'guid' - 'ts' - 'id' AS listed
  FROM registry.rest('GET', '/schemas', 'subjectPrefix=ba-k&associationType=key') r,
	   jsonb_array_elements(r.response::jsonb) e;
SELECT (SELECT array_agg(k ORDER BY n) FROM json_object_keys(e) WITH ORDINALITY AS o(k, n)) AS member_order
  FROM registry.rest('GET', '/schemas', 'subjectPrefix=ba-k&associationType=key') r,
	   json_array_elements(r.response::json) e;
-- the SQL function: the same rows and associations, unpaged
SELECT (v).subject, (v).version, jsonb_path_query_array(a, '$[*].associationType') AS types
  FROM registry.list_schemas_by_association('ba-', association_types => '{value}') AS x(v, a);
SELECT (v).subject, (v).version, a
  FROM registry.list_schemas_by_association('ba-', lifecycles => '{NONE,STRONG}', latest_only => true) AS x(v, a);
SELECT count(*) AS any_association FROM registry.list_schemas_by_association('ba-');
SELECT regress.try($$SELECT * FROM registry.list_schemas_by_association('ba-', lifecycles => '{weak}')$$);
-- a NULL element is no wildcard: 22004
SELECT regress.try($$SELECT * FROM registry.list_schemas_by_association('ba-', association_types => '{NULL}')$$);
SELECT regress.try($$SELECT * FROM registry.list_schemas_by_association('ba-', lifecycles => '{STRONG,NULL}')$$);
-- the soft-deleted versions of an associated subject, with deleted
SELECT registry.delete_version('ba-w', '2') AS soft_deleted;
SELECT pg_temp.listed('subjectPrefix=ba-w&associationType=value');
SELECT pg_temp.listed('subjectPrefix=ba-w&associationType=value&deleted=true');

DELETE FROM registry.associations WHERE resource_id IN ('ba-r1', 'ba-r2');
SELECT count(*) AS soft_deleted FROM unnest('{ba-k,ba-v,ba-w,ba-z}'::text[]) s, registry.delete_subject(s);
SELECT count(*) AS hard_deleted FROM unnest('{ba-k,ba-v,ba-w,ba-z}'::text[]) s, registry.delete_subject(s, true);
