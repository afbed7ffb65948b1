/*
 * registry--0.5--0.6.sql: from 0.5 to 0.6.
 *
 * 0.6 serves the config, mode and delete operations from C, one function
 * per Confluent operation that the REST routes call too (the PL/pgSQL
 * bodies go; a function's comment, grants and signature stay).  IMPORT
 * over live subjects without force is refused by set_mode() itself, no
 * longer through the registry.force_mode setting.  The rules of new
 * contexts and subjects and of soft and hard deletes are C triggers too.
 *
 * Every change to registry--0.6.sql is made here too
 * (test/tap/t/090_upgrade.pl compares the two catalogs).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.6'" to load this file. \quit

-- Config, mode and deletes: C functions shared with the REST routes
CREATE OR REPLACE FUNCTION registry.delete_version(subject text, version text, permanent boolean DEFAULT false)
	RETURNS integer
	AS 'MODULE_PATHNAME', 'registry_delete_version_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.delete_subject(subject text, permanent boolean DEFAULT false)
	RETURNS SETOF integer
	AS 'MODULE_PATHNAME', 'registry_delete_subject_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.set_compatibility(level text, subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_set_compatibility_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.get_compatibility(subject text DEFAULT NULL, default_to_global boolean DEFAULT true)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_get_compatibility_sql'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.delete_compatibility(subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_delete_compatibility_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.set_mode(mode text, subject text DEFAULT NULL, force boolean DEFAULT false)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_set_mode_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.get_mode(subject text DEFAULT NULL, default_to_global boolean DEFAULT true)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_get_mode_sql'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.delete_mode(subject text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'registry_delete_mode_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.get_config(subject text DEFAULT NULL, default_to_global boolean DEFAULT false)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_get_config_sql'
	LANGUAGE C STABLE;
CREATE OR REPLACE FUNCTION registry.set_config(subject text, config jsonb)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_set_config_sql'
	LANGUAGE C VOLATILE;
CREATE OR REPLACE FUNCTION registry.delete_config(subject text DEFAULT NULL)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'registry_delete_config_sql'
	LANGUAGE C VOLATILE;

-- The rules of contexts, subjects and deletes: C triggers
CREATE OR REPLACE FUNCTION registry.contexts_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_contexts_before_insert'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
CREATE OR REPLACE FUNCTION registry.check_not_referenced(context text, subject text, version integer, live_only boolean) RETURNS void
	AS 'MODULE_PATHNAME', 'registry_check_not_referenced_sql'
	LANGUAGE C STABLE STRICT;
CREATE OR REPLACE FUNCTION registry.versions_before_update() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_before_update'
	LANGUAGE C;
CREATE OR REPLACE FUNCTION registry.versions_before_delete() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_before_delete'
	LANGUAGE C;
CREATE OR REPLACE FUNCTION registry.versions_after_delete() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_versions_after_delete'
	LANGUAGE C SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp;
CREATE OR REPLACE FUNCTION registry.subjects_before_insert() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_subjects_before_insert'
	LANGUAGE C;
CREATE OR REPLACE FUNCTION registry.subjects_before_update() RETURNS trigger
	AS 'MODULE_PATHNAME', 'registry_subjects_before_update'
	LANGUAGE C;
