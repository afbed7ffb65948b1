/*-------------------------------------------------------------------------
 *
 * http_worker.c
 *	  Background workers serving the Confluent REST API over HTTP.
 *
 * libmicrohttpd runs without any thread of its own (MHD_USE_EPOLL): its
 * epoll descriptor is waited on, with the worker's latch, in one wait
 * event set made once, and MHD_run() is called from this process, so only
 * this process touches PostgreSQL state.  Several workers share the port
 * (SO_REUSEPORT).  Per request: the head is checked for framing that could
 * smuggle a second request, the body is read whole (bounded per request
 * and for all pending requests of the worker, and in time), then one
 * transaction runs registry_rest(), commits or aborts, and only then is
 * the response written.
 *
 * The worker is single-threaded, so no request may wait long inside it: a
 * request's lock waits are cut short (lock_timeout), and a request that
 * could not get its lock is suspended and tried again from the loop until
 * registry.http_lock_wait has passed, while other requests are served.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <microhttpd.h>

/* These are always necessary for a bgworker */
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"

/* these headers are used by this particular worker's code */
#include "access/xact.h"
#include "lib/ilist.h"
#include "pgstat.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"

#include "confluent_messages.h"
#include "http.h"
#include "http_cache.h"
#include "rest.h"

/* how long one attempt of a request may wait for a lock (ms) */
#define LOCK_ATTEMPT_MS 20
/* pause before the first retry of a request that found a lock taken, doubled each time up to the second (ms) */
#define RETRY_FIRST_MS 10
#define RETRY_MAX_MS 250
/* waiting requests tried again per pass of the loop, so reads go on */
#define RETRIES_PER_PASS 4
/* how often connections are checked against registry.http_request_timeout (ms) */
#define SWEEP_MS 250
/* seconds a connection may stay idle (libmicrohttpd's own timeout) */
#define IDLE_TIMEOUT_S 60

/*
 * Descriptors kept out of the connection budget: fd.c's reserve
 * (NUM_RESERVED_FDS, 10) plus libmicrohttpd's listening socket, epoll and
 * wake-up descriptors and this worker's wait event set.
 */
#define RESERVED_FDS 16
/* the fewest descriptors PostgreSQL's file cache keeps in a worker */
#define PG_MIN_FDS 64

PGDLLEXPORT void registry_http_worker_main(Datum main_arg);

static volatile sig_atomic_t shutdown_requested = false;

/* the daemon and what it was started with, to restart it on a reload */
static struct MHD_Daemon *daemon_handle = NULL;
static int	daemon_port = 0;
static char *daemon_address = NULL;
static unsigned int daemon_connection_limit = 0;
static TimestampTz connection_limit_logged = 0;	/* when last LOGged */

/* the latch, postmaster death and the daemon's epoll descriptor */
static WaitEventSet *wait_set = NULL;

/* descriptors open when the worker started, and fd.c's budget then */
static int	base_open_fds = 0;
static int	postmaster_max_safe_fds = 0;

/* per-request memory, reset after each request */
static MemoryContext RequestContext = NULL;

/* where a connection is in its current request */
typedef enum ConnPhase
{
	CONN_IDLE,					/* between requests */
	CONN_RECEIVING,				/* the head or the body is arriving */
	CONN_ANSWERING				/* received whole: being served or answered */
} ConnPhase;

/* one client connection, on malloc, from accept to close */
typedef struct HttpConn
{
	dlist_node	node;			/* in open_connections */
	int			fd;
	ConnPhase	phase;
	TimestampTz idle_since;		/* when its last request ended */
	TimestampTz request_start;	/* when the current request began arriving */
} HttpConn;

/* one in-flight request: the body is gathered here, on malloc */
typedef struct HttpRequest
{
	HttpConn   *hc;
	struct MHD_Connection *conn;
	char	   *body;
	size_t		len;
	size_t		cap;
	size_t		declared;		/* Content-Length, if there was one */
	size_t		reserved;		/* bytes of body_memory_used it holds */
	bool		too_large;
	bool		over_memory;
	/* waiting for a lock: suspended until retry_at */
	bool		waiting;
	dlist_node	wait_node;		/* in waiting_requests */
	TimestampTz lock_deadline;	/* 0 until its first attempt */
	TimestampTz retry_at;
	int			retries;
} HttpRequest;

static dlist_head open_connections = DLIST_STATIC_INIT(open_connections);
static dlist_head waiting_requests = DLIST_STATIC_INIT(waiting_requests);
static size_t body_memory_used = 0;

/* SIGTERM: leave the loop */
static void
handle_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	shutdown_requested = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/*
 * MHD would percent-decode the path, turning a subject's %2F into a "/"
 * that changes the route; registry_rest decodes each segment itself.
 */
static size_t
keep_escaped(void *cls, struct MHD_Connection *c, char *s)
{
	return strlen(s);
}

typedef struct QueryBuilder
{
	StringInfoData buf;
} QueryBuilder;

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

/* the connection's own state, kept by connection_notify() */
static HttpConn *
conn_state(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci;

	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? (HttpConn *) ci->socket_context : NULL;
}

/* from now on the connection's request counts against the request timeout */
static void
mark_receiving(HttpConn *hc)
{
	if (hc && hc->phase == CONN_IDLE)
	{
		hc->phase = CONN_RECEIVING;
		hc->request_start = GetCurrentTimestamp();
	}
}

/* libmicrohttpd's connection start and end: keep an HttpConn for each */
static void
connection_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
				  enum MHD_ConnectionNotificationCode code)
{
	HttpConn   *hc = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED)
	{
		const union MHD_ConnectionInfo *ci;

		hc = calloc(1, sizeof(HttpConn));
		if (hc == NULL)
			return;				/* then this connection has no deadline */
		ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		hc->fd = ci ? ci->connect_fd : -1;
		hc->phase = CONN_IDLE;
		hc->idle_since = GetCurrentTimestamp();
		dlist_push_tail(&open_connections, &hc->node);
		*socket_context = hc;
	}
	else if (hc != NULL)
	{
		dlist_delete(&hc->node);
		free(hc);
		*socket_context = NULL;
	}
}

/* libmicrohttpd has the request line: the request is arriving */
static void *
request_line_received(void *cls, const char *uri, struct MHD_Connection *conn)
{
	mark_receiving(conn_state(conn));
	return NULL;
}

/*
 * Set this attempt's limits: lock waits end after LOCK_ATTEMPT_MS (or what
 * is left of registry.http_lock_wait), the whole attempt after
 * registry.http_statement_timeout.  lock_timeout is local to the
 * transaction.
 */
static void
begin_attempt_limits(HttpRequest *hr)
{
	TimestampTz now = GetCurrentTimestamp();
	long		left_ms;
	char		value[32];

	if (hr->lock_deadline == 0)
		hr->lock_deadline = TimestampTzPlusMilliseconds(now, registry_http_lock_wait);
	left_ms = (long) ((hr->lock_deadline - now) / 1000);
	left_ms = Max(Min(left_ms, LOCK_ATTEMPT_MS), 1);
	snprintf(value, sizeof(value), "%ld", left_ms);
	(void) set_config_option("lock_timeout", value, PGC_SUSET, PGC_S_SESSION,
							 GUC_ACTION_LOCAL, true, 0, false);
	if (registry_http_statement_timeout > 0)
		enable_timeout_after(STATEMENT_TIMEOUT, registry_http_statement_timeout);
}

/* the attempt is over: its timer goes, and so does a cancel it fired late */
static void
end_attempt_limits(void)
{
	disable_timeout(STATEMENT_TIMEOUT, false);
	QueryCancelPending = false;
}

/* A request that found its lock taken: may it wait and try again? */
static bool
may_retry(HttpRequest *hr, int sqlerrcode)
{
	return sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE &&
		GetCurrentTimestamp() < hr->lock_deadline;
}

/*
 * One transaction around registry_rest(); the response body is copied out
 * of the transaction's memory before commit, and written by MHD after.
 * An error outside the route's own handling (e.g. at commit) aborts the
 * transaction and becomes a 500 in Confluent's shape, its text in the
 * server log only; the worker goes on.  NULL with *retry set: the route
 * could not get a lock in time and may be tried again later.
 */
static struct MHD_Response *
serve(struct MHD_Connection *conn, const char *url, const char *method,
	  HttpRequest *hr, unsigned int *status, bool *retry)
{
	RestRequest req;
	RestResponse resp;
	QueryBuilder qb;
	struct MHD_Response *response = NULL;
	MemoryContext oldcxt = MemoryContextSwitchTo(RequestContext);
	char	   *activity;
	char		cache_key[256];
	bool		cacheable;
	uint64		generation = 0;

	*retry = false;
	memset(&req, 0, sizeof(req));
	initStringInfo(&qb.buf);
	MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_argument, &qb);
	req.method = method;
	req.path = url;
	req.query = qb.buf.data;
	req.content_type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
												   MHD_HTTP_HEADER_CONTENT_TYPE);
	req.accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	req.body = hr->body;
	req.body_len = hr->len;

	/* an immutable schema read: answer from the cache, no transaction */
	cacheable = http_cache_key(method, url, req.query, cache_key, sizeof(cache_key)) &&
		registry_rest_accept_ok(req.accept);
	if (cacheable)
	{
		const char *body;
		size_t		len;

		if (http_cache_lookup(cache_key, &body, &len))
		{
			response = make_response(200, body, len, REST_CONTENT_TYPE, status);
			MemoryContextSwitchTo(oldcxt);
			MemoryContextReset(RequestContext);
			return response;
		}
		generation = http_cache_generation();
	}

	activity = psprintf("%s %s", method, url);
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	pgstat_report_activity(STATE_RUNNING, activity);
	PG_TRY();
	{
		begin_attempt_limits(hr);
		PushActiveSnapshot(GetTransactionSnapshot());
		registry_rest(&req, &resp);
		PopActiveSnapshot();
		/* the body must survive the commit: copy it into request memory */
		MemoryContextSwitchTo(RequestContext);
		resp.body = pnstrdup(resp.body, resp.body_len);
		CommitTransactionCommand();
		end_attempt_limits();
		if (may_retry(hr, resp.sqlerrcode))
			*retry = true;
		else
		{
			if (cacheable && resp.status == 200)
				http_cache_store(cache_key, resp.body, resp.body_len, generation);
			response = make_response(resp.status, resp.body, resp.body_len,
									 resp.content_type, status);
		}
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(RequestContext);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		end_attempt_limits();
		if (may_retry(hr, edata->sqlerrcode))
			*retry = true;
		else if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
				 edata->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
			response = make_error_response(500, 50002,
										   confluent_fixed_text(CW_OPERATION_TIMED_OUT), status);
		else
			response = make_error_response(500, 50001, confluent_fixed_text(CW_STORE_ERROR),
										   status);
	}
	PG_END_TRY();
	pgstat_report_stat(false);
	pgstat_report_activity(STATE_IDLE, NULL);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(RequestContext);
	return response;
}

/*
 * Suspend a request that could not get its lock; the loop resumes it at
 * retry_at, and libmicrohttpd then calls the access handler again.
 */
static void
wait_for_retry(struct MHD_Connection *conn, HttpRequest *hr)
{
	int			delay = RETRY_FIRST_MS << Min(hr->retries, 8);

	delay = Min(delay, RETRY_MAX_MS);
	hr->retry_at = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), delay);
	if (hr->retry_at > hr->lock_deadline)
		hr->retry_at = hr->lock_deadline;
	hr->retries++;
	hr->conn = conn;
	hr->waiting = true;
	dlist_push_tail(&waiting_requests, &hr->wait_node);
	MHD_suspend_connection(conn);
}

/* resume the waiting requests whose retry is due, a few per pass */
static void
resume_due_requests(TimestampTz now)
{
	dlist_mutable_iter it;
	int			n = 0;

	dlist_foreach_modify(it, &waiting_requests)
	{
		HttpRequest *hr = dlist_container(HttpRequest, wait_node, it.cur);

		if (hr->retry_at > now)
			continue;
		if (n++ >= RETRIES_PER_PASS)
			break;
		dlist_delete(&hr->wait_node);
		hr->waiting = false;
		MHD_resume_connection(hr->conn);
	}
}

/* every waiting request goes on (before the daemon stops) */
static void
resume_all_requests(void)
{
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &waiting_requests)
	{
		HttpRequest *hr = dlist_container(HttpRequest, wait_node, it.cur);

		dlist_delete(&hr->wait_node);
		hr->waiting = false;
		MHD_resume_connection(hr->conn);
	}
}

/* what the request head says about its framing */
typedef struct HeadScan
{
	int			hosts;
	int			content_lengths;
	const char *content_length;
	bool		content_lengths_differ;
	int			transfer_encodings;
	const char *transfer_encoding;
} HeadScan;

/* header iterator: count Host, Content-Length and Transfer-Encoding */
static enum MHD_Result
scan_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	HeadScan   *hs = (HeadScan *) cls;

	if (key == NULL)
		return MHD_YES;
	if (value == NULL)
		value = "";
	if (pg_strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0)
		hs->hosts++;
	else if (pg_strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
	{
		if (hs->content_lengths++ == 0)
			hs->content_length = value;
		else if (strcmp(value, hs->content_length) != 0)
			hs->content_lengths_differ = true;
	}
	else if (pg_strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0)
	{
		hs->transfer_encodings++;
		hs->transfer_encoding = value;
	}
	return MHD_YES;
}

typedef struct ArgumentSpan
{
	const char *first;			/* where the first argument starts */
	const char *end;			/* where the last one ends */
} ArgumentSpan;

/* argument iterator: where the query arguments start and end */
static enum MHD_Result
argument_span(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	ArgumentSpan *span = (ArgumentSpan *) cls;
	const char *end = value ? value + strlen(value) : key + strlen(key);

	if (span->first == NULL || key < span->first)
		span->first = key;
	if (span->end == NULL || end > span->end)
		span->end = end;
	return MHD_YES;
}

/*
 * Did the request target hold a NUL byte?  libmicrohttpd 0.9.75 parses the
 * request line in place: the target runs from url to the '\0' just before
 * version, the path ends at its first '\0' (the '?' or a NUL byte), and
 * the query arguments, their separators turned to '\0' (our unescape
 * callback keeps their lengths), fill the rest.  So a NUL byte shows as
 * bytes not accounted for by the path and the arguments.  Where the
 * strings do not lie that way there is nothing to check.
 */
static bool
target_has_nul(struct MHD_Connection *conn, const char *url, const char *version)
{
	size_t		path_len = strlen(url);
	const char *end;
	ArgumentSpan span = {NULL, NULL};

	if (version == NULL || version <= url + path_len || version - url > 1024 * 1024)
		return false;
	end = version - 1;
	MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, argument_span, &span);
	if (span.first == NULL)
		return (size_t) (end - url) > path_len + 1;
	if (span.first < url || span.end > end)
		return false;
	return span.first != url + path_len + 1 || span.end != end;
}

/*
 * Refuse a head whose framing is ambiguous, as RFC 9112 requires (the
 * status in *status, the reason as the result), or NULL when it is sound:
 * a NUL byte in the target, HTTP/1.1 without exactly one Host, differing
 * Content-Lengths, Content-Length with Transfer-Encoding, or a transfer
 * coding other than chunked (501).
 */
static const char *
framing_error(struct MHD_Connection *conn, const char *url, const char *version,
			  int *status)
{
	HeadScan	hs;
	bool		http11 = version && strcmp(version, MHD_HTTP_VERSION_1_1) == 0;

	memset(&hs, 0, sizeof(hs));
	MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_header, &hs);
	*status = 400;
	if (target_has_nul(conn, url, version))
		return "Bad request: NUL byte or empty query parameter in the request target";
	if (http11 && hs.hosts == 0)
		return "Bad request: HTTP/1.1 request without a Host header";
	if (hs.hosts > 1)
		return "Bad request: more than one Host header";
	if (hs.content_lengths_differ)
		return "Bad request: Content-Length headers that differ";
	if (hs.transfer_encodings > 0 && hs.content_lengths > 0)
		return "Bad request: both Content-Length and Transfer-Encoding";
	if (hs.transfer_encodings > 0 && !http11)
		return "Bad request: Transfer-Encoding in an HTTP/1.0 request";
	if (hs.transfer_encodings > 1 || (hs.transfer_encodings == 1 &&
									  pg_strcasecmp(hs.transfer_encoding, "chunked") != 0))
	{
		*status = 501;
		return "Transfer-Encoding other than chunked is not implemented";
	}
	return NULL;
}

/* queue a Confluent error; close: the connection is closed after it */
static enum MHD_Result
answer_error(struct MHD_Connection *conn, HttpConn *hc, int status, int error_code,
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
	if (hc)
		hc->phase = CONN_ANSWERING;
	ret = MHD_queue_response(conn, st, response);
	MHD_destroy_response(response);
	return ret;
}

/* the body's share of the worker's registry.http_max_body_memory */
static bool
reserve_body_memory(HttpRequest *hr, size_t bytes)
{
	if (bytes <= hr->reserved)
		return true;
	if (body_memory_used + (bytes - hr->reserved) > (size_t) registry_http_max_body_memory)
		return false;
	body_memory_used += bytes - hr->reserved;
	hr->reserved = bytes;
	return true;
}

/* free the body and give its memory back to the worker's budget */
static void
release_body(HttpRequest *hr)
{
	free(hr->body);
	hr->body = NULL;
	hr->len = hr->cap = 0;
	body_memory_used -= hr->reserved;
	hr->reserved = 0;
}

/*
 * The first call of the access handler, with the head complete and before
 * any of the body is read: refuse bad framing, a declared body over
 * registry.http_max_body_size, or one that the worker's body memory cannot
 * hold, and close the connection (the body will not be read).
 */
static enum MHD_Result
begin_request(struct MHD_Connection *conn, const char *url, const char *version,
			  void **con_cls)
{
	HttpConn   *hc = conn_state(conn);
	HttpRequest *hr;
	const char *reason;
	const char *cl;
	int			status;

	mark_receiving(hc);
	hr = calloc(1, sizeof(HttpRequest));
	if (hr == NULL)
		return MHD_NO;
	hr->hc = hc;
	*con_cls = hr;

	reason = framing_error(conn, url, version, &status);
	if (reason)
		return answer_error(conn, hc, status, status, reason, true);
	cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl)
		hr->declared = (size_t) strtoull(cl, NULL, 10);
	if (hr->declared > (size_t) registry_http_max_body_size)
	{
		char	   *msg = psprintf("Request body is larger than registry.http_max_body_size (%d bytes)",
								   registry_http_max_body_size);
		enum MHD_Result ret = answer_error(conn, hc, 413, 413, msg, true);

		pfree(msg);
		return ret;
	}
	if (hr->declared > 0 && !reserve_body_memory(hr, hr->declared + 1))
		return answer_error(conn, hc, 503, 503,
							"Too many request bodies are pending in this worker; retry later",
							true);
	return MHD_YES;
}

/*
 * Add a piece of the body.  A chunked body over the size limit, or over
 * what the worker's body memory can still hold, is read on but dropped,
 * and refused once it has been read.
 */
static bool
append_body(HttpRequest *hr, const char *data, size_t n)
{
	if (!hr->too_large && !hr->over_memory &&
		hr->len + n > (size_t) registry_http_max_body_size)
	{
		hr->too_large = true;
		release_body(hr);
	}
	if (hr->too_large || hr->over_memory)
		return true;
	if (hr->len + n + 1 > hr->cap)
	{
		size_t		cap = hr->cap ? hr->cap : 4096;
		char	   *b;

		while (cap < hr->len + n + 1)
			cap *= 2;
		if (hr->declared > 0 && cap > hr->declared + 1)
			cap = Max(hr->declared + 1, hr->len + n + 1);
		if (!reserve_body_memory(hr, cap))
		{
			hr->over_memory = true;
			release_body(hr);
			return true;
		}
		b = realloc(hr->body, cap);
		if (b == NULL)
			return false;
		hr->body = b;
		hr->cap = cap;
	}
	memcpy(hr->body + hr->len, data, n);
	hr->len += n;
	hr->body[hr->len] = '\0';
	return true;
}

/*
 * MHD's access handler.  First call: check the head (answering then closes
 * the connection; a sound request is only remembered, as answering on the
 * first call makes libmicrohttpd 0.9.75 drop keep-alive).  Then gather the
 * body.  Last call: answer, or wait for a lock and be called again.
 */
static enum MHD_Result
access_handler(void *cls, struct MHD_Connection *conn, const char *url,
			   const char *method, const char *version, const char *upload_data,
			   size_t *upload_data_size, void **con_cls)
{
	HttpRequest *hr = *con_cls;
	struct MHD_Response *response;
	unsigned int status = 500;
	enum MHD_Result ret;
	bool		retry = false;

	if (hr == NULL)
		return begin_request(conn, url, version, con_cls);
	if (*upload_data_size > 0)
	{
		if (!append_body(hr, upload_data, *upload_data_size))
			return MHD_NO;
		*upload_data_size = 0;
		return MHD_YES;
	}

	if (hr->hc)
		hr->hc->phase = CONN_ANSWERING;
	if (hr->too_large)
	{
		char	   *msg = psprintf("Request body is larger than registry.http_max_body_size (%d bytes)",
								   registry_http_max_body_size);

		ret = answer_error(conn, hr->hc, 413, 413, msg, false);
		pfree(msg);
		return ret;
	}
	if (hr->over_memory)
		return answer_error(conn, hr->hc, 503, 503,
							"Too many request bodies are pending in this worker; retry later",
							false);
	/* HEAD is GET without the body, which libmicrohttpd leaves out */
	response = serve(conn, url, strcmp(method, MHD_HTTP_METHOD_HEAD) == 0 ?
					 MHD_HTTP_METHOD_GET : method, hr, &status, &retry);
	if (retry)
	{
		wait_for_retry(conn, hr);
		return MHD_YES;
	}
	if (response == NULL)
		return MHD_NO;
	ret = MHD_queue_response(conn, status, response);
	MHD_destroy_response(response);
	return ret;
}

/* a request ended (answered or not): free it, the connection is idle */
static void
request_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
				  enum MHD_RequestTerminationCode toe)
{
	HttpRequest *hr = *con_cls;
	HttpConn   *hc = conn_state(conn);

	if (hr)
	{
		if (hr->waiting)
			dlist_delete(&hr->wait_node);
		release_body(hr);
		free(hr);
		*con_cls = NULL;
	}
	if (hc)
	{
		hc->phase = CONN_IDLE;
		hc->idle_since = GetCurrentTimestamp();
	}
}

/*
 * Has a byte arrived on an idle connection since its last request ended?
 * (libmicrohttpd reports a request only once its request line is whole.)
 */
static bool
data_arrived_since_idle(HttpConn *hc, TimestampTz now)
{
#ifdef TCP_INFO
	struct tcp_info ti;
	socklen_t	len = sizeof(ti);
	long		idle_ms = (long) ((now - hc->idle_since) / 1000);

	if (hc->fd < 0 || getsockopt(hc->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
		return false;
	/* ms since the last data; 20 ms of slack for the kernel's clock */
	return (long) ti.tcpi_last_data_recv + 20 < idle_ms;
#else
	return false;
#endif
}

/*
 * Past registry.http_request_timeout the head or body of a request is
 * still arriving: answer 408 on the socket itself (libmicrohttpd has not
 * written anything for this request yet) and shut it, which makes
 * libmicrohttpd close the connection.
 */
static void
answer_timeout(HttpConn *hc)
{
	static const char body[] = "{\"error_code\":408,\"message\":\"Request timed out\"}";
	char		buf[512];
	int			n;

	n = snprintf(buf, sizeof(buf),
				 "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
				 "Content-Type: %s\r\nContent-Length: %d\r\n\r\n%s",
				 REST_CONTENT_TYPE, (int) strlen(body), body);
	(void) send(hc->fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void) shutdown(hc->fd, SHUT_RDWR);
	hc->phase = CONN_ANSWERING;
}

/* hold every request still arriving to registry.http_request_timeout */
static void
expire_slow_requests(TimestampTz now)
{
	dlist_iter	it;

	dlist_foreach(it, &open_connections)
	{
		HttpConn   *hc = dlist_container(HttpConn, node, it.cur);

		if (hc->phase == CONN_IDLE && data_arrived_since_idle(hc, now))
		{
			hc->phase = CONN_RECEIVING;
			hc->request_start = now;
		}
		if (hc->phase == CONN_RECEIVING && hc->fd >= 0 &&
			TimestampDifferenceExceeds(hc->request_start, now,
									   registry_http_request_timeout * 1000))
			answer_timeout(hc);
	}
}

/*
 * LOG when the daemon is full (it stops accepting until a slot frees):
 * once, and again only after a minute.
 */
static void
note_connection_limit(TimestampTz now)
{
	const union MHD_DaemonInfo *info;

	info = MHD_get_daemon_info(daemon_handle, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
	if (info == NULL || info->num_connections < daemon_connection_limit)
		return;
	if (connection_limit_logged != 0 &&
		!TimestampDifferenceExceeds(connection_limit_logged, now, 60 * 1000))
		return;
	ereport(LOG,
			(errmsg("registry REST API worker reached its limit of %u connections",
					daemon_connection_limit),
			 errdetail("New connections wait until open ones close."),
			 errhint("Raise the open file limit (ulimit -n) of the server, or registry.http_max_connections.")));
	connection_limit_logged = now;
}

/* descriptors this process has open (Linux: /proc/self/fd) */
static int
count_open_fds(void)
{
	DIR		   *dir = opendir("/proc/self/fd");
	struct dirent *de;
	int			n = 0;

	if (dir == NULL)
		return 64;				/* a guess where there is no /proc */
	while ((de = readdir(dir)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(dir);
	return n - 1;				/* not the directory's own */
}

/*
 * How many connections the daemon may hold.  The soft open file limit is
 * raised to the hard one; of the descriptors left, PostgreSQL's file cache
 * keeps what the postmaster allowed it (max_safe_fds, from
 * max_files_per_process) where there is room, else a quarter and at least
 * PG_MIN_FDS (fd.c then closes files least recently used first to stay
 * within it), and the connections get the rest, up to
 * registry.http_max_connections.
 */
static unsigned int
size_connection_limit(long *fd_limit)
{
	struct rlimit rl;
	long		free_fds;
	long		pg_fds;
	long		limit;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
	{
		*fd_limit = -1;
		return (unsigned int) Min(registry_http_max_connections, 100);
	}
	if (rl.rlim_cur < rl.rlim_max)
	{
		struct rlimit raised = rl;

		raised.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			rl.rlim_cur = rl.rlim_max;
	}
	*fd_limit = (long) Min(rl.rlim_cur, (rlim_t) INT_MAX);
	free_fds = *fd_limit - base_open_fds - RESERVED_FDS;
	pg_fds = Min(postmaster_max_safe_fds, Max(PG_MIN_FDS, free_fds / 4));
	limit = Min(registry_http_max_connections, free_fds - pg_fds);
	max_safe_fds = (int) pg_fds;
	return (unsigned int) Max(limit, 1);
}

/* registry.http_listen_addresses: 'localhost', '*', or one IP address */
static bool
resolve_listen_address(const char *spec, int port, struct sockaddr_storage *out)
{
	struct addrinfo hints;
	struct addrinfo *res = NULL;
	char		portstr[16];
	const char *host = spec;

	if (spec == NULL || spec[0] == '\0' || strcmp(spec, "*") == 0)
		host = NULL;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if (host && strcmp(host, "localhost") == 0)
	{
		host = "127.0.0.1";
		hints.ai_family = AF_INET;
	}
	if (host == NULL)
		hints.ai_family = AF_INET;
	snprintf(portstr, sizeof(portstr), "%d", port);
	if (getaddrinfo(host, portstr, &hints, &res) != 0 || res == NULL)
		return false;
	memset(out, 0, sizeof(*out));
	memcpy(out, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return true;
}

/* the wait event set: latch, postmaster death, and the daemon if running */
static void
build_wait_set(void)
{
	wait_set = CreateWaitEventSet(TopMemoryContext, 3);
	AddWaitEventToSet(wait_set, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(wait_set, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	if (daemon_handle)
	{
		const union MHD_DaemonInfo *info;

		info = MHD_get_daemon_info(daemon_handle, MHD_DAEMON_INFO_EPOLL_FD);
		AddWaitEventToSet(wait_set, WL_SOCKET_READABLE, info->epoll_fd, NULL, NULL);
	}
}

/* stop the daemon, its waiting requests resumed so they are closed too */
static void
stop_daemon(void)
{
	if (daemon_handle)
	{
		resume_all_requests();
		MHD_stop_daemon(daemon_handle);
		daemon_handle = NULL;
	}
}

/* start the daemon on the configured address and port */
static void
start_daemon(unsigned int connection_limit, long fd_limit)
{
	struct sockaddr_storage addr;
	unsigned int flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;

	if (!resolve_listen_address(registry_http_listen_addresses, registry_http_port, &addr))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not resolve registry.http_listen_addresses \"%s\"",
						registry_http_listen_addresses)));
	if (addr.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	daemon_handle = MHD_start_daemon(flags, (uint16_t) registry_http_port,
									 NULL, NULL,
									 access_handler, NULL,
									 MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &addr,
									 MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int) 1,
									 MHD_OPTION_UNESCAPE_CALLBACK, keep_escaped, NULL,
									 MHD_OPTION_NOTIFY_COMPLETED, request_completed, NULL,
									 MHD_OPTION_NOTIFY_CONNECTION, connection_notify, NULL,
									 MHD_OPTION_URI_LOG_CALLBACK, request_line_received, NULL,
									 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) IDLE_TIMEOUT_S,
									 MHD_OPTION_CONNECTION_LIMIT, connection_limit,
									 MHD_OPTION_END);
	if (daemon_handle == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not listen on %s:%d for the registry REST API",
						registry_http_listen_addresses, registry_http_port)));
	daemon_port = registry_http_port;
	daemon_connection_limit = connection_limit;
	connection_limit_logged = 0;
	if (daemon_address)
		pfree(daemon_address);
	daemon_address = MemoryContextStrdup(TopMemoryContext, registry_http_listen_addresses);
	ereport(LOG,
			(errmsg("registry REST API listening on %s:%d",
					registry_http_listen_addresses, registry_http_port),
			 errdetail("At most %u connections in this worker (open file limit %ld).",
					   connection_limit, fd_limit)));
}

/* (Re)start the daemon and the wait event set that waits on it. */
static void
restart_daemon(void)
{
	unsigned int limit;
	long		fd_limit;

	stop_daemon();
	if (wait_set)
		FreeWaitEventSet(wait_set);
	wait_set = NULL;
	if (registry_http_port != 0)
	{
		limit = size_connection_limit(&fd_limit);
		start_daemon(limit, fd_limit);
	}
	build_wait_set();
}

/*
 * After a reload, restart the daemon if its port, address or connection
 * limit (from registry.http_max_connections and the open file limit)
 * changed.
 */
static void
reload_config(void)
{
	long		fd_limit;
	unsigned int limit;

	ConfigReloadPending = false;
	ProcessConfigFile(PGC_SIGHUP);
	ereport(LOG, (errmsg("registry REST API worker reloaded its configuration")));
	limit = size_connection_limit(&fd_limit);
	if (registry_http_port != daemon_port ||
		strcmp(registry_http_listen_addresses, daemon_address) != 0 ||
		(daemon_handle != NULL && limit != daemon_connection_limit))
		restart_daemon();
}

/* how long the loop may sleep: until MHD, a retry or a deadline needs it */
static long
next_wakeup_ms(TimestampTz now)
{
	long		timeout = 1000;
	MHD_UNSIGNED_LONG_LONG mhd_timeout;
	dlist_iter	it;

	if (daemon_handle == NULL)
		return timeout;
	if (MHD_get_timeout(daemon_handle, &mhd_timeout) == MHD_YES && mhd_timeout < (MHD_UNSIGNED_LONG_LONG) timeout)
		timeout = (long) mhd_timeout;
	dlist_foreach(it, &waiting_requests)
	{
		HttpRequest *hr = dlist_container(HttpRequest, wait_node, it.cur);
		long		ms = (long) ((hr->retry_at - now) / 1000);

		timeout = Min(timeout, Max(ms, 0));
	}
	if (!dlist_is_empty(&open_connections))
		timeout = Min(timeout, SWEEP_MS);
	return timeout;
}

/* the worker: connect, start the daemon, wait and serve until SIGTERM */
void
registry_http_worker_main(Datum main_arg)
{
	TimestampTz last_sweep = 0;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, handle_sigterm);
	BackgroundWorkerUnblockSignals();

	BackgroundWorkerInitializeConnection(registry_database, NULL, 0);
	RequestContext = AllocSetContextCreate(TopMemoryContext, "registry HTTP request",
										   ALLOCSET_DEFAULT_SIZES);
	pgstat_report_appname("registry http");
	base_open_fds = count_open_fds();
	postmaster_max_safe_fds = max_safe_fds;
	restart_daemon();

	while (!shutdown_requested)
	{
		WaitEvent	events[3];
		TimestampTz now = GetCurrentTimestamp();

		(void) WaitEventSetWait(wait_set, next_wakeup_ms(now), events,
								lengthof(events), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		/* between requests there is nothing to cancel: a cancel must not end the worker */
		QueryCancelPending = false;
		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
			reload_config();
		if (daemon_handle == NULL)
			continue;
		now = GetCurrentTimestamp();
		resume_due_requests(now);
		MHD_run(daemon_handle);
		if (TimestampDifferenceExceeds(last_sweep, now, SWEEP_MS))
		{
			expire_slow_requests(now);
			last_sweep = now;
		}
		note_connection_limit(now);
	}
	stop_daemon();
	proc_exit(0);
}
