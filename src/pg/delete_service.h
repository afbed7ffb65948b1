/*-------------------------------------------------------------------------
 *
 * delete_service.h
 *	  Confluent's delete operations, for the REST routes and the SQL
 *	  functions alike (delete_service.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELETE_SERVICE_H
#define DELETE_SERVICE_H

#include "nodes/pg_list.h"

extern int32 registry_delete_version(const char *named, const char *version, bool permanent);
extern List *registry_delete_subject(const char *named, bool permanent);

/* DELETE /contexts/{context}: an empty context removed */
extern void registry_delete_context(const char *named);

#endif							/* DELETE_SERVICE_H */
