-- 043_audit_rows.sql: an audit row's before and after are the row written,
-- its columns by name as row_to_json gives them (a version row with its
-- schema's type and guid, a schema row as its id, type and guid), whichever
-- way audit.c builds them.
BEGIN;
SELECT plan(10);

SELECT registry.register_schema('au', '{"type":"record","name":"A","fields":[{"name":"a","type":"int"}]}');
SELECT registry.register_schema('au', '{"type":"record","name":"A","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":"x\"y"}]}');
SELECT registry.register_schema(':.au-ctx:au', '"string"');
SELECT registry.set_compatibility('FULL', 'au');
SELECT (registry.rest('PUT', '/config/au', NULL,
	'{"compatibility":"FULL","normalize":true,"defaultMetadata":{"properties":{"owner":"t\u00e9am"}}}')).status;
SELECT registry.set_mode('READWRITE', 'au');
SELECT registry.delete_version('au', '1');

-- the rows the registry wrote, as they stand, as the audit shows them
CREATE TEMP VIEW audited AS
SELECT a.id, a.operation, a.context, a.before, a.after FROM registry.audit a
 WHERE a.context IN ('.', '.au-ctx') AND (a.subject LIKE 'au%' OR a.subject IS NULL);

SELECT cmp_ok((SELECT count(*)::integer FROM audited WHERE operation = 'version.register'), '>=', 3,
	'the registrations were audited');
SELECT is_empty($$
	SELECT a.id FROM audited a
	  LEFT JOIN registry.subject_versions sv ON sv.context = (a.after->>'context') AND sv.subject = (a.after->>'subject')
	   AND sv.version = (a.after->>'version')::integer
	  LEFT JOIN registry.schemas s ON s.context = sv.context AND s.id = sv.schema_id
	 WHERE a.operation = 'version.register'
	   AND a.after IS DISTINCT FROM (row_to_json(sv)::jsonb - 'deleted' || jsonb_build_object('deleted', false)
	                                 || jsonb_build_object('schemaType', s.schema_type, 'guid', s.guid))$$,
	'a registered version''s after is its row with its schema''s type and guid');
SELECT is((SELECT count(*)::integer FROM audited a WHERE a.operation = 'version.register' AND a.before IS NULL),
	(SELECT count(*)::integer FROM audited a WHERE a.operation = 'version.register'),
	'and has no before');
SELECT is_empty($$
	SELECT a.id FROM audited a
	  JOIN registry.subject_versions sv ON sv.context = '.' AND sv.subject = 'au' AND sv.version = 1
	  JOIN registry.schemas s ON s.context = sv.context AND s.id = sv.schema_id
	 WHERE a.operation = 'version.soft_delete'
	   AND (a.after IS DISTINCT FROM (row_to_json(sv)::jsonb || jsonb_build_object('schemaType', s.schema_type, 'guid', s.guid))
	     OR a.before IS DISTINCT FROM (row_to_json(sv)::jsonb || jsonb_build_object('deleted', false, 'schemaType', s.schema_type, 'guid', s.guid)))$$,
	'a soft delete''s before and after are the row, with its schema''s type and guid');
SELECT is((SELECT count(*)::integer FROM audited WHERE operation = 'version.soft_delete'), 1,
	'the soft delete was audited once');
SELECT is_empty($$
	SELECT a.id FROM audited a
	  LEFT JOIN registry.schemas s ON s.context = a.context AND s.id = (a.after->>'id')::integer
	 WHERE a.operation = 'schema.create'
	   AND a.after IS DISTINCT FROM jsonb_build_object('id', s.id, 'schemaType', s.schema_type, 'guid', s.guid)$$,
	'a new schema''s after is its id, type and guid');
SELECT cmp_ok((SELECT count(*)::integer FROM audited WHERE operation = 'schema.create'), '>=', 3,
	'the new schemas were audited');
SELECT is((SELECT a.after FROM audited a WHERE a.operation = 'config.set' ORDER BY a.id DESC LIMIT 1),
	(SELECT row_to_json(c)::jsonb FROM registry.config c WHERE c.context = '.' AND c.subject = 'au'),
	'a config row (with its jsonb settings and times) is its row_to_json');
SELECT is((SELECT a.after FROM audited a WHERE a.operation = 'mode.set' ORDER BY a.id DESC LIMIT 1),
	(SELECT row_to_json(m)::jsonb FROM registry.modes m WHERE m.context = '.' AND m.subject = 'au'),
	'a mode row is its row_to_json');
SELECT is((SELECT a.after FROM registry.audit a WHERE a.operation = 'subject.create' AND a.context = '.' AND a.subject = 'au'),
	(SELECT row_to_json(s)::jsonb FROM registry.subjects s WHERE s.context = '.' AND s.subject = 'au'),
	'a subject row is its row_to_json');

SELECT * FROM finish();
ROLLBACK;
