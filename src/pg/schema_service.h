/*-------------------------------------------------------------------------
 *
 * schema_service.h
 *	  Confluent's /schemas operations, for the REST routes and the SQL
 *	  functions alike (schema_service.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCHEMA_SERVICE_H
#define SCHEMA_SERVICE_H

#include "catalog.h"

/*
 * A schema by id or guid as registry.schema_info has it: the schema (its
 * context, its registration time) and, when a subject picked one, the
 * subject version that uses it.
 */
typedef struct SchemaInfo
{
	CatalogSchema schema;
	char	   *subject;		/* qualified, or NULL: no version */
	int32		version;
	bool		deleted;
	TimestampTz registered_at;	/* the version's, else the schema's */
} SchemaInfo;

/* What GET /schemas lists, and which page of it. */
typedef struct SchemaListing
{
	const char *prefix;			/* subjectPrefix; NULL or ":*:" for all */
	bool		deleted;		/* soft-deleted versions too */
	bool		latest_only;	/* the latest (listed) version of each subject */
	bool		aliases;		/* with the subjects aliased to each, and the
								 * aliased subjects outside the prefix */
	const char *rule_type;		/* only schemas with a rule of this type, or
								 * NULL */
	bool		by_association; /* only subjects that pass the association
								 * filter (each row then with its subject's
								 * associations) */
	const char *resource_type;	/* by_association: NULL or "": topic */
	List	   *association_types;	/* by_association: of char *; NIL: any */
	int			lifecycles;		/* by_association: ASSOCIATION_LIFECYCLE_*
								 * bits; 0: any association */
	int			offset;
	int			limit;			/* <= 0: no limit */
	/* each row of the page as it is read (its memory goes after), or NULL */
	void		(*emit) (const CatalogSchemaRow *row, void *arg);
	void	   *emit_arg;
} SchemaListing;

extern void registry_schema_by_id(int32 id, const char *subject, SchemaInfo *out);
extern void registry_schema_by_guid(const uint8 *guid, SchemaInfo *out);
extern CatalogSchema *registry_schema_ids_by_guid(const uint8 *guid, int *n);
extern List *registry_schema_versions(int32 id, const char *subject, bool deleted,
									  bool subjects_only, int offset, int limit);
extern bool registry_max_schema_id(const char *subject, int32 *max_id);
extern List *registry_list_schemas(const SchemaListing *q);
extern void registry_schema_info_row(const SchemaInfo *info, CatalogSchemaRow *out);
extern char *registry_cluster_id(void);

#endif							/* SCHEMA_SERVICE_H */
