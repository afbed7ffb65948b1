/*-------------------------------------------------------------------------
 *
 * catalog_directory.c
 *	  The subject directory: every subject that has versions, in the
 *	  listings' (context, subject) order, with how many live and
 *	  soft-deleted versions each has, kept across transactions while no
 *	  subject version can have changed.
 *
 * A page of a listing deep into the registry (GET /schemas?offset=500000,
 * a page of GET /subjects) would otherwise read every index entry before
 * it.  With the directory the listing counts whole subjects in memory,
 * then reads the table from the subject where its page starts: a deep
 * offset costs a walk of an array (100,000 subjects: well under a
 * millisecond) instead of a scan of half a million index entries.
 *
 * It is built by one scan of registry.subject_versions' primary key and
 * kept with the shared subject generation (invalidation.c) read before the
 * scan; any version written, hard-deleted or truncated anywhere moves
 * that generation at its commit, which drops the directory, and so does a
 * relcache invalidation of the table (DDL no trigger announces).  It is
 * used only where a scan would give the same, as the scope cache is: in a
 * READ COMMITTED transaction that has written nothing, with the table's
 * invalidating triggers in place and enabled ALWAYS, for a read whose
 * snapshot sees the generation's rows (catalog_horizon.c).
 *
 * A build costs about a scan of the whole listing, so a caller asks for one
 * only when its walk would be long (a deep offset, a whole listing).  And
 * a directory pays only when it answers more than the listing that built
 * it: when the last one was dropped having answered just that one (a
 * version written between every two deep listings), the next generation's
 * first DIRECTORY_WALKS_AFTER_WASTE listings walk as they did before the
 * directory, and only the one after them builds.  At most
 * DIRECTORY_MAX_SUBJECTS subjects are kept (some 70 bytes each), beyond
 * which listings scan (and the build that found too many is not tried
 * again until the generation moves).
 *
 * The REST API's workers are a fixed few; SQL sessions may be many, so a
 * SQL session keeps a directory across transactions only while it takes
 * no more than registry.scope_cache_size (a bound of its own, beside the
 * scope cache's): a larger one (some 230,000 subjects at the default
 * 16 MB) lasts only for the transaction that built it, and an idle
 * session holds none of it.  Other background workers (pg_cron's, say)
 * are SQL sessions here.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/xact.h"
#include "miscadmin.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "invalidation.h"

#define DIRECTORY_MAX_SUBJECTS 1000000
#define DIRECTORY_WALKS_AFTER_WASTE 2

static MemoryContext directory_cxt = NULL;
static CatalogSubjectCount *directory = NULL;	/* NULL: none kept */
static int	directory_n = 0;
static uint64 directory_generation = 0;
static Oid	directory_relid = InvalidOid;
static bool directory_stale = false;	/* a relcache invalidation came */
static bool callback_registered = false;
static CatalogHorizon horizon;
static int	directory_served = 0;	/* listings the kept one answered */
static bool last_wasted = false;	/* the last one dropped answered one */
static uint64 walked_generation = 0;
static int	walked = 0;			/* listings of walked_generation that walked */
static uint64 too_many_generation = 0;	/* its subjects were too many */
static bool directory_for_xact = false; /* dropped at the transaction's end */
static bool xact_callback_registered = false;

/* Drop the directory kept, if any. */
static void
directory_forget(void)
{
	if (directory_cxt != NULL)
		MemoryContextDelete(directory_cxt);
	directory_cxt = NULL;
	directory = NULL;
	directory_n = 0;
	directory_stale = false;
	directory_for_xact = false;
}

/* The end of a transaction drops a directory kept only for it. */
static void
directory_xact_end(XactEvent event, void *arg)
{
	if (directory_for_xact &&
		(event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		 event == XACT_EVENT_PREPARE))
		directory_forget();
}

/*
 * May this process keep a directory of this size across transactions?
 * The REST API's workers may; a SQL session only one within
 * registry.scope_cache_size.
 */
static bool
directory_may_outlive_xact(MemoryContext cxt)
{
	return catalog_rest_process ||
		MemoryContextMemAllocated(cxt, true) <= (Size) registry_scope_cache_size * 1024;
}

/*
 * A relcache invalidation of registry.subject_versions (or of all) drops
 * it, at its next use: a caller may be reading it when one arrives.
 */
static void
directory_invalidated(Datum arg, Oid relid)
{
	if (relid == InvalidOid || relid == directory_relid)
	{
		directory_stale = true;
		catalog_horizon_forget(&horizon);
	}
}

/*
 * The subject generation at which the directory may answer a read in
 * snapshot now, 0 when the read must scan.
 */
static uint64
directory_generation_for(Snapshot snapshot)
{
	uint64		gen;
	Oid			relid;

	if (!callback_registered)
	{
		CacheRegisterRelcacheCallback(directory_invalidated, (Datum) 0);
		callback_registered = true;
	}
	if (XactIsoLevel != XACT_READ_COMMITTED ||
		TransactionIdIsValid(GetTopTransactionIdIfAny()))
		return 0;
	gen = registry_cache_generation(true);
	if (gen == 0 || !catalog_versions_announced(&relid))
		return 0;
	if (relid != directory_relid)
	{
		directory_forget();
		directory_relid = relid;
	}
	if (!catalog_horizon_sees(&horizon, snapshot, gen))
		return 0;
	return gen;
}

/*
 * The subject directory (*n subjects) for a read in the statement's
 * snapshot: the one kept while it holds, else, as need asks, one built
 * now (and kept); NULL when the read must scan instead.  It stays valid
 * until the next call.  A whole listing builds it only in a REST worker
 * (the HTTP and pool workers, catalog_init_rest_process()): in a SQL
 * session the build would be the very scan it saves.
 */
const CatalogSubjectCount *
catalog_subject_directory(CatalogDirectoryNeed need, int *n)
{
	bool		build = need == CATALOG_DIRECTORY_DEEP ||
	(need == CATALOG_DIRECTORY_WHOLE && catalog_rest_process);

	Snapshot	snapshot = catalog_read_snapshot();
	uint64		gen = directory_generation_for(snapshot);

	UnregisterSnapshot(snapshot);
	*n = 0;
	if (gen == 0)
		return NULL;
	if (directory != NULL && (directory_generation != gen || directory_stale))
	{
		last_wasted = directory_served <= 1;
		directory_forget();
	}
	if (directory == NULL)
	{
		MemoryContext cxt;

		if (!build || too_many_generation == gen)
			return NULL;
		if (last_wasted)
		{
			if (walked_generation != gen)
			{
				walked_generation = gen;
				walked = 0;
			}
			if (walked++ < DIRECTORY_WALKS_AFTER_WASTE)
				return NULL;
		}
		cxt = AllocSetContextCreate(TopMemoryContext, "registry subject directory",
									ALLOCSET_DEFAULT_SIZES);
		directory_stale = false;	/* what comes during the scan drops it */
		PG_TRY();
		{
			directory = catalog_count_subject_versions(cxt, DIRECTORY_MAX_SUBJECTS,
													   &directory_n);
		}
		PG_CATCH();
		{
			MemoryContextDelete(cxt);
			PG_RE_THROW();
		}
		PG_END_TRY();
		if (directory == NULL)
		{
			/* too many subjects: not scanned again for this generation */
			too_many_generation = gen;
			MemoryContextDelete(cxt);
			return NULL;
		}
		directory_cxt = cxt;
		directory_generation = gen;
		directory_served = 0;
		if (!directory_may_outlive_xact(cxt))
		{
			if (!xact_callback_registered)
			{
				RegisterXactCallback(directory_xact_end, NULL);
				xact_callback_registered = true;
			}
			directory_for_xact = true;
		}
	}
	directory_served++;
	*n = directory_n;
	return directory;
}
