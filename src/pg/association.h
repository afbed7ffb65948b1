/*-------------------------------------------------------------------------
 *
 * association.h
 *	  Confluent's association operations (association_service.c), for the
 *	  REST routes and the SQL functions alike, and the refusals their
 *	  trigger shares (association_triggers.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef ASSOCIATION_H
#define ASSOCIATION_H

#include "nodes/pg_list.h"
#include "utils/jsonb.h"

/* Which associations a read asks for: NULL members do not filter. */
typedef struct AssociationFilter
{
	const char *resource_type;	/* NULL or "": topic */
	List	   *association_types;	/* of char *; NIL: any */
	const char *lifecycle;		/* STRONG, WEAK or NULL */
	int			offset;
	int			limit;			/* below 1: all */
} AssociationFilter;

/* The lifecycles GET /schemas asks for (bits; 0: any association). */
#define ASSOCIATION_LIFECYCLE_STRONG	0x01
#define ASSOCIATION_LIFECYCLE_WEAK		0x02
#define ASSOCIATION_LIFECYCLE_NONE		0x04	/* no association at all */

extern int	association_lifecycle_bit(const char *name);
extern char *registry_associations_by_subject(const char *subject, const AssociationFilter *f);
extern bool registry_subject_passes_associations(const char *context, const char *subject,
												 const AssociationFilter *f, int lifecycles,
												 char **json);
extern char *registry_associations_by_resource_name(const char *resource_name,
													const char *resource_namespace,
													const AssociationFilter *f);
extern char *registry_associations_by_resource_id(const char *resource_id,
												  const AssociationFilter *f);
extern char *registry_create_association(Jsonb *request, const char *path_resource_id,
										 const char *context, bool dry_run, bool upsert);
extern void registry_delete_associations(const char *resource_id, const char *resource_type,
										 List *association_types, bool cascade, bool dry_run);
extern char *registry_batch_get_associations(Jsonb *request, bool include_schemas);
extern char *registry_mutate_associations(Jsonb *request, const char *context, bool dry_run);

/* the longest resource name, namespace or id (bytes): two fit in an index key */
#define ASSOCIATION_MAX_NAME_BYTES 1000

/* 42212 unless a resource name, namespace or id is given and not too long. */
extern void association_check_name(const char *name, const char *property);

/* Confluent's refusals, naming what they refuse: 42212, 40903, 40908. */
extern void association_invalid(const char *property, const char *reason) pg_attribute_noreturn();
extern void association_exists(const char *association_type,
							   const char *resource) pg_attribute_noreturn();
extern void association_frozen(const char *association_type,
							   const char *qualified) pg_attribute_noreturn();

#endif							/* ASSOCIATION_H */
