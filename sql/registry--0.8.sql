/* registry--0.7.sql: a Confluent-compatible Schema Registry inside PostgreSQL */

\echo Use "CREATE EXTENSION registry" to load this file. \quit

CREATE SCHEMA registry;
COMMENT ON SCHEMA registry IS 'Confluent-compatible schema registry: tables, SQL API, triggers';

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------

CREATE SEQUENCE registry.default_context_ids AS integer MINVALUE 1;
COMMENT ON SEQUENCE registry.default_context_ids IS 'schema id allocator of the default context "."';

-- a sequence, not a table: what a fence did survives the rollback of the
-- transaction that did it, as the id sequences it moved do
CREATE SEQUENCE registry.id_fence AS bigint MINVALUE 0;
COMMENT ON SEQUENCE registry.id_fence IS 'the WAL timeline on which the id sequences were last moved past the ids an old primary may have handed out (is_called: whether they ever were); not dumped';

CREATE TABLE registry.contexts (
	context		text PRIMARY KEY CHECK (context ~ '^\.[^:]*$'),
	id_sequence	regclass,
	created_at	timestamptz NOT NULL DEFAULT pg_catalog.now()
);
COMMENT ON TABLE registry.contexts IS 'registry contexts; "." is the default context; each has its own schema id sequence';

INSERT INTO registry.contexts (context, id_sequence)
	VALUES ('.', 'registry.default_context_ids');

-- the guid of registry.schemas is computed by the C code's one function of it
CREATE FUNCTION registry.fingerprint_guid(fingerprint bytea) RETURNS uuid
	AS 'MODULE_PATHNAME', 'registry_fingerprint_guid_sql'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.fingerprint_guid(bytea) IS 'Confluent''s guid of a schema from its fingerprint (the generated column registry.schemas.guid)';

CREATE TABLE registry.schemas (
	context		text NOT NULL DEFAULT '.' REFERENCES registry.contexts ON UPDATE RESTRICT ON DELETE RESTRICT,
	id			integer NOT NULL CHECK (id > 0),	-- NULL on insert: the trigger allocates one
	schema_type	text NOT NULL DEFAULT 'AVRO',
	schema		text NOT NULL,
	refs		jsonb NOT NULL DEFAULT '[]',
	metadata	jsonb,
	rule_set	jsonb,
	fingerprint	bytea NOT NULL,
	created_at	timestamptz NOT NULL DEFAULT pg_catalog.now(),
	guid		uuid GENERATED ALWAYS AS (registry.fingerprint_guid(fingerprint)) STORED,
	PRIMARY KEY (context, id),
	UNIQUE (fingerprint, context)	-- not (context, ...): lookups by (context, id) keep to the primary key,
									-- and by guid (uuid_send(guid) = fingerprint) to this one
);
COMMENT ON TABLE registry.schemas IS 'schemas by id within a context; the same content (schema, references, metadata, rule set) has one id';
COMMENT ON COLUMN registry.schemas.schema IS 'Confluent''s stored form of the schema (set by the insert trigger)';
COMMENT ON COLUMN registry.schemas.fingerprint IS 'MD5 identity over the stored schema, references, metadata and rule set (set by the insert trigger)';
COMMENT ON COLUMN registry.schemas.guid IS 'the fingerprint as a UUID: Confluent''s guid of the schema, the same in every context that has it';

CREATE TABLE registry.subjects (
	context		text NOT NULL DEFAULT '.' REFERENCES registry.contexts ON UPDATE RESTRICT ON DELETE RESTRICT,
	subject		text NOT NULL,
	created_at	timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (context, subject)
);
COMMENT ON TABLE registry.subjects IS 'one row per subject; its row lock serialises the writers of the subject';

CREATE TABLE registry.subject_versions (
	context		text NOT NULL DEFAULT '.',
	subject		text NOT NULL,
	version		integer NOT NULL CHECK (version > 0),	-- NULL on insert: the next number
	schema_id	integer NOT NULL,
	deleted		boolean NOT NULL DEFAULT false,
	created_at	timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (context, subject, version),
	FOREIGN KEY (context, subject) REFERENCES registry.subjects ON UPDATE RESTRICT ON DELETE RESTRICT,
	FOREIGN KEY (context, schema_id) REFERENCES registry.schemas (context, id) ON UPDATE RESTRICT ON DELETE RESTRICT
);
CREATE INDEX subject_versions_schema_idx ON registry.subject_versions (context, schema_id, subject, version);
-- the schemas of a context with a given stored text and a data contract (canLookup: the same
-- schema but for its metadata); one without metadata or rule set is found by its fingerprint, so
-- most schemas are not in this index
CREATE INDEX schemas_text_idx ON registry.schemas (pg_catalog.md5(schema), context)
	WHERE metadata IS NOT NULL OR rule_set IS NOT NULL;
COMMENT ON TABLE registry.subject_versions IS 'versions of each subject; soft-deleted versions keep their number, which is never reused';

CREATE TABLE registry.schema_references (
	context		text NOT NULL,
	schema_id	integer NOT NULL,
	position	integer NOT NULL,
	name		text NOT NULL,
	ref_subject	text NOT NULL,
	ref_version	integer NOT NULL,
	PRIMARY KEY (context, schema_id, position),
	FOREIGN KEY (context, schema_id) REFERENCES registry.schemas (context, id) ON DELETE CASCADE
);
CREATE INDEX schema_references_target_idx ON registry.schema_references (context, ref_subject, ref_version);
COMMENT ON TABLE registry.schema_references IS 'references of each schema to other subject-versions (maintained from schemas.refs)';

CREATE TABLE registry.config (
	context		text NOT NULL DEFAULT '.',
	subject		text NOT NULL DEFAULT '',
	compatibility text,
	normalize	boolean,
	settings	jsonb NOT NULL DEFAULT '{}',
	updated_at	timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (context, subject)
);
COMMENT ON TABLE registry.config IS 'compatibility configuration; subject '''' is the context level, (''.'', '''') the global level';
COMMENT ON COLUMN registry.config.settings IS 'other Confluent config fields (compatibilityGroup, defaultMetadata, ...), kept as given';

CREATE TABLE registry.modes (
	context		text NOT NULL DEFAULT '.',
	subject		text NOT NULL DEFAULT '',
	mode		text NOT NULL,
	updated_at	timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (context, subject)
);
COMMENT ON TABLE registry.modes IS 'modes; subject '''' is the context level, (''.'', '''') the global level';

SELECT pg_catalog.pg_extension_config_dump('registry.contexts', $$WHERE context <> '.'$$);
SELECT pg_catalog.pg_extension_config_dump('registry.default_context_ids', '');
SELECT pg_catalog.pg_extension_config_dump('registry.schemas', '');
SELECT pg_catalog.pg_extension_config_dump('registry.subjects', '');
SELECT pg_catalog.pg_extension_config_dump('registry.subject_versions', '');
SELECT pg_catalog.pg_extension_config_dump('registry.schema_references', '');
SELECT pg_catalog.pg_extension_config_dump('registry.config', '');
SELECT pg_catalog.pg_extension_config_dump('registry.modes', '');

CREATE TYPE registry.schema_info AS (
	id			integer,
	schema_type	text,
	schema		text,
	refs		jsonb,
	metadata	jsonb,
	rule_set	jsonb,
	guid		uuid,
	context		text,
	subject		text,
	version		integer,
	deleted		boolean,
	registered_at timestamptz
);
COMMENT ON TYPE registry.schema_info IS 'a schema by id, as schema_by_id returns it: with a subject, the subject version that has it (subject, version, deleted, registered_at), else when the id was first registered';

CREATE TYPE registry.subject_version AS (
	subject		text,
	version		integer,
	id			integer,
	schema_type	text,
	schema		text,
	refs		jsonb,
	metadata	jsonb,
	rule_set	jsonb,
	deleted		boolean
);
COMMENT ON TYPE registry.subject_version IS 'one version of a subject, as get_version returns it';

-- ---------------------------------------------------------------------------
-- Helpers shared by the C code and the SQL API (one definition of each rule)
-- ---------------------------------------------------------------------------

CREATE FUNCTION registry.split_subject(qualified text, OUT context text, OUT subject text)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_split_subject'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.split_subject(text) IS 'splits a context-qualified subject ":.ctx:name" into its context and name';

CREATE FUNCTION registry.qualify_subject(context text, subject text)
	RETURNS text
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN CASE WHEN context = '.' THEN subject ELSE ':' || context || ':' || subject END;
COMMENT ON FUNCTION registry.qualify_subject(text, text) IS 'the Confluent spelling of a subject in a context';

CREATE FUNCTION registry.served_subject(subject text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_served_subject_sql'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.served_subject(text) IS 'the subject a request names is served as: the alias in its own config (an alias without a context in the subject''s context), else itself';

CREATE FUNCTION registry.check_context(context text)
	RETURNS void
	AS 'MODULE_PATHNAME', 'registry_check_context_sql'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.check_context(text) IS 'raises 42208 unless subjects of the context can have versions: a valid name (a dot, then letters, digits, ".", "_", "-") and not ".__GLOBAL"';

CREATE FUNCTION registry.confluent_message(error_code integer, VARIADIC words text[] DEFAULT '{}')
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_confluent_message'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.confluent_message(integer, text[]) IS 'Confluent''s wording for an error code that has one (the registry''s one table of them), each %s filled with the next word';

CREATE FUNCTION registry.effective_mode(context text, subject text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_effective_mode'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.effective_mode(text, text) IS 'mode in force for a subject: subject, else context, else global, else READWRITE';

CREATE FUNCTION registry.effective_compatibility(context text, subject text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_effective_compatibility'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.effective_compatibility(text, text) IS 'compatibility level in force for a subject: subject, else context, else global, else BACKWARD';

CREATE FUNCTION registry.effective_normalize(context text, subject text)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'registry_effective_normalize'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.effective_normalize(text, text) IS 'normalize setting in force for a subject';

-- ---------------------------------------------------------------------------
-- Ids after a promotion: a new WAL timeline moves every id sequence up by
-- registry.failover_id_gap before its first id is handed out
-- ---------------------------------------------------------------------------

CREATE FUNCTION registry.wal_timeline() RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_wal_timeline'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.wal_timeline() IS 'the WAL timeline this server writes (on a standby: replays)';

CREATE FUNCTION registry.fence_id_sequences() RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_fence_id_sequences'
	LANGUAGE C VOLATILE SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.fence_id_sequences() IS 'on a WAL timeline not fenced yet, moves every context''s id sequence up by registry.failover_id_gap and records the timeline; returns how many sequences moved';

CREATE FUNCTION registry.new_context_id_floor() RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_new_context_id_floor'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.new_context_id_floor() IS 'where a new context''s ids start: 0, or registry.failover_id_gap once the ids were fenced after a promotion';

SELECT pg_catalog.setval('registry.id_fence', registry.wal_timeline(), false);

-- ---------------------------------------------------------------------------
-- Triggers: the rules, on every write path (SQL API, REST API, raw DML)
-- ---------------------------------------------------------------------------

CREATE FUNCTION registry.context_id_sequence(context text) RETURNS regclass
	LANGUAGE plpgsql VOLATILE STRICT
	SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	seqname text := 'context_ids_' || md5(context);
	floor bigint;
BEGIN
	IF pg_catalog.to_regclass(format('registry.%I', seqname)) IS NULL THEN
		EXECUTE format('CREATE SEQUENCE registry.%I AS integer MINVALUE 1', seqname);
		-- after a promotion a new context starts above the gap: the old
		-- primary may have made it and handed out its first ids
		floor := registry.new_context_id_floor();
		IF floor > 0 THEN
			PERFORM pg_catalog.setval(format('registry.%I', seqname)::regclass, floor);
		END IF;
		-- dropped with the contexts table, so with the extension
		EXECUTE format('ALTER SEQUENCE registry.%I OWNED BY registry.contexts.id_sequence', seqname);
	END IF;
	EXECUTE format('GRANT USAGE ON SEQUENCE registry.%I TO registry_writer', seqname);
	RETURN format('registry.%I', seqname)::regclass;
END
$$;
COMMENT ON FUNCTION registry.context_id_sequence(text) IS 'the schema id sequence of a context other than ".", made when it does not exist yet';

CREATE FUNCTION registry.contexts_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_contexts_before_insert'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.contexts_before_insert() IS 'refuses a context that cannot hold subjects or a read-only one; gives a new context its own schema id sequence and the time it was made';

CREATE FUNCTION registry.schemas_before_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schemas_before_write' LANGUAGE C;
COMMENT ON FUNCTION registry.schemas_before_write() IS 'parses a new schema, stores Confluent''s form and identity; schemas are immutable';

CREATE FUNCTION registry.schemas_after_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schemas_after_insert'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.schemas_after_insert() IS 'records the references of a new schema';

CREATE FUNCTION registry.schemas_after_delete() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schemas_after_delete' LANGUAGE C;
COMMENT ON FUNCTION registry.schemas_after_delete() IS 'tells the processes that cache schema content, at commit, that a schema was hard-deleted (also when a subscriber applies the delete)';

CREATE FUNCTION registry.config_after_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_config_after_write' LANGUAGE C;
COMMENT ON FUNCTION registry.config_after_write() IS 'tells the processes that cache schema answers and settings, at commit, that a config (a subject''s alias, a setting) or a mode changed';

CREATE FUNCTION registry.versions_after_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_after_write' LANGUAGE C;
COMMENT ON FUNCTION registry.versions_after_write() IS 'tells the processes that cache subject answers (latest version, lookup), at commit, that a subject version was written (also when a subscriber applies it)';

CREATE FUNCTION registry.caches_after_truncate() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_caches_after_truncate' LANGUAGE C;
COMMENT ON FUNCTION registry.caches_after_truncate() IS 'tells the processes that cache schema content and subject answers, at commit, that a table they read from was truncated (also when a subscriber applies it)';

CREATE FUNCTION registry.versions_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_before_insert' LANGUAGE C;
COMMENT ON FUNCTION registry.versions_before_insert() IS 'mode, version numbering and compatibility of a new subject version';

CREATE FUNCTION registry.check_writable(context text, subject text) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_check_writable_sql'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.check_writable(text, text) IS 'raises 42205 when the scope''s mode in force is read-only';

CREATE FUNCTION registry.check_not_referenced(context text, subject text, version integer, live_only boolean) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_check_not_referenced_sql'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.check_not_referenced(text, text, integer, boolean) IS 'raises 42206 when a schema (a live one, with live_only) references the subject-version';

CREATE FUNCTION registry.versions_before_update() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_before_update'
	LANGUAGE C;
COMMENT ON FUNCTION registry.versions_before_update() IS 'only soft delete is an update; every update needs a writable mode, a soft delete no live reference';

CREATE FUNCTION registry.versions_before_delete() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_before_delete'
	LANGUAGE C;
COMMENT ON FUNCTION registry.versions_before_delete() IS 'hard delete needs a prior soft delete, a writable mode and no live reference';

CREATE FUNCTION registry.versions_after_delete() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_after_delete'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.versions_after_delete() IS 'a schema id that no subject version uses any more is removed; so are the row, config and mode of a subject without versions';

CREATE FUNCTION registry.config_before_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_config_before_write' LANGUAGE C;
COMMENT ON FUNCTION registry.config_before_write() IS 'config changes need a writable scope and a valid level';

CREATE FUNCTION registry.modes_before_write() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_modes_before_write' LANGUAGE C;
COMMENT ON FUNCTION registry.modes_before_write() IS 'valid modes; IMPORT only over a scope without live subjects unless forced';

CREATE FUNCTION registry.is_restored_row(created_at timestamptz) RETURNS boolean
	AS 'MODULE_PATHNAME', 'registry_is_restored_row_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.is_restored_row(timestamptz) IS 'is a row with this creation time, inserted now by this role, one a restore brings back (a superuser''s, from before the transaction)?';

CREATE FUNCTION registry.schema_references_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_schema_references_before_insert'
	LANGUAGE C;
COMMENT ON FUNCTION registry.schema_references_before_insert() IS 'a reference that its schema''s insert recorded already (a restore brings it again) is not inserted twice';

CREATE FUNCTION registry.subjects_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_subjects_before_insert'
	LANGUAGE C;
COMMENT ON FUNCTION registry.subjects_before_insert() IS 'a new subject needs a writable mode; it gets the time it was made';

CREATE FUNCTION registry.subjects_before_update() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_subjects_before_update'
	LANGUAGE C;
COMMENT ON FUNCTION registry.subjects_before_update() IS 'a subject row is only created, locked and removed';

CREATE TRIGGER contexts_before_insert BEFORE INSERT ON registry.contexts
	FOR EACH ROW EXECUTE FUNCTION registry.contexts_before_insert();
CREATE TRIGGER schemas_before_write BEFORE INSERT OR UPDATE ON registry.schemas
	FOR EACH ROW EXECUTE FUNCTION registry.schemas_before_write();
CREATE TRIGGER schemas_after_insert AFTER INSERT ON registry.schemas
	FOR EACH ROW WHEN (NEW.refs <> '[]'::jsonb) EXECUTE FUNCTION registry.schemas_after_insert();
-- a row trigger that fires in every replication role: a logical replication
-- subscriber's apply (role replica) fires row triggers only, and its caches
-- must hear of replicated hard deletes too
CREATE TRIGGER schemas_after_delete AFTER DELETE ON registry.schemas
	FOR EACH ROW EXECUTE FUNCTION registry.schemas_after_delete();
ALTER TABLE registry.schemas ENABLE ALWAYS TRIGGER schemas_after_delete;
CREATE TRIGGER schema_references_before_insert BEFORE INSERT ON registry.schema_references
	FOR EACH ROW EXECUTE FUNCTION registry.schema_references_before_insert();
CREATE TRIGGER subjects_before_insert BEFORE INSERT ON registry.subjects
	FOR EACH ROW EXECUTE FUNCTION registry.subjects_before_insert();
CREATE TRIGGER subjects_before_update BEFORE UPDATE ON registry.subjects
	FOR EACH ROW EXECUTE FUNCTION registry.subjects_before_update();
CREATE TRIGGER versions_before_insert BEFORE INSERT ON registry.subject_versions
	FOR EACH ROW EXECUTE FUNCTION registry.versions_before_insert();
CREATE TRIGGER versions_before_update BEFORE UPDATE ON registry.subject_versions
	FOR EACH ROW EXECUTE FUNCTION registry.versions_before_update();
CREATE TRIGGER versions_before_delete BEFORE DELETE ON registry.subject_versions
	FOR EACH ROW EXECUTE FUNCTION registry.versions_before_delete();
CREATE TRIGGER versions_after_delete AFTER DELETE ON registry.subject_versions
	FOR EACH ROW EXECUTE FUNCTION registry.versions_after_delete();
CREATE TRIGGER config_before_write BEFORE INSERT OR UPDATE OR DELETE ON registry.config
	FOR EACH ROW EXECUTE FUNCTION registry.config_before_write();
CREATE TRIGGER config_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.config
	FOR EACH ROW EXECUTE FUNCTION registry.config_after_write();
ALTER TABLE registry.config ENABLE ALWAYS TRIGGER config_after_write;
CREATE TRIGGER versions_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.subject_versions
	FOR EACH ROW EXECUTE FUNCTION registry.versions_after_write();
ALTER TABLE registry.subject_versions ENABLE ALWAYS TRIGGER versions_after_write;
CREATE TRIGGER schemas_after_truncate AFTER TRUNCATE ON registry.schemas
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.schemas ENABLE ALWAYS TRIGGER schemas_after_truncate;
CREATE TRIGGER versions_after_truncate AFTER TRUNCATE ON registry.subject_versions
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.subject_versions ENABLE ALWAYS TRIGGER versions_after_truncate;
CREATE TRIGGER config_after_truncate AFTER TRUNCATE ON registry.config
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.config ENABLE ALWAYS TRIGGER config_after_truncate;
-- a mode written tells the settings caches at commit, as a config written does
CREATE TRIGGER modes_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.modes
	FOR EACH ROW EXECUTE FUNCTION registry.config_after_write();
ALTER TABLE registry.modes ENABLE ALWAYS TRIGGER modes_after_write;
CREATE TRIGGER modes_after_truncate AFTER TRUNCATE ON registry.modes
	FOR EACH STATEMENT EXECUTE FUNCTION registry.caches_after_truncate();
ALTER TABLE registry.modes ENABLE ALWAYS TRIGGER modes_after_truncate;
CREATE TRIGGER modes_before_write BEFORE INSERT OR UPDATE OR DELETE ON registry.modes
	FOR EACH ROW EXECUTE FUNCTION registry.modes_before_write();

-- ---------------------------------------------------------------------------
-- SQL API
-- ---------------------------------------------------------------------------

CREATE FUNCTION registry.register_schema(
	subject text, schema text, schema_type text DEFAULT 'AVRO',
	refs jsonb DEFAULT '[]', "normalize" boolean DEFAULT false,
	metadata jsonb DEFAULT NULL, rule_set jsonb DEFAULT NULL,
	id integer DEFAULT NULL, version integer DEFAULT NULL,
	tags_to_add jsonb DEFAULT NULL, tags_to_remove jsonb DEFAULT NULL,
	propagate_tags boolean DEFAULT false)
	RETURNS integer
	AS 'MODULE_PATHNAME', 'registry_register_schema'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.register_schema(text, text, text, jsonb, boolean, jsonb, jsonb, integer, integer, jsonb, jsonb, boolean)
	IS 'registers a schema under a subject and returns its id (the existing id when the subject already has it); tags_to_add/tags_to_remove (Confluent''s schemaTagsToAdd/Remove) rewrite it first, propagate_tags carries the previous version''s tags';

CREATE FUNCTION registry.register_schema_version(
	subject text, schema text, schema_type text DEFAULT 'AVRO',
	refs jsonb DEFAULT '[]', "normalize" boolean DEFAULT false,
	metadata jsonb DEFAULT NULL, rule_set jsonb DEFAULT NULL,
	id integer DEFAULT NULL, version integer DEFAULT NULL,
	tags_to_add jsonb DEFAULT NULL, tags_to_remove jsonb DEFAULT NULL,
	propagate_tags boolean DEFAULT false,
	OUT schema_id integer, OUT subject_version integer, OUT schema_type text,
	OUT stored_schema text, OUT schema_refs jsonb,
	OUT schema_metadata jsonb, OUT schema_rule_set jsonb)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_register_schema_version'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.register_schema_version(text, text, text, jsonb, boolean, jsonb, jsonb, integer, integer, jsonb, jsonb, boolean)
	IS 'as register_schema, returning the id, the subject version and the schema with its metadata and rule set as stored';

CREATE FUNCTION registry.tag_schema_version(
	subject text, version text, new_version integer DEFAULT NULL,
	tags_to_add jsonb DEFAULT NULL, tags_to_remove jsonb DEFAULT NULL,
	metadata jsonb DEFAULT NULL, rule_set jsonb DEFAULT NULL,
	rules_to_merge jsonb DEFAULT NULL, rules_to_remove jsonb DEFAULT NULL,
	OUT schema_id integer, OUT subject_version integer, OUT schema_type text,
	OUT stored_schema text, OUT schema_refs jsonb,
	OUT schema_metadata jsonb, OUT schema_rule_set jsonb)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_tag_schema_version'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.tag_schema_version(text, text, integer, jsonb, jsonb, jsonb, jsonb, jsonb, jsonb)
	IS 'Confluent''s POST /subjects/{s}/versions/{v}/tags: a new version of a version''s schema with tags added and removed, and its metadata and rule set';

CREATE FUNCTION registry.check_compatibility(
	subject text, schema text, schema_type text DEFAULT 'AVRO',
	refs jsonb DEFAULT '[]', version text DEFAULT 'latest',
	verbose boolean DEFAULT false, "normalize" boolean DEFAULT false,
	metadata jsonb DEFAULT NULL, rule_set jsonb DEFAULT NULL,
	OUT is_compatible boolean, OUT messages text[])
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_check_compatibility'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.check_compatibility(text, text, text, jsonb, text, boolean, boolean, jsonb, jsonb)
	IS 'tests a schema (with its metadata, for compatibilityGroup and confluent:reserved) against one version of a subject (version NULL: every live version, as registration does)';

CREATE FUNCTION registry.lint(
	subject text, schema text, schema_type text DEFAULT 'AVRO',
	refs jsonb DEFAULT '[]')
	RETURNS SETOF text
	AS 'MODULE_PATHNAME', 'registry_lint'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.lint(text, text, text, jsonb)
	IS 'the semantic lints of a schema against every live version of a subject (an Avro rename without an alias, a Protobuf field deleted without reserved, a field number or name used again), whatever the subject''s lint config';

CREATE FUNCTION registry.lookup_schema(
	subject text, schema text, schema_type text DEFAULT 'AVRO',
	refs jsonb DEFAULT '[]', "normalize" boolean DEFAULT false,
	deleted boolean DEFAULT false,
	metadata jsonb DEFAULT NULL, rule_set jsonb DEFAULT NULL)
	RETURNS registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_lookup_schema'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.lookup_schema(text, text, text, jsonb, boolean, boolean, jsonb, jsonb)
	IS 'finds the version of a subject that has this schema (with this metadata and rule set; without them, also with those of the latest version)';

CREATE FUNCTION registry.avro_canonical_form(schema text) RETURNS text
	AS 'MODULE_PATHNAME', 'registry_avro_canonical_form'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.avro_canonical_form(text) IS 'Avro Parsing Canonical Form of a schema';

CREATE FUNCTION registry.avro_fingerprint(schema text) RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_avro_fingerprint'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.avro_fingerprint(text) IS 'CRC-64-AVRO fingerprint of the Parsing Canonical Form (as Avro Java''s signed long)';

CREATE FUNCTION registry.parse_version(version text) RETURNS integer
	AS 'MODULE_PATHNAME', 'registry_parse_version'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION registry.parse_version(text) IS 'a Confluent version id: 1..2^31-1, or "latest"/-1 (returned as -1)';

-- Reads ---------------------------------------------------------------------

CREATE FUNCTION registry.schema_by_id(id integer, subject text DEFAULT NULL)
	RETURNS registry.schema_info
	AS 'MODULE_PATHNAME', 'registry_schema_by_id_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.schema_by_id(integer, text) IS 'the schema with this id: in the default context, else any (subject NULL); in the subject''s context, with the subject version that uses it, as Confluent''s GET /schemas/ids/{id}?subject= picks it';

CREATE FUNCTION registry.subjects(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	deleted_only boolean DEFAULT false, page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL)
	RETURNS SETOF text
	AS 'MODULE_PATHNAME', 'registry_subjects_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.subjects(text, boolean, boolean, integer, integer) IS 'subjects with live versions (deleted: also soft-deleted ones; deleted_only: only those), the page from page_offset of at most page_limit (NULL: all)';

CREATE FUNCTION registry.versions(subject text, deleted boolean DEFAULT false, deleted_only boolean DEFAULT false,
	page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL)
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_versions_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.versions(text, boolean, boolean, integer, integer) IS 'version numbers of a subject, the page from page_offset of at most page_limit (NULL: all)';

CREATE FUNCTION registry.resolve_version(subject text, version text, deleted boolean DEFAULT false,
	OUT context text, OUT subject_name text, OUT version_number integer)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_resolve_version'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.resolve_version(text, text, boolean) IS 'resolves "latest"/-1/N of a subject to a version number, with Confluent''s errors';

CREATE FUNCTION registry.get_version(subject text, version text DEFAULT 'latest', deleted boolean DEFAULT false)
	RETURNS registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_get_version'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.get_version(text, text, boolean) IS 'one version of a subject ("latest" or a number)';

CREATE FUNCTION registry.latest_with_metadata(subject text, properties jsonb, deleted boolean DEFAULT false)
	RETURNS registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_latest_with_metadata_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.latest_with_metadata(text, jsonb, boolean) IS 'the latest version of a subject whose metadata properties hold every given key and value';

CREATE FUNCTION registry.referenced_by(subject text, version text DEFAULT 'latest')
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_referenced_by_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.referenced_by(text, text) IS 'ids of the schemas that reference this subject-version';

CREATE FUNCTION registry.schema_by_guid(guid uuid)
	RETURNS registry.schema_info
	AS 'MODULE_PATHNAME', 'registry_schema_by_guid_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.schema_by_guid(uuid) IS 'the schema with this guid: in the default context, else in the first context that has it';

CREATE FUNCTION registry.schema_ids_by_guid(guid uuid, OUT context text, OUT id integer)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_schema_ids_by_guid_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.schema_ids_by_guid(uuid) IS 'the id the schema with this guid has in each context that has it';

-- Ids -----------------------------------------------------------------------

CREATE FUNCTION registry.advance_schema_id(context text, subject text, id integer) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_advance_schema_id'
	LANGUAGE C VOLATILE STRICT SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION registry.advance_schema_id(text, text, integer) IS 'in IMPORT mode, after an imported id, new ids in the context continue above it (never moves back)';

CREATE FUNCTION registry.raise_id_sequences(OUT context text, OUT last_id bigint)
	RETURNS SETOF record
	LANGUAGE plpgsql VOLATILE SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	c record;
	seq regclass;
	top integer;
BEGIN
	FOR c IN SELECT x.context, x.id_sequence FROM registry.contexts x ORDER BY x.context FOR UPDATE
	LOOP
		seq := c.id_sequence;
		-- a context as logical replication brings it: without its sequence
		IF seq IS NULL THEN
			seq := registry.context_id_sequence(c.context);
			UPDATE registry.contexts x SET id_sequence = seq WHERE x.context = c.context;
		END IF;
		SELECT max(s.id) INTO top FROM registry.schemas s WHERE s.context = c.context;
		IF top > COALESCE(pg_sequence_last_value(seq), 0) THEN
			PERFORM setval(seq, top);
		END IF;
		context := c.context;
		last_id := pg_sequence_last_value(seq);
		RETURN NEXT;
	END LOOP;
END
$$;
COMMENT ON FUNCTION registry.raise_id_sequences() IS 'moves the id sequence of every context above the highest schema id the context holds (never back), giving a context without one its sequence; for a logical replication subscriber that is to take writes, whose sequences replication does not carry';

-- Deletes -------------------------------------------------------------------

CREATE FUNCTION registry.delete_version(subject text, version text, permanent boolean DEFAULT false)
	RETURNS integer
	AS 'MODULE_PATHNAME', 'registry_delete_version_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.delete_version(text, text, boolean) IS 'soft-deletes a version, or (permanent) removes a soft-deleted one';

CREATE FUNCTION registry.delete_subject(subject text, permanent boolean DEFAULT false)
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_delete_subject_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.delete_subject(text, boolean) IS 'soft-deletes every version of a subject, or (permanent) removes a soft-deleted subject';

-- Config and mode -----------------------------------------------------------

CREATE FUNCTION registry.config_scope(subject text, OUT context text, OUT subject_name text)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_config_scope'
	LANGUAGE C IMMUTABLE;
COMMENT ON FUNCTION registry.config_scope(text) IS 'the (context, subject) row key of a config or mode scope: NULL is global, ":.ctx:" a context';

CREATE FUNCTION registry.set_compatibility(level text, subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_set_compatibility_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.set_compatibility(text, text) IS 'sets the compatibility level globally (subject NULL), for a context (":.ctx:") or for a subject';

CREATE FUNCTION registry.get_compatibility(subject text DEFAULT NULL, default_to_global boolean DEFAULT true)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_get_compatibility_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.get_compatibility(text, boolean) IS 'the compatibility level of a scope (default_to_global: the one in force)';

CREATE FUNCTION registry.delete_compatibility(subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_delete_compatibility_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.delete_compatibility(text) IS 'removes the configuration of a scope and returns the old level';

CREATE FUNCTION registry.set_mode(mode text, subject text DEFAULT NULL, force boolean DEFAULT false)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_set_mode_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.set_mode(text, text, boolean) IS 'sets the mode globally (subject NULL), for a context (":.ctx:") or a subject; force allows IMPORT over existing subjects';

CREATE FUNCTION registry.get_mode(subject text DEFAULT NULL, default_to_global boolean DEFAULT true)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_get_mode_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.get_mode(text, boolean) IS 'the mode of a scope (default_to_global: the one in force)';

CREATE FUNCTION registry.delete_mode(subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_delete_mode_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.delete_mode(text) IS 'removes the mode of a scope and returns the old mode';

-- Config as Confluent's JSON objects (REST /config) -------------------------

CREATE FUNCTION registry.config_in_force(context text, subject text)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_config_in_force'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.config_in_force(text, text) IS 'the configuration in force for a subject (subject '''' for a context) as Confluent''s Config object: each field from the nearest scope that sets it';

CREATE FUNCTION registry.get_config(subject text DEFAULT NULL, default_to_global boolean DEFAULT false)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_get_config_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.get_config(text, boolean) IS 'the configuration of a scope as Confluent''s Config object (compatibilityLevel, normalize, other fields)';

CREATE FUNCTION registry.set_config(subject text, config jsonb)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_set_config_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.set_config(text, jsonb) IS 'updates a scope''s configuration from Confluent''s ConfigUpdateRequest (compatibility, normalize, other fields); returns the request';

CREATE FUNCTION registry.delete_config(subject text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_delete_config_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.delete_config(text) IS 'removes a scope''s configuration and returns it';

-- Listings (REST /schemas, /schemas/ids/{id}/versions, /contexts) -----------

CREATE FUNCTION registry.list_schemas(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	latest_only boolean DEFAULT false, page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL)
	RETURNS SETOF registry.subject_version
	AS 'MODULE_PATHNAME', 'registry_list_schemas_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_schemas(text, boolean, boolean, integer, integer) IS 'every subject version with its schema (latest_only: the latest of each subject), the page from page_offset of at most page_limit (NULL: all)';

CREATE FUNCTION registry.list_schemas_with_aliases(subject_prefix text DEFAULT NULL, deleted boolean DEFAULT false,
	latest_only boolean DEFAULT false, page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL)
	RETURNS TABLE (schema_version registry.subject_version, aliases text[])
	AS 'MODULE_PATHNAME', 'registry_list_schemas_with_aliases_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_schemas_with_aliases(text, boolean, boolean, integer, integer) IS 'as list_schemas, each version with the subjects whose config names its subject as their alias; the subject of an alias under the prefix is listed even when it is not';

CREATE FUNCTION registry.schema_versions(id integer, subject text DEFAULT NULL, deleted boolean DEFAULT false,
	page_offset integer DEFAULT 0, page_limit integer DEFAULT NULL,
	OUT subject_name text, OUT version integer)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'registry_schema_versions_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.schema_versions(integer, text, boolean, integer, integer) IS 'the subject versions that use a schema id (in the subject''s context), the page from page_offset of at most page_limit (NULL: all)';

CREATE FUNCTION registry.list_contexts()
	RETURNS SETOF text
	AS 'MODULE_PATHNAME', 'registry_list_contexts_sql'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_contexts() IS 'contexts, the default context "." first; never ".__GLOBAL" (config and mode only)';

-- Wire format and Protobuf message indexes -----------------------------------

CREATE FUNCTION registry.protobuf_message_indexes(schema_id integer, message text, subject text DEFAULT NULL)
	RETURNS integer[]
	AS 'MODULE_PATHNAME', 'registry_protobuf_message_indexes'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.protobuf_message_indexes(integer, text, text)
	IS 'the message-index path of a message (full name) in a PROTOBUF schema: top-level position, then nested positions';

CREATE FUNCTION registry.protobuf_message_name(schema_id integer, indexes integer[], subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_protobuf_message_name'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.protobuf_message_name(integer, integer[], text)
	IS 'the full name of the message at a message-index path ({} or {0}: the first message)';

CREATE FUNCTION registry.wire_header(schema_id integer, message_indexes integer[] DEFAULT NULL)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'registry_wire_header'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION registry.wire_header(integer, integer[])
	IS 'the Confluent wire-format header: 0x00, the 4-byte big-endian schema id, and for PROTOBUF the encoded message indexes';

CREATE FUNCTION registry.wire_parse(message bytea, protobuf boolean DEFAULT false,
	OUT schema_id integer, OUT message_indexes integer[], OUT payload_offset integer)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_wire_parse'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.wire_parse(bytea, boolean)
	IS 'reads the header of a wire-format message: schema id, Protobuf message indexes, and where the payload starts (0-based)';

CREATE FUNCTION registry.schema_serialized(schema_id integer, subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_schema_serialized'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.schema_serialized(integer, text)
	IS 'a PROTOBUF schema as Confluent''s format=serialized: its FileDescriptorProto in base64';

-- Payloads in SQL: values as jsonb, messages in the wire format ---------------

CREATE FUNCTION registry.encode(subject text, value jsonb, version text DEFAULT 'latest',
	message text DEFAULT NULL)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'registry_encode'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.encode(text, jsonb, text, text)
	IS 'a value checked against a subject version''s schema and encoded as a Confluent wire-format message (message: the PROTOBUF message, by default the first)';

CREATE FUNCTION registry.decode(payload bytea)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_decode'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.decode(bytea)
	IS 'a Confluent wire-format message decoded with the schema its id names (the default context, else the first context that has the id)';

CREATE FUNCTION registry.decode(payload bytea, subject text, version text DEFAULT 'latest')
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_decode_as'
	LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION registry.decode(bytea, text, text)
	IS 'a Confluent wire-format message read as a subject version''s schema reads it (schema resolution: defaults, promotions, aliases); the writer''s id is looked up in the subject''s context';

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

CREATE FUNCTION registry.check_data(subject text, schema text, samples bytea[],
	schema_type text DEFAULT 'AVRO', refs jsonb DEFAULT '[]')
	RETURNS TABLE(path text, outcome text, samples integer, first_sample integer)
	AS 'MODULE_PATHNAME', 'registry_check_data'
	LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.check_data(text, text, bytea[], text, jsonb)
	IS 'stored wire-format messages read with a proposed schema as the reader: per path, what falls back to a default, is dropped or cannot be read, and how many samples';

-- Schema tags (Confluent's confluent:tags; findTags) -------------------------

CREATE FUNCTION registry.schema_with_tags(schema text, schema_type text DEFAULT 'AVRO',
	tags_to_add jsonb DEFAULT '[]', tags_to_remove jsonb DEFAULT '[]')
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_schema_with_tags'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.schema_with_tags(text, text, jsonb, jsonb)
	IS 'the stored form of an AVRO or JSON schema with the tags of two SchemaTags lists added and removed, as Confluent''s schemaTagsToAdd / schemaTagsToRemove';

CREATE FUNCTION registry.schema_tags(schema text, schema_type text DEFAULT 'AVRO',
	find_tags text[] DEFAULT '{*}')
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_schema_tags'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION registry.schema_tags(text, text, text[])
	IS 'the tagged entities of an AVRO schema that have one of find_tags (''*'': all), as Confluent''s findTags';

-- The REST API ---------------------------------------------------------------

CREATE FUNCTION registry.rest(method text, path text, query text DEFAULT NULL, body text DEFAULT NULL,
	content_type text DEFAULT NULL, accept text DEFAULT NULL,
	OUT status integer, OUT response text)
	RETURNS record
	AS 'MODULE_PATHNAME', 'registry_rest_sql'
	LANGUAGE C VOLATILE;
COMMENT ON FUNCTION registry.rest(text, text, text, text, text, text)
	IS 'the Confluent REST API: one request (method, raw path, raw query string, body, headers) in, (HTTP status, JSON body) out';

-- ---------------------------------------------------------------------------
-- Privileges: readers read, writers register, admins configure
-- ---------------------------------------------------------------------------

DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'registry_reader') THEN
		CREATE ROLE registry_reader NOLOGIN;
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'registry_writer') THEN
		CREATE ROLE registry_writer NOLOGIN IN ROLE registry_reader;
	END IF;
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'registry_admin') THEN
		CREATE ROLE registry_admin NOLOGIN IN ROLE registry_writer;
	END IF;
END
$$;

-- the role the REST API's HTTP workers connect as (registry.http_worker_role):
-- it may log in (a background worker must) but has no password and no
-- privilege; each request runs as its own role (registry.http_auth)
DO $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'registry_http') THEN
		CREATE ROLE registry_http LOGIN NOINHERIT;
	END IF;
END
$$;

REVOKE ALL ON ALL FUNCTIONS IN SCHEMA registry FROM PUBLIC;
GRANT USAGE ON SCHEMA registry TO registry_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA registry TO registry_reader;
GRANT EXECUTE ON FUNCTION
	registry.split_subject(text), registry.qualify_subject(text, text),
	registry.served_subject(text), registry.check_context(text),
	registry.effective_mode(text, text), registry.effective_compatibility(text, text),
	registry.effective_normalize(text, text), registry.parse_version(text),
	registry.confluent_message(integer, text[]),
	registry.check_compatibility(text, text, text, jsonb, text, boolean, boolean, jsonb, jsonb),
	registry.lint(text, text, text, jsonb),
	registry.lookup_schema(text, text, text, jsonb, boolean, boolean, jsonb, jsonb),
	registry.avro_canonical_form(text), registry.avro_fingerprint(text),
	registry.schema_by_id(integer, text), registry.subjects(text, boolean, boolean, integer, integer),
	registry.versions(text, boolean, boolean, integer, integer), registry.resolve_version(text, text, boolean),
	registry.get_version(text, text, boolean), registry.referenced_by(text, text),
	registry.latest_with_metadata(text, jsonb, boolean),
	registry.config_scope(text), registry.get_compatibility(text, boolean), registry.get_mode(text, boolean),
	registry.rest(text, text, text, text, text, text),
	registry.protobuf_message_indexes(integer, text, text), registry.protobuf_message_name(integer, integer[], text),
	registry.wire_header(integer, integer[]), registry.wire_parse(bytea, boolean),
	registry.schema_serialized(integer, text),
	registry.get_config(text, boolean), registry.config_in_force(text, text), registry.list_schemas(text, boolean, boolean, integer, integer),
	registry.list_schemas_with_aliases(text, boolean, boolean, integer, integer),
	registry.schema_versions(integer, text, boolean, integer, integer), registry.list_contexts(),
	registry.schema_by_guid(uuid), registry.schema_ids_by_guid(uuid),
	registry.wal_timeline(), registry.fingerprint_guid(bytea)
	TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.schema_with_tags(text, text, jsonb, jsonb),
	registry.schema_tags(text, text, text[]) TO registry_reader;
GRANT EXECUTE ON FUNCTION registry.encode(text, jsonb, text, text),
	registry.decode(bytea), registry.decode(bytea, text, text),
	registry.check_data(text, text, bytea[], text, jsonb),
	registry.cloudevent(text, jsonb, text, text, text, text, jsonb),
	registry.cloudevent_data(jsonb) TO registry_reader;
-- writers: new rows where the triggers check them, soft and hard delete of
-- versions (checked too); ids are drawn, never set; references and the
-- cleanup after a hard delete are written by SECURITY DEFINER triggers
GRANT INSERT ON registry.schemas, registry.subjects, registry.contexts TO registry_writer;
-- row locks (SELECT ... FOR UPDATE) need UPDATE on some column; subjects are
-- never updated (a trigger refuses it)
GRANT UPDATE (created_at) ON registry.subjects TO registry_writer;
GRANT INSERT, UPDATE, DELETE ON registry.subject_versions TO registry_writer;
GRANT USAGE ON SEQUENCE registry.default_context_ids TO registry_writer;
GRANT EXECUTE ON FUNCTION registry.check_writable(text, text),
	registry.check_not_referenced(text, text, integer, boolean),
	registry.is_restored_row(timestamptz) TO registry_reader;
GRANT EXECUTE ON FUNCTION
	registry.register_schema(text, text, text, jsonb, boolean, jsonb, jsonb, integer, integer, jsonb, jsonb, boolean),
	registry.register_schema_version(text, text, text, jsonb, boolean, jsonb, jsonb, integer, integer, jsonb, jsonb, boolean),
	registry.tag_schema_version(text, text, integer, jsonb, jsonb, jsonb, jsonb, jsonb, jsonb),
	registry.delete_version(text, text, boolean), registry.delete_subject(text, boolean),
	registry.advance_schema_id(text, text, integer), registry.fence_id_sequences()
	TO registry_writer;
GRANT INSERT, UPDATE, DELETE ON registry.config, registry.modes TO registry_admin;
GRANT EXECUTE ON FUNCTION
	registry.set_compatibility(text, text), registry.delete_compatibility(text),
	registry.set_config(text, jsonb), registry.delete_config(text),
	registry.set_mode(text, text, boolean), registry.delete_mode(text),
	registry.raise_id_sequences()
	TO registry_admin;
-- trigger functions are granted to no one: a trigger fires without EXECUTE
-- on its function, and none of them is callable directly

-- ---------------------------------------------------------------------------
-- Audit trail: every write to the registry's tables (SQL API, REST API, raw
-- DML), who made it and how it ended; announced on NOTIFY registry_changes
-- (src/pg/audit.c)
-- ---------------------------------------------------------------------------

CREATE SEQUENCE registry.audit_ids AS bigint MINVALUE 1;
COMMENT ON SEQUENCE registry.audit_ids IS 'ids of the audit rows';

CREATE TABLE registry.audit (
	id			bigint PRIMARY KEY DEFAULT pg_catalog.nextval('registry.audit_ids'),
	at			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	xact		xid8,
	role		text,
	http_user	text,
	http_peer	text,
	operation	text NOT NULL,
	context		text,
	subject		text,
	version		integer,
	schema_id	integer,
	result		text NOT NULL,
	before		jsonb,
	after		jsonb
);
CREATE INDEX audit_at_idx ON registry.audit (at);
COMMENT ON TABLE registry.audit IS 'the audit trail: each row written to the registry''s tables, and each REST write that failed; written only by the registry''s triggers and REST workers';
COMMENT ON COLUMN registry.audit.at IS 'when the row was written (registry.audit_retention counts from it)';
COMMENT ON COLUMN registry.audit.xact IS 'the transaction that wrote it: the rows of one operation (a subject''s versions and what their delete took along) share it';
COMMENT ON COLUMN registry.audit.role IS 'the role that acted: the session''s (SET ROLE, outside any SECURITY DEFINER function), or the one a REST request ran as; NULL for a request refused before it ran';
COMMENT ON COLUMN registry.audit.http_user IS 'the user of a REST request''s Basic credentials (verified, unless the result says otherwise); NULL for SQL and anonymous requests';
COMMENT ON COLUMN registry.audit.http_peer IS 'the address a REST request came from; NULL for SQL';
COMMENT ON COLUMN registry.audit.operation IS 'object.verb (version.register, version.soft_delete, version.hard_delete, schema.create, subject.delete, config.set, mode.delete, <object>.truncate, ...), or "rest METHOD /route" for a failed REST write';
COMMENT ON COLUMN registry.audit.result IS '"ok", or the Confluent error code a failed REST write answered';
COMMENT ON COLUMN registry.audit.before IS 'the row before the change (NULL for an insert); a schema as its id, type and guid';
COMMENT ON COLUMN registry.audit.after IS 'the row after the change (NULL for a delete); a schema as its id, type and guid';

SELECT pg_catalog.pg_extension_config_dump('registry.audit', '');
SELECT pg_catalog.pg_extension_config_dump('registry.audit_ids', '');

CREATE FUNCTION registry.audit_row() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_audit_row' LANGUAGE C;
COMMENT ON FUNCTION registry.audit_row() IS 'records a row written to one of the registry''s tables in registry.audit (not one a restore brings back) and announces it on registry_changes at commit';

CREATE FUNCTION registry.audit_truncate() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_audit_truncate' LANGUAGE C;
COMMENT ON FUNCTION registry.audit_truncate() IS 'records a truncation of one of the registry''s tables in registry.audit';

CREATE FUNCTION registry.purge_audit(older_than interval) RETURNS bigint
	AS 'MODULE_PATHNAME', 'registry_purge_audit'
	LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION registry.purge_audit(interval) IS 'deletes the audit rows older than older_than and returns how many (for a server that runs no REST worker; registry.audit_retention otherwise)';

-- one trigger of each kind on each table, named to fire first among its
-- AFTER triggers: a version's schema is still there when its hard delete
-- is recorded
DO $$
DECLARE
	t record;
BEGIN
	FOR t IN SELECT * FROM (VALUES ('contexts', 'context'), ('schemas', 'schema'),
			('subjects', 'subject'), ('subject_versions', 'version'),
			('config', 'config'), ('modes', 'mode')) AS v(tab, object) LOOP
		EXECUTE pg_catalog.format('CREATE TRIGGER audit_after_write AFTER INSERT OR UPDATE OR DELETE ON registry.%I'
								  ' FOR EACH ROW EXECUTE FUNCTION registry.audit_row(%L)', t.tab, t.object);
		EXECUTE pg_catalog.format('CREATE TRIGGER audit_after_truncate AFTER TRUNCATE ON registry.%I'
								  ' FOR EACH STATEMENT EXECUTE FUNCTION registry.audit_truncate(%L)', t.tab, t.object);
	END LOOP;
END
$$;

-- admins read the trail; nobody but its owner writes it (the triggers and
-- workers insert and delete as the owner); purge_audit is a superuser's
-- unless granted
REVOKE ALL ON registry.audit, registry.audit_ids FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION registry.audit_row(), registry.audit_truncate(),
	registry.purge_audit(interval) FROM PUBLIC;
GRANT SELECT ON registry.audit TO registry_admin;

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

-- issue 33, item 3 (a lookup of the exact text in one probe): a version row
-- carries the key of its schema's exact text where the schema row vouches
-- for that text (parses_to_itself, no references, metadata or rule set), so
-- that a lookup of the text finds the subject's version without reading the
-- schema row first.  The insert trigger sets it from the schema row, never
-- from what an insert says; the update from 0.7 gives the versions stored
-- before it theirs.  A version without one (written in the replica role
-- without it) is found through its schema row, as before.
ALTER TABLE registry.subject_versions ADD COLUMN text_key bytea;
COMMENT ON COLUMN registry.subject_versions.text_key IS 'the schema''s fingerprint followed by its type''s name, where the schema row vouches that the text is its own stored form without normalize and it has no references, metadata or rule set; else NULL (set by the insert trigger)';
-- the key first: a descent compares its bytes, not the subject's text by collation
CREATE INDEX subject_versions_text_key_idx ON registry.subject_versions (text_key, context, subject);

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

-- issue 32 part 3: Confluent's guid for every schema.  The guid is the
-- MD5 of what Confluent's Schema.updateHash digests (the text, each
-- reference's name, subject and version, a present metadata and rule set),
-- computed in C: the fingerprint the insert trigger stores (the guid
-- column is it as a uuid) and this function are the one computation.
CREATE FUNCTION registry.schema_guid(schema text, refs jsonb DEFAULT '[]',
									 metadata jsonb DEFAULT NULL, rule_set jsonb DEFAULT NULL)
	RETURNS uuid
	AS 'MODULE_PATHNAME', 'registry_schema_guid'
	LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) IS 'Confluent''s guid of a schema text as given, with its references, metadata and rule set (a stored schema''s guid is this of its stored text)';
REVOKE ALL ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION registry.schema_guid(text, jsonb, jsonb, jsonb) TO registry_reader;

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
COMMENT ON FUNCTION registry.deks_before_write() IS 'a DEK''s rules: created under an existing KEK (a live DEK only under a live KEK) with a valid subject, algorithm and key material; only its deleted flag changes; undeleted only under a live KEK; hard-deleted only once soft-deleted';

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

CREATE FUNCTION registry.list_keks(deleted boolean DEFAULT false, subject_prefix text[] DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_list_keks_sql' LANGUAGE C STABLE;
COMMENT ON FUNCTION registry.list_keks(boolean, text[]) IS 'the names of the KEKs (soft-deleted ones too if deleted), as GET /dek-registry/v1/keks; with subject prefixes, the KEKs with a DEK of a subject starting with one of them';
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
GRANT EXECUTE ON FUNCTION registry.list_keks(boolean, text[]), registry.get_kek(text, boolean),
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

-- ---------------------------------------------------------------------------
-- GET /schemas by association (8.2)
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
