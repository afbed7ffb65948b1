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
#include "utils/jsonb.h"

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
} RestCall;

typedef void (*RestHandler) (RestCall *c);

/* rest_routes.c: the handler for the request, or NULL (404, or 405) */
extern RestHandler rest_route(RestCall *c, bool *method_mismatch);

/* rest_routes.c: the route table, for the metrics' labels */
extern int	rest_route_count(void);
extern void rest_route_at(int i, const char **method, const char **pattern);
extern void rest_route_gate(int i, const char **gate, const char **operation);

/* rest_privileges.c: may the current user use the route? (else a 403) */
extern bool rest_route_permitted(RestCall *c);
extern void rest_route_denied(RestCall *c);

/* rest.c */
extern const char *rest_param(RestCall *c, const char *key);
extern bool rest_param_bool(RestCall *c, const char *key);
extern int	rest_param_int(RestCall *c, const char *key, int def);
extern bool rest_page_includes(RestCall *c, int index, int max_limit);
extern void rest_error(RestCall *c, int status, int code, const char *message);
extern void rest_note_read(RestCall *c, const char *context, int32 id, const char *subject);
extern bool rest_extension_missing(RestCall *c);
extern Jsonb *rest_body_object(RestCall *c);
extern JsonbValue *rest_body_member(Jsonb *jb, const char *key);
extern char *rest_body_member_json(Jsonb *jb, const char *key);

#endif							/* REST_INTERNAL_H */
