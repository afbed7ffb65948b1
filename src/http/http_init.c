/*-------------------------------------------------------------------------
 *
 * http_init.c
 *	  The HTTP workers' settings (the registry.http_* GUCs and
 *	  registry.database) beside their variables, and the workers'
 *	  registration at server start.
 *
 * PostgreSQL creates PGC_POSTMASTER settings only at server start; a
 * library loaded later (CREATE EXTENSION without preloading, for the SQL
 * API alone) runs no workers, so registry.http_workers and
 * registry.database are defined only while shared_preload_libraries is
 * processed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "utils/guc.h"

#include "http.h"

int			registry_http_port = 8081;
char	   *registry_http_listen_addresses = NULL;
int			registry_http_workers = 2;
char	   *registry_database = NULL;
int			registry_http_max_body_size = 16 * 1024 * 1024;
int			registry_http_max_connections = 1000;
int			registry_http_max_body_memory = 64 * 1024 * 1024;
int			registry_http_request_timeout = 30;
int			registry_http_lock_wait = 10000;
int			registry_http_statement_timeout = 30000;

/* Define the settings that only a server start can give (the workers'). */
static void
define_postmaster_settings(void)
{
	DefineCustomIntVariable("registry.http_workers",
							"Number of HTTP worker processes sharing the REST API port.",
							NULL,
							&registry_http_workers,
							2, 1, 64,
							PGC_POSTMASTER, 0,
							NULL, NULL, NULL);
	DefineCustomStringVariable("registry.database",
							   "Database whose registry the REST API serves.",
							   NULL,
							   &registry_database,
							   "postgres",
							   PGC_POSTMASTER, 0,
							   NULL, NULL, NULL);
}

/* Define the limits of one request and of one worker's requests. */
static void
define_request_limits(void)
{
	DefineCustomIntVariable("registry.http_max_body_size",
							"Largest REST request body accepted; larger ones get 413.",
							NULL,
							&registry_http_max_body_size,
							16 * 1024 * 1024, 1024, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_max_connections",
							"Most connections one HTTP worker holds; fewer when the open file limit is low.",
							NULL,
							&registry_http_max_connections,
							1000, 1, 1000000,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_max_body_memory",
							"Memory all pending request bodies of one HTTP worker may hold; a request over it gets 503.",
							NULL,
							&registry_http_max_body_memory,
							64 * 1024 * 1024, 1024, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_request_timeout",
							"Longest time a REST request's head and body may take to arrive; past it 408.",
							NULL,
							&registry_http_request_timeout,
							30, 1, 3600,
							PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_lock_wait",
							"Longest time a REST request waits for locks; past it 500 with error code 50002.",
							"Other requests are served meanwhile.",
							&registry_http_lock_wait,
							10000, 0, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_statement_timeout",
							"Longest time one attempt of a REST request may run (0: no limit); past it 500 with error code 50002.",
							NULL,
							&registry_http_statement_timeout,
							30000, 0, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
}

char	   *registry_http_tls_cert_file = NULL;
char	   *registry_http_tls_key_file = NULL;

/* Define the REST API's TLS certificate and key (both set: HTTPS only). */
static void
define_tls_settings(void)
{
	DefineCustomStringVariable("registry.http_tls_cert_file",
							   "PEM certificate (chain) of the REST API; with registry.http_tls_key_file it serves HTTPS only.",
							   "A relative path is relative to the data directory.",
							   &registry_http_tls_cert_file,
							   "",
							   PGC_SIGHUP, 0,
							   NULL, NULL, NULL);
	DefineCustomStringVariable("registry.http_tls_key_file",
							   "PEM private key of the REST API's certificate (unencrypted, not readable by others).",
							   "A relative path is relative to the data directory.",
							   &registry_http_tls_key_file,
							   "",
							   PGC_SIGHUP, 0,
							   NULL, NULL, NULL);
}

/*
 * Register the workers, only while shared_preload_libraries is being
 * processed; registry.http_port = 0 disables them.
 */
static void
register_workers(void)
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

/* The HTTP subsystem's start: its settings, then (at server start) its workers. */
void
registry_http_init(void)
{
	DefineCustomIntVariable("registry.http_port",
							"TCP port of the registry's REST API (0 disables the HTTP workers).",
							NULL,
							&registry_http_port,
							8081, 0, 65535,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomStringVariable("registry.http_listen_addresses",
							   "Address the REST API listens on: localhost, * or one IP address.",
							   NULL,
							   &registry_http_listen_addresses,
							   "localhost",
							   PGC_SIGHUP, 0,
							   NULL, NULL, NULL);
	if (process_shared_preload_libraries_in_progress)
		define_postmaster_settings();
	define_request_limits();
	define_tls_settings();
	if (process_shared_preload_libraries_in_progress)
		register_workers();
}
