/*-------------------------------------------------------------------------
 *
 * catalog.h
 *	  Every SQL statement the C code runs against the registry's tables.
 *
 * All functions must be called inside SPI_connect()/SPI_finish(); the
 * results they return are palloc'd in the caller's current context.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CATALOG_H
#define CATALOG_H

#define REGISTRY_FINGERPRINT_LEN 16

typedef struct CatalogSchema
{
	char	   *context;
	int32		id;
	char	   *schema_type;
	char	   *schema;
	char	   *refs;			/* jsonb text, '[]' when none */
	char	   *metadata;		/* jsonb text or NULL */
	char	   *rule_set;		/* jsonb text or NULL */
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
} CatalogSchema;

typedef struct CatalogVersion
{
	int32		version;
	int32		schema_id;
	bool		deleted;
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
} CatalogVersion;

typedef struct CatalogRef
{
	char	   *name;
	char	   *subject;
	int32		version;		/* -1: latest */
} CatalogRef;

/*
 * A statement with typed parameters, prepared on first use and kept for the
 * backend's life.  catalog_run() executes it and checks the SPI result
 * code; the rows are in SPI_tuptable.
 */
#define CATALOG_MAX_ARGS 10

typedef struct CatalogPlan
{
	const char *sql;
	int			nargs;
	Oid			argtypes[CATALOG_MAX_ARGS];
	void	   *plan;			/* SPIPlanPtr */
} CatalogPlan;

extern void catalog_run(CatalogPlan *p, Datum *values, const char *nulls,
						int expected);

extern void catalog_ensure_context(const char *context);
extern int32 catalog_lock_subject(const char *context, const char *subject);
extern int32 catalog_next_schema_id(const char *context);
extern void catalog_advance_schema_id(const char *context, int32 id);

extern bool catalog_find_version_by_fingerprint(const char *context, const char *subject,
												const uint8 *fingerprint, bool include_deleted,
												CatalogVersion *out);
extern int32 catalog_find_schema_in_subject(const char *context, const char *subject,
											 const uint8 *fingerprint, bool include_deleted,
											 CatalogVersion *version);
extern bool catalog_get_schema(const char *context, int32 id, CatalogSchema *out);
extern bool catalog_insert_schema(const CatalogSchema *schema);
extern void catalog_insert_version(const char *context, const char *subject,
								   int32 version, int32 schema_id);
extern CatalogVersion *catalog_versions(const char *context, const char *subject,
										bool include_deleted, int *n);
extern bool catalog_latest_version(const char *context, const char *subject,
								   CatalogVersion *out);
extern bool catalog_get_version(const char *context, const char *subject, int32 version,
								bool include_deleted, CatalogVersion *out);
extern bool catalog_subject_has_versions(const char *context, const char *subject,
										 bool include_deleted);

typedef struct CatalogSettings
{
	char	   *mode;
	char	   *compatibility;
	bool		normalize;
} CatalogSettings;

extern void catalog_effective_settings(const char *context, const char *subject,
									   CatalogSettings *out);
extern bool catalog_effective_normalize(const char *context, const char *subject);
extern bool catalog_scope_has_live_versions(const char *context, const char *subject);

extern CatalogRef *catalog_parse_refs(const char *refs_json, int *n);
extern char *catalog_refs_to_json(const CatalogRef *refs, int n);

/* catalog_rest.c: the SQL API calls of the REST routes */
extern CatalogPlan rest_plan_schema_by_id;
extern CatalogPlan rest_plan_schema_serialized;
extern CatalogPlan rest_plan_max_id;
extern CatalogPlan rest_plan_schema_versions;
extern CatalogPlan rest_plan_list_schemas;
extern CatalogPlan rest_plan_subjects;
extern CatalogPlan rest_plan_versions;
extern CatalogPlan rest_plan_get_version;
extern CatalogPlan rest_plan_referenced_by;
extern CatalogPlan rest_plan_delete_version;
extern CatalogPlan rest_plan_delete_subject;
extern CatalogPlan rest_plan_register;
extern CatalogPlan rest_plan_lookup;
extern CatalogPlan rest_plan_check;
extern CatalogPlan rest_plan_get_config;
extern CatalogPlan rest_plan_set_config;
extern CatalogPlan rest_plan_delete_config;
extern CatalogPlan rest_plan_get_mode;
extern CatalogPlan rest_plan_set_mode;
extern CatalogPlan rest_plan_delete_mode;
extern CatalogPlan rest_plan_contexts;
extern CatalogPlan rest_plan_cluster_id;

#endif							/* CATALOG_H */
