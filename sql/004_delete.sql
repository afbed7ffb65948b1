-- Soft and hard delete, version numbering, references protection.
\set SHOW_CONTEXT never
SELECT registry.set_compatibility('NONE', 'd-a');
SELECT registry.register_schema('d-a', '"int"') AS id_int \gset
SELECT registry.register_schema('d-a', '"long"') AS id_long \gset
SELECT registry.register_schema('d-a', '"string"') AS id_string \gset

-- soft delete of one version: hidden from reads, number kept
SELECT registry.delete_version('d-a', '2');
SELECT * FROM registry.versions('d-a');
SELECT * FROM registry.versions('d-a', deleted => true);
SELECT * FROM registry.versions('d-a', deleted_only => true);
SELECT regress.try($$SELECT registry.get_version('d-a', '2')$$);
SELECT version, schema, deleted FROM registry.get_version('d-a', '2', deleted => true);
SELECT regress.try($$SELECT registry.delete_version('d-a', '2')$$);
-- the schema stays resolvable by id
SELECT schema FROM registry.schema_by_id(:id_long);
-- re-registering a soft-deleted schema: same id, a new version number
SELECT * FROM registry.register_schema_version('d-a', '"long"');
SELECT * FROM registry.versions('d-a');
-- hard delete needs a soft delete first
SELECT regress.try($$SELECT registry.delete_version('d-a', '1', permanent => true)$$);
SELECT registry.delete_version('d-a', '2', permanent => true);
SELECT * FROM registry.versions('d-a', deleted => true);
-- the id is still used by version 4
SELECT schema FROM registry.schema_by_id(:id_long);
SELECT regress.try($$SELECT registry.delete_version('d-a', '2', permanent => true)$$);
SELECT regress.try($$SELECT registry.delete_version('d-a', '9')$$);
SELECT regress.try($$SELECT registry.delete_version('no-such', '1')$$);
SELECT regress.try($$SELECT registry.delete_version('d-a', 'zero')$$);
-- 'latest' deletes the newest live version
SELECT registry.delete_version('d-a', 'latest');
SELECT * FROM registry.versions('d-a');

-- subject delete: soft, then hard
SELECT regress.try($$SELECT registry.delete_subject('d-a', permanent => true)$$);
SELECT * FROM registry.delete_subject('d-a');
SELECT regress.try($$SELECT registry.delete_subject('d-a')$$);
SELECT regress.try($$SELECT registry.versions('d-a')$$);
SELECT * FROM registry.subjects() WHERE subjects = 'd-a';
SELECT * FROM registry.subjects(deleted => true) WHERE subjects = 'd-a';
SELECT * FROM registry.subjects(deleted_only => true) WHERE subjects = 'd-a';
-- config and mode survive a soft delete
SELECT registry.get_compatibility('d-a', false);
-- after a soft delete of everything, numbering continues
SELECT * FROM registry.register_schema_version('d-a', '"int"');
SELECT registry.delete_version('d-a', '5');
SELECT * FROM registry.delete_subject('d-a', permanent => true);
SELECT regress.try($$SELECT registry.delete_subject('d-a')$$);
-- a hard-deleted subject loses its config, and its unused schemas are gone
SELECT regress.try($$SELECT registry.get_compatibility('d-a', false)$$);
SELECT regress.try(format('SELECT registry.schema_by_id(%s)', :id_string));
-- numbering restarts at 1 only after every version was hard-deleted
SELECT * FROM registry.register_schema_version('d-a', '"int"');

-- references: a referenced version cannot be deleted
SELECT registry.register_schema('d-addr', '{"type":"record","name":"Address","namespace":"geo","fields":[{"name":"street","type":"string"}]}');
SELECT registry.register_schema('d-user',
	'{"type":"record","name":"User","namespace":"geo","fields":[{"name":"home","type":"Address"}]}',
	'AVRO', '[{"name":"geo.Address","subject":"d-addr","version":1}]') AS user_id \gset
SELECT * FROM registry.referenced_by('d-addr', '1');
SELECT regress.try($$SELECT registry.delete_version('d-addr', '1')$$);
SELECT regress.try($$SELECT registry.delete_subject('d-addr')$$);
-- once the referrer is soft-deleted it protects nothing, as in Confluent: the
-- referenced version can be soft- and then hard-deleted
SELECT registry.delete_subject('d-user');
SELECT registry.delete_version('d-addr', '1');
SELECT registry.delete_version('d-addr', '1', permanent => true);
SELECT count(*) AS referenced_versions_left FROM registry.subject_versions WHERE subject = 'd-addr';
SELECT registry.delete_subject('d-user', permanent => true);
SELECT count(*) AS references_left FROM registry.schema_references;
