/*
 * registry--0.6--0.7.sql: from 0.6 to 0.7.
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION registry UPDATE TO '0.7'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- Associations (Confluent 8.2+, issue 32 part 2): a Kafka resource (a topic,
-- named by its cluster id as namespace and its name, identified by its
-- resource id) tied to the subject of its key and of its value.  The rules
-- are the BEFORE trigger's (src/pg/association_triggers.c); the operations
-- are C services (src/pg/association_service.c) that the REST routes call
-- and these SQL functions wrap.
-- ---------------------------------------------------------------------------

CREATE TABLE registry.associations (
	resource_type		text NOT NULL,
	resource_id			text NOT NULL,
	association_type	text NOT NULL,
	resource_name		text NOT NULL,
	resource_namespace	text NOT NULL,
	context				text NOT NULL,
	subject				text NOT NULL,
	lifecycle			text NOT NULL,
	frozen				boolean NOT NULL DEFAULT false,
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.now(),
	updated_at			timestamptz NOT NULL DEFAULT pg_catalog.now(),
	CONSTRAINT associations_pkey PRIMARY KEY (resource_type, resource_id, association_type)
);
CREATE INDEX associations_resource_name_idx
	ON registry.associations (resource_name, resource_namespace);
CREATE INDEX associations_subject_idx ON registry.associations (context, subject);
COMMENT ON TABLE registry.associations IS 'associations of a resource (a Kafka topic) with the subjects of its key and value (Confluent 8.2+)';
COMMENT ON COLUMN registry.associations.resource_namespace IS 'the Kafka cluster id the topic lives in, as clients name it';
COMMENT ON COLUMN registry.associations.lifecycle IS 'STRONG (the subject lives and dies with the resource: deleting with cascadeLifecycle deletes it) or WEAK';
COMMENT ON COLUMN registry.associations.frozen IS 'a frozen association is never changed; only a delete with cascadeLifecycle removes it';
SELECT pg_catalog.pg_extension_config_dump('registry.associations', '');

CREATE FUNCTION registry.associations_before_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_associations_before_write'
	LANGUAGE C;
COMMENT ON FUNCTION registry.associations_before_write() IS 'an association is written in a writable scope, names a live subject, is exclusive when STRONG, never changes when frozen; it gets its times';
CREATE TRIGGER associations_before_write BEFORE INSERT OR UPDATE OR DELETE ON registry.associations
	FOR EACH ROW EXECUTE FUNCTION registry.associations_before_write();
CREATE TRIGGER audit_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.associations
	FOR EACH ROW EXECUTE FUNCTION registry.audit_row('association');
CREATE TRIGGER audit_after_truncate AFTER TRUNCATE ON registry.associations
	FOR EACH STATEMENT EXECUTE FUNCTION registry.audit_truncate('association');

CREATE FUNCTION registry.associations_by_subject(subject text, resource_type text DEFAULT NULL,
		association_types text[] DEFAULT NULL, lifecycle text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_associations_by_subject_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.associations_by_subject(text, text, text[], text)
	IS 'the associations of a subject, as GET /associations/subjects/{subject} answers';
CREATE FUNCTION registry.associations_by_resource_name(resource_name text, resource_namespace text,
		resource_type text DEFAULT NULL, association_types text[] DEFAULT NULL,
		lifecycle text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_associations_by_resource_name_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.associations_by_resource_name(text, text, text, text[], text)
	IS 'the associations of a resource by namespace ("-": any) and name, as GET /associations/resources/{namespace}/{name} answers';
CREATE FUNCTION registry.associations_by_resource_id(resource_id text, resource_type text DEFAULT NULL,
		association_types text[] DEFAULT NULL, lifecycle text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_associations_by_resource_id_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.associations_by_resource_id(text, text, text[], text)
	IS 'the associations of a resource by id, as GET /associations/resources/{id} answers';
CREATE FUNCTION registry.create_association(request jsonb, dry_run boolean DEFAULT false,
		context text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_create_association_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.create_association(jsonb, boolean, text)
	IS 'POST /associations: creates the associations of an AssociationCreateOrUpdateRequest (registering a schema it carries), refusing one that exists';
CREATE FUNCTION registry.upsert_association(resource_id text, request jsonb,
		dry_run boolean DEFAULT false, context text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_upsert_association_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.upsert_association(text, jsonb, boolean, text)
	IS 'PUT /associations/resources/{id}: creates or updates the associations of an AssociationCreateOrUpdateRequest';
CREATE FUNCTION registry.delete_associations(resource_id text, resource_type text DEFAULT NULL,
		association_types text[] DEFAULT NULL, cascade_lifecycle boolean DEFAULT false,
		dry_run boolean DEFAULT false)
	RETURNS void
	AS 'MODULE_PATHNAME', 'registry_delete_associations_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.delete_associations(text, text, text[], boolean, boolean)
	IS 'DELETE /associations/resources/{id}: deletes a resource''s associations; with cascade_lifecycle a frozen one too, and a STRONG one''s subject';
CREATE FUNCTION registry.batch_get_associations(request jsonb, include_schemas boolean DEFAULT false)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_batch_get_associations_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.batch_get_associations(jsonb, boolean)
	IS 'POST /associations:batchGet: the associations of each resource asked for';
CREATE FUNCTION registry.mutate_associations(request jsonb, dry_run boolean DEFAULT false,
		context text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_mutate_associations_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.mutate_associations(jsonb, boolean, text)
	IS 'POST /associations:batchMutate: CREATE, UPSERT and DELETE operations per resource, each resource on its own (one result or error each)';

-- readers read associations; writers make and delete them (as they register
-- and delete subjects: a STRONG association's cascade deletes its subject)
REVOKE ALL ON registry.associations FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION registry.associations_before_write(),
	registry.associations_by_subject(text, text, text[], text),
	registry.associations_by_resource_name(text, text, text, text[], text),
	registry.associations_by_resource_id(text, text, text[], text),
	registry.create_association(jsonb, boolean, text),
	registry.upsert_association(text, jsonb, boolean, text),
	registry.delete_associations(text, text, text[], boolean, boolean),
	registry.batch_get_associations(jsonb, boolean),
	registry.mutate_associations(jsonb, boolean, text) FROM PUBLIC;
GRANT SELECT ON registry.associations TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.associations_by_subject(text, text, text[], text),
	registry.associations_by_resource_name(text, text, text, text[], text),
	registry.associations_by_resource_id(text, text, text[], text),
	registry.batch_get_associations(jsonb, boolean) TO registry_reader;
GRANT INSERT, UPDATE, DELETE ON registry.associations TO registry_writer;
GRANT EXECUTE ON FUNCTION registry.create_association(jsonb, boolean, text),
	registry.upsert_association(text, jsonb, boolean, text),
	registry.delete_associations(text, text, text[], boolean, boolean),
	registry.mutate_associations(jsonb, boolean, text) TO registry_writer;
-- end of associations
