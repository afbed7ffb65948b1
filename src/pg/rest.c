/*-------------------------------------------------------------------------
 *
 * rest.c
 *	  registry_rest(): request parsing, routing, Confluent error bodies and
 *	  the SQL-callable registry.rest().  The routes themselves are in
 *	  rest_routes.c; they call the C services the SQL functions wrap too,
 *	  so no rule lives here.
 *
 * Routing is on the raw path, each segment percent-decoded on its own, so
 * a subject containing "/" (sent as %2F) stays one segment.  A route runs
 * in a subtransaction: an ERROR inside it is caught, the subtransaction
 * rolled back, and the SQLSTATE mapped to Confluent's error_code by table
 * (registry_confluent_error_code), never by reading message text; the
 * words come from confluent_messages.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "catalog.h"
#include "confluent_messages.h"
#include "registry.h"
#include "rest.h"
#include "rg_json_text.h"
#include "rest_internal.h"
#include "subtransaction.h"

PG_FUNCTION_INFO_V1(registry_rest_sql);

/* Request content types Confluent consumes (application/octet-stream as JSON). */
static const char *const accepted_content_types[] = {
	"application/vnd.schemaregistry.v1+json",
	"application/vnd.schemaregistry+json",
	"application/json",
	"application/octet-stream",
	NULL
};

/* Response content types Confluent produces, in order of preference. */
static const char *const produced_content_types[] = {
	"application/vnd.schemaregistry.v1+json",
	"application/vnd.schemaregistry+json",
	"application/json",
	NULL
};

/* The value of a hex digit, or -1. */
static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Percent-decode len bytes of s (and '+' as space in a query string).  A
 * decoded NUL would cut the C string short, so *nul is set instead and the
 * request is refused before it is routed.
 */
static char *
percent_decode(const char *s, size_t len, bool plus_is_space, bool *nul)
{
	char	   *out = palloc(len + 1);
	size_t		i;
	size_t		o = 0;

	for (i = 0; i < len; i++)
	{
		if (s[i] == '%' && i + 2 < len &&
			hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0)
		{
			out[o] = (char) (hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
			if (out[o] == '\0')
				*nul = true;
			o++;
			i += 2;
		}
		else if (s[i] == '+' && plus_is_space)
			out[o++] = ' ';
		else
			out[o++] = s[i];
	}
	out[o] = '\0';
	return out;
}

/* Split the raw path into percent-decoded segments. */
static void
parse_path(RestCall *c, const char *path)
{
	const char *p = path;
	int			cap = 8;

	c->seg = palloc(sizeof(char *) * cap);
	c->nseg = 0;
	while (*p == '/')
		p++;
	while (*p)
	{
		const char *end = strchr(p, '/');
		size_t		len = end ? (size_t) (end - p) : strlen(p);

		if (c->nseg == cap)
		{
			cap *= 2;
			c->seg = repalloc(c->seg, sizeof(char *) * cap);
		}
		c->seg[c->nseg] = percent_decode(p, len, false, &c->nul_in_path);
		if (c->nul_in_path && c->nul_segment == NULL)
			c->nul_segment = pnstrdup(p, len);
		c->nseg++;
		if (!end)
			break;
		p = end + 1;
	}
}

/* Split the raw query string into decoded key/value parameters. */
static void
parse_query(RestCall *c, const char *query)
{
	const char *p = query;
	int			cap = 8;

	c->params = palloc(sizeof(RestParam) * cap);
	c->nparams = 0;
	if (query == NULL)
		return;
	while (*p)
	{
		const char *end = strchr(p, '&');
		size_t		len = end ? (size_t) (end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);

		if (len > 0)
		{
			if (c->nparams == cap)
			{
				cap *= 2;
				c->params = repalloc(c->params, sizeof(RestParam) * cap);
			}
			if (eq)
			{
				c->params[c->nparams].key = percent_decode(p, eq - p, true, &c->nul_in_query);
				c->params[c->nparams].value = percent_decode(eq + 1, len - (eq - p) - 1, true,
															 &c->nul_in_query);
			}
			else
			{
				c->params[c->nparams].key = percent_decode(p, len, true, &c->nul_in_query);
				c->params[c->nparams].value = pstrdup("");
			}
			c->nparams++;
		}
		if (!end)
			break;
		p = end + 1;
	}
}

/* A query parameter's value, or NULL when absent. */
const char *
rest_param(RestCall *c, const char *key)
{
	int			i;

	for (i = 0; i < c->nparams; i++)
		if (strcmp(c->params[i].key, key) == 0)
			return c->params[i].value;
	return NULL;
}

/* The values of a repeated query parameter, in order; NIL when none. */
List *
rest_param_list(RestCall *c, const char *key)
{
	List	   *values = NIL;

	for (int i = 0; i < c->nparams; i++)
		if (strcmp(c->params[i].key, key) == 0)
			values = lappend(values, c->params[i].value);
	return values;
}

/* JAX-RS boolean query parameters: "true" in any case; anything else false. */
bool
rest_param_bool(RestCall *c, const char *key)
{
	const char *v = rest_param(c, key);

	return v != NULL && pg_strcasecmp(v, "true") == 0;
}

/* An integer query parameter; def when absent or not a number. */
int
rest_param_int(RestCall *c, const char *key, int def)
{
	const char *v = rest_param(c, key);
	char	   *end;
	long		n;

	if (v == NULL || *v == '\0')
		return def;
	errno = 0;
	n = strtol(v, &end, 10);
	if (*end != '\0' || errno != 0 || n < PG_INT32_MIN || n > PG_INT32_MAX)
		return def;
	return (int) n;
}

/*
 * Confluent's offset and limit of the request, for a listing that pages
 * itself: offset at least 0; a limit of 0 or less (or above max_limit,
 * when that is not 0) means max_limit (0: no limit).
 */
void
rest_page(RestCall *c, int max_limit, int *offset, int *limit)
{
	*offset = rest_param_int(c, "offset", 0);
	*limit = rest_param_int(c, "limit", -1);
	if (*offset < 0)
		*offset = 0;
	if (max_limit > 0 && (*limit <= 0 || *limit > max_limit))
		*limit = max_limit;
	if (*limit < 0)
		*limit = 0;
}

/*
 * Confluent's offset/limit, applied after the full list is built (see
 * rest_page()).
 */
bool
rest_page_includes(RestCall *c, int index, int max_limit)
{
	int			offset;
	int			limit;

	rest_page(c, max_limit, &offset, &limit);
	if (index < offset)
		return false;
	return limit <= 0 || index < offset + limit;
}

/* --- JSON output ------------------------------------------------------- */

/* where long answers go while they are made; NULL: made whole */
static const RestSink *rest_sink = NULL;

/* See rest.h: the sink of the requests to come (NULL: none). */
void
registry_rest_set_sink(const RestSink *sink)
{
	rest_sink = sink;
}

/*
 * A listing's answer so far, once it is REST_STREAM_PIECE bytes or more,
 * to the sink (with the head the first time), and out emptied: the
 * memory of a long answer stays that of a piece.  Nothing without a sink
 * or for an answer that is not a 200.
 */
void
rest_flush(RestCall *c)
{
	RestResponse head;

	if (rest_sink == NULL || c->status != 200 || c->out.len < REST_STREAM_PIECE)
		return;
	memset(&head, 0, sizeof(head));
	head.status = c->status;
	head.route = c->route;
	head.content_type = c->content_type ? c->content_type : REST_CONTENT_TYPE;
	head.streamed = c->streamed;
	rest_sink->send(rest_sink->arg, &head, c->out.data, c->out.len);
	c->streamed = true;
	resetStringInfo(&c->out);
}

/* Replace the response with Confluent's error body {error_code, message}. */
void
rest_error(RestCall *c, int status, int code, const char *message)
{
	resetStringInfo(&c->out);
	appendStringInfo(&c->out, "{\"error_code\":%d,\"message\":", code);
	escape_json(&c->out, message);
	appendStringInfoChar(&c->out, '}');
	c->status = status;
}

/*
 * What a read answers about, for the read counts (usage.c): a schema id
 * in its context (id 0: none) and a qualified subject (NULL: none).  The
 * count is taken once the route has answered 200.
 */
void
rest_note_read(RestCall *c, const char *context, int32 id, const char *subject)
{
	c->read.context = context;
	c->read.id = id;
	c->read.subject = subject;
}

/* --- errors ------------------------------------------------------------- */

/*
 * Is the extension missing from the database the request runs in (the
 * library preloaded, CREATE EXTENSION not run, or the extension dropped)?
 * Then answer 503 with error_code 50301 saying so, and return true.
 */
bool
rest_extension_missing(RestCall *c)
{
	if (OidIsValid(get_extension_oid("registry", true)))
		return false;
	rest_error(c, 503, 50301,
			   psprintf("The registry extension is not installed in database \"%s\": run CREATE EXTENSION registry there",
						get_database_name(MyDatabaseId)));
	return true;
}

/*
 * Confluent's message for an error_code, from what the route knows (the
 * subject, version or id of the request) where Confluent's text names them,
 * else from the error's detail (which carries Confluent's words or the
 * parser's) or message.  The wording is confluent_messages.c's; which one
 * applies is decided by the error_code and the error's structure only.
 */
static char *
confluent_message(RestCall *c, int code, ErrorData *edata)
{
	const char *subject = c->subject ? c->subject : "";
	const char *version = c->version ? c->version : "";

	switch (code)
	{
		case 40401:
			return confluent_text(CW_SUBJECT_NOT_FOUND, subject);
		case 40402:
			return confluent_text(CW_VERSION_NOT_FOUND, version);
		case 40403:
			if (c->schema_id && !c->lookup)
				return confluent_text(CW_SCHEMA_ID_NOT_FOUND, c->schema_id);
			return confluent_text(CW_SCHEMA_NOT_FOUND);
		case 40404:
			return confluent_text(CW_SUBJECT_SOFT_DELETED, subject);
		case 40405:
			return confluent_text(CW_SUBJECT_NOT_SOFT_DELETED, subject);
		case 40406:
			return confluent_text(CW_VERSION_SOFT_DELETED, subject, version);
		case 40407:
			return confluent_text(CW_VERSION_NOT_SOFT_DELETED, subject, version);
		case 40408:
			return confluent_text(CW_SUBJECT_CONFIG_NOT_FOUND, subject);
		case 40409:
			return confluent_text(CW_SUBJECT_MODE_NOT_FOUND, subject);
		case 42201:
			/* a parser's error: Confluent's prefix, then the parser's words */
			if (registry_is_parser_error(edata))
				return confluent_text(CW_INVALID_SCHEMA, edata->detail);
			break;
		default:
			break;
	}
	if (edata->detail && edata->detail[0])
		return pstrdup(edata->detail);
	return pstrdup(edata->message ? edata->message : "Internal Server Error");
}

/* Turn a route's error into Confluent's error body and HTTP status. */
static void
report_error(RestCall *c, ErrorData *edata)
{
	int			code = registry_confluent_error_code(edata->sqlerrcode);
	int			status;

	c->sqlerrcode = edata->sqlerrcode;
	if (edata->sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE)
	{
		/*
		 * a privilege the route's SQL lacks: the route's 403, its reason
		 * logged
		 */
		ereport(LOG,
				(errmsg("registry REST request denied: %s", edata->message)));
		rest_route_denied(c);
		return;
	}
	if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
		edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
	{
		rest_error(c, 500, 50002, confluent_text(CW_OPERATION_TIMED_OUT));
		return;
	}
	if (PGUNSIXBIT(edata->sqlerrcode) != 'R' && PGUNSIXBIT(edata->sqlerrcode) != 'S' &&
		rest_extension_missing(c))
		return;					/* not the store failing: no store at all */
	if (PGUNSIXBIT(edata->sqlerrcode) != 'R' && PGUNSIXBIT(edata->sqlerrcode) != 'S')
	{
		/*
		 * Not a registry SQLSTATE: the store failed.  Its text (constraint
		 * names, SQL) goes to the server log, never to the client.  A write
		 * tried on a standby is no failure of the store: the HTTP worker
		 * forwards it to the primary.
		 */
		ereport(edata->sqlerrcode == ERRCODE_READ_ONLY_SQL_TRANSACTION &&
				RecoveryInProgress() ? DEBUG1 : LOG,
				(errmsg("registry REST request failed in the backend data store: %s",
						edata->message),
				 edata->detail ? errdetail_internal("%s", edata->detail) : 0));
		rest_error(c, 500, 50001, confluent_text(CW_STORE_ERROR));
		return;
	}
	status = code / 100;
	rest_error(c, status, code, confluent_message(c, code, edata));
}

typedef struct RouteCall
{
	RestCall   *c;
	RestHandler handler;
} RouteCall;

/* Run a route from registry_call_in_subtransaction(). */
static void
route_trampoline(void *arg)
{
	RouteCall  *rc = (RouteCall *) arg;

	rc->handler(rc->c);
}

/*
 * Run a route so that an ERROR becomes a Confluent error body and undoes
 * whatever the route had written.
 */
static void
run_route(RestCall *c, RestHandler handler)
{
	RouteCall	rc = {c, handler};
	ErrorData  *edata = registry_call_in_subtransaction(route_trampoline, &rc);

	if (edata)
	{
		report_error(c, edata);
		FreeErrorData(edata);
	}
}

/* --- request body ------------------------------------------------------ */

typedef struct JsonParse
{
	char	   *text;
	Jsonb	   *result;
} JsonParse;

/* Parse the body as jsonb, from registry_call_in_subtransaction(). */
static void
parse_json_body(void *arg)
{
	JsonParse  *jp = (JsonParse *) arg;

	jp->result = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(jp->text)));
}

/* Jackson's default nesting limit, which Confluent's request reader has */
#define REST_BODY_MAX_NESTING 1000

/*
 * Why a body is not JSON, with where: jansson's reading of it (a body
 * jansson reads but jsonb refuses holds a string PostgreSQL cannot store).
 */
static char *
json_failure(const char *text, size_t len)
{
	char		why[256];

	if (rg_json_syntax_error(text, len, why, sizeof(why)))
		return psprintf("Invalid JSON at %s", why);
	return pstrdup("Invalid JSON: a string holds a character that cannot be stored (\\u0000)");
}

/*
 * The request body as a JSON object (jsonb).  Malformed JSON, invalid
 * UTF-8, a NUL byte or a body that is not an object is a 400 as Jackson's
 * failures are in Confluent; returns NULL after setting the error.
 */
Jsonb *
rest_body_object(RestCall *c)
{
	const RestRequest *req = c->req;
	Jsonb	   *jb = NULL;
	char	   *text;
	char	   *failure = NULL;
	size_t		at;

	if (req->body == NULL || req->body_len == 0)
	{
		rest_error(c, 400, 400, "Request body is empty");
		return NULL;
	}
	if (memchr(req->body, '\0', req->body_len) != NULL)
	{
		rest_error(c, 400, 400, "Request body contains a NUL byte");
		return NULL;
	}
	text = pnstrdup(req->body, req->body_len);
	if (!rg_json_nesting_ok(text, req->body_len, REST_BODY_MAX_NESTING, &at))
	{
		rest_error(c, 400, 400,
				   psprintf("Document nesting depth exceeds the maximum allowed (%d) at character %zu",
							REST_BODY_MAX_NESTING, at + 1));
		return NULL;
	}
	{
		JsonParse	jp = {text, NULL};
		ErrorData  *edata = registry_call_in_subtransaction(parse_json_body, &jp);

		jb = jp.result;
		if (edata)
		{
			/* the reason in the client's terms, never PostgreSQL's text */
			failure = json_failure(text, req->body_len);
			FreeErrorData(edata);
			jb = NULL;
		}
	}

	if (jb == NULL)
	{
		rest_error(c, 400, 400, failure ? failure : "Invalid JSON");
		return NULL;
	}
	if (!JB_ROOT_IS_OBJECT(jb))
	{
		rest_error(c, 400, 400, "Request body must be a JSON object");
		return NULL;
	}
	return jb;
}

/* A top-level member of a JSON object, or NULL (JSON null counts as absent). */
JsonbValue *
rest_body_member(Jsonb *jb, const char *key)
{
	JsonbValue *v = getKeyJsonValueFromContainer(&jb->root, key, strlen(key), NULL);

	if (v == NULL || v->type == jbvNull)
		return NULL;
	return v;
}

/* A member as JSON text (for arrays and objects), or NULL. */
char *
rest_body_member_json(Jsonb *jb, const char *key)
{
	JsonbValue *v = rest_body_member(jb, key);
	Jsonb	   *sub;

	if (v == NULL)
		return NULL;
	sub = JsonbValueToJsonb(v);
	return JsonbToCString(NULL, &sub->root, VARSIZE(sub));
}

/* --- routing ------------------------------------------------------------ */

/* Is a media type (parameters ignored) one of list, in any case? */
static bool
content_type_ok(const char *ct, const char *const *list)
{
	size_t		len;
	int			i;

	while (*ct == ' ')
		ct++;
	len = strcspn(ct, "; ");
	for (i = 0; list[i]; i++)
		if (strlen(list[i]) == len && pg_strncasecmp(ct, list[i], len) == 0)
			return true;
	return false;
}

/*
 * Accept negotiation, coarse as Jersey's for these types: any of the
 * produced types, "*" wildcards, or no header at all.
 */
bool
registry_rest_accept_ok(const char *accept)
{
	const char *p = accept;

	if (accept == NULL || *accept == '\0')
		return true;
	while (*p)
	{
		size_t		len;

		while (*p == ' ' || *p == ',')
			p++;
		len = strcspn(p, ",");
		if (len > 0)
		{
			char	   *item = pnstrdup(p, len);

			if (strncmp(item, "*/*", 3) == 0 || pg_strncasecmp(item, "application/*", 13) == 0 ||
				content_type_ok(item, produced_content_types))
				return true;
		}
		p += len;
	}
	return false;
}

/*
 * Bytes that are not valid in the database encoding never reach the SQL
 * API: a percent-decoded path segment or query value, or the body (JSON's
 * own escapes are checked by the JSON parser; raw bytes are not).
 */
static bool
request_text_valid(RestCall *c)
{
	int			i;

	for (i = 0; i < c->nseg; i++)
		if (!pg_verifymbstr(c->seg[i], strlen(c->seg[i]), true))
			return false;
	for (i = 0; i < c->nparams; i++)
		if (!pg_verifymbstr(c->params[i].key, strlen(c->params[i].key), true) ||
			!pg_verifymbstr(c->params[i].value, strlen(c->params[i].value), true))
			return false;
	if (c->req->body && c->req->body_len > 0 &&
		!pg_verifymbstr(c->req->body, c->req->body_len, true))
		return false;
	return true;
}

/* Prepare a process that serves only REST requests (see rest.h). */
void
registry_rest_session_init(void)
{
	catalog_init_rest_process();
}

/* Answer one REST request (see rest.h): refuse what cannot be routed, else run the route. */
void
registry_rest(const RestRequest *req, RestResponse *resp)
{
	RestCall	call;
	RestCall   *c = &call;
	RestHandler handler;
	bool		method_mismatch = false;

	memset(c, 0, sizeof(RestCall));
	c->req = req;
	initStringInfo(&c->out);
	c->status = 200;
	parse_path(c, req->path ? req->path : "/");
	parse_query(c, req->query);

	handler = rest_route(c, &method_mismatch);
	if (c->nul_in_path)
		rest_error(c, 422, 42208, confluent_text(CW_INVALID_SUBJECT, c->nul_segment));
	else if (c->nul_in_query)
		rest_error(c, 400, 400, "A query parameter contains a NUL byte");
	else if (!request_text_valid(c))
		rest_error(c, 400, 400, "Invalid UTF-8 in the request");
	else if (handler == NULL)
	{
		if (method_mismatch)
			rest_error(c, 405, 405, confluent_text(CW_HTTP_METHOD_NOT_ALLOWED));
		else
			rest_error(c, 404, 404, confluent_text(CW_HTTP_NOT_FOUND));
	}
	else if (!c->plain_text && !registry_rest_accept_ok(req->accept))
		rest_error(c, 406, 406, confluent_text(CW_HTTP_NOT_ACCEPTABLE));
	else if ((strcmp(req->method, "POST") == 0 || strcmp(req->method, "PUT") == 0) &&
			 req->content_type != NULL && req->content_type[0] != '\0' &&
			 !content_type_ok(req->content_type, accepted_content_types))
		rest_error(c, 415, 415, confluent_text(CW_HTTP_UNSUPPORTED_MEDIA_TYPE));
	else if (rest_route_permitted(c))
		run_route(c, handler);

	resp->status = c->status;
	resp->body = c->out.data;
	resp->body_len = c->out.len;
	resp->content_type = c->content_type ? c->content_type : REST_CONTENT_TYPE;
	resp->sqlerrcode = c->sqlerrcode;
	resp->route = c->route;
	resp->read = c->read;
	resp->streamed = c->streamed;
	/* who still reads it (usage.c): a read answered, as the role it ran as */
	if (c->status == 200)
		registry_usage_note(&c->read, GetUserId());
}

/*
 * Route a request without running it: c is filled as registry_rest() fills
 * it; the route's index, -1 when none matches or the path holds a NUL.
 */
static int
route_call(const RestRequest *req, RestCall *c)
{
	bool		method_mismatch = false;

	memset(c, 0, sizeof(RestCall));
	c->req = req;
	parse_path(c, req->path ? req->path : "/");
	parse_query(c, req->query);
	if (rest_route(c, &method_mismatch) == NULL || c->route < 0 || c->nul_in_path)
		return -1;
	return c->route;
}

/* See rest.h */
int
registry_rest_route_of(const RestRequest *req)
{
	RestCall	call;

	return route_call(req, &call);
}

/* See rest.h */
int
registry_rest_write_target(const RestRequest *req, char **subject, char **version)
{
	RestCall	call;
	RestCall   *c = &call;

	*subject = NULL;
	*version = NULL;
	if (route_call(req, c) < 0)
		return -1;
	/* a target recorded is text of the database's encoding, or none */
	for (int i = 0; i < c->nseg; i++)
		if (!pg_verifymbstr(c->seg[i], strlen(c->seg[i]), true))
			return -1;
	if (!registry_operation_writes(rest_route_operation(c->route)))
		return -1;
	/* dek-registry/v1/keks/{name}/deks/{s}[/versions/{v}] */
	if (strcmp(c->seg[0], "dek-registry") == 0)
	{
		if (c->nseg >= 6)
			*subject = c->seg[5];
		if (c->nseg >= 8)
			*version = c->seg[7];
		return c->route;
	}

	/*
	 * subjects/{s}[/versions/{v}], config/{s}, mode/{s}; associations and a
	 * context's delete name no subject
	 */
	if (c->nseg >= 2 && strcmp(c->seg[0], "associations") != 0 &&
		strcmp(c->seg[0], "contexts") != 0)
		*subject = c->seg[1];
	if (c->nseg >= 4 && strcmp(c->seg[0], "subjects") == 0 && strcmp(c->seg[2], "versions") == 0)
		*version = c->seg[3];
	return c->route;
}

/*
 * registry.rest(method, path, query, body, content_type, accept) ->
 * (status, body): the REST API from SQL.
 */
Datum
registry_rest_sql(PG_FUNCTION_ARGS)
{
	RestRequest req;
	RestResponse resp;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("method and path must not be null")));
	memset(&req, 0, sizeof(req));
	req.method = text_to_cstring(PG_GETARG_TEXT_PP(0));
	req.path = text_to_cstring(PG_GETARG_TEXT_PP(1));
	req.query = PG_ARGISNULL(2) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(2));
	if (!PG_ARGISNULL(3))
	{
		text	   *b = PG_GETARG_TEXT_PP(3);

		req.body = VARDATA_ANY(b);
		req.body_len = VARSIZE_ANY_EXHDR(b);
	}
	req.content_type = PG_ARGISNULL(4) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(4));
	req.accept = PG_ARGISNULL(5) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(5));

	registry_rest(&req, &resp);

	values[0] = Int32GetDatum(resp.status);
	values[1] = PointerGetDatum(cstring_to_text_with_len(resp.body, resp.body_len));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
