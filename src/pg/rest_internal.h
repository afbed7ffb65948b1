/*-------------------------------------------------------------------------
 *
 * rest_internal.h
 *	  Shared between rest.c (parsing, errors, dispatch) and rest_routes.c
 *	  (the routes).
 *
 *-------------------------------------------------------------------------
 */
#ifndef REST_INTERNAL_H
#define REST_INTERNAL_H

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "utils/jsonb.h"

#include "privileges.h"
#include "rest.h"

typedef struct RestParam
{
	char	   *key;
	char	   *value;
} RestParam;

typedef struct RestCall
{
	const RestRequest *req;
	char	  **seg;			/* percent-decoded path segments */
	int			nseg;
	RestParam  *params;			/* decoded query parameters */
	int			nparams;
	bool		nul_in_path;	/* a segment decodes to a NUL byte */
	char	   *nul_segment;	/* that segment, still encoded */
	bool		nul_in_query;	/* a query key or value does */

	/* what the route is about, for Confluent's error messages */
	char	   *subject;		/* as the client named it */
	char	   *version;
	char	   *schema_id;
	bool		lookup;			/* 40403 reads "Schema not found" */
	RegistryRead read;			/* the schema id and subject a read answered */

	int			route;			/* index of the matched route, -1 if none */
	bool		plain_text;		/* the route answers text, whatever Accept
								 * says */

	StringInfoData out;			/* response body */
	const char *content_type;	/* NULL: REST_CONTENT_TYPE */
	int			status;
	int			sqlerrcode;		/* SQLSTATE of the route's error, or 0 */
	bool		streamed;		/* pieces of out went to the sink */
} RestCall;

typedef void (*RestHandler) (RestCall *c);

/* rest.c: a long answer so far to the sink, if there is one (rest.h) */
extern void rest_flush(RestCall *c);

/* rest_routes.c: the handler for the request, or NULL (404, or 405) */
extern RestHandler rest_route(RestCall *c, bool *method_mismatch);

/* rest_routes.c: the route table, for the metrics' labels */
extern int	rest_route_count(void);
extern void rest_route_at(int i, const char **method, const char **pattern);
extern RegistryOperation rest_route_operation(int i);

/* rest_routes.c: the operations a call serves (its route's, or its query's variant) */
#define REST_CALL_MAX_OPERATIONS 2
extern int	rest_call_operations(RestCall *c, RegistryOperation *ops);

/* rest_associations.c: the association routes */
extern void h_associations_by_subject(RestCall *c);
extern void h_associations_by_resource_name(RestCall *c);
extern void h_associations_by_resource_id(RestCall *c);
extern void h_associations_create(RestCall *c);
extern void h_associations_upsert(RestCall *c);
extern void h_associations_delete(RestCall *c);
extern void h_associations_batch_get(RestCall *c);
extern void h_associations_batch_mutate(RestCall *c);

/* rest_privileges.c: may the current user use the route? (else a 403) */
extern bool rest_route_permitted(RestCall *c);
extern void rest_route_denied(RestCall *c);

/* rest_dek_routes.c: the DEK registry's routes */
extern void rest_keks_list(RestCall *c);
extern void rest_kek_create(RestCall *c);
extern void rest_kek_get(RestCall *c);
extern void rest_kek_update(RestCall *c);
extern void rest_kek_delete(RestCall *c);
extern void rest_kek_undelete(RestCall *c);
extern void rest_kek_test(RestCall *c);
extern void rest_deks_list(RestCall *c);
extern void rest_dek_create(RestCall *c);
extern void rest_dek_get(RestCall *c);
extern void rest_dek_versions(RestCall *c);
extern void rest_dek_delete(RestCall *c);
extern void rest_dek_undelete(RestCall *c);

/* rest.c */
extern const char *rest_param(RestCall *c, const char *key);
extern bool rest_param_bool(RestCall *c, const char *key);
extern List *rest_param_list(RestCall *c, const char *key);
extern int	rest_param_int(RestCall *c, const char *key, int def);
extern void rest_page(RestCall *c, int max_limit, int *offset, int *limit);
extern bool rest_page_includes(RestCall *c, int index, int max_limit);
extern void rest_error(RestCall *c, int status, int code, const char *message);
extern void rest_note_read(RestCall *c, const char *context, int32 id, const char *subject);
extern bool rest_extension_missing(RestCall *c);
extern Jsonb *rest_body_object(RestCall *c);
extern JsonbValue *rest_body_member(Jsonb *jb, const char *key);
extern char *rest_body_member_json(Jsonb *jb, const char *key);

#endif							/* REST_INTERNAL_H */
