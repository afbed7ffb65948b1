/*-------------------------------------------------------------------------
 *
 * rest.h
 *	  registry_rest(): the Confluent Schema Registry REST API as one C entry
 *	  point.  The HTTP worker is a transport around it; registry.rest()
 *	  exposes it to SQL so the REST semantics are testable without a
 *	  socket, and any HTTP front that can call SQL gets the whole API.
 *
 *-------------------------------------------------------------------------
 */
#ifndef REST_H
#define REST_H

#include "usage.h"

typedef struct RestRequest
{
	const char *method;			/* "GET", "POST", ... */
	const char *path;			/* raw (still percent-encoded) path */
	const char *query;			/* raw query string without '?', or NULL */
	const char *content_type;	/* request Content-Type, or NULL */
	const char *accept;			/* request Accept, or NULL */
	const char *body;			/* request body, or NULL */
	size_t		body_len;
} RestRequest;

typedef struct RestResponse
{
	int			status;			/* HTTP status */
	char	   *body;			/* palloc'd, NUL-terminated */
	size_t		body_len;
	const char *content_type;
	int			sqlerrcode;		/* the route's SQLSTATE when it failed, else 0 */
	int			route;			/* the route's index (metrics.h), -1 if none
								 * matched */
	RegistryRead read;			/* what a 200 answered about (usage.h) */
	bool		streamed;		/* the answer went to the sink in pieces: body
								 * is its last piece (a status other than 200:
								 * it broke off) */
} RestResponse;

/*
 * Where a listing's answer goes, in pieces of REST_STREAM_PIECE bytes or
 * more, while it is made, when the caller can send a piece on before the
 * answer is whole (the pool worker): the first piece comes with the
 * answer's status and content type (head), the last is the body
 * registry_rest() leaves.  send() throws when the piece cannot go (the
 * request went away, or its client reads too slowly).  Without a sink
 * (NULL) every answer is made whole.
 */
typedef struct RestSink
{
	void		(*send) (void *arg, const RestResponse *head, const char *data, size_t len);
	void	   *arg;
} RestSink;

#define REST_STREAM_PIECE (64 * 1024)

extern void registry_rest_set_sink(const RestSink *sink);

#define REST_CONTENT_TYPE "application/vnd.schemaregistry.v1+json"

/*
 * Answer one request.  Must run inside a transaction; it never throws for a
 * request error (those become Confluent error bodies), and runs the route
 * in a subtransaction so a failed route leaves nothing behind.
 */
extern void registry_rest(const RestRequest *req, RestResponse *resp);

/*
 * Prepare a process that serves only REST requests (the HTTP worker, once
 * connected): the catalog's search_path is set for the session, so that no
 * request pins and unpins it.
 */
extern void registry_rest_session_init(void);

/* the index of the route with this method and pattern, -1 if none */
extern int	registry_rest_route_index(const char *method, const char *pattern);

/*
 * May role use route (an index as registry_rest_route_index gives)?  The
 * privilege of the operation it serves decides (privileges.c); inside a
 * transaction.
 */
extern bool registry_rest_route_permitted(int route, Oid role);

/*
 * The route a request names (its index, as registry_rest_route_index
 * gives), without running it; -1 when none.
 */
extern int	registry_rest_route_of(const RestRequest *req);

/*
 * The write route a request names (one that registers, deletes or alters a
 * config or mode), and the subject and version segments of its path as the
 * route reads them (NULL where it has none): for the audit of a failed
 * write.  -1 when the request names no write route.
 */
extern int	registry_rest_write_target(const RestRequest *req, char **subject,
									   char **version);

/* Does an Accept header allow the JSON types the API produces? */
extern bool registry_rest_accept_ok(const char *accept);

#endif							/* REST_H */
