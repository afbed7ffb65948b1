/*-------------------------------------------------------------------------
 *
 * catalog.h
 *	  The catalog module: the only C code that reads or writes the registry's
 *	  tables.  One file per table owns its reads and writes
 *	  (catalog_schemas.c, catalog_versions.c, catalog_subjects.c,
 *	  catalog_contexts.c, catalog_settings.c for config and modes,
 *	  catalog_schema_references.c; catalog_references.c the references'
 *	  JSON); they read through
 *	  catalog_rel.c (index scans, columns by Anum_ constants) and write
 *	  through catalog_spi.c (SQL statements, which fire the tables'
 *	  triggers).  catalog_fence.c moves ids past a promotion.  The
 *	  services (read_service.c, schema_service.c, registration.c, ...)
 *	  read and write only through these functions; the REST routes and the
 *	  SQL functions call the services.
 *
 * Every function here connects to SPI itself (when it uses SPI) and
 * finishes before it returns (inside another SPI connection too: they
 * nest), so callers never connect.  What a function returns -- structs it fills, strings, arrays,
 * Lists -- is allocated in the memory context that was current when it was
 * called, captured before it connects; nothing returned lives in SPI's
 * memory.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CATALOG_H
#define CATALOG_H

#include "datatype/timestamp.h"
#include "nodes/pg_list.h"
#include "utils/jsonb.h"

#define REGISTRY_FINGERPRINT_LEN 16

/* --- the registry's tables ---------------------------------------------------- */

/* the catalog's search_path for the whole session (a process serving only REST requests) */
extern void catalog_init_rest_process(void);

/* a fingerprint as a bytea value */
extern Datum catalog_fingerprint_datum(const uint8 *fp);
extern Datum catalog_bytes_datum(const uint8 *bytes, int len);

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
	TimestampTz created_at;		/* when the id was first registered */
	bool		parses_to_itself;	/* schema is its own stored form, parsed
									 * without normalize and references */
	bool		normalizes_to_itself;	/* ... and with normalize */
} CatalogSchema;

typedef struct CatalogVersion
{
	int32		version;
	int32		schema_id;
	bool		deleted;
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
	TimestampTz created_at;		/* when the version was registered */
} CatalogVersion;

typedef struct CatalogRef
{
	char	   *name;
	char	   *subject;
	int32		version;		/* -1: latest */
} CatalogRef;

extern int32 catalog_lock_subject(const char *context, const char *subject);
extern int32 catalog_lock_subject_latest(const char *context, const char *subject,
										 CatalogSchema *latest, bool *has_latest);
extern int32 catalog_next_schema_id(const char *context);

/* catalog_fence.c: the GUC of the ids left unused after a promotion */
extern void registry_init_id_fence(void);
extern void catalog_advance_schema_id(const char *context, const char *subject, int32 id);
extern void catalog_raise_id_floor(const char *context, int32 id);

extern bool catalog_find_version_by_fingerprint(const char *context, const char *subject,
												const uint8 *fingerprint, bool include_deleted,
												CatalogVersion *out);
extern int32 catalog_find_schema_in_subject(const char *context, const char *subject,
											const uint8 *fingerprint, bool include_deleted,
											CatalogVersion *version);
extern bool catalog_subject_version_of_schema(const char *context, const char *subject,
											  int32 id, bool include_deleted,
											  CatalogVersion *out);
extern bool catalog_version_by_text_key(const char *context, const char *subject,
										const uint8 *key, int keylen, bool include_deleted,
										CatalogVersion *out);
extern bool catalog_get_schema(const char *context, int32 id, CatalogSchema *out);
extern bool catalog_schema_by_fingerprint(const char *context, const uint8 *fingerprint,
										  CatalogSchema *out);
extern bool catalog_schema_any_context(int32 id, CatalogSchema *out);
extern CatalogSchema *catalog_schemas_by_fingerprint(const uint8 *fingerprint, int *n);
extern bool catalog_max_schema_id(const char *context, int32 *max_id);
extern bool catalog_latest_schema(const char *context, const char *subject,
								  CatalogSchema *out);
extern int32 catalog_insert_schema(const CatalogSchema *schema);
extern void catalog_insert_version(const char *context, const char *subject,
								   int32 version, int32 schema_id);
extern CatalogVersion *catalog_versions(const char *context, const char *subject,
										bool include_deleted, int *n);
extern bool catalog_latest_version(const char *context, const char *subject,
								   CatalogVersion *out);
extern List *catalog_version_numbers(const char *context, const char *subject,
									 bool deleted, bool deleted_only, bool as_negative,
									 int offset, int limit, bool *any);

/* A version with its schema's references, metadata and rule set (jsonb texts). */
typedef struct CatalogVersionRow
{
	CatalogVersion version;
	char	   *refs;
	char	   *metadata;
	char	   *rule_set;
} CatalogVersionRow;

extern CatalogVersionRow *catalog_versions_of_schema(const char *context, const char *subject,
													 bool include_deleted,
													 const char *schema_type,
													 const char *schema,
													 const uint8 *plain_fingerprint,
													 int *n);
extern bool catalog_get_version(const char *context, const char *subject, int32 version,
								bool include_deleted, CatalogVersion *out);
extern bool catalog_read_version(const char *context, const char *subject, int32 version,
								 bool include_deleted, CatalogVersion *out,
								 TimestampTz *created_at);
extern bool catalog_subject_has_versions(const char *context, const char *subject,
										 bool include_deleted);
extern void catalog_subject_version_kinds(const char *context, const char *subject,
										  bool *live, bool *deleted);

/* A row of registry.subject_versions, of any subject. */
typedef struct CatalogVersionEntry
{
	char	   *context;
	char	   *subject;
	int32		version;
	int32		schema_id;
	bool		deleted;
	TimestampTz created_at;
} CatalogVersionEntry;

/* a visitor of catalog_scan_versions(): false stops the scan */
typedef bool (*CatalogVersionVisitor) (const CatalogVersionEntry *entry, void *arg);

extern CatalogVersionEntry *catalog_versions_of_id(const char *context, int32 id, int *n);
extern void catalog_scan_versions(const char *context, CatalogVersionVisitor visit, void *arg);
extern void catalog_scan_versions_of_id(const char *context, int32 id,
										CatalogVersionVisitor visit, void *arg);
extern void catalog_scan_versions_from(const char *context, const char *from_context,
									   const char *from_subject, CatalogVersionVisitor visit,
									   void *arg);

/*
 * catalog_directory.c: a subject that has versions, and how many of each
 * kind, as the subject directory keeps it
 */
typedef struct CatalogSubjectCount
{
	char	   *context;
	char	   *subject;
	int32		live;			/* live versions */
	int32		deleted;		/* soft-deleted versions */
} CatalogSubjectCount;

/* why a listing asks for the subject directory, which decides whether it is built */
typedef enum CatalogDirectoryNeed
{
	CATALOG_DIRECTORY_IF_KEPT,	/* a short walk: only one already kept */
	CATALOG_DIRECTORY_DEEP,		/* a deep page: built if need be */
	CATALOG_DIRECTORY_WHOLE		/* a whole listing: built in the REST API's
								 * workers, whose listings repeat */
} CatalogDirectoryNeed;

extern const CatalogSubjectCount *catalog_subject_directory(CatalogDirectoryNeed need, int *n);

/*
 * A listing that would walk more rows than this to reach its page has the
 * directory built (a build costs about a walk of the whole listing)
 */
#define CATALOG_DIRECTORY_WALK_MAX 1000

/* catalog_schema_references.c: the references of each schema as rows */
typedef struct CatalogReferenceRow
{
	const char *context;
	int32		schema_id;
	int32		position;
	const char *name;
	const char *ref_subject;
	int32		ref_version;
} CatalogReferenceRow;

extern List *catalog_referencing_ids(const char *context, const char *subject, int32 version);
extern void catalog_insert_schema_references(const char *context, int32 id, const char *refs);
extern bool catalog_schema_reference_exists(const CatalogReferenceRow *row);

/* A row of registry.subjects. */
typedef struct CatalogSubjectName
{
	char	   *context;
	char	   *subject;
} CatalogSubjectName;

extern CatalogSubjectName *catalog_subject_names(int *n);

typedef struct CatalogSettings
{
	char	   *mode;
	char	   *compatibility;
	bool		normalize;
	char	   *policy;			/* compatibilityPolicy, upper-cased: STRICT
								 * (the default), LENIENT, ... */
	bool		validate_fields;	/* validateFields: check
									 * confluent:reserved */
	char	   *compatibility_group;	/* compatibilityGroup, or NULL */
	char	   *lint;			/* the registry's own "lint": NONE (the
								 * default), WARN or FAIL, upper-cased */
	char	   *lint_rules;		/* "lintRules": which lints, or NULL (the
								 * DATA_LOSS ones) */
	char	   *default_metadata;	/* the data contract defaults and
									 * overrides (JSON text), or NULL */
	char	   *override_metadata;
	char	   *default_rule_set;
	char	   *override_rule_set;
} CatalogSettings;

/* config_scope.c: the settings in force, merged from catalog_scope_rows() */
extern void catalog_effective_settings(const char *context, const char *subject,
									   CatalogSettings *out);
extern char *catalog_config_in_force(const char *context, const char *subject);

/* One row of registry.config, one of registry.modes. */
typedef struct CatalogConfigRow
{
	char	   *context;
	char	   *subject;
	char	   *compatibility;	/* or NULL */
	bool		has_normalize;
	bool		normalize;
	char	   *settings;		/* jsonb text */
} CatalogConfigRow;

typedef struct CatalogModeRow
{
	char	   *context;
	char	   *subject;
	char	   *mode;
} CatalogModeRow;

/* The config and mode rows that can be in force for a subject. */
typedef struct CatalogScopeRows
{
	CatalogConfigRow *config;
	int			n_config;
	CatalogModeRow *mode;
	int			n_mode;
} CatalogScopeRows;

extern void catalog_scope_rows(const char *context, const char *subject,
							   CatalogScopeRows *out);

/* registry.scope_cache_size (kB), and its definition from _PG_init (scope_cache.c) */
extern int	registry_scope_cache_size;
extern void registry_init_scope_cache(void);
extern bool catalog_scope_has_live_versions(const char *context, const char *subject);
extern char **catalog_context_subject_modes(const char *context, int *n);

/* catalog_changes.c: the writes of the config, mode and delete operations */
extern void catalog_write_config(const char *context, const char *subject, const char *level,
								 const bool *normalize, const char *request,
								 CatalogConfigRow *stored);
extern bool catalog_delete_config(const char *context, const char *subject,
								  CatalogConfigRow *old);
extern void catalog_write_mode(const char *context, const char *subject, const char *mode);
extern char *catalog_delete_mode(const char *context, const char *subject);
extern void catalog_delete_subject_modes(const char *context);
extern void catalog_soft_delete_version(const char *context, const char *subject, int32 version);
extern void catalog_hard_delete_version(const char *context, const char *subject, int32 version);
extern bool catalog_lock_existing_subject(const char *context, const char *subject);
extern bool catalog_version_referenced(const char *context, const char *subject, int32 version,
									   bool live_only);
extern void catalog_remove_unused(const char *context, const char *subject, int32 schema_id);
extern Oid	catalog_context_id_sequence(const char *context);

/* An association row (catalog_associations.c). */
typedef struct CatalogAssociation
{
	char	   *resource_type;
	char	   *resource_id;
	char	   *association_type;
	char	   *resource_name;
	char	   *resource_namespace;
	char	   *context;
	char	   *subject;		/* in its context */
	char	   *lifecycle;
	bool		frozen;
	TimestampTz created_at;
	TimestampTz updated_at;
} CatalogAssociation;

extern CatalogAssociation *catalog_associations_by_id(const char *resource_type,
													  const char *resource_id, int *n);
extern CatalogAssociation *catalog_associations_by_name(const char *resource_name,
														const char *resource_namespace,
														int *n);
extern CatalogAssociation *catalog_associations_by_subject(const char *context,
														   const char *subject, int *n);
extern void catalog_insert_association(const CatalogAssociation *a);
extern void catalog_update_association(const CatalogAssociation *a);
extern void catalog_delete_association(const char *resource_type, const char *resource_id,
									   const char *association_type);

/* catalog_audit.c: one row of registry.audit, as the triggers and the REST worker give it */
typedef struct CatalogAuditRow
{
	const char *role;			/* NULL: refused before it ran as a role */
	const char *http_user;
	const char *http_peer;
	const char *operation;
	const char *context;
	const char *subject;
	bool		has_version;
	int32		version;
	bool		has_schema_id;
	int32		schema_id;
	const char *result;
	Jsonb	   *before;			/* or NULL */
	Jsonb	   *after;
} CatalogAuditRow;

/* catalog_fields.c: the field index */
typedef struct CatalogSchemaKey
{
	char	   *context;
	int32		id;
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
} CatalogSchemaKey;

extern void catalog_put_schema_fields(const char *context, int32 id, Datum fields,
									  bool truncated, bool replace);
extern bool catalog_schema_fields_exist(const char *context, int32 id);

/* catalog_changes.c: DELETE /contexts/{context} */
extern bool catalog_lock_context(const char *context, bool *has_versions);
extern void catalog_delete_context(const char *context);
extern int	catalog_schema_keys_after(const char *context, int32 id, int limit,
									  CatalogSchemaKey **out);

extern int64 catalog_audit_insert(const CatalogAuditRow *row);
extern uint64 catalog_audit_purge(TimestampTz cutoff, int limit);

/* catalog_usage.c: one schema id's or subject's reads, added to registry.schema_reads or subject_reads */
#define CATALOG_USAGE_MAX_READERS 4
#define CATALOG_USAGE_NAME_MAX 256
typedef struct CatalogUsageRow
{
	char	   *context;
	int32		id;				/* a schema's */
	char	   *subject;		/* a subject's, unqualified; NULL for a schema */
	int64		reads;
	int64		unlisted_reads;
	TimestampTz last_read;
	int			nreaders;
	char	   *readers[CATALOG_USAGE_MAX_READERS];
} CatalogUsageRow;

extern void catalog_usage_add(const CatalogUsageRow *rows, int n, bool subjects);

/* config_scope.c: one config row as Confluent's Config object (JSON text) */
extern char *catalog_config_row_json(const CatalogConfigRow *row, const char *level_key);

/* how many subject versions use schemas of one type, and how many of them are soft-deleted */
typedef struct CatalogTypeCount
{
	char	   *schema_type;
	int64		versions;
	int64		deleted;
} CatalogTypeCount;

extern CatalogTypeCount *catalog_schema_type_counts(int *n);

extern CatalogRef *catalog_parse_refs(const char *refs_json, int *n);
extern char *catalog_refs_to_json(const CatalogRef *refs, int n);

/* the alias in a subject's own config, or NULL */
extern char *catalog_subject_alias(const char *context, const char *subject);

/* A subject whose own config names an alias. */
typedef struct CatalogAlias
{
	char	   *context;
	char	   *subject;
	char	   *alias;
} CatalogAlias;

extern CatalogAlias *catalog_subject_aliases(int *n);

/* --- what the operations take and answer (the services, REST and SQL) --- */

/*
 * One schema as an operation answers it (registry.subject_version's shape,
 * with its guid and when it was registered): get_version, list_schemas,
 * lookup_schema, register_schema_version (no subject) and schema_by_id
 * (a subject and version only when asked with a subject).
 */
typedef struct CatalogSchemaRow
{
	char	   *subject;		/* context-qualified, or NULL */
	int32		version;		/* 0 when the call has none */
	int32		id;
	char	   *schema_type;
	char	   *schema;
	char	   *refs;			/* jsonb text */
	char	   *metadata;		/* jsonb text or NULL */
	char	   *rule_set;		/* jsonb text or NULL */
	bool		deleted;
	char	   *guid;			/* Confluent's guid (the fingerprint as a
								 * UUID) */
	char	   *context;		/* the schema's context: schema_by_id and
								 * schema_by_guid only */
	bool		has_ts;			/* ts is known */
	int64		ts;				/* when the version (or the schema) was
								 * registered, in ms since the epoch */
	char	   *aliases;		/* list_schemas_with_aliases: a JSON array of
								 * the subjects aliased to it, or NULL */
	char	   *associations;	/* a listing by association: a JSON array of
								 * its subject's associations, or NULL */
} CatalogSchemaRow;

/* A schema submitted to register, look up or check. */
typedef struct CatalogSubmission
{
	const char *schema;
	const char *schema_type;
	const char *refs;			/* jsonb text */
	const char *metadata;		/* jsonb text or NULL */
	const char *rule_set;		/* jsonb text or NULL */
	bool		normalize;
	int32		id;				/* registration only; 0: allocate one */
	int32		version;		/* registration only; 0: the next one */
	const char *tags_to_add;	/* registration only: schemaTagsToAdd, or NULL */
	const char *tags_to_remove; /* registration only: schemaTagsToRemove */
	bool		propagate_tags; /* registration only: propagateSchemaTags */
	bool		force;			/* registration only: force=true, no
								 * compatibility check */
} CatalogSubmission;

/* Confluent's TagSchemaRequest (POST /subjects/{s}/versions/{v}/tags); jsonb texts or NULL. */
typedef struct CatalogTagRequest
{
	bool		has_new_version;
	int32		new_version;
	const char *tags_to_add;
	const char *tags_to_remove;
	const char *metadata;
	const char *rule_set;
	const char *rules_to_merge;
	const char *rules_to_remove;
} CatalogTagRequest;

/* A (subject, version) that uses a schema id. */
typedef struct CatalogSubjectVersion
{
	char	   *subject;
	int32		version;
} CatalogSubjectVersion;

/* check_compatibility's verdict. */
typedef struct CatalogCompatibility
{
	bool		is_compatible;
	bool		has_messages;	/* messages is not SQL NULL */
	List	   *messages;		/* of char * */
} CatalogCompatibility;

#endif							/* CATALOG_H */
