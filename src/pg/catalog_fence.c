/*-------------------------------------------------------------------------
 *
 * catalog_fence.c
 *	  Ids after a promotion: before the first id of a new WAL timeline is
 *	  handed out, every context's id sequence moves up by
 *	  registry.failover_id_gap.
 *
 * With asynchronous replication a primary acknowledges registrations whose
 * WAL the standby has not received; when that standby is promoted, its id
 * sequences stand where its WAL left them, below ids the old primary gave
 * to schemas that are now lost.  Handing those ids out again would give an
 * id that clients hold in Kafka messages to another schema.  A promotion
 * (like a point-in-time recovery) starts a new timeline, so the first
 * allocation that sees a timeline other than the one recorded in
 * registry.id_fence moves every context's sequence up by the gap, and
 * contexts made from then on start above it (the old primary may have made
 * them too).  The ids the old primary handed out in the lag stay unused as
 * long as it handed out fewer than the gap per context.
 *
 * registry.id_fence is a sequence, not a table, so that what the fence did
 * survives the rollback of the transaction that did it (as the setval()s
 * it made do): a failed first registration does not move the ids twice.
 * Its value is the timeline last fenced, is_called whether any fence ever
 * ran; it is not dumped, so a restore starts on its own timeline.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

#include "catalog.h"
#include "catalog_internal.h"

/* registry.failover_id_gap: ids left unused per context after a promotion */
static int	failover_id_gap = 10000000;

/* the timeline this backend has seen fenced (0: none yet) */
static TimeLineID fenced_timeline = 0;

static CatalogPlan plan_fence = {
	"SELECT registry.fence_id_sequences()", 0, {InvalidOid}
};

static CatalogPlan plan_fence_state = {
	"SELECT f.last_value, f.is_called FROM registry.id_fence f", 0, {InvalidOid}
};

/* every context's sequence moved up by $1, never past the integer range */
static CatalogPlan plan_move_sequences = {
	"SELECT count(pg_catalog.setval(c.id_sequence, LEAST("
	"COALESCE(pg_catalog.pg_sequence_last_value(c.id_sequence), 0) + $1, 2147483647))) "
	"FROM registry.contexts c WHERE c.id_sequence IS NOT NULL",
	1, {INT8OID}
};

static CatalogPlan plan_record_fence = {
	"SELECT pg_catalog.setval('registry.id_fence'::pg_catalog.regclass, $1, true)",
	1, {INT8OID}
};

/* From _PG_init: the gap's GUC. */
void
registry_init_id_fence(void)
{
	DefineCustomIntVariable("registry.failover_id_gap",
							"Schema ids each context leaves unused after a promotion.",
							"Ids the old primary handed out but the promoted standby never "
							"received stay unused as long as there were fewer than this many "
							"per context. 0 turns the fence off.",
							&failover_id_gap,
							10000000, 0, 1000000000,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
}

/* The timeline WAL is written on now (on a standby: the one replayed). */
static TimeLineID
current_timeline(void)
{
	TimeLineID	tli;

	if (RecoveryInProgress())
	{
		(void) GetXLogReplayRecPtr(&tli);
		return tli;
	}
	return GetWALInsertionTimeLine();
}

/* registry.id_fence, InvalidOid in an install not yet updated to 0.5 */
static Oid
fence_sequence(void)
{
	return get_relname_relid("id_fence", get_namespace_oid("registry", false));
}

/* registry.id_fence as read now: the timeline last fenced, and whether any fence ran. */
static int64
fence_state(bool *fenced_ever)
{
	HeapTuple	tup;
	bool		isnull;
	int64		tli;

	catalog_run(&plan_fence_state, NULL, NULL, SPI_OK_SELECT);
	tup = catalog_one_row(&plan_fence_state);
	tli = DatumGetInt64(catalog_datum(tup, 1, &isnull));

	*fenced_ever = catalog_bool(tup, 2);
	return tli;
}

/*
 * Before an id is drawn: on a timeline this backend has not seen fenced,
 * have registry.fence_id_sequences() (SECURITY DEFINER) fence it.  Nothing
 * to do on a standby, where no id is drawn.
 */
void
catalog_fence_ids(void)
{
	TimeLineID	tli;

	if (RecoveryInProgress())
		return;
	tli = GetWALInsertionTimeLine();
	if (tli == fenced_timeline || !OidIsValid(fence_sequence()))
		return;
	catalog_connect();
	catalog_run(&plan_fence, NULL, NULL, SPI_OK_SELECT);
	catalog_disconnect();
	fenced_timeline = tli;
}

PG_FUNCTION_INFO_V1(registry_fence_id_sequences);

/*
 * registry.fence_id_sequences(), SECURITY DEFINER: on a timeline not yet
 * fenced, every context's id sequence moves up by registry.failover_id_gap
 * and the timeline is recorded; returns how many sequences moved (0 when
 * the timeline was fenced already).  Fencers wait for each other on the
 * fence sequence's lock; readers of it do not.
 */
Datum
registry_fence_id_sequences(PG_FUNCTION_ARGS)
{
	TimeLineID	tli;
	bool		fenced_ever;
	int64		recorded;
	int64		moved = 0;
	Datum		v[1];

	if (RecoveryInProgress())
		PG_RETURN_INT64(0);
	tli = GetWALInsertionTimeLine();
	catalog_connect();
	/* fenced already: no lock, so a new backend's first id waits for no one */
	recorded = fence_state(&fenced_ever);
	if (recorded != (int64) tli)
	{
		LockRelationOid(fence_sequence(), ExclusiveLock);
		recorded = fence_state(&fenced_ever);
	}
	if (recorded != (int64) tli)
	{
		if (failover_id_gap > 0)
		{
			v[0] = Int64GetDatum(failover_id_gap);
			catalog_run(&plan_move_sequences, v, NULL, SPI_OK_SELECT);
			moved = DatumGetInt64(catalog_datum(catalog_one_row(&plan_move_sequences),
												1, &fenced_ever));
		}
		v[0] = Int64GetDatum((int64) tli);
		catalog_run(&plan_record_fence, v, NULL, SPI_OK_SELECT);
		ereport(LOG,
				(errmsg("registry: timeline %u began after timeline " INT64_FORMAT ": the id sequences of " INT64_FORMAT " contexts moved up by %d",
						tli, recorded, moved, failover_id_gap),
				 errdetail("Ids an old primary handed out without its WAL reaching this server stay unused.")));
	}
	catalog_disconnect();
	PG_RETURN_INT64(moved);
}

PG_FUNCTION_INFO_V1(registry_new_context_id_floor);

/*
 * registry.new_context_id_floor(): where a new context's ids start.  0
 * while the registry has never been through a promotion; after one (or
 * while one is being fenced) the gap once per timeline before this one:
 * the old primary may have made the same context, starting at its own
 * timeline's floor, and handed out fewer than the gap of its ids.
 * Timelines only grow along a server's history, so the floor does too.
 */
Datum
registry_new_context_id_floor(PG_FUNCTION_ARGS)
{
	bool		fenced_ever;
	int64		recorded;
	int64		tli = (int64) current_timeline();

	catalog_connect();
	recorded = fence_state(&fenced_ever);
	catalog_disconnect();
	if (!fenced_ever && recorded == tli)
		PG_RETURN_INT64(0);
	PG_RETURN_INT64(Min((int64) failover_id_gap * (tli - 1), (int64) PG_INT32_MAX));
}

PG_FUNCTION_INFO_V1(registry_wal_timeline);

/* registry.wal_timeline(): the WAL timeline this server is on. */
Datum
registry_wal_timeline(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) current_timeline());
}
