/*-------------------------------------------------------------------------
 *
 * http_worker.c
 *	  Background workers serving the Confluent REST API over HTTP: the
 *	  daemon's lifecycle and the worker's main loop.
 *
 * libmicrohttpd runs without any thread of its own (MHD_USE_EPOLL): its
 * epoll descriptor is waited on, with the worker's latch, in one wait
 * event set made once, and MHD_run() is called from this process, so only
 * this process touches PostgreSQL state.  The workers share one listening
 * socket, and the worker holding the fewest connections accepts and hands
 * the connection to libmicrohttpd (http_listen.c).  The loop also resumes
 * requests waiting for a lock (http_retry.c), advances the writes a
 * standby forwards to the primary, whose libpq sockets are in an epoll set
 * in the same wait event set (http_forward.c), resumes the long requests
 * the pool workers answered, whose answers set the latch (http_pool.c),
 * and sweeps connections for
 * slow senders (http_deadline.c); requests themselves are served in
 * http_request.c.
 * With a TLS certificate and key (http_tls.c) the daemon serves HTTPS
 * only, and with unusable ones it is not started at all.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

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
#include "pgstat.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "audit.h"
#include "http.h"
#include "http_cache.h"
#include "http_internal.h"
#include "http_tls.h"
#include "rest.h"
#include "usage.h"

/* seconds a connection may stay idle (libmicrohttpd's own timeout) */
#define IDLE_TIMEOUT_S 60
/* how often a worker whose port another server holds tries it again */
#define PORT_RETRY_MS 5000

PGDLLEXPORT void registry_http_worker_main(Datum main_arg);

static volatile sig_atomic_t shutdown_requested = false;

/* the daemon and what it was started with, to restart it on a reload */
static struct MHD_Daemon *daemon_handle = NULL;
static int	daemon_port = 0;
static char *daemon_address = NULL;
static unsigned int daemon_connection_limit = 0;
static HttpTls daemon_tls;		/* its certificate and key, when HTTPS */

/* this worker's number among them (0 ..), its slot in http_listen.c */
static int	worker_slot = 0;

/* the shared listening socket while the worker serves it, else -1 */
static int	listen_fd = -1;

/* another server held the port at the last start: when to try again */
static TimestampTz port_retry_at = 0;

/*
 * the latch, postmaster death, the forwards' and the daemon's epoll
 * descriptors, listen_fd
 */
static WaitEventSet *wait_set = NULL;

/* the same without listen_fd, while new connections are left to others */
static WaitEventSet *quiet_set = NULL;

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
 * a wait event set: latch, postmaster death, the forwards' epoll set, the
 * daemon if running and, with_listen, the shared socket
 */
static WaitEventSet *
make_wait_set(bool with_listen)
{
	WaitEventSet *set = CreateWaitEventSet(TopMemoryContext, 5);

	AddWaitEventToSet(set, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(set, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	/* the sockets of writes forwarded to the primary (on a standby) */
	AddWaitEventToSet(set, WL_SOCKET_READABLE, http_forward_wait_fd(), NULL, NULL);
	if (daemon_handle)
	{
		const union MHD_DaemonInfo *info;

		info = MHD_get_daemon_info(daemon_handle, MHD_DAEMON_INFO_EPOLL_FD);
		AddWaitEventToSet(set, WL_SOCKET_READABLE, info->epoll_fd, NULL, NULL);
	}
	if (with_listen && listen_fd >= 0)
		AddWaitEventToSet(set, WL_SOCKET_READABLE, listen_fd, NULL, &listen_fd);
	return set;
}

/* the wait event sets: with the shared socket, and one without it */
static void
build_wait_sets(void)
{
	wait_set = make_wait_set(true);
	if (listen_fd >= 0)
		quiet_set = make_wait_set(false);
}

/* the wait event sets freed */
static void
free_wait_sets(void)
{
	if (wait_set)
		FreeWaitEventSet(wait_set);
	if (quiet_set)
		FreeWaitEventSet(quiet_set);
	wait_set = NULL;
	quiet_set = NULL;
}

/* stop the daemon, its waiting requests resumed so they are closed too */
static void
stop_daemon(void)
{
	if (daemon_handle)
	{
		http_resume_all_requests();
		http_forward_resume_all();
		http_pool_resume_all();
		MHD_stop_daemon(daemon_handle);
		daemon_handle = NULL;
	}
	http_listen_leave();
	http_listen_release_own();
	listen_fd = -1;
	http_tls_set_serving(false);
	http_tls_release(&daemon_tls);
}

/*
 * the daemon's listening options: its own socket on addr (SO_REUSEPORT),
 * or none when it is given the connections accepted from the shared one
 */
static void
set_listen_options(struct MHD_OptionItem *opts, const struct sockaddr_storage *addr)
{
	int			n = 0;

	if (listen_fd < 0)
	{
		opts[n++] = (struct MHD_OptionItem)
		{
			MHD_OPTION_SOCK_ADDR, 0, (void *) addr
		};
		opts[n++] = (struct MHD_OptionItem)
		{
			MHD_OPTION_LISTENING_ADDRESS_REUSE, 1, NULL
		};
	}
	opts[n] = (struct MHD_OptionItem)
	{
		MHD_OPTION_END, 0, NULL
	};
}

/* the daemon's TLS options: daemon_tls's certificate and key, or none */
static void
set_tls_options(struct MHD_OptionItem *opts, bool https)
{
	int			n = 0;

	if (https)
	{
		opts[n++] = (struct MHD_OptionItem)
		{
			MHD_OPTION_HTTPS_MEM_CERT, 0, daemon_tls.cert
		};
		opts[n++] = (struct MHD_OptionItem)
		{
			MHD_OPTION_HTTPS_MEM_KEY, 0, daemon_tls.key
		};
		opts[n++] = (struct MHD_OptionItem)
		{
			MHD_OPTION_HTTPS_PRIORITIES, 0, (void *) HTTP_TLS_PRIORITIES
		};
	}
	opts[n] = (struct MHD_OptionItem)
	{
		MHD_OPTION_END, 0, NULL
	};
}

/*
 * start the daemon on the configured address and port, serving HTTPS
 * only when tls is HTTP_TLS_ON (the daemon then owns tls's files)
 */
static void
start_daemon(unsigned int connection_limit, long fd_limit, HttpTls *tls)
{
	struct sockaddr_storage addr;
	unsigned int flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
	bool		https = (tls->mode == HTTP_TLS_ON);
	struct MHD_OptionItem tls_options[4];
	struct MHD_OptionItem listen_options[3];

	if (!http_resolve_listen_address(registry_http_listen_addresses, registry_http_port, &addr))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not resolve registry.http_listen_addresses \"%s\"",
						registry_http_listen_addresses)));
	if (addr.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	listen_fd = http_listen_join(worker_slot, &addr);
	if (listen_fd >= 0)
		flags |= MHD_USE_NO_LISTEN_SOCKET;
	else if (!http_listen_claim_own(&addr, registry_http_port))
	{
		/* another server listens there: serve nothing, try again later */
		http_tls_release(tls);
		port_retry_at = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), PORT_RETRY_MS);
		return;
	}
	port_retry_at = 0;
	set_listen_options(listen_options, &addr);
	daemon_tls = *tls;
	memset(tls, 0, sizeof(*tls));
	if (https)
		flags |= MHD_USE_TLS;
	set_tls_options(tls_options, https);
	daemon_handle = MHD_start_daemon(flags,
									 (uint16_t) (listen_fd >= 0 ? 0 : registry_http_port),
									 NULL, NULL,
									 http_access_handler, NULL,
									 MHD_OPTION_ARRAY, listen_options,
									 MHD_OPTION_UNESCAPE_CALLBACK, http_keep_escaped, NULL,
									 MHD_OPTION_NOTIFY_COMPLETED, http_request_completed, NULL,
									 MHD_OPTION_NOTIFY_CONNECTION, http_connection_notify, NULL,
									 MHD_OPTION_URI_LOG_CALLBACK, http_request_line_received, NULL,
									 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) IDLE_TIMEOUT_S,
									 MHD_OPTION_CONNECTION_LIMIT,
									 connection_limit + HTTP_ACCEPT_BATCH,
									 MHD_OPTION_ARRAY, tls_options,
									 MHD_OPTION_END);
	if (daemon_handle == NULL)
	{
		http_listen_leave();
		http_listen_release_own();
		listen_fd = -1;
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not listen on %s:%d for the registry REST API",
						registry_http_listen_addresses, registry_http_port)));
	}
	http_tls_set_serving(https);
	daemon_port = registry_http_port;
	daemon_connection_limit = connection_limit;
	http_connection_limit_note_reset();
	if (daemon_address)
		pfree(daemon_address);
	daemon_address = MemoryContextStrdup(TopMemoryContext, registry_http_listen_addresses);
	ereport(LOG,
			(errmsg(https ? "registry REST API listening on %s:%d over HTTPS" :
					"registry REST API listening on %s:%d",
					registry_http_listen_addresses, registry_http_port),
			 errdetail("At most %u connections in this worker (open file limit %ld).",
					   connection_limit, fd_limit)));
}

/*
 * (Re)start the daemon and the wait event set that waits on it, with the
 * TLS files of tls (taken over, or released); with them unusable nothing
 * listens, plain HTTP included.
 */
static void
restart_daemon(HttpTls *tls)
{
	unsigned int limit;
	long		fd_limit;

	port_retry_at = 0;
	stop_daemon();
	free_wait_sets();
	if (registry_http_port != 0 && tls->mode != HTTP_TLS_BROKEN)
	{
		limit = http_size_connection_limit(&fd_limit);
		start_daemon(limit, fd_limit, tls);
	}
	http_tls_release(tls);
	build_wait_sets();
}

/*
 * After a reload, restart the daemon if its port, address, connection
 * limit (from registry.http_max_connections and the open file limit) or
 * TLS files (their paths or contents, read again) changed; if it is not
 * running (for want of usable TLS files), try again.
 */
static void
reload_config(void)
{
	long		fd_limit;
	unsigned int limit;
	HttpTls		tls;
	bool		restart;

	ConfigReloadPending = false;
	ProcessConfigFile(PGC_SIGHUP);
	/* a setting may change what an answer is: no cached one outlives it */
	http_cache_reset();
	ereport(LOG, (errmsg("registry REST API worker reloaded its configuration")));
	http_auth_log_mode();
	limit = http_size_connection_limit(&fd_limit);
	http_tls_load(&tls);
	if (daemon_handle == NULL)
		restart = (registry_http_port != 0);
	else
		restart = (registry_http_port != daemon_port ||
				   strcmp(registry_http_listen_addresses, daemon_address) != 0 ||
				   limit != daemon_connection_limit ||
				   !http_tls_equal(&tls, &daemon_tls));
	if (registry_http_port == 0)
	{
		/* leave the database: the next worker waits unconnected */
		http_tls_release(&tls);
		stop_daemon();
		ereport(LOG,
				(errmsg("registry REST API worker disconnects: registry.http_port is 0"),
				 errdetail("The workers wait without a database connection until registry.http_port is set again.")));
		proc_exit(1);
	}
	if (restart)
		restart_daemon(&tls);
	else
		http_tls_release(&tls);
}

/*
 * At the start of a worker (an HTTP worker or a pool worker) with
 * registry.http_port = 0 (set by a reload): wait, connected to no
 * database, until a reload sets a port (a SIGTERM ends the wait, as it
 * ends a serving worker).
 */
void
http_wait_for_port(void)
{
	while (registry_http_port == 0)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH, -1L,
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		/* a pool worker's SIGTERM (die) */
		CHECK_FOR_INTERRUPTS();
		if (shutdown_requested)
			proc_exit(1);
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
	}
}

/* how long the loop may sleep: until MHD, a retry or a deadline needs it */
static long
next_wakeup_ms(TimestampTz now)
{
	long		timeout = 1000;
	MHD_UNSIGNED_LONG_LONG mhd_timeout;

	if (daemon_handle == NULL)
		return timeout;
	if (MHD_get_timeout(daemon_handle, &mhd_timeout) == MHD_YES && mhd_timeout < (MHD_UNSIGNED_LONG_LONG) timeout)
		timeout = (long) mhd_timeout;
	timeout = http_retry_wakeup_ms(now, timeout);
	timeout = http_forward_wakeup_ms(now, timeout);
	timeout = http_listen_wakeup_ms(now, timeout);
	return http_deadline_wakeup_ms(timeout);
}

/* did the wait report a connection waiting on the shared socket? */
static bool
listen_ready(const WaitEvent *events, int nevents)
{
	int			i;

	for (i = 0; i < nevents; i++)
		if (events[i].user_data == &listen_fd && (events[i].events & WL_SOCKET_READABLE))
			return true;
	return false;
}

/*
 * the worker: connect, start the daemon, wait and serve until SIGTERM; then
 * exit to be started again bgw_restart_time later (at shutdown, not at all)
 */
void
registry_http_worker_main(Datum main_arg)
{
	HttpTls		tls;

	worker_slot = DatumGetInt32(main_arg);
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, handle_sigterm);
	BackgroundWorkerUnblockSignals();

	http_wait_for_port();
	http_worker_connect();
	registry_rest_session_init();
	http_request_init();
	http_forward_init();
	pgstat_report_appname("registry http");
	http_limits_remember_base();
	http_tls_load(&tls);
	restart_daemon(&tls);
	http_auth_log_mode();

	while (!shutdown_requested)
	{
		WaitEvent	events[5];
		TimestampTz now = GetCurrentTimestamp();
		WaitEventSet *set = wait_set;
		int			nevents;
		bool		listen_woke;

		if (quiet_set && http_listen_deferring(now))
			set = quiet_set;
		nevents = WaitEventSetWait(set, next_wakeup_ms(now), events,
								   lengthof(events), PG_WAIT_EXTENSION);
		listen_woke = (set == wait_set && listen_ready(events, nevents));
		ResetLatch(MyLatch);

		/*
		 * between requests there is nothing to cancel: a cancel must not end
		 * the worker
		 */
		QueryCancelPending = false;
		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
			reload_config();
		/* the audit trail's retention: one worker deletes the old rows */
		if (worker_slot == 0)
			registry_audit_sweep(GetCurrentTimestamp());
		/* the read counts: the same worker flushes them to their tables */
		if (worker_slot == 0)
			registry_usage_flush_due(GetCurrentTimestamp());
		if (daemon_handle == NULL && port_retry_at != 0 &&
			GetCurrentTimestamp() >= port_retry_at)
		{
			/* the port another server held: is it free now? */
			http_tls_load(&tls);
			restart_daemon(&tls);
		}
		if (daemon_handle == NULL)
			continue;
		now = GetCurrentTimestamp();
		http_resume_due_requests(now);
		http_forward_run(now);
		/* the answers of the requests the pool workers run */
		http_pool_run();
		/* new connections first: the daemon reads them in the same run */
		http_listen_serve(daemon_handle, daemon_connection_limit, now, listen_woke);
		MHD_run(daemon_handle);
		http_listen_note_load(daemon_handle);
		http_listen_own_socket_room(daemon_handle, daemon_connection_limit, now);
		http_deadline_sweep(now);
		http_note_connection_limit(daemon_handle, daemon_connection_limit, now);
	}
	stop_daemon();
	/* 1: a worker stopped by pg_terminate_backend() is started again */
	proc_exit(1);
}
