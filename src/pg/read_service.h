/*-------------------------------------------------------------------------
 *
 * read_service.h
 *	  Confluent's read operations, for the REST routes and the SQL
 *	  functions alike (read_service.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef READ_SERVICE_H
#define READ_SERVICE_H

#include "access/htup.h"
#include "access/tupdesc.h"
#include "nodes/pg_list.h"
#include "utils/jsonb.h"

#include "catalog.h"

extern List *registry_versions(const char *named, bool deleted, bool deleted_only,
							   bool missing_ok, bool as_negative, int offset, int limit);

/* a name of a listing as it is read (its memory goes after) */
typedef void (*RegistryNameEmitter) (const char *name, void *arg);

extern List *registry_subjects(const char *prefix, bool deleted, bool deleted_only,
							   int offset, int limit);
extern void registry_subjects_each(const char *prefix, bool deleted, bool deleted_only,
								   int offset, int limit, RegistryNameEmitter emit, void *arg);
extern List *registry_contexts(const char *prefix);
extern List *registry_referenced_by(const char *named, const char *version_arg);
extern void registry_latest_with_metadata(const char *named, Jsonb *properties, bool deleted,
										  CatalogSchemaRow *out);

/* read_sql.c: a schema row as a registry.subject_version tuple */
extern HeapTuple registry_subject_version_tuple(TupleDesc desc, const CatalogSchemaRow *r);

#endif							/* READ_SERVICE_H */
