/*-------------------------------------------------------------------------
 *
 * dek_service.h
 *	  Confluent's DEK registry operations (dek_service.c), for the REST
 *	  routes (rest_dek_routes.c) and the SQL functions (dek_sql.c) alike.
 *	  Each answers Confluent's JSON (a Kek, a Dek, or a list) as text, or
 *	  raises the DEK registry's errors below.
 *
 *-------------------------------------------------------------------------
 */
#ifndef DEK_SERVICE_H
#define DEK_SERVICE_H

#include "nodes/pg_list.h"
#include "utils/jsonb.h"

/* the DEK registry's error codes, as SQLSTATEs (errors.c maps them back) */
#define ERRCODE_REGISTRY_KEY_NOT_FOUND			MAKE_SQLSTATE('R','0','4','7','0')
#define ERRCODE_REGISTRY_KEY_NOT_SOFT_DELETED	MAKE_SQLSTATE('R','0','4','7','1')
#define ERRCODE_REGISTRY_KEY_SOFT_DELETED		MAKE_SQLSTATE('R','0','4','7','2')
#define ERRCODE_REGISTRY_KEY_EXISTS				MAKE_SQLSTATE('R','0','9','7','1')
#define ERRCODE_REGISTRY_KEY_INVALID			MAKE_SQLSTATE('R','2','2','7','1')
#define ERRCODE_REGISTRY_KEY_REFERENCED			MAKE_SQLSTATE('R','2','2','7','2')
#define ERRCODE_REGISTRY_DEK_GENERATION			MAKE_SQLSTATE('S','0','0','7','0')

/* the function whose EXECUTE privilege shows a shared KEK's DEKs in clear */
#define DEK_KEY_MATERIAL_GATE "registry.dek_key_material(text,text,text,text)"

extern char *registry_kek_list(bool deleted, List *subject_prefixes);
extern char *registry_kek_get(const char *name, bool deleted);
extern char *registry_kek_create(Jsonb *request);
extern char *registry_kek_update(const char *name, Jsonb *request);
extern void registry_kek_delete(const char *name, bool permanent);
extern void registry_kek_undelete(const char *name);
extern char *registry_kek_test(const char *name);

extern char *registry_dek_subjects(const char *kek_name, bool deleted);
extern char *registry_dek_versions(const char *kek_name, const char *subject,
								   const char *algorithm, bool deleted);
extern char *registry_dek_get(const char *kek_name, const char *subject, const char *version,
							  const char *algorithm, bool deleted);
extern char *registry_dek_create(const char *kek_name, const char *subject, Jsonb *request);
extern void registry_dek_delete(const char *kek_name, const char *subject, const char *version,
								const char *algorithm, bool permanent);
extern void registry_dek_undelete(const char *kek_name, const char *subject,
								  const char *version, const char *algorithm);
extern bytea *registry_dek_key_material(const char *kek_name, const char *subject,
										const char *version, const char *algorithm);

/* The checks of a KEK's name and a DEK's subject (42271), for the triggers too. */
extern void registry_check_kek_name(const char *name);
extern void registry_check_dek_subject(const char *subject);
extern void registry_check_dek_algorithm(const char *algorithm);

#endif							/* DEK_SERVICE_H */
