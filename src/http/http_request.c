/*-------------------------------------------------------------------------
 *
 * http_request.c
 *	  The request transport: libmicrohttpd's access handler, serving one
 *	  request in one transaction, and its response.
 *
 * Per request: the head is checked for framing that could smuggle a
 * second request (http_framing.c), the body is read whole
 * (http_body.c), the request's role is decided (http_auth.c), then one
 * transaction runs registry_rest() as that role, commits or aborts, and
 * only then is the response written.  A request that could not get its
 * lock is handed to http_retry.c and served again later.  On a standby, a
 * request that tried to write is answered by the primary (http_forward.c),
 * as the same role, once its transaction here is over: it is suspended
 * meanwhile, and answered when the loop resumes it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <microhttpd.h>

#include "access/xact.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "utils/backend_status.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "audit.h"
#include "confluent_messages.h"
#include "http.h"
#include "http_cache.h"
#include "http_internal.h"
#include "metrics.h"
#include "rest.h"

/* per-request memory, reset after each request */
static MemoryContext RequestContext = NULL;

/* the raw query string, re-joined from libmicrohttpd's arguments */
typedef struct QueryBuilder
{
	StringInfoData buf;
} QueryBuilder;

/* at the worker's start: the per-request memory */
void
http_request_init(void)
{
	RequestContext = AllocSetContextCreate(TopMemoryContext, "registry HTTP request",
										   ALLOCSET_DEFAULT_SIZES);
}

/*
 * MHD would percent-decode the path, turning a subject's %2F into a "/"
 * that changes the route; registry_rest decodes each segment itself.
 */
size_t
http_keep_escaped(void *cls, struct MHD_Connection *c, char *s)
{
	return strlen(s);
}

/* re-join the (still escaped) query arguments into a raw query string */
static enum MHD_Result
collect_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	QueryBuilder *qb = (QueryBuilder *) cls;

	if (qb->buf.len > 0)
		appendStringInfoChar(&qb->buf, '&');
	appendStringInfoString(&qb->buf, key);
	if (value != NULL)
	{
		appendStringInfoChar(&qb->buf, '=');
		appendStringInfoString(&qb->buf, value);
	}
	return MHD_YES;
}

/* a request's place in the answer caches */
typedef struct CacheSlot
{
	HttpCacheClass cls;			/* HTTP_CACHE_NONE: not cacheable */
	StringInfoData key;
	uint64		generation;		/* the class's, read before the transaction */
} CacheSlot;

/* a response with a copy of body, its Content-Type and status */
static struct MHD_Response *
make_response(int status, const char *body, size_t len, const char *content_type,
			  unsigned int *status_out)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *) body,
															 MHD_RESPMEM_MUST_COPY);

	if (r == NULL)
		return NULL;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	*status_out = (unsigned int) status;
	return r;
}

/* a Confluent error body {"error_code":..,"message":..} as a response */
static struct MHD_Response *
make_error_response(int status, int error_code, const char *message,
					unsigned int *status_out)
{
	StringInfoData msg;
	struct MHD_Response *r;

	initStringInfo(&msg);
	appendStringInfo(&msg, "{\"error_code\":%d,\"message\":", error_code);
	escape_json(&msg, message);
	appendStringInfoChar(&msg, '}');
	r = make_response(status, msg.data, msg.len, REST_CONTENT_TYPE, status_out);
	pfree(msg.data);
	return r;
}

/* the error code of a Confluent error body ({"error_code":N,...}); 0 if none */
static int
body_error_code(const char *body)
{
	static const char prefix[] = "{\"error_code\":";

	if (body == NULL || strncmp(body, prefix, sizeof(prefix) - 1) != 0)
		return 0;
	return atoi(body + sizeof(prefix) - 1);
}

/* Is this a method that may write (POST, PUT, DELETE)? */
static bool
is_write_method(const char *method)
{
	return strcmp(method, MHD_HTTP_METHOD_POST) == 0 ||
		strcmp(method, MHD_HTTP_METHOD_PUT) == 0 ||
		strcmp(method, MHD_HTTP_METHOD_DELETE) == 0;
}

/* queue a Confluent error; close: the connection is closed after it */
enum MHD_Result
http_answer_error(struct MHD_Connection *conn, HttpConn *hc, int status, int error_code,
				  const char *message, bool close)
{
	struct MHD_Response *response;
	unsigned int st;
	enum MHD_Result ret;
	MemoryContext oldcxt = MemoryContextSwitchTo(RequestContext);

	response = make_error_response(status, error_code, message, &st);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(RequestContext);
	if (response == NULL)
		return MHD_NO;
	if (close)
		MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
	if (status == 503)
		MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	http_conn_answering(hc);
	ret = MHD_queue_response(conn, st, response);
	MHD_destroy_response(response);
	return ret;
}

/* the request as registry_rest() takes it, in request memory */
static void
read_rest_request(struct MHD_Connection *conn, const char *url, const char *method,
				  HttpRequest *hr, RestRequest *req)
{
	QueryBuilder qb;

	memset(req, 0, sizeof(*req));
	initStringInfo(&qb.buf);
	MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_argument, &qb);
	req->method = method;
	req->path = url;
	req->query = qb.buf.data;
	req->content_type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
													MHD_HTTP_HEADER_CONTENT_TYPE);
	req->accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	req->body = hr->body;
	req->body_len = hr->len;
}

/*
 * A request answered 50002 is logged with what it waited on: a lock that
 * other transactions held past registry.http_lock_wait, or its own work
 * past registry.http_statement_timeout (once: not for each attempt that
 * met the lock and was tried again).
 */
void
http_log_timeout(TimestampTz start, int attempts, int sqlerrcode)
{
	long		ms = start ? (long) ((GetCurrentTimestamp() - start) / 1000) : 0;

	if (sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
		ereport(LOG,
				(errmsg("registry REST request timed out (50002) waiting for a lock, after %ld ms", ms),
				 errdetail("Another transaction held a lock the request needed (a subject's row, or a table) for longer than registry.http_lock_wait (%d ms), over %d attempts.",
						   registry_http_lock_wait, attempts),
				 errhidestmt(true)));
	else
		ereport(LOG,
				(errmsg("registry REST request timed out (50002) in its own work, after %ld ms", ms),
				 errdetail("One attempt ran longer than registry.http_statement_timeout (%d ms), or was canceled.",
						   registry_http_statement_timeout),
				 errhidestmt(true)));
}

/*
 * The route ran and its transaction commits; the response body is copied
 * out of the transaction's memory first.  NULL with *retry set: the route
 * could not get a lock in time and may be tried again later; NULL with
 * *forward set: it tried to write on a standby.  A 200 to a cacheable read
 * (slot's class not HTTP_CACHE_NONE) is cached.
 */
static struct MHD_Response *
run_route(RestRequest *req, HttpRequest *hr, const CacheSlot *slot,
		  unsigned int *status, bool *retry, int *route, bool *forward,
		  int *error_code)
{
	RestResponse resp;

	http_attempt_begin(hr);
	PushActiveSnapshot(GetTransactionSnapshot());
	registry_rest(req, &resp);
	PopActiveSnapshot();
	/* the body must survive the commit: copy it into request memory */
	MemoryContextSwitchTo(RequestContext);
	resp.body = pnstrdup(resp.body, resp.body_len);
	registry_read_copy(&resp.read, &resp.read, RequestContext);
	CommitTransactionCommand();
	http_run_limits_clear();
	*route = resp.route;
	*error_code = resp.status >= 400 ? body_error_code(resp.body) : 0;
	if (http_forward_wanted(resp.sqlerrcode))
	{
		*forward = true;
		return NULL;
	}
	if (http_may_retry(hr, resp.sqlerrcode))
	{
		*retry = true;
		return NULL;
	}
	if (resp.sqlerrcode == ERRCODE_QUERY_CANCELED ||
		resp.sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
		http_log_timeout(hr->answer_start, hr->retries + 1, resp.sqlerrcode);
	if (slot->cls != HTTP_CACHE_NONE && resp.status == 200)
	{
		HttpCachedAnswer answer = {resp.body, resp.body_len, resp.content_type, resp.route,
		resp.read};

		http_cache_store(slot->cls, &slot->key, &answer, slot->generation);
	}
	return make_response(resp.status, resp.body, resp.body_len,
						 resp.content_type, status);
}

/*
 * The Confluent error code (and HTTP status) of a request that failed with
 * sqlerrcode outside its route's own handling: 40301 for a privilege,
 * 50002 for a timeout or a lock not had in time, else 50001.
 */
int
http_failure_code(int sqlerrcode, int32 *status)
{
	if (sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE)
	{
		*status = 403;
		return 40301;
	}
	*status = 500;
	if (sqlerrcode == ERRCODE_QUERY_CANCELED || sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
		return 50002;
	return 50001;
}

/* The fixed message of an error code http_failure_code() gives. */
const char *
http_failure_message(int error_code)
{
	if (error_code == 40301)
		return "User is denied operation on Schema Registry";
	if (error_code == 50002)
		return confluent_fixed_text(CW_OPERATION_TIMED_OUT);
	return confluent_fixed_text(CW_STORE_ERROR);
}

/*
 * An error outside the route's own handling (e.g. at commit): abort the
 * transaction and answer 500 in Confluent's shape, its text in the server
 * log only; the worker goes on.  NULL with *retry set: the lock was not
 * had in time, the request may be tried again later; NULL with *forward
 * set: it tried to write on a standby.
 */
static struct MHD_Response *
route_failed(HttpRequest *hr, unsigned int *status, bool *retry, bool *forward,
			 int *error_code)
{
	ErrorData  *edata;
	int32		http_status;

	MemoryContextSwitchTo(RequestContext);
	edata = CopyErrorData();
	EmitErrorReport();
	FlushErrorState();
	AbortCurrentTransaction();
	http_run_limits_clear();
	if (http_forward_wanted(edata->sqlerrcode))
	{
		*forward = true;
		return NULL;
	}
	if (http_may_retry(hr, edata->sqlerrcode))
	{
		*retry = true;
		return NULL;
	}
	if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
		edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
		http_log_timeout(hr->answer_start, hr->retries + 1, edata->sqlerrcode);
	*error_code = http_failure_code(edata->sqlerrcode, &http_status);
	return make_error_response(http_status, *error_code,
							   http_failure_message(*error_code), status);
}

/*
 * A write tried on this standby, answered by the primary: run there as
 * roleid (the role the request ran as here), outside any transaction of
 * this standby.  NULL with hr->forward set: the forward runs on, and the
 * request is suspended until its answer.  An error on the way is logged
 * and answered as a failed forward.
 */
static struct MHD_Response *
forward_to_primary(RestRequest *req, HttpRequest *hr, Oid roleid, int route,
				   unsigned int *status)
{
	HttpForwardAnswer answer;
	MemoryContext cxt = CurrentMemoryContext;
	volatile bool started = false;

	PG_TRY();
	{
		started = http_forward_start(hr, req, http_forward_role_name(roleid), route,
									 &answer);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		http_forward_forget(hr);
		http_forward_failed(req, route, &answer);
	}
	PG_END_TRY();
	if (started)
		return NULL;
	return make_response(answer.status, answer.body, answer.len, REST_CONTENT_TYPE,
						 status);
}

/*
 * The access log: a request that took registry.http_log_min_duration or
 * longer (-1: none), with its method, path, role, peer, status and time.
 */
static void
log_request(struct MHD_Connection *conn, const char *method, const char *url, Oid role,
			unsigned int status, TimestampTz start)
{
	double		ms;
	char	   *name = NULL;
	MemoryContext oldcxt;

	if (registry_http_log_min_duration < 0 || start == 0)
		return;
	ms = (double) (GetCurrentTimestamp() - start) / 1000.0;
	if (ms < registry_http_log_min_duration)
		return;
	oldcxt = MemoryContextSwitchTo(RequestContext);
	if (OidIsValid(role))
		name = http_forward_role_name(role);
	ereport(LOG,
			(errmsg("registry REST API: %s %s %u %.3f ms", method, url, status, ms),
			 errdetail_log("Role %s, peer %s.", name ? name : "(none)", http_peer_text(conn)),
			 errhidestmt(true)));
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(RequestContext);
}

/*
 * Queue the response of a request answered from elsewhere (the primary, a
 * pool worker) once it has resumed: counted, logged, sent.
 */
static enum MHD_Result
queue_resumed(struct MHD_Connection *conn, const char *method, const char *url,
			  HttpRequest *hr, struct MHD_Response *response, unsigned int status,
			  int route, Oid role)
{
	enum MHD_Result ret;

	if (response == NULL)
		return MHD_NO;
	registry_metrics_record(route, (int) status, GetCurrentTimestamp() - hr->answer_start);
	log_request(conn, method, url, role, status, hr->answer_start);
	ret = MHD_queue_response(conn, status, response);
	MHD_destroy_response(response);
	return ret;
}

/* the forwarded write's answer came: queue it, the forward forgotten */
static enum MHD_Result
answer_forwarded(struct MHD_Connection *conn, const char *method, const char *url,
				 HttpRequest *hr)
{
	const HttpForwardAnswer *answer = http_forward_answer(hr);
	struct MHD_Response *response;
	unsigned int status = 500;
	int			route;

	if (answer == NULL)
		return MHD_NO;
	route = answer->route;
	response = make_response(answer->status, answer->body, answer->len,
							 REST_CONTENT_TYPE, &status);
	http_forward_forget(hr);
	return queue_resumed(conn, method, url, hr, response, status, route, InvalidOid);
}

/* the pool worker's answer came: queue it, the job forgotten */
static enum MHD_Result
answer_pooled(struct MHD_Connection *conn, const char *method, const char *url,
			  HttpRequest *hr)
{
	const HttpPoolAnswer *answer = http_pool_answer(hr);
	struct MHD_Response *response;
	unsigned int status = 500;
	int			route;
	Oid			role;
	MemoryContext oldcxt;

	if (answer == NULL)
		return MHD_NO;
	route = answer->route;
	role = answer->role;
	oldcxt = MemoryContextSwitchTo(RequestContext);
	if (answer->pieces)
	{
		/* sent as its pieces come; the job goes when the request ends */
		response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024,
													 http_pool_read_piece, hr, NULL);
		if (response != NULL)
			MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE,
									answer->content_type);
		status = (unsigned int) answer->status;
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(RequestContext);
		return queue_resumed(conn, method, url, hr, response, status, route, role);
	}
	if (answer->error_code != 0)
		response = make_error_response(answer->status, answer->error_code,
									   http_failure_message(answer->error_code), &status);
	else
		response = make_response(answer->status, answer->body, answer->len,
								 answer->content_type, &status);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(RequestContext);
	http_pool_forget(hr);
	return queue_resumed(conn, method, url, hr, response, status, route, role);
}

/*
 * pg_stat_activity's query_start for a request tried again after a lock
 * wait: when the request was first served, not this attempt's start (a
 * 10 s wait would read as the last attempt's few milliseconds).
 */
static void
report_request_start(HttpRequest *hr)
{
	volatile	PgBackendStatus *beentry = MyBEEntry;

	if (beentry == NULL || hr->answer_start == 0 || hr->retries == 0)
		return;
	PGSTAT_BEGIN_WRITE_ACTIVITY(beentry);
	beentry->st_activity_start_timestamp = hr->answer_start;
	PGSTAT_END_WRITE_ACTIVITY(beentry);
}

/*
 * One transaction around registry_rest() (the identifying one when open,
 * else a new one), run as the request's role and reported as the
 * worker's activity, its writes audited with the request's user and peer;
 * a write that failed is then audited in a transaction of its own; on a
 * standby a write is forwarded to the primary.
 */
static struct MHD_Response *
serve_in_transaction(struct MHD_Connection *conn, RestRequest *req, HttpRequest *hr,
					 Oid role, const CacheSlot *slot, bool open, unsigned int *status,
					 bool *retry, int *route)
{
	struct MHD_Response *response = NULL;
	char	   *activity = psprintf("%s %s", req->method, req->path);
	bool		forward = false;
	HttpRoleSave worker_role;
	char	   *http_user = http_auth_basic_user(conn);
	char	   *peer = pstrdup(http_peer_text(conn));
	int			error_code = 0;

	if (open)
		MemoryContextSwitchTo(TopTransactionContext);
	else
	{
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
	}
	http_auth_become(role, &worker_role);
	registry_audit_request_begin(role, http_user, peer);
	pgstat_report_activity(STATE_RUNNING, activity);
	report_request_start(hr);
	PG_TRY();
	{
		response = run_route(req, hr, slot, status, retry, route, &forward, &error_code);
	}
	PG_CATCH();
	{
		response = route_failed(hr, status, retry, &forward, &error_code);
	}
	PG_END_TRY();
	registry_audit_request_end();
	http_auth_restore(&worker_role);
	if (!*retry && !forward && response != NULL && *status >= 400 &&
		is_write_method(req->method))
		registry_audit_rest_failure(req, role, http_user, peer, error_code);
	if (forward)
		response = forward_to_primary(req, hr, role, *route, status);
	pgstat_report_stat(false);
	pgstat_report_activity(STATE_IDLE, NULL);
	return response;
}

/* a request as it is served: what it asks, and its place in the caches */
typedef struct ServeState
{
	struct MHD_Connection *conn;
	const char *url;
	const char *method;
	HttpRequest *hr;
	RestRequest req;
	CacheSlot	slot;
	HttpCachedAnswer answer;
	bool		cached;			/* answer is cached and the role may have it */
	bool		pooled;			/* else a pool worker is to run it */
	bool		open;			/* the route runs in the identifying
								 * transaction, left open for it */
} ServeState;

/*
 * Read the request and look for its answer in the caches, checking the
 * cached route's privilege for role (the cache answers without the route's
 * transaction): a step of the identifying transaction.  True when the
 * route is to run here, in that transaction.
 */
static bool
look_up_request(Oid role, void *arg)
{
	ServeState *st = (ServeState *) arg;
	MemoryContext oldcxt = MemoryContextSwitchTo(RequestContext);

	read_rest_request(st->conn, st->url, st->method, st->hr, &st->req);
	initStringInfo(&st->slot.key);
	st->slot.cls = registry_rest_accept_ok(st->req.accept) ?
		http_cache_key(&st->req, role, &st->slot.key) : HTTP_CACHE_NONE;
	st->slot.generation = st->slot.cls != HTTP_CACHE_NONE ?
		http_cache_generation(st->slot.cls) : 0;
	st->cached = st->slot.cls != HTTP_CACHE_NONE &&
		http_cache_lookup(st->slot.cls, &st->slot.key, &st->answer) &&
		registry_rest_route_permitted(st->answer.route, role);
	st->pooled = !st->cached && http_pool_wanted(&st->req);
	st->open = !st->cached && !st->pooled;
	MemoryContextSwitchTo(oldcxt);
	return st->open;
}

/*
 * Serve the request looked up as role: from the cache without the route's
 * transaction, or in one transaction, its response written by MHD after
 * the commit.  NULL with *retry set: the route could not get a lock in
 * time and may be tried again later.
 */
static struct MHD_Response *
serve(ServeState *st, Oid role, unsigned int *status, bool *retry, int *route)
{
	struct MHD_Response *response;
	MemoryContext oldcxt = MemoryContextSwitchTo(RequestContext);

	*retry = false;
	*route = -1;
	if (st->cached)
	{
		*route = st->answer.route;
		registry_usage_note(&st->answer.read, role);
		response = make_response(200, st->answer.body, st->answer.len,
								 st->answer.content_type, status);
	}
	else
		response = serve_in_transaction(st->conn, &st->req, st->hr, role, &st->slot,
										st->open, status, retry, route);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(RequestContext);
	return response;
}

/*
 * Hand the request looked up as role to the pool (http_pool.c), with the
 * HTTP user and peer its audit records.
 */
static HttpPoolStart
hand_to_pool(struct MHD_Connection *conn, ServeState *st, Oid role)
{
	HttpPoolStart started;
	MemoryContext oldcxt = MemoryContextSwitchTo(RequestContext);

	started = http_pool_start(st->hr, &st->req, role, http_auth_basic_user(conn),
							  http_peer_text(conn));
	MemoryContextSwitchTo(oldcxt);
	/* served here after all, the request is still wanted */
	if (started != HTTP_POOL_NONE)
		MemoryContextReset(RequestContext);
	return started;
}

/*
 * The first call of the access handler, with the head complete and before
 * any of the body is read: refuse bad framing, or a declared body the
 * worker will not read, and close the connection.
 */
static enum MHD_Result
begin_request(struct MHD_Connection *conn, const char *url, const char *version,
			  void **con_cls)
{
	HttpConn   *hc = http_conn_state(conn);
	HttpRequest *hr;
	const char *reason;
	int			status;

	http_conn_receiving(hc);
	hr = calloc(1, sizeof(HttpRequest));
	if (hr == NULL)
		return MHD_NO;
	hr->hc = hc;
	*con_cls = hr;

	reason = http_framing_error(conn, url, version, &status);
	if (reason)
		return http_answer_error(conn, hc, status, status, reason, true);
	return http_body_check_declared(conn, hr);
}

/* a piece of the body arrived: keep it */
static enum MHD_Result
receive_body(HttpRequest *hr, const char *upload_data, size_t *upload_data_size)
{
	if (!http_body_append(hr, upload_data, *upload_data_size))
		return MHD_NO;
	*upload_data_size = 0;
	return MHD_YES;
}

/*
 * A request refused before it is served (http_auth.c): Confluent's error
 * body, with the Basic challenge on a 401 that credentials could answer,
 * and Retry-After on a 429 (a peer past its failed logins' allowance).
 */
static enum MHD_Result
answer_refusal(struct MHD_Connection *conn, const char *method, const char *url,
			   HttpRequest *hr, const HttpRefusal *refusal)
{
	struct MHD_Response *response;
	unsigned int status;
	enum MHD_Result ret;
	MemoryContext oldcxt = MemoryContextSwitchTo(RequestContext);

	response = make_error_response(refusal->status, refusal->error_code,
								   refusal->message, &status);
	/* a write refused (429 aside: the throttle counts those) is audited */
	if (is_write_method(method) && refusal->status != 429)
	{
		RestRequest req;

		memset(&req, 0, sizeof(req));
		req.method = method;
		req.path = url;
		registry_audit_rest_failure(&req, InvalidOid, http_auth_basic_user(conn),
									pstrdup(http_peer_text(conn)), refusal->error_code);
	}
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(RequestContext);
	if (response == NULL)
		return MHD_NO;
	if (refusal->challenge)
		MHD_add_response_header(response, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
								"Basic realm=\"registry\", charset=\"UTF-8\"");
	if (refusal->status == 429)
		MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, "2");
	registry_metrics_record(-1, (int) status, GetCurrentTimestamp() - hr->answer_start);
	log_request(conn, method, url, InvalidOid, status, hr->answer_start);
	ret = MHD_queue_response(conn, status, response);
	MHD_destroy_response(response);
	return ret;
}

/*
 * The request is received whole: refuse a dropped body, else serve it
 * (HEAD as GET without the body, which libmicrohttpd leaves out) and
 * queue the response, or wait for a lock or the primary's answer to a
 * forwarded write and be called again.
 */
static enum MHD_Result
answer_request(struct MHD_Connection *conn, const char *url, const char *method,
			   HttpRequest *hr)
{
	struct MHD_Response *response;
	unsigned int status = 500;
	enum MHD_Result ret;
	bool		retry = false;
	int			route = -1;
	Oid			role;
	HttpRefusal refusal;
	ServeState	st;

	http_conn_answering(hr->hc);
	if (hr->forward)
		return answer_forwarded(conn, method, url, hr);
	if (hr->pool_job)
		return answer_pooled(conn, method, url, hr);
	if (hr->too_large || hr->over_memory)
		return http_body_refuse_dropped(conn, hr);
	/* lock waits count in the time it takes to answer */
	if (hr->answer_start == 0)
		hr->answer_start = GetCurrentTimestamp();
	memset(&st, 0, sizeof(st));
	st.conn = conn;
	st.url = url;
	/* HEAD is GET without the body, which libmicrohttpd leaves out */
	st.method = strcmp(method, MHD_HTTP_METHOD_HEAD) == 0 ? MHD_HTTP_METHOD_GET : method;
	st.hr = hr;
	if (!http_auth_identify(conn, &role, &refusal, look_up_request, &st))
		return answer_refusal(conn, st.method, url, hr, &refusal);
	if (st.pooled)
	{
		switch (hand_to_pool(conn, &st, role))
		{
			case HTTP_POOL_STARTED:
				http_pool_suspend(conn, hr);
				return MHD_YES;
			case HTTP_POOL_FULL:
				return http_answer_error(conn, hr->hc, 503, 503,
										 "The registry is busy with long requests; try again later",
										 false);
			case HTTP_POOL_NONE:
				break;
		}
	}
	response = serve(&st, role, &status, &retry, &route);
	if (retry)
	{
		http_wait_for_retry(conn, hr);
		return MHD_YES;
	}
	if (hr->forward)
	{
		/* on a standby: the primary's answer resumes it */
		http_forward_suspend(conn, hr);
		return MHD_YES;
	}
	if (response == NULL)
		return MHD_NO;
	registry_metrics_record(route, (int) status, GetCurrentTimestamp() - hr->answer_start);
	log_request(conn, method, url, role, status, hr->answer_start);
	ret = MHD_queue_response(conn, status, response);
	MHD_destroy_response(response);
	return ret;
}

/*
 * MHD's access handler.  First call: check the head (answering then closes
 * the connection; a sound request is only remembered, as answering on the
 * first call makes libmicrohttpd 0.9.75 drop keep-alive).  Then gather the
 * body.  Last call: answer, or wait for a lock and be called again.
 */
enum MHD_Result
http_access_handler(void *cls, struct MHD_Connection *conn, const char *url,
					const char *method, const char *version, const char *upload_data,
					size_t *upload_data_size, void **con_cls)
{
	HttpRequest *hr = *con_cls;

	if (hr == NULL)
		return begin_request(conn, url, version, con_cls);
	if (*upload_data_size > 0)
		return receive_body(hr, upload_data, upload_data_size);
	return answer_request(conn, url, method, hr);
}

/* a request ended (answered or not): free it, the connection is idle */
void
http_request_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
					   enum MHD_RequestTerminationCode toe)
{
	HttpRequest *hr = *con_cls;
	HttpConn   *hc = http_conn_state(conn);

	if (hr)
	{
		http_retry_forget(hr);
		http_forward_forget(hr);
		http_pool_forget(hr);
		http_body_release(hr);
		free(hr);
		*con_cls = NULL;
	}
	http_conn_idle(hc);
}
