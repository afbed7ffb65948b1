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
#include "replication/logicallauncher.h"
#include "utils/guc.h"

#include "http.h"
#include "http_internal.h"

int			registry_http_port = 8081;
char	   *registry_http_listen_addresses = NULL;
int			registry_http_workers = 2;
int			registry_http_pool_workers = 2;
char	   *registry_database = NULL;
int			registry_http_max_body_size = 16 * 1024 * 1024;
int			registry_http_max_connections = 0;
int			registry_http_max_body_memory = 64 * 1024 * 1024;
int			registry_http_request_timeout = 30;
int			registry_http_lock_wait = 10000;
int			registry_http_statement_timeout = 30000;
int			registry_http_log_min_duration = -1;
char	   *registry_primary_conninfo = NULL;
int			registry_forward_timeout = 10000;
int			registry_forward_replay_wait = 10000;
int			registry_http_auth = HTTP_AUTH_NONE;
char	   *registry_http_anonymous_role = NULL;
bool		registry_http_anonymous_remote = false;
char	   *registry_http_worker_role = NULL;
char	   *registry_http_tls_cert_file = NULL;
char	   *registry_http_tls_key_file = NULL;

static const struct config_enum_entry http_auth_options[] = {
	{"none", HTTP_AUTH_NONE, false},
	{"basic", HTTP_AUTH_BASIC, false},
	{NULL, 0, false}
};

/* Define the settings that only a server start can give (the workers'). */
static void
define_postmaster_settings(void)
{
	DefineCustomIntVariable("registry.http_workers",
							"Number of HTTP worker processes sharing the REST API port.",
							NULL,
							&registry_http_workers,
							2, 1, HTTP_MAX_WORKERS,
							PGC_POSTMASTER, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_pool_workers",
							"Number of worker processes that run the HTTP workers' long requests (listings, compatibility checks).",
							"0: each HTTP worker runs them itself, and its other requests wait meanwhile.",
							&registry_http_pool_workers,
							2, 0, HTTP_MAX_WORKERS,
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
							"0: as many as the open file limit allows.",
							&registry_http_max_connections,
							0, 0, 1000000,
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
	DefineCustomIntVariable("registry.http_log_min_duration",
							"REST requests that take at least this long are logged with their method, path, role, peer, status and duration (-1: none, 0: all).",
							"The access log of the REST API, as log_min_duration_statement is SQL's.",
							&registry_http_log_min_duration,
							-1, -1, INT_MAX,
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

/* Define how a standby's workers forward writes to the primary. */
static void
define_forward_settings(void)
{
	DefineCustomStringVariable("registry.primary_conninfo",
							   "Connection string a standby's REST API uses to run writes on the primary.",
							   "Empty: the standby's own primary_conninfo; the registry's database when it names none.",
							   &registry_primary_conninfo,
							   "",
							   PGC_SIGHUP, GUC_SUPERUSER_ONLY,
							   NULL, NULL, NULL);
	DefineCustomIntVariable("registry.forward_timeout",
							"Longest time a write forwarded by a standby may take on the primary, connecting included; past it 500 with error code 50003.",
							NULL,
							&registry_forward_timeout,
							10000, 1, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.forward_replay_wait",
							"Longest time a standby waits to replay a write it forwarded before it answers.",
							"The primary's answer is given either way.",
							&registry_forward_replay_wait,
							10000, 0, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
}

/*
 * Define who a request runs as: the authentication asked of clients, the
 * role of anonymous requests and the workers' own role (server start only).
 */
static void
define_auth_settings(void)
{
	DefineCustomEnumVariable("registry.http_auth",
							 "Authentication of REST requests: none (anonymous) or basic (HTTP Basic against PostgreSQL roles).",
							 NULL,
							 &registry_http_auth,
							 HTTP_AUTH_NONE, http_auth_options,
							 PGC_SIGHUP, 0,
							 NULL, NULL, NULL);
	DefineCustomStringVariable("registry.http_anonymous_role",
							   "Role that REST requests run as when registry.http_auth is none; never a superuser.",
							   "The default, registry_reader, only reads: registry_writer or registry_admin let every local user of the host write.",
							   &registry_http_anonymous_role,
							   "registry_reader",
							   PGC_SIGHUP, 0,
							   NULL, NULL, NULL);
	DefineCustomBoolVariable("registry.http_anonymous_remote",
							 "Whether anonymous REST requests are served from peers that are not on a loopback address.",
							 NULL,
							 &registry_http_anonymous_remote,
							 false,
							 PGC_SIGHUP, 0,
							 NULL, NULL, NULL);
	if (process_shared_preload_libraries_in_progress)
		DefineCustomStringVariable("registry.http_worker_role",
								   "Role the HTTP workers connect as; it needs LOGIN and no privilege, never superuser.",
								   NULL,
								   &registry_http_worker_role,
								   "registry_http",
								   PGC_POSTMASTER, 0,
								   NULL, NULL, NULL);
}

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
 * Say at server start when registry.http_workers and
 * registry.http_pool_workers take more background worker slots than
 * max_worker_processes leaves: beside the workers of libraries preloaded
 * before this one (already registered, not counted here), the logical
 * replication launcher takes one slot, and parallel queries and logical
 * replication workers draw from the same pool.  The HTTP workers are
 * registered first, so they are the last to go without one.
 */
static void
check_worker_slots(void)
{
	int			launcher = max_logical_replication_workers > 0 ? 1 : 0;
	int			needed = registry_http_workers + registry_http_pool_workers + launcher;

	if (needed > max_worker_processes)
		ereport(WARNING,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("registry.http_workers = %d and registry.http_pool_workers = %d need more background worker slots than max_worker_processes = %d leaves",
						registry_http_workers, registry_http_pool_workers, max_worker_processes),
				 errdetail("Each HTTP worker and each pool worker takes one slot%s; the workers that find none are never started, the pool workers first.",
						   launcher ? ", and the logical replication launcher takes one" : ""),
				 errhint("Set max_worker_processes to at least %d (plus what parallel queries and other extensions use), or lower registry.http_workers or registry.http_pool_workers.",
						 needed + 8)));
	else if (needed == max_worker_processes)
		ereport(LOG,
				(errmsg("registry.http_workers = %d and registry.http_pool_workers = %d leave no background worker slot of max_worker_processes = %d free",
						registry_http_workers, registry_http_pool_workers, max_worker_processes),
				 errdetail("Parallel queries and logical replication workers draw from the same slots and will not start.")));
}

/* a worker of the registry's, with its entry point, name and number */
static void
register_worker(const char *function, const char *name, const char *type, int i)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = 5;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "registry");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "%s", function);
	snprintf(worker.bgw_name, BGW_MAXLEN, "%s %d", name, i + 1);
	snprintf(worker.bgw_type, BGW_MAXLEN, "%s", type);
	worker.bgw_main_arg = Int32GetDatum(i);
	worker.bgw_notify_pid = 0;
	RegisterBackgroundWorker(&worker);
}

/*
 * Register the workers, only while shared_preload_libraries is being
 * processed; registry.http_port = 0 disables them.
 */
static void
register_workers(void)
{
	int			i;

	if (registry_http_port == 0)
		return;
	check_worker_slots();
	for (i = 0; i < registry_http_workers; i++)
		register_worker("registry_http_worker_main", "registry http worker", "registry http", i);
	for (i = 0; i < registry_http_pool_workers; i++)
		register_worker("registry_http_pool_main", "registry http pool worker",
						"registry http pool", i);
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
	define_forward_settings();
	define_auth_settings();
	define_tls_settings();
	if (process_shared_preload_libraries_in_progress)
	{
		http_connect_init();
		http_listen_init();
		http_pool_init();
		register_workers();
	}
}
