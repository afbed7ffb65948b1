/*-------------------------------------------------------------------------
 *
 * http_connect.c
 *	  The HTTP workers' own database connection: as
 *	  registry.http_worker_role (registry_http, made by CREATE EXTENSION:
 *	  LOGIN, no password, no privilege), never as a superuser.
 *
 * Until CREATE EXTENSION has run, that role does not exist and connecting
 * fails.  The failure is noted in shared memory; the worker started next
 * (bgw_restart_time later) does not try again blindly: it connects as the
 * bootstrap superuser, serves nothing, says once in the log what it waits
 * for, and looks at pg_authid every few seconds until the role can log in
 * and is no superuser.  Then it exits so that the next worker connects as
 * the role.  (Connecting to no database, the shared catalogs only, would
 * do, but such a backend cannot survive a relcache reset that a CREATE
 * EXTENSION elsewhere may cause.)  So a cluster that
 * preloads the library without the extension logs one line per worker,
 * not one every few seconds.
 *
 * When registry.database does not exist, the failure (FATAL 3D000, seen
 * by an emit_log_hook) is noted apart: the worker started next connects
 * to no database (the shared catalogs only, as the autovacuum launcher
 * does), says once that it waits for the database, and looks it up in
 * pg_database every few seconds; once it exists, the worker exits so that
 * the next one connects to it.  So a missing database is logged once per
 * worker (its first FATAL) and once by the waiting worker, not every five
 * seconds.  A CREATE EXTENSION runs in a database, never in the waiting
 * worker's none, so its relcache reset does not reach it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "access/heapam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_database.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/syscache.h"

#include "http.h"
#include "http_internal.h"
#include "shared_memory.h"

/* how often a waiting worker looks at the catalogs again */
#define WAIT_CHECK_MS 1000

/* shared: did a worker fail to connect as the role since it last could? */
typedef struct HttpConnectShared
{
	pg_atomic_uint32 connect_failed;
	pg_atomic_uint32 database_missing;	/* the last failure: no database */
} HttpConnectShared;

static HttpConnectShared *connect_shared = NULL;
static bool connected = false;	/* this worker got its connection */
static emit_log_hook_type prev_emit_log_hook = NULL;

/* The shared flag's size. */
static Size
connect_shared_size(void)
{
	return sizeof(HttpConnectShared);
}

/* Make the shared flag: no failure yet. */
static void
connect_shared_init(void *mem)
{
	HttpConnectShared *s = mem;

	pg_atomic_init_u32(&s->connect_failed, 0);
	pg_atomic_init_u32(&s->database_missing, 0);
}

/* At server start: the shared flag. */
void
http_connect_init(void)
{
	RegistryShmem piece = {"registry http connect", connect_shared_size, connect_shared_init,
	NULL, NULL, 0, (void **) &connect_shared};

	registry_shmem_add(&piece);
}

/*
 * A connection that failed (FATAL in InitPostgres) is noted for the next
 * worker: that the database is missing, or that something else failed.
 */
static void
note_connect_failure(int code, Datum arg)
{
	if (connect_shared && !connected &&
		pg_atomic_read_u32(&connect_shared->database_missing) == 0)
		pg_atomic_write_u32(&connect_shared->connect_failed, 1);
}

/* Before the worker is connected: a FATAL saying the database is missing is noted. */
static void
note_missing_database(ErrorData *edata)
{
	if (!connected && connect_shared && edata->elevel == FATAL &&
		edata->sqlerrcode == ERRCODE_UNDEFINED_DATABASE)
		pg_atomic_write_u32(&connect_shared->database_missing, 1);
	if (prev_emit_log_hook)
		prev_emit_log_hook(edata);
}

/*
 * Does registry.database exist?  In a short transaction, by a heap scan of
 * pg_database (nailed in the relcache; its indexes are not, and a backend
 * without a database cannot read pg_class to open them).
 */
static bool
database_exists(void)
{
	bool		exists = false;
	Relation	rel;
	TableScanDesc scan;
	HeapTuple	tuple;

	StartTransactionCommand();
	rel = table_open(DatabaseRelationId, AccessShareLock);
	scan = table_beginscan_catalog(rel, 0, NULL);
	while (!exists && HeapTupleIsValid(tuple = heap_getnext(scan, ForwardScanDirection)))
		exists = strcmp(NameStr(((Form_pg_database) GETSTRUCT(tuple))->datname),
						registry_database) == 0;
	table_endscan(scan);
	table_close(rel, AccessShareLock);
	CommitTransactionCommand();
	return exists;
}

/*
 * Connected to no database, serving nothing: wait until registry.database
 * exists, saying once that it waits, then exit to be restarted (a SIGTERM
 * ends the wait).
 */
static void
wait_for_database(void)
{
	bool		said = false;

	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);
	pgstat_report_appname("registry http (waiting)");
	while (!ShutdownRequestPending)
	{
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		if (database_exists())
			break;
		if (!said)
			ereport(LOG,
					(errmsg("registry REST API waits for database \"%s\" to exist",
							registry_database),
					 errdetail("registry.database names a database that does not exist; the workers serve nothing until it is created."),
					 errhint("Create the database and run CREATE EXTENSION registry in it, or set registry.database and restart the server.")));
		said = true;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 WAIT_CHECK_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	if (ShutdownRequestPending)
		proc_exit(1);			/* as a serving worker does */
	pg_atomic_write_u32(&connect_shared->database_missing, 0);
	ereport(LOG,
			(errmsg("registry REST API worker restarts to connect to database \"%s\"",
					registry_database)));
	proc_exit(1);
}

/*
 * Why the worker cannot connect as its role now (NULL: it can), from
 * pg_authid, inside a transaction.
 */
static const char *
connect_obstacle(void)
{
	const char *role = registry_http_worker_role ? registry_http_worker_role : "";
	HeapTuple	tuple;
	const char *obstacle = NULL;

	tuple = SearchSysCache1(AUTHNAME, PointerGetDatum(role));
	if (!HeapTupleIsValid(tuple))
		return psprintf("Role \"%s\" does not exist.", role);
	if (!((Form_pg_authid) GETSTRUCT(tuple))->rolcanlogin)
		obstacle = psprintf("Role \"%s\" may not log in.", role);
	else if (((Form_pg_authid) GETSTRUCT(tuple))->rolsuper)
		obstacle = psprintf("Role \"%s\" is a superuser, and the workers never connect as one.", role);
	ReleaseSysCache(tuple);
	return obstacle;
}

/* connect_obstacle() in a short transaction, its text kept in the caller's memory */
static char *
current_obstacle(void)
{
	MemoryContext cxt = CurrentMemoryContext;
	const char *obstacle;
	char	   *copy = NULL;

	StartTransactionCommand();
	obstacle = connect_obstacle();
	if (obstacle)
		copy = MemoryContextStrdup(cxt, obstacle);
	CommitTransactionCommand();
	MemoryContextSwitchTo(cxt);
	return copy;
}

/*
 * Connected as the bootstrap superuser, serving nothing: wait until the
 * role can connect, saying once why it waits, then exit to be restarted (a
 * SIGTERM ends the wait).
 */
static void
wait_for_worker_role(void)
{
	char	   *obstacle;
	bool		said = false;

	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerInitializeConnection(registry_database, NULL, 0);
	pgstat_report_appname("registry http (waiting)");
	while (!ShutdownRequestPending)
	{
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		obstacle = current_obstacle();
		if (obstacle == NULL)
			break;
		if (!said)
			ereport(LOG,
					(errmsg("registry REST API waits before connecting as role \"%s\"",
							registry_http_worker_role),
					 errdetail("%s", obstacle),
					 errhint("CREATE EXTENSION registry creates the role registry_http; registry.http_worker_role names the role the workers connect as (LOGIN, no superuser).")));
		said = true;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 WAIT_CHECK_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
	if (ShutdownRequestPending)
		proc_exit(1);			/* as a serving worker does */
	pg_atomic_write_u32(&connect_shared->connect_failed, 0);
	ereport(LOG,
			(errmsg("registry REST API worker restarts to connect as role \"%s\"",
					registry_http_worker_role)));
	proc_exit(1);
}

/*
 * Connect the worker to registry.database as registry.http_worker_role, or
 * (after a failed attempt) wait until it can; a superuser role is refused.
 */
void
http_worker_connect(void)
{
	if (connect_shared && pg_atomic_read_u32(&connect_shared->database_missing) != 0)
		wait_for_database();
	prev_emit_log_hook = emit_log_hook;
	emit_log_hook = note_missing_database;
	if (connect_shared && pg_atomic_read_u32(&connect_shared->connect_failed) != 0)
		wait_for_worker_role();
	before_shmem_exit(note_connect_failure, (Datum) 0);
	BackgroundWorkerInitializeConnection(registry_database, registry_http_worker_role, 0);
	if (superuser())
		ereport(FATAL,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("registry REST API workers may not connect as superuser \"%s\"",
						registry_http_worker_role),
				 errhint("Set registry.http_worker_role to a role with LOGIN and no privilege, such as registry_http.")));
	connected = true;
	emit_log_hook = prev_emit_log_hook;
}
