/*-------------------------------------------------------------------------
 *
 * catalog_rest.c
 *	  The SQL the REST routes run: calls of the SQL API (so every rule stays
 *	  in one place), with parameters and schema-qualified names.  Part of
 *	  the catalog module (catalog.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"

#include "catalog.h"

#define SCHEMA_COLUMNS "subject, version, id, schema_type, schema, refs::text, metadata::text, rule_set::text, deleted"

CatalogPlan rest_plan_schema_by_id = {
	"SELECT id, schema_type, schema, refs::text, metadata::text, rule_set::text "
	"FROM registry.schema_by_id($1, $2)",
	2, {INT4OID, TEXTOID}
};
CatalogPlan rest_plan_schema_serialized = {
	"SELECT registry.schema_serialized($1, $2)",
	2, {INT4OID, TEXTOID}
};
CatalogPlan rest_plan_max_id = {
	"SELECT max(s.id) FROM registry.schemas s "
	"WHERE s.context = COALESCE((registry.split_subject($1)).context, '.')",
	1, {TEXTOID}
};
CatalogPlan rest_plan_schema_versions = {
	"SELECT subject_name, version FROM registry.schema_versions($1, $2, $3)",
	3, {INT4OID, TEXTOID, BOOLOID}
};
CatalogPlan rest_plan_list_schemas = {
	"SELECT " SCHEMA_COLUMNS " FROM registry.list_schemas($1, $2, $3)",
	3, {TEXTOID, BOOLOID, BOOLOID}
};
CatalogPlan rest_plan_subjects = {
	"SELECT s FROM registry.subjects($1, $2, $3) AS s",
	3, {TEXTOID, BOOLOID, BOOLOID}
};
CatalogPlan rest_plan_versions = {
	"SELECT v FROM registry.versions($1, $2, $3) AS v",
	3, {TEXTOID, BOOLOID, BOOLOID}
};
CatalogPlan rest_plan_get_version = {
	"SELECT " SCHEMA_COLUMNS " FROM registry.get_version($1, $2, $3)",
	3, {TEXTOID, TEXTOID, BOOLOID}
};
CatalogPlan rest_plan_referenced_by = {
	"SELECT r FROM registry.referenced_by($1, $2) AS r",
	2, {TEXTOID, TEXTOID}
};
CatalogPlan rest_plan_delete_version = {
	"SELECT registry.delete_version($1, $2, $3)",
	3, {TEXTOID, TEXTOID, BOOLOID}
};
CatalogPlan rest_plan_delete_subject = {
	"SELECT v FROM registry.delete_subject($1, $2) AS v",
	2, {TEXTOID, BOOLOID}
};
CatalogPlan rest_plan_register = {
	"SELECT NULL::text, subject_version, schema_id, schema_type, stored_schema, schema_refs::text, "
	"$6::jsonb::text, $7::jsonb::text, false FROM registry.register_schema_version("
	"$1, $2, $3, $4::jsonb, $5, $6::jsonb, $7::jsonb, $8, $9)",
	9, {TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID, TEXTOID, TEXTOID, INT4OID, INT4OID}
};
CatalogPlan rest_plan_lookup = {
	"SELECT " SCHEMA_COLUMNS " FROM registry.lookup_schema($1, $2, $3, $4::jsonb, $5, $6)",
	6, {TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID, BOOLOID}
};
CatalogPlan rest_plan_check = {
	"SELECT is_compatible, messages FROM registry.check_compatibility($1, $2, $3, $4::jsonb, $5, $6, $7)",
	7, {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID, BOOLOID}
};
CatalogPlan rest_plan_get_config = {
	"SELECT registry.get_config($1, $2)::text",
	2, {TEXTOID, BOOLOID}
};
CatalogPlan rest_plan_set_config = {
	"SELECT registry.set_config($1, $2::jsonb)::text",
	2, {TEXTOID, TEXTOID}
};
CatalogPlan rest_plan_delete_config = {
	"SELECT registry.delete_config($1)::text",
	1, {TEXTOID}
};
CatalogPlan rest_plan_get_mode = {
	"SELECT registry.get_mode($1, $2)",
	2, {TEXTOID, BOOLOID}
};
CatalogPlan rest_plan_set_mode = {
	"SELECT registry.set_mode($1, $2, $3)",
	3, {TEXTOID, TEXTOID, BOOLOID}
};
CatalogPlan rest_plan_delete_mode = {
	"SELECT registry.delete_mode($1)",
	1, {TEXTOID}
};
CatalogPlan rest_plan_contexts = {
	"SELECT c FROM registry.list_contexts() AS c",
	0, {InvalidOid}
};
CatalogPlan rest_plan_cluster_id = {
	"SELECT pg_catalog.current_database()::text",
	0, {InvalidOid}
};
