/*-------------------------------------------------------------------------
 *
 * catalog_horizon.c
 *	  When rows a process kept across transactions may answer a read in
 *	  place of a scan: the invalidating triggers are in place, and the
 *	  read's snapshot sees what the kept rows' generation saw.
 *
 * A cache of catalog rows (the scope cache, the subject directory) keeps
 * them with a shared generation (invalidation.c) read before they were
 * scanned, and empties itself when the generation moves.  The generation
 * moves at the commit of the transactions that change the rows, which the
 * tables' row and TRUNCATE triggers enabled ALWAYS announce; without them
 * nothing may be kept.  And a read's snapshot may be older than the
 * generation (a statement that began before the last change, reading in
 * its own snapshot): the horizon, a snapshot taken after the generation
 * was first seen, tells which snapshots see every change of it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_trigger.h"
#include "commands/trigger.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "catalog_internal.h"

/*
 * Is a trigger of this name on the table, for these events on every row
 * (no WHEN condition, no column list), enabled ALWAYS (so that it fires in
 * every replication role)?
 */
bool
catalog_has_always_trigger(Relation rel, const char *name, int16 type)
{
	TriggerDesc *td = rel->trigdesc;

	for (int i = 0; td != NULL && i < td->numtriggers; i++)
	{
		Trigger    *t = &td->triggers[i];

		if (strcmp(t->tgname, name) == 0)
			return t->tgenabled == TRIGGER_FIRES_ALWAYS && (t->tgtype & type) == type &&
				t->tgqual == NULL && t->tgnattr == 0;
	}
	return false;
}

/* The transactions a snapshot saw running, and how many. */
static TransactionId *
running_xids(Snapshot snap, int *n)
{
	*n = snap->takenDuringRecovery ? snap->subxcnt : (int) snap->xcnt;
	return snap->takenDuringRecovery ? snap->subxip : snap->xip;
}

/* Make a snapshot taken now the horizon of generation gen. */
static void
take_horizon(CatalogHorizon *h, uint64 gen)
{
	Snapshot	now = GetLatestSnapshot();
	int			n;
	TransactionId *running = running_xids(now, &n);

	if (h->running != NULL)
		pfree(h->running);
	h->running = MemoryContextAlloc(TopMemoryContext, sizeof(TransactionId) * (n + 1));
	memcpy(h->running, running, sizeof(TransactionId) * n);
	h->nrunning = n;
	h->xmax = now->xmax;
	h->in_recovery = now->takenDuringRecovery;
	h->generation = gen;
}

/*
 * Take the horizon again at its next use: a relcache invalidation of a
 * cache's table (a change no row trigger announced) came, and the
 * snapshots that may answer from the rows kept after it are those that
 * see the change, which the old horizon cannot tell.
 */
void
catalog_horizon_forget(CatalogHorizon *h)
{
	h->generation = 0;
}

/* Did the horizon see xid running? */
static bool
horizon_saw_running(const CatalogHorizon *h, TransactionId xid)
{
	for (int i = 0; i < h->nrunning; i++)
		if (TransactionIdEquals(h->running[i], xid))
			return true;
	return false;
}

/*
 * Does snap see every transaction the horizon of generation gen saw
 * finished (the transactions below its xmax but not running; on a
 * standby, its subxip), and so the rows of that generation?  Then a cache
 * of them answers what a scan in snap would.  A statement's snapshot taken
 * after the generation last moved does; one taken before does not, and
 * scans.
 */
bool
catalog_horizon_sees(CatalogHorizon *h, Snapshot snap, uint64 gen)
{
	int			n;
	TransactionId *running;

	if (h->generation != gen)
		take_horizon(h, gen);
	if (snap->takenDuringRecovery != h->in_recovery ||
		TransactionIdPrecedes(snap->xmax, h->xmax))
		return false;
	running = running_xids(snap, &n);
	for (int i = 0; i < n; i++)
		if (TransactionIdPrecedes(running[i], h->xmax) &&
			!horizon_saw_running(h, running[i]))
			return false;
	return true;
}
