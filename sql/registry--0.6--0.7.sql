/*
 * registry--0.6--0.7.sql: from 0.6 to 0.7.
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION registry UPDATE TO '0.7'" to load this file. \quit

-- ---------------------------------------------------------------------------
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
