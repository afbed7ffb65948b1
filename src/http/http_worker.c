/*-------------------------------------------------------------------------
 *
 * http_worker.c
 *	  Background workers serving the Confluent REST API over HTTP.
 *
 * libmicrohttpd runs without any thread of its own (MHD_USE_EPOLL): its
 * epoll descriptor is waited on with the worker's latch, and MHD_run() is
 * called from this process, so only this process touches PostgreSQL
 * state.  Several workers share the port (SO_REUSEPORT).  Per request: the
 * body is read whole, then one transaction runs registry_rest(), commits
 * or aborts, and only then is the response written.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <microhttpd.h>

/* These are always necessary for a bgworker */
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"

/* these headers are used by this particular worker's code */
#include "access/xact.h"
#include "pgstat.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "http.h"
#include "http_cache.h"
#include "rest.h"

/* GUCs (registry.c defines them) */
int			registry_http_port = 8081;
char	   *registry_http_listen_addresses = NULL;
int			registry_http_workers = 2;
char	   *registry_database = NULL;
int			registry_http_max_body_size = 16 * 1024 * 1024;

PGDLLEXPORT void registry_http_worker_main(Datum main_arg);

static volatile sig_atomic_t shutdown_requested = false;

/* the daemon and what it was started with, to restart it on a reload */
static struct MHD_Daemon *daemon_handle = NULL;
static int	daemon_port = 0;
static char *daemon_address = NULL;

/* per-request memory, reset after each request */
static MemoryContext RequestContext = NULL;

/* one in-flight request: the body is gathered here, on malloc */
typedef struct HttpRequest
{
	char	   *body;
	size_t		len;
	size_t		cap;
	bool		too_large;
	bool		started;
} HttpRequest;

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

/*
 * One transaction around registry_rest(); the response body is copied out
 * of the transaction's memory before commit, and written by MHD after.
 * An error outside the route's own handling (e.g. at commit) aborts the
 * transaction and becomes a 500 in Confluent's shape; the worker goes on.
 */
static struct MHD_Response *
serve(struct MHD_Connection *conn, const char *url, const char *method,
	  HttpRequest *hr, unsigned int *status)
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
		PushActiveSnapshot(GetTransactionSnapshot());
		registry_rest(&req, &resp);
		PopActiveSnapshot();
		/* the body must survive the commit: copy it into request memory */
		MemoryContextSwitchTo(RequestContext);
		resp.body = pnstrdup(resp.body, resp.body_len);
		CommitTransactionCommand();
		if (cacheable && resp.status == 200)
			http_cache_store(cache_key, resp.body, resp.body_len, generation);
		response = make_response(resp.status, resp.body, resp.body_len,
								 resp.content_type, status);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		StringInfoData msg;

		MemoryContextSwitchTo(RequestContext);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		initStringInfo(&msg);
		appendStringInfoString(&msg, "{\"error_code\":50001,\"message\":");
		escape_json(&msg, edata->message ? edata->message : "Internal Server Error");
		appendStringInfoChar(&msg, '}');
		response = make_response(500, msg.data, msg.len, REST_CONTENT_TYPE, status);
	}
	PG_END_TRY();
	pgstat_report_stat(false);
	pgstat_report_activity(STATE_IDLE, NULL);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextReset(RequestContext);
	return response;
}

/*
 * MHD's access handler.  First call: only remember the request (answering
 * on the first call makes libmicrohttpd 0.9.75 drop keep-alive).  Then
 * gather the body, refusing more than registry.http_max_body_size.  Last
 * call: answer.
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

	if (hr == NULL)
	{
		hr = calloc(1, sizeof(HttpRequest));
		if (hr == NULL)
			return MHD_NO;
		*con_cls = hr;
		return MHD_YES;
	}
	if (*upload_data_size > 0)
	{
		size_t		n = *upload_data_size;

		if (!hr->too_large && hr->len + n > (size_t) registry_http_max_body_size)
		{
			hr->too_large = true;
			free(hr->body);
			hr->body = NULL;
			hr->len = hr->cap = 0;
		}
		if (!hr->too_large)
		{
			if (hr->len + n + 1 > hr->cap)
			{
				size_t		cap = hr->cap ? hr->cap : 4096;
				char	   *b;

				while (cap < hr->len + n + 1)
					cap *= 2;
				b = realloc(hr->body, cap);
				if (b == NULL)
					return MHD_NO;
				hr->body = b;
				hr->cap = cap;
			}
			memcpy(hr->body + hr->len, upload_data, n);
			hr->len += n;
			hr->body[hr->len] = '\0';
		}
		*upload_data_size = 0;
		return MHD_YES;
	}

	if (hr->too_large)
	{
		char	   *msg = psprintf("{\"error_code\":413,\"message\":\"Request body is larger than registry.http_max_body_size (%d bytes)\"}",
								   registry_http_max_body_size);

		response = make_response(413, msg, strlen(msg), REST_CONTENT_TYPE, &status);
		pfree(msg);
	}
	else
		response = serve(conn, url, method, hr, &status);
	if (response == NULL)
		return MHD_NO;
	ret = MHD_queue_response(conn, status, response);
	MHD_destroy_response(response);
	return ret;
}

static void
request_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
				  enum MHD_RequestTerminationCode toe)
{
	HttpRequest *hr = *con_cls;

	if (hr)
	{
		free(hr->body);
		free(hr);
		*con_cls = NULL;
	}
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

static void
stop_daemon(void)
{
	if (daemon_handle)
	{
		MHD_stop_daemon(daemon_handle);
		daemon_handle = NULL;
	}
}

static void
start_daemon(void)
{
	struct sockaddr_storage addr;
	unsigned int flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG;

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
									 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) 60,
									 MHD_OPTION_CONNECTION_LIMIT, (unsigned int) 1000,
									 MHD_OPTION_END);
	if (daemon_handle == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not listen on %s:%d for the registry REST API",
						registry_http_listen_addresses, registry_http_port)));
	daemon_port = registry_http_port;
	if (daemon_address)
		pfree(daemon_address);
	daemon_address = MemoryContextStrdup(TopMemoryContext, registry_http_listen_addresses);
	ereport(LOG,
			(errmsg("registry REST API listening on %s:%d",
					registry_http_listen_addresses, registry_http_port)));
}

/* After a reload, restart the daemon if its port or address changed. */
static void
reload_config(void)
{
	ConfigReloadPending = false;
	ProcessConfigFile(PGC_SIGHUP);
	ereport(LOG, (errmsg("registry REST API worker reloaded its configuration")));
	if (registry_http_port != daemon_port ||
		strcmp(registry_http_listen_addresses, daemon_address) != 0)
	{
		stop_daemon();
		if (registry_http_port != 0)
			start_daemon();
	}
}

void
registry_http_worker_main(Datum main_arg)
{
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, handle_sigterm);
	BackgroundWorkerUnblockSignals();

	BackgroundWorkerInitializeConnection(registry_database, NULL, 0);
	RequestContext = AllocSetContextCreate(TopMemoryContext, "registry HTTP request",
										   ALLOCSET_DEFAULT_SIZES);
	pgstat_report_appname("registry http");
	start_daemon();

	while (!shutdown_requested)
	{
		const union MHD_DaemonInfo *info;
		MHD_UNSIGNED_LONG_LONG mhd_timeout;
		long		timeout = 1000;
		int			events = WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | WL_TIMEOUT;
		pgsocket	fd = PGINVALID_SOCKET;

		if (daemon_handle)
		{
			info = MHD_get_daemon_info(daemon_handle, MHD_DAEMON_INFO_EPOLL_FD);
			fd = info->epoll_fd;
			events |= WL_SOCKET_READABLE;
			if (MHD_get_timeout(daemon_handle, &mhd_timeout) == MHD_YES && mhd_timeout < 1000)
				timeout = (long) mhd_timeout;
		}
		(void) WaitLatchOrSocket(MyLatch, events, fd, timeout, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
			reload_config();
		if (daemon_handle)
			MHD_run(daemon_handle);
	}
	stop_daemon();
	proc_exit(0);
}

/*
 * Register the workers from _PG_init, only while shared_preload_libraries
 * is being processed; registry.http_port = 0 disables them.
 */
void
registry_http_register_workers(void)
{
	BackgroundWorker worker;
	int			i;

	if (registry_http_port == 0)
		return;
	for (i = 0; i < registry_http_workers; i++)
	{
		memset(&worker, 0, sizeof(worker));
		worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
		worker.bgw_start_time = BgWorkerStart_ConsistentState;
		worker.bgw_restart_time = 5;
		snprintf(worker.bgw_library_name, BGW_MAXLEN, "registry");
		snprintf(worker.bgw_function_name, BGW_MAXLEN, "registry_http_worker_main");
		snprintf(worker.bgw_name, BGW_MAXLEN, "registry http worker %d", i + 1);
		snprintf(worker.bgw_type, BGW_MAXLEN, "registry http");
		worker.bgw_main_arg = Int32GetDatum(i);
		worker.bgw_notify_pid = 0;
		RegisterBackgroundWorker(&worker);
	}
}
