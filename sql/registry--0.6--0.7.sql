/*
 * registry--0.6--0.7.sql: from 0.6 to 0.7.
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION registry UPDATE TO '0.7'" to load this file. \quit

-- ---------------------------------------------------------------------------
-- CloudEvents envelopes (registry.cloudevent, registry.cloudevent_data)
-- ---------------------------------------------------------------------------
CREATE FUNCTION registry.cloudevent(subject text, value jsonb, type text, source text,
	version text DEFAULT 'latest', message text DEFAULT NULL, extensions jsonb DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_cloudevent'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.cloudevent(text, jsonb, text, text, text, text, jsonb)
	IS 'a CloudEvents 1.0 envelope (JSON format) of a value encoded as registry.encode encodes it: id, source, type, specversion, time, datacontenttype, dataschema (where the registry serves the schema), data (JSON Schema) or data_base64 (the wire-format message), and extension attributes';

CREATE FUNCTION registry.cloudevent_data(envelope jsonb)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_cloudevent_data'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.cloudevent_data(jsonb)
	IS 'the value of a CloudEvents envelope that registry.cloudevent made: data_base64 decoded with its writer''s schema, JSON data checked against the schema its dataschema names';

REVOKE ALL ON FUNCTION registry.cloudevent(text, jsonb, text, text, text, text, jsonb),
	registry.cloudevent_data(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.cloudevent(text, jsonb, text, text, text, text, jsonb),
	registry.cloudevent_data(jsonb) TO registry_reader;

-- The reads are C services (src/pg/schema_service.c, read_service.c) that the
-- SQL functions wrap as the REST routes call them: same signatures,
-- volatility and grants, no PL/pgSQL or SQL body
CREATE OR REPLACE FUNCTION registry.schema_by_id(id integer, subject text DEFAULT NULL)
	RETURNS registry.schema_info
	AS 'MODULE_PATHNAME', 'registry_schema_by_id_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.latest_with_metadata(subject text, properties jsonb, deleted boolean DEFAULT false)
	RETURNS registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_latest_with_metadata_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.referenced_by(subject text, version text DEFAULT 'latest')
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_referenced_by_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.schema_by_guid(guid uuid)
	RETURNS registry.schema_info
	AS 'MODULE_PATHNAME', 'registry_schema_by_guid_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.schema_ids_by_guid(guid uuid, OUT context text, OUT id integer)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_schema_ids_by_guid_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.list_schemas(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	latest_only boolean DEFAULT false)
	RETURNS SETOF registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_list_schemas_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.list_schemas_with_aliases(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	latest_only boolean DEFAULT false)
	RETURNS TABLE (schema_version registry.subject_version, aliases text[])
	AS 'MODULE_PATHNAME', 'registry_list_schemas_with_aliases_sql'
	LANGUAGE C STABLE;

CREATE OR REPLACE FUNCTION registry.schema_versions(id integer, subject text DEFAULT NULL, deleted boolean DEFAULT false,
	OUT subject_name text, OUT version integer)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_schema_versions_sql'
	LANGUAGE C STABLE;

-- registry.schemas.guid is computed by the C code's one function of it: the
-- generated column is made again over it (PostgreSQL 15 cannot change a
-- generation expression in place), still the table's last column
CREATE FUNCTION registry.fingerprint_guid(fingerprint bytea) RETURNS uuid
	AS 'MODULE_PATHNAME', 'registry_fingerprint_guid_sql'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.fingerprint_guid(bytea) IS 'Confluent''s guid of a schema from its fingerprint (the generated column registry.schemas.guid)';
REVOKE ALL ON FUNCTION registry.fingerprint_guid(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.fingerprint_guid(bytea) TO registry_reader;
ALTER TABLE registry.schemas DROP COLUMN guid;
ALTER TABLE registry.schemas ADD COLUMN guid uuid GENERATED ALWAYS AS (registry.fingerprint_guid(fingerprint)) STORED;
COMMENT ON COLUMN registry.schemas.guid IS 'the fingerprint as a UUID: Confluent''s guid of the schema, the same in every context that has it';

-- the references of a new schema as rows: C triggers (reference_triggers.c)
CREATE OR REPLACE FUNCTION registry.schemas_after_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schemas_after_insert'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
CREATE OR REPLACE FUNCTION registry.schema_references_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schema_references_before_insert'
	LANGUAGE C;

-- issue 33, item 3 (a lookup of the exact text without a parse): whether a
-- schema's stored text is shown to be its own stored form when parsed
-- without references, without normalize (parses_to_itself) and with it
-- (normalizes_to_itself).  The insert trigger sets both from the parse that
-- made the row, never from what an insert says; a row stored before 0.7
-- has neither, and a lookup of its text is parsed as before.
ALTER TABLE registry.schemas
	ADD COLUMN parses_to_itself boolean NOT NULL DEFAULT false,
	ADD COLUMN normalizes_to_itself boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN registry.schemas.parses_to_itself IS 'the schema text, parsed without normalize or references, gives itself back as its stored form (set by the insert trigger)';
COMMENT ON COLUMN registry.schemas.normalizes_to_itself IS 'the same, parsed with normalize (set by the insert trigger)';

-- ---------------------------------------------------------------------------
-- Search in SQL: every field of every live version (the field index, one
-- row of fields per schema, kept by a trigger), and references as a graph
-- ---------------------------------------------------------------------------

CREATE TABLE registry.schema_fields (
	context		text NOT NULL,
	id			integer NOT NULL,
	fields		jsonb NOT NULL,
	truncated	boolean NOT NULL DEFAULT false,
	PRIMARY KEY (context, id),
	FOREIGN KEY (context, id) REFERENCES registry.schemas (context, id) ON DELETE CASCADE
);
COMMENT ON TABLE registry.schema_fields IS 'the field index: every field each schema declares (path, name, record, type, doc, default, logical_type, tags), kept by a trigger on registry.schemas; rebuilt by registry.reindex_fields()';
COMMENT ON COLUMN registry.schema_fields.truncated IS 'the schema declares more fields than are listed (10,000)';
CREATE INDEX schema_fields_fields_idx ON registry.schema_fields USING gin (fields jsonb_path_ops);
SELECT pg_catalog.pg_extension_config_dump('registry.schema_fields', '');

CREATE FUNCTION registry.schema_fields_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schema_fields_before_insert'
	LANGUAGE C;
COMMENT ON FUNCTION registry.schema_fields_before_insert() IS 'a schema''s field index row is not inserted twice (a restore brings the row its schema''s insert wrote)';
CREATE TRIGGER schema_fields_before_insert BEFORE INSERT ON registry.schema_fields
	FOR EACH ROW EXECUTE FUNCTION registry.schema_fields_before_insert();

CREATE FUNCTION registry.schemas_index_fields() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schemas_index_fields'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.schemas_index_fields() IS 'writes a new schema''s fields into registry.schema_fields (not for a restored row: the dump brings its fields)';
CREATE TRIGGER schemas_index_fields AFTER INSERT ON registry.schemas
	FOR EACH ROW EXECUTE FUNCTION registry.schemas_index_fields();

CREATE FUNCTION registry.reindex_fields() RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_reindex_fields'
	LANGUAGE C VOLATILE SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.reindex_fields() IS 'rebuilds the field index row of every schema; how many schemas';

CREATE VIEW registry.fields AS
SELECT v.context, v.subject, v.version, v.schema_id AS id, s.schema_type,
	   f.path, f.name, f.record, f.type, f.doc, f."default", f.logical_type, f.tags
  FROM registry.subject_versions v
  JOIN registry.schemas s ON s.context = v.context AND s.id = v.schema_id
  JOIN registry.schema_fields sf ON sf.context = v.context AND sf.id = v.schema_id
 CROSS JOIN LATERAL pg_catalog.jsonb_to_recordset(sf.fields)
	   AS f(path text, name text, record text, type text, doc text, "default" jsonb,
			logical_type text, tags text[])
 WHERE NOT v.deleted;
COMMENT ON VIEW registry.fields IS 'every field of every live version: subject, version, id, path, name, the record that declares it, type, doc, default, logical type, tags';

CREATE FUNCTION registry.find_fields(name text DEFAULT NULL, tag text DEFAULT NULL,
	type text DEFAULT NULL, logical_type text DEFAULT NULL, path text DEFAULT NULL)
	RETURNS SETOF registry.fields
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
SELECT v.context, v.subject, v.version, v.schema_id, s.schema_type,
	   f.path, f.name, f.record, f.type, f.doc, f."default", f.logical_type, f.tags
  FROM registry.schema_fields sf
 CROSS JOIN LATERAL jsonb_to_recordset(sf.fields)
	   AS f(path text, name text, record text, type text, doc text, "default" jsonb,
			logical_type text, tags text[])
  JOIN registry.subject_versions v ON v.context = sf.context AND v.schema_id = sf.id AND NOT v.deleted
  JOIN registry.schemas s ON s.context = sf.context AND s.id = sf.id
 WHERE sf.fields @> jsonb_build_array(
		   jsonb_strip_nulls(jsonb_build_object('name', $1, 'type', $3, 'logical_type', $4, 'path', $5))
		   || CASE WHEN $2 IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('tags', jsonb_build_array($2)) END)
   AND ($1 IS NULL OR f.name = $1) AND ($2 IS NULL OR $2 = ANY (f.tags))
   AND ($3 IS NULL OR f.type = $3) AND ($4 IS NULL OR f.logical_type = $4)
   AND ($5 IS NULL OR f.path = $5)
 ORDER BY v.context, v.subject, v.version, f.path
$$;
COMMENT ON FUNCTION registry.find_fields(text, text, text, text, text) IS 'the fields of live versions with this name, tag, type, logical type and path (each NULL: any), found through the field index';

CREATE FUNCTION registry.reference_neighbours(from_context text, from_subject text,
	from_version integer, direction text)
	RETURNS TABLE(context text, subject text, version integer, id integer, reference_name text)
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
SELECT r.context, r.ref_subject, r.ref_version, rv.schema_id, r.name
  FROM registry.subject_versions v
  JOIN registry.schema_references r ON r.context = v.context AND r.schema_id = v.schema_id
  LEFT JOIN registry.subject_versions rv
	ON rv.context = r.context AND rv.subject = r.ref_subject AND rv.version = r.ref_version
 WHERE $4 = 'out' AND v.context = $1 AND v.subject = $2 AND v.version = $3
UNION ALL
SELECT v.context, v.subject, v.version, v.schema_id, r.name
  FROM registry.schema_references r
  JOIN registry.subject_versions v ON v.context = r.context AND v.schema_id = r.schema_id AND NOT v.deleted
 WHERE $4 = 'in' AND r.context = $1 AND r.ref_subject = $2 AND r.ref_version = $3
$$;
COMMENT ON FUNCTION registry.reference_neighbours(text, text, integer, text) IS 'one step of the reference graph: what a version references (out), or the live versions that reference it (in)';

CREATE FUNCTION registry.reference_graph(from_subject text, from_version integer,
	direction text DEFAULT 'out', transitive boolean DEFAULT true)
	RETURNS TABLE(depth integer, context text, subject text, version integer, id integer,
				  reference_name text)
	LANGUAGE plpgsql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	start record := registry.split_subject(from_subject);
BEGIN
	IF direction IS NULL OR direction NOT IN ('out', 'in') THEN
		RAISE EXCEPTION 'direction must be ''out'' or ''in''' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	RETURN QUERY
	WITH RECURSIVE walk(depth, context, subject, version, id, reference_name, seen) AS (
		SELECT 1, n.context, n.subject, n.version, n.id, n.reference_name,
			   ARRAY[format('%s:%s@%s', start.context, start.subject, from_version),
					 format('%s:%s@%s', n.context, n.subject, n.version)]
		  FROM registry.reference_neighbours(start.context, start.subject, from_version,
											 direction) n
		UNION ALL
		SELECT w.depth + 1, n.context, n.subject, n.version, n.id, n.reference_name,
			   w.seen || format('%s:%s@%s', n.context, n.subject, n.version)
		  FROM walk w
		 CROSS JOIN LATERAL registry.reference_neighbours(w.context, w.subject, w.version,
														  direction) n
		 WHERE transitive AND w.depth < 64
		   AND NOT format('%s:%s@%s', n.context, n.subject, n.version) = ANY (w.seen)
	)
	SELECT n.depth, n.context, n.subject, n.version, n.id, n.reference_name
	  FROM (SELECT DISTINCT ON (w.context, w.subject, w.version) w.*
			  FROM walk w
			 ORDER BY w.context, w.subject, w.version, w.depth, w.reference_name) n
	 ORDER BY n.depth, n.context, n.subject, n.version;
END
$$;
COMMENT ON FUNCTION registry.reference_graph(text, integer, text, boolean) IS 'the reference graph from a subject version: what it references (out) or what references it (in), one step or transitively, each version once at its shortest depth';

REVOKE ALL ON FUNCTION registry.schemas_index_fields(), registry.reindex_fields(),
	registry.schema_fields_before_insert(),
	registry.find_fields(text, text, text, text, text),
	registry.reference_neighbours(text, text, integer, text),
	registry.reference_graph(text, integer, text, boolean) FROM PUBLIC;
GRANT SELECT ON registry.schema_fields, registry.fields TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.find_fields(text, text, text, text, text),
	registry.reference_neighbours(text, text, integer, text),
	registry.reference_graph(text, integer, text, boolean) TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.reindex_fields() TO registry_admin;


-- issue 32 part 3: Confluent's guid for every schema (see registry--0.7.sql).
CREATE FUNCTION registry.schema_guid(schema text, refs jsonb DEFAULT '[]',
									 metadata jsonb DEFAULT NULL, rule_set jsonb DEFAULT NULL)
	RETURNS uuid
	AS 'MODULE_PATHNAME', 'registry_schema_guid'
	LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) IS 'Confluent''s guid of a schema text as given, with its references, metadata and rule set (a stored schema''s guid is this of its stored text)';
REVOKE ALL ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) TO registry_reader;
-- 0.6 stored another identity for a schema with references, metadata or a
-- rule set: those rows get Confluent's guid (schemas are otherwise
-- immutable, so the trigger that says so is off for this one statement;
-- the processes that cache schemas, the HTTP workers among them, hear of it
-- at commit as they hear of a hard delete, and read the new guid)
ALTER TABLE registry.schemas DISABLE TRIGGER schemas_before_write;
ALTER TABLE registry.schemas DISABLE TRIGGER audit_after_write;
CREATE TRIGGER schemas_after_guid_update AFTER UPDATE ON registry.schemas
	FOR EACH STATEMENT EXECUTE FUNCTION registry.schemas_after_delete();
UPDATE registry.schemas s
   SET fingerprint = pg_catalog.uuid_send(registry.schema_guid(s.schema, s.refs, s.metadata, s.rule_set))
 WHERE s.refs <> '[]'::jsonb OR s.metadata IS NOT NULL OR s.rule_set IS NOT NULL;
DROP TRIGGER schemas_after_guid_update ON registry.schemas;
ALTER TABLE registry.schemas ENABLE TRIGGER audit_after_write;
ALTER TABLE registry.schemas ENABLE TRIGGER schemas_before_write;

-- The DEK registry (Confluent's /dek-registry/v1): KEKs, named keys of a KMS,
-- and under each the DEKs of subjects, stored wrapped by their KEK
-- (src/pg/dek_service.c; rules in src/pg/dek_triggers.c)
-- ---------------------------------------------------------------------------

CREATE TABLE registry.keks (
	name		text PRIMARY KEY,
	kms_type	text NOT NULL,
	kms_key_id	text NOT NULL,
	kms_props	jsonb NOT NULL DEFAULT '{}' CHECK (pg_catalog.jsonb_typeof(kms_props) = 'object'),
	doc			text,
	shared		boolean NOT NULL DEFAULT false,
	deleted		boolean NOT NULL DEFAULT false,
	updated_at	timestamptz NOT NULL DEFAULT pg_catalog.now()
);
COMMENT ON TABLE registry.keks IS 'key encryption keys of the DEK registry: a key of a KMS by its type and id (the registry never holds it); shared: the server makes and unwraps DEKs through the KMS';
COMMENT ON COLUMN registry.keks.updated_at IS 'the last write (Confluent''s ts)';

CREATE TABLE registry.deks (
	kek_name	text NOT NULL REFERENCES registry.keks ON UPDATE RESTRICT ON DELETE RESTRICT,
	subject		text NOT NULL,
	algorithm	text NOT NULL DEFAULT 'AES256_GCM'
				CHECK (algorithm IN ('AES128_GCM', 'AES256_GCM', 'AES256_SIV')),
	version		integer NOT NULL DEFAULT 1 CHECK (version > 0),
	encrypted_key_material text NOT NULL,
	deleted		boolean NOT NULL DEFAULT false,
	updated_at	timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (kek_name, subject, algorithm, version)
);
COMMENT ON TABLE registry.deks IS 'data encryption keys of the DEK registry, per KEK, subject, algorithm and version; the key material only wrapped by the KEK (base64), never in clear';
COMMENT ON COLUMN registry.deks.updated_at IS 'the last write (Confluent''s ts)';

SELECT pg_catalog.pg_extension_config_dump('registry.keks', '');
SELECT pg_catalog.pg_extension_config_dump('registry.deks', '');

CREATE FUNCTION registry.keks_before_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_keks_before_write' LANGUAGE C;
COMMENT ON FUNCTION registry.keks_before_write() IS 'a KEK''s rules: a valid name, KMS type and key id that never change; soft-deleted only when no DEK of it is live, hard-deleted only once soft-deleted and without DEKs';
CREATE FUNCTION registry.deks_before_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_deks_before_write' LANGUAGE C;
COMMENT ON FUNCTION registry.deks_before_write() IS 'a DEK''s rules: created under a live KEK with a valid subject, algorithm and key material; only its deleted flag changes; undeleted only under a live KEK; hard-deleted only once soft-deleted';

CREATE TRIGGER keks_before_write BEFORE INSERT OR UPDATE OR DELETE ON registry.keks
	FOR EACH ROW EXECUTE FUNCTION registry.keks_before_write();
CREATE TRIGGER deks_before_write BEFORE INSERT OR UPDATE OR DELETE ON registry.deks
	FOR EACH ROW EXECUTE FUNCTION registry.deks_before_write();
CREATE TRIGGER audit_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.keks
	FOR EACH ROW EXECUTE FUNCTION registry.audit_row('kek');
CREATE TRIGGER audit_after_truncate AFTER TRUNCATE ON registry.keks
	FOR EACH STATEMENT EXECUTE FUNCTION registry.audit_truncate('kek');
CREATE TRIGGER audit_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.deks
	FOR EACH ROW EXECUTE FUNCTION registry.audit_row('dek');
CREATE TRIGGER audit_after_truncate AFTER TRUNCATE ON registry.deks
	FOR EACH STATEMENT EXECUTE FUNCTION registry.audit_truncate('dek');

CREATE FUNCTION registry.list_keks(deleted boolean DEFAULT false) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_list_keks_sql' LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_keks(boolean) IS 'the names of the KEKs (soft-deleted ones too if deleted), as GET /dek-registry/v1/keks';
CREATE FUNCTION registry.get_kek(name text, deleted boolean DEFAULT false) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_get_kek_sql' LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.get_kek(text, boolean) IS 'a KEK as Confluent''s Kek';
CREATE FUNCTION registry.create_kek(kek jsonb) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_create_kek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.create_kek(jsonb) IS 'creates a KEK from Confluent''s CreateKekRequest (name, kmsType, kmsKeyId, kmsProps, doc, shared)';
CREATE FUNCTION registry.update_kek(name text, kek jsonb) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_update_kek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.update_kek(text, jsonb) IS 'changes a KEK''s kmsProps, doc and shared (Confluent''s UpdateKekRequest)';
CREATE FUNCTION registry.delete_kek(name text, permanent boolean DEFAULT false) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_delete_kek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.delete_kek(text, boolean) IS 'soft-deletes a KEK, or (permanent) removes a soft-deleted one';
CREATE FUNCTION registry.undelete_kek(name text) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_undelete_kek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.undelete_kek(text) IS 'undeletes a soft-deleted KEK';
CREATE FUNCTION registry.test_kek(name text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_test_kek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.test_kek(text) IS 'wraps and unwraps a key through the KEK''s KMS; the KEK when the server can use it, else error 50070';
CREATE FUNCTION registry.list_deks(kek_name text, deleted boolean DEFAULT false) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_list_deks_sql' LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_deks(text, boolean) IS 'the subjects that have DEKs under a KEK';
CREATE FUNCTION registry.dek_versions(kek_name text, subject text, algorithm text DEFAULT NULL,
	deleted boolean DEFAULT false) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_dek_versions_sql' LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.dek_versions(text, text, text, boolean) IS 'the versions of a subject''s DEK for an algorithm (AES256_GCM when NULL)';
CREATE FUNCTION registry.get_dek(kek_name text, subject text, version text DEFAULT NULL,
	algorithm text DEFAULT NULL, deleted boolean DEFAULT false) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_get_dek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.get_dek(text, text, text, text, boolean) IS 'a DEK as Confluent''s Dek: version 1 when NULL, or a number, or latest; keyMaterial for a shared KEK''s to roles that may execute dek_key_material';
CREATE FUNCTION registry.create_dek(kek_name text, dek jsonb) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_create_dek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.create_dek(text, jsonb) IS 'creates a DEK from Confluent''s CreateDekRequest (subject, version, algorithm, encryptedKeyMaterial; a shared KEK''s server makes the material when none is given)';
CREATE FUNCTION registry.delete_dek(kek_name text, subject text, version text DEFAULT NULL,
	algorithm text DEFAULT NULL, permanent boolean DEFAULT false) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_delete_dek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.delete_dek(text, text, text, text, boolean) IS 'soft-deletes the versions of a subject''s DEK (one version if given), or (permanent) removes soft-deleted ones';
CREATE FUNCTION registry.undelete_dek(kek_name text, subject text, version text DEFAULT NULL,
	algorithm text DEFAULT NULL) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_undelete_dek_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.undelete_dek(text, text, text, text) IS 'undeletes the versions of a subject''s DEK (one version if given)';
CREATE FUNCTION registry.dek_key_material(kek_name text, subject text, version text DEFAULT NULL,
	algorithm text DEFAULT NULL) RETURNS bytea
	AS 'MODULE_PATHNAME', 'registry_dek_key_material_sql' LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.dek_key_material(text, text, text, text) IS 'a shared KEK''s DEK in clear (Tink''s serialized key), unwrapped through the KMS; EXECUTE on it is what lets a role see keyMaterial';

-- readers read KEKs and DEKs (wrapped) and, by default, a shared KEK's DEKs
-- in clear (dek_key_material: revoke it to narrow that); writers create KEKs
-- and DEKs, as producing clients do; admins alter, delete and undelete them
REVOKE ALL ON registry.keks, registry.deks FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA registry FROM PUBLIC;
GRANT SELECT ON registry.keks, registry.deks TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.list_keks(boolean), registry.get_kek(text, boolean),
	registry.list_deks(text, boolean), registry.dek_versions(text, text, text, boolean),
	registry.get_dek(text, text, text, text, boolean),
	registry.dek_key_material(text, text, text, text) TO registry_reader;
GRANT INSERT ON registry.keks, registry.deks TO registry_writer;
GRANT EXECUTE ON FUNCTION registry.create_kek(jsonb), registry.create_dek(text, jsonb),
	registry.test_kek(text) TO registry_writer;
GRANT UPDATE, DELETE ON registry.keks, registry.deks TO registry_admin;
GRANT EXECUTE ON FUNCTION registry.update_kek(text, jsonb), registry.delete_kek(text, boolean),
	registry.undelete_kek(text), registry.delete_dek(text, text, text, text, boolean),
	registry.undelete_dek(text, text, text, text) TO registry_admin;

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

-- ---------------------------------------------------------------------------
-- Who still reads a schema (issue 34 part 3): the reads the REST API
-- answered per schema id and per subject, counted in shared memory by the
-- HTTP workers and flushed here by the primary's first worker
-- (src/pg/usage.c); a standby's own reads stay in its shared memory
-- (registry.pending_usage()), which the views add
-- ---------------------------------------------------------------------------

CREATE TABLE registry.schema_reads (
	context		text NOT NULL,
	schema_id	integer NOT NULL,
	read_count	bigint NOT NULL DEFAULT 0,
	unlisted_reads bigint NOT NULL DEFAULT 0,
	last_read	timestamptz NOT NULL,
	readers		text[] NOT NULL DEFAULT '{}',
	PRIMARY KEY (context, schema_id)
);
COMMENT ON TABLE registry.schema_reads IS 'reads of each schema id (in its context) the REST API answered, flushed from shared memory by the primary''s REST worker; registry.schema_usage adds what is not flushed yet';
COMMENT ON COLUMN registry.schema_reads.unlisted_reads IS 'reads by roles the readers list could not name (4 per key in shared memory, 64 here)';
COMMENT ON COLUMN registry.schema_reads.readers IS 'the roles the reads ran as (the HTTP Basic user, or the anonymous role), in order';

CREATE TABLE registry.subject_reads (
	context		text NOT NULL,
	subject		text NOT NULL,
	read_count	bigint NOT NULL DEFAULT 0,
	unlisted_reads bigint NOT NULL DEFAULT 0,
	last_read	timestamptz NOT NULL,
	readers		text[] NOT NULL DEFAULT '{}',
	PRIMARY KEY (context, subject)
);
COMMENT ON TABLE registry.subject_reads IS 'reads of each subject (a version, its schema, a lookup) the REST API answered, flushed from shared memory by the primary''s REST worker; registry.subject_usage adds what is not flushed yet';
COMMENT ON COLUMN registry.subject_reads.unlisted_reads IS 'reads by roles the readers list could not name (4 per key in shared memory, 64 here)';
COMMENT ON COLUMN registry.subject_reads.readers IS 'the roles the reads ran as (the HTTP Basic user, or the anonymous role), in order';

SELECT pg_catalog.pg_extension_config_dump('registry.schema_reads', '');
SELECT pg_catalog.pg_extension_config_dump('registry.subject_reads', '');

CREATE FUNCTION registry.pending_usage(OUT kind text, OUT context text, OUT schema_id integer,
	OUT subject text, OUT read_count bigint, OUT unlisted_reads bigint,
	OUT last_read timestamptz, OUT readers text[])
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_pending_usage'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.pending_usage() IS 'the reads this server counted in shared memory and has not flushed to the tables (on a standby: all of its own); readers only for registry_admin';

CREATE FUNCTION registry.flush_usage() RETURNS integer
	AS 'MODULE_PATHNAME', 'registry_flush_usage'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.flush_usage() IS 'adds the reads counted in shared memory to registry.schema_reads and registry.subject_reads now (the primary''s REST worker does it every 10 s); how many schema ids and subjects';

CREATE FUNCTION registry.usage_stats(OUT tracking boolean, OUT max_entries integer,
	OUT entries_used integer, OUT untracked_reads bigint, OUT evicted_entries bigint,
	OUT evicted_reads bigint, OUT incomplete_before timestamptz, OUT last_flush timestamptz)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_usage_stats'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.usage_stats() IS 'the read counting of this server: on or off, its shared table''s size and use, the reads it could not keep (names too long, keys evicted when full), the latest of those reads (counts after it miss nothing) and the last flush';

-- registry.schema_usage and registry.subject_usage: the tables' rows and
-- this server's pending ones, one row per key
DO $$
DECLARE
	v record;
BEGIN
	FOR v IN SELECT * FROM (VALUES ('schema', 'schema_id', 'schema id'), ('subject', 'subject', 'subject'))
			AS x(kind, key, what) LOOP
		EXECUTE pg_catalog.format($view$
			CREATE VIEW registry.%1$I AS
			SELECT COALESCE(t.context, p.context) AS context,
				   COALESCE(t.%3$I, p.%3$I) AS %3$I,
				   COALESCE(t.read_count, 0) + COALESCE(p.read_count, 0) AS read_count,
				   GREATEST(t.last_read, p.last_read) AS last_read,
				   CASE WHEN pg_catalog.pg_has_role('registry_admin', 'USAGE')
						THEN ARRAY(SELECT DISTINCT u.x FROM pg_catalog.unnest(t.readers || p.readers) AS u(x) ORDER BY u.x)
				   END AS readers,
				   COALESCE(t.unlisted_reads, 0) + COALESCE(p.unlisted_reads, 0) AS unlisted_reads
			  FROM registry.%2$I t
			  FULL JOIN (SELECT * FROM registry.pending_usage() WHERE kind = %4$L) p
				ON p.context = t.context AND p.%3$I = t.%3$I$view$,
			v.kind || '_usage', v.kind || '_reads', v.key, v.kind);
		EXECUTE pg_catalog.format('COMMENT ON VIEW registry.%I IS %L', v.kind || '_usage',
			'reads of each ' || v.what || ': the flushed ones and this server''s pending ones; readers only for registry_admin (NULL for others)');
	END LOOP;
END
$$;

-- a name longer than the shared table holds (256 bytes) is never counted:
-- left out rather than called unread
CREATE FUNCTION registry.unread_schemas(since timestamptz)
	RETURNS TABLE (context text, schema_id integer, schema_type text, created_at timestamptz,
				   last_read timestamptz, subjects text[])
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
	SELECT s.context, s.id, s.schema_type, s.created_at, u.last_read,
		   ARRAY(SELECT DISTINCT registry.qualify_subject(sv.context, sv.subject)
				   FROM registry.subject_versions sv
				  WHERE sv.context = s.context AND sv.schema_id = s.id ORDER BY 1)
	  FROM registry.schemas s
	  LEFT JOIN registry.schema_usage u ON u.context = s.context AND u.schema_id = s.id
	 WHERE (u.last_read IS NULL OR u.last_read < unread_schemas.since)
	   AND octet_length(s.context) <= 256
	 ORDER BY s.context, s.id
$$;
COMMENT ON FUNCTION registry.unread_schemas(timestamptz) IS 'the schemas nobody read over the REST API since a time (as far as registry.usage_stats() says the counts are complete), with the subjects whose versions use them';

CREATE FUNCTION registry.unread_subjects(since timestamptz)
	RETURNS TABLE (context text, subject text, created_at timestamptz, last_read timestamptz,
				   live_versions integer)
	LANGUAGE sql STABLE
	SET search_path = pg_catalog, pg_temp
AS $$
	SELECT sb.context, sb.subject, sb.created_at, u.last_read,
		   (SELECT count(*)::integer FROM registry.subject_versions sv
			 WHERE sv.context = sb.context AND sv.subject = sb.subject AND NOT sv.deleted)
	  FROM registry.subjects sb
	  LEFT JOIN registry.subject_usage u ON u.context = sb.context AND u.subject = sb.subject
	 WHERE (u.last_read IS NULL OR u.last_read < unread_subjects.since)
	   AND octet_length(registry.qualify_subject(sb.context, sb.subject)) <= 256
	 ORDER BY sb.context, sb.subject
$$;
COMMENT ON FUNCTION registry.unread_subjects(timestamptz) IS 'the subjects nobody read over the REST API since a time (as far as registry.usage_stats() says the counts are complete), with their live versions';

-- readers see the counts and the last reads (the views, the unread lists);
-- who read what (the readers columns, the tables) is registry_admin's, as
-- the audit trail is; only the registry writes the tables (as their owner)
REVOKE ALL ON registry.schema_reads, registry.subject_reads,
	registry.schema_usage, registry.subject_usage FROM PUBLIC;
REVOKE ALL ON FUNCTION registry.pending_usage(), registry.flush_usage(), registry.usage_stats(),
	registry.unread_schemas(timestamptz), registry.unread_subjects(timestamptz) FROM PUBLIC;
GRANT SELECT ON registry.schema_usage, registry.subject_usage TO registry_reader;
GRANT SELECT ON registry.schema_reads, registry.subject_reads TO registry_admin;
GRANT EXECUTE ON FUNCTION registry.pending_usage(), registry.usage_stats(),
	registry.unread_schemas(timestamptz), registry.unread_subjects(timestamptz)
	TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.flush_usage() TO registry_admin;

-- ---------------------------------------------------------------------------
-- DELETE /contexts/{context} (Confluent 8.1): an empty context removed
-- ---------------------------------------------------------------------------
CREATE FUNCTION registry.delete_context(context text) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_delete_context_sql'
	LANGUAGE C VOLATILE SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.delete_context(text) IS 'removes a context none of whose subjects has a version (42211 otherwise; 40401 when there is none): its settings, the schemas and subjects hard deletes left, its row and its id sequence';
REVOKE ALL ON FUNCTION registry.delete_context(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.delete_context(text) TO registry_admin;

-- last: the schemas registered before the field index, as 0.7 reads them
SELECT registry.reindex_fields();

-- ---------------------------------------------------------------------------
-- GET /schemas by association (8.2) and GET /dek-registry/v1/keks?subjectPrefix
-- ---------------------------------------------------------------------------
CREATE FUNCTION registry.list_schemas_by_association(subject_prefix text DEFAULT NULL,
	resource_type text DEFAULT NULL, association_types text[] DEFAULT NULL,
	lifecycles text[] DEFAULT NULL, deleted boolean DEFAULT false, latest_only boolean DEFAULT false)
	RETURNS TABLE (schema_version registry.subject_version, associations jsonb)
	AS 'MODULE_PATHNAME', 'registry_list_schemas_by_association_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_schemas_by_association(text, text, text[], text[], boolean, boolean) IS 'as GET /schemas by association: the versions of the subjects with an association of the resource type (topic when NULL) and association types (any when NULL) whose lifecycle is one of lifecycles (STRONG, WEAK; NONE: a subject with none of them; any association when NULL), each with those associations';
REVOKE ALL ON FUNCTION registry.list_schemas_by_association(text, text, text[], text[], boolean, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.list_schemas_by_association(text, text, text[], text[], boolean, boolean) TO registry_reader;

DROP FUNCTION registry.list_keks(boolean);
CREATE FUNCTION registry.list_keks(deleted boolean DEFAULT false, subject_prefix text[] DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_list_keks_sql' LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_keks(boolean, text[]) IS 'the names of the KEKs (soft-deleted ones too if deleted), as GET /dek-registry/v1/keks; with subject prefixes, the KEKs with a DEK of a subject starting with one of them';
REVOKE ALL ON FUNCTION registry.list_keks(boolean, text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.list_keks(boolean, text[]) TO registry_reader;

-- The listings paged (issue 33 item 1): page_offset rows skipped, then at
-- most page_limit (NULL or <= 0: all), read no further than the page, as
-- the REST listings are; GET /schemas/ids/{id}/subjects pages subjects
-- ---------------------------------------------------------------------------
DROP FUNCTION registry.subjects(text, boolean, boolean);
CREATE FUNCTION registry.subjects(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	deleted_only boolean DEFAULT false, page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL)
	RETURNS SETOF text
	AS 'MODULE_PATHNAME', 'registry_subjects_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.subjects(text, boolean, boolean, integer, integer) IS 'subjects with live versions (deleted: also soft-deleted ones; deleted_only: only those), the page from page_offset of at most page_limit (NULL: all)';

DROP FUNCTION registry.versions(text, boolean, boolean);
CREATE FUNCTION registry.versions(subject text, deleted boolean DEFAULT false, deleted_only boolean DEFAULT false,
	page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL)
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_versions_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.versions(text, boolean, boolean, integer, integer) IS 'version numbers of a subject, the page from page_offset of at most page_limit (NULL: all)';

DROP FUNCTION registry.list_schemas(text, boolean, boolean);
CREATE FUNCTION registry.list_schemas(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	latest_only boolean DEFAULT false, page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL)
	RETURNS SETOF registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_list_schemas_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_schemas(text, boolean, boolean, integer, integer) IS 'every subject version with its schema (latest_only: the latest of each subject), the page from page_offset of at most page_limit (NULL: all)';

DROP FUNCTION registry.list_schemas_with_aliases(text, boolean, boolean);
CREATE FUNCTION registry.list_schemas_with_aliases(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	latest_only boolean DEFAULT false, page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL)
	RETURNS TABLE (schema_version registry.subject_version, aliases text[])
	AS 'MODULE_PATHNAME', 'registry_list_schemas_with_aliases_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_schemas_with_aliases(text, boolean, boolean, integer, integer) IS 'as list_schemas, each version with the subjects whose config names its subject as their alias; the subject of an alias under the prefix is listed even when it is not';

DROP FUNCTION registry.schema_versions(integer, text, boolean);
CREATE FUNCTION registry.schema_versions(id integer, subject text DEFAULT NULL, deleted boolean DEFAULT false,
	page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL,
	OUT subject_name text, OUT version integer)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_schema_versions_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.schema_versions(integer, text, boolean, integer, integer) IS 'the subject versions that use a schema id (in the subject''s context), the page from page_offset of at most page_limit (NULL: all)';

REVOKE ALL ON FUNCTION registry.subjects(text, boolean, boolean, integer, integer),
	registry.versions(text, boolean, boolean, integer, integer),
	registry.list_schemas(text, boolean, boolean, integer, integer),
	registry.list_schemas_with_aliases(text, boolean, boolean, integer, integer),
	registry.schema_versions(integer, text, boolean, integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.subjects(text, boolean, boolean, integer, integer),
	registry.versions(text, boolean, boolean, integer, integer),
	registry.list_schemas(text, boolean, boolean, integer, integer),
	registry.list_schemas_with_aliases(text, boolean, boolean, integer, integer),
	registry.schema_versions(integer, text, boolean, integer, integer) TO registry_reader;

-- the users of a schema id in (subject, version) order, for their pages
DROP INDEX registry.subject_versions_schema_idx;
CREATE INDEX subject_versions_schema_idx ON registry.subject_versions (context, schema_id, subject, version);
