/*-------------------------------------------------------------------------
 *
 * invalidation.c
 *	  A shared "schema generation" counter that tells every process caching
 *	  immutable schema content when some schema was hard-deleted.
 *
 * Schema content behind (context, id) never changes while the row exists,
 * so a cache needs to hear only of deletes (after which an IMPORT may give
 * the id to other content).  The AFTER DELETE row trigger on
 * registry.schemas marks the transaction; the counter is bumped only once
 * the transaction has committed, so a reader that re-reads after seeing the
 * new value can no longer see the deleted row.  A config change bumps it
 * too: a subject's alias picks the context of a /schemas/ids/{id}?subject=
 * answer; so does a mode change, which the settings cache of each process
 * (scope_cache.c) must hear of as it hears of config changes.  All are row
 * triggers enabled ALWAYS: a logical replication
 * subscriber applies rows in the replica role and fires row triggers only,
 * and its caches must hear of the deletes it applies.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "commands/trigger.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

#include "invalidation.h"
#include "shared_memory.h"

PG_FUNCTION_INFO_V1(registry_schemas_after_delete);
PG_FUNCTION_INFO_V1(registry_config_after_write);
PG_FUNCTION_INFO_V1(registry_versions_after_write);
PG_FUNCTION_INFO_V1(registry_caches_after_truncate);

typedef struct RegistryShared
{
	pg_atomic_uint64 schema_generation;
	pg_atomic_uint64 subject_generation;
} RegistryShared;

static RegistryShared *shared = NULL;
static bool delete_pending = false; /* bump both at commit */
static bool subject_pending = false;	/* bump the subject generation at
										 * commit */
static bool callback_registered = false;

/* The shared counters' size. */
static Size
shared_size(void)
{
	return sizeof(RegistryShared);
}

/* Make the shared counters, both generations at 1. */
static void
shared_init(void *mem)
{
	RegistryShared *s = mem;

	pg_atomic_init_u64(&s->schema_generation, 1);
	pg_atomic_init_u64(&s->subject_generation, 1);
}

/* The invalidation subsystem's start: its shared memory, when preloaded. */
void
registry_init_invalidation(void)
{
	RegistryShmem piece = {"registry", shared_size, shared_init, NULL, NULL, 0, (void **) &shared};

	registry_shmem_add(&piece);
}

/* The current schema generation, 0 when the counter does not exist. */
uint64
registry_schema_generation(void)
{
	if (shared == NULL)
		return 0;
	return pg_atomic_read_u64(&shared->schema_generation);
}

/*
 * The generation of what a process caches now: the shared schema (also
 * config and mode) or subject generation, or on a standby, where no
 * trigger runs and changes arrive by WAL replay, the replay position (its
 * top bit set, so that the two never meet).  0 when nobody may cache.
 */
uint64
registry_cache_generation(bool subjects)
{
	if (shared == NULL)
		return 0;
	if (RecoveryInProgress())
		return UINT64CONST(0x8000000000000000) | GetXLogReplayRecPtr(NULL);
	return subjects ? registry_subject_generation() : registry_schema_generation();
}

/* The current subject generation, 0 when the counter does not exist. */
uint64
registry_subject_generation(void)
{
	if (shared == NULL)
		return 0;
	return pg_atomic_read_u64(&shared->subject_generation);
}

/*
 * Bump the counters a transaction marked once it has committed (its
 * changes are then visible to every new snapshot); forget them at abort.
 * A prepared transaction would commit where this callback cannot see it,
 * so a transaction that marked any is not prepared.
 */
static void
bump_at_commit(XactEvent event, void *arg)
{
	if (!delete_pending && !subject_pending)
		return;
	if (event == XACT_EVENT_PRE_PREPARE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot PREPARE a transaction that wrote the registry's tables"),
				 errdetail("The registry's caches hear of a change when its transaction commits, and a prepared transaction commits in another session."),
				 errhint("Commit the registry's changes in a transaction of their own.")));
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT)
	{
		if (shared != NULL && delete_pending)
			pg_atomic_fetch_add_u64(&shared->schema_generation, 1);
		if (shared != NULL)
			pg_atomic_fetch_add_u64(&shared->subject_generation, 1);
		delete_pending = false;
		subject_pending = false;
	}
	else if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
	{
		delete_pending = false;
		subject_pending = false;
	}
}

/* Have bump_at_commit() called at the end of every transaction. */
static void
register_bump_callback(void)
{
	if (!callback_registered)
	{
		RegisterXactCallback(bump_at_commit, NULL);
		callback_registered = true;
	}
}

/* Bump both counters when the current transaction commits. */
static void
bump_pending(void)
{
	register_bump_callback();
	delete_pending = true;
}

/* AFTER DELETE ... FOR EACH ROW on registry.schemas (enabled ALWAYS) */
Datum
registry_schemas_after_delete(PG_FUNCTION_ARGS)
{
	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("schemas_after_delete: not called by trigger manager")));
	bump_pending();
	return PointerGetDatum(NULL);
}

/*
 * AFTER INSERT OR UPDATE OR DELETE ... FOR EACH ROW on registry.config and
 * registry.modes (enabled ALWAYS): a subject's alias decides which context
 * a cached /schemas/ids/{id}?subject= answer came from, and the settings
 * caches hold configs and modes, so a change empties the caches as a hard
 * delete does.
 */
Datum
registry_config_after_write(PG_FUNCTION_ARGS)
{
	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("config_after_write: not called by trigger manager")));
	bump_pending();
	return PointerGetDatum(NULL);
}

/*
 * AFTER INSERT OR UPDATE OR DELETE ... FOR EACH ROW on
 * registry.subject_versions (enabled ALWAYS): what the subject's versions
 * answer changes, so the subject generation moves at commit.
 */
Datum
registry_versions_after_write(PG_FUNCTION_ARGS)
{
	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("versions_after_write: not called by trigger manager")));
	register_bump_callback();
	subject_pending = true;
	return PointerGetDatum(NULL);
}

/*
 * AFTER TRUNCATE ... FOR EACH STATEMENT on registry.schemas,
 * registry.subject_versions and registry.config (enabled ALWAYS): no row
 * trigger fires, yet every cached answer may be gone, so both generations
 * move at commit.
 */
Datum
registry_caches_after_truncate(PG_FUNCTION_ARGS)
{
	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("caches_after_truncate: not called by trigger manager")));
	bump_pending();
	return PointerGetDatum(NULL);
}
