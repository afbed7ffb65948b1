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

#include "nodes/pg_list.h"

extern List *registry_versions(const char *named, bool deleted, bool deleted_only,
							   bool missing_ok, bool as_negative);

extern List *registry_subjects(const char *prefix, bool deleted, bool deleted_only);
extern List *registry_contexts(const char *prefix);

#endif							/* READ_SERVICE_H */
