/*-------------------------------------------------------------------------
 *
 * catalog_subjects.c
 *	  registry.subjects: a subject's row, made when it is new and locked by
 *	  every writer of the subject, as "SELECT ... FOR UPDATE" locks it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/snapmgr.h"

#include "catalog.h"
#include "catalog_internal.h"

/* the columns of registry.subjects */
#define Anum_subjects_context		1
#define Anum_subjects_subject		2
#define Natts_subjects				2

static const CatalogColumn subjects_columns[Natts_subjects] = {
	{"context", TEXTOID},
	{"subject", TEXTOID},
};

static CatalogTable subjects_table = {"subjects", Natts_subjects, subjects_columns};

static CatalogIndex subjects_pkey = {
	"subjects_pkey", &subjects_table, 2, {Anum_subjects_context, Anum_subjects_subject}
};

static CatalogPlan plan_insert_subject = {
	"INSERT INTO registry.subjects (context, subject) VALUES ($1, $2) ON CONFLICT (context, subject) DO NOTHING",
	2, {TEXTOID, TEXTOID}
};

/* The subject's row, inserted unless a concurrent writer made it first. */
void
catalog_insert_subject(const char *context, const char *subject)
{
	Datum		v[2];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	catalog_run(&plan_insert_subject, v, NULL, SPI_OK_INSERT);
	catalog_disconnect();
}

/* Every subject's row, in (context, subject) order: *n of them. */
CatalogSubjectName *
catalog_subject_names(int *n)
{
	CatalogScan s;
	int			cap = 16;
	CatalogSubjectName *out = palloc(sizeof(CatalogSubjectName) * cap);

	*n = 0;
	catalog_scan_open(&s, &subjects_pkey);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (*n == cap)
		{
			cap *= 2;
			out = repalloc(out, sizeof(CatalogSubjectName) * cap);
		}
		out[*n].context = catalog_scan_text(&s, Anum_subjects_context, CurrentMemoryContext);
		out[*n].subject = catalog_scan_text(&s, Anum_subjects_subject, CurrentMemoryContext);
		(*n)++;
	}
	catalog_scan_close(&s);
	return out;
}

/*
 * The current role may lock rows of the open table FOR UPDATE: it needs
 * UPDATE on the table or on one of its columns, as the statement does.
 */
static void
check_row_lock_privilege(Relation rel)
{
	Oid			relid = RelationGetRelid(rel);

	if (pg_class_aclcheck(relid, GetUserId(), ACL_UPDATE) != ACLCHECK_OK &&
		pg_attribute_aclcheck_all(relid, GetUserId(), ACL_UPDATE, ACLMASK_ANY) != ACLCHECK_OK)
		aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_TABLE, RelationGetRelationName(rel));
}

/*
 * Lock the subject's row FOR UPDATE as "SELECT 1 FROM registry.subjects
 * WHERE context = $1 AND subject = $2 FOR UPDATE" does (ExecLockRows):
 * refused in a read-only transaction and on a standby (which forwards the
 * write to the primary on that error), its privilege, its RowShareLock on
 * the table, the row found in a snapshot of its own (the statement's), a
 * wait for a concurrent locker; then under READ COMMITTED the newest
 * version of a row updated meanwhile (if it still has the key), and under
 * REPEATABLE READ or SERIALIZABLE a serialization failure when the row
 * was updated or deleted after the transaction's snapshot.  False when the
 * subject has no row, or its row went away while this waited.  One index
 * probe and the lock, where the statement costs an executor start-up for
 * the lock-rows plan.
 *
 * Once locked, the command counter moves on, so that the reads that follow
 * take a new snapshot (catalog_read_snapshot): under READ COMMITTED they
 * see what committed before the lock was granted.
 */
bool
catalog_lock_subject_row(const char *context, const char *subject)
{
	CatalogScan s;
	bool		locked = false;

	/* a standby or a read-only transaction refuses it as the statement: 25006 */
	PreventCommandIfReadOnly("SELECT FOR UPDATE");
	catalog_scan_open(&s, &subjects_pkey);
	check_row_lock_privilege(s.heap);
	/* the table lock of a statement with FOR UPDATE, above AccessShareLock */
	LockRelationOid(RelationGetRelid(s.heap), RowShareLock);
	/* the statement's own snapshot, as SPI would take it */
	CommandCounterIncrement();
	s.snapshot = RegisterSnapshot(GetTransactionSnapshot());
	catalog_scan_text_key(&s, Anum_subjects_context, context);
	catalog_scan_text_key(&s, Anum_subjects_subject, subject);
	if (catalog_scan_next(&s, ForwardScanDirection))
	{
		TM_FailureData tmfd;
		TM_Result	result;
		int			flags = 0;

		/*
		 * as ExecLockRows: follow an update only where the snapshot is per
		 * statement
		 */
		if (!IsolationUsesXactSnapshot())
			flags |= TUPLE_LOCK_FLAG_FIND_LAST_VERSION;
		result = table_tuple_lock(s.heap, &s.slot->tts_tid, s.snapshot, s.slot,
								  GetCurrentCommandId(true), LockTupleExclusive,
								  LockWaitBlock, flags, &tmfd);
		switch (result)
		{
			case TM_Ok:

				/*
				 * a newer version found after a wait must still be the
				 * subject's
				 */
				locked = !tmfd.traversed ||
					(catalog_scan_text_is(&s, Anum_subjects_context, context) &&
					 catalog_scan_text_is(&s, Anum_subjects_subject, subject));
				break;
			case TM_SelfModified:
				/* changed by this transaction since: skipped, as there */
				break;
			case TM_Updated:
			case TM_Deleted:
				/* the statement's error, which says "update" for a delete too */
				if (IsolationUsesXactSnapshot())
					ereport(ERROR,
							(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
							 errmsg("could not serialize access due to concurrent update")));
				/* READ COMMITTED followed an update: only a delete stops it */
				if (result == TM_Updated)
					elog(ERROR, "unexpected table_tuple_lock status: %u", result);
				break;			/* deleted meanwhile: the subject has no row */
			default:
				elog(ERROR, "unexpected table_tuple_lock status: %u", result);
		}
	}
	catalog_scan_close(&s);
	CommandCounterIncrement();
	return locked;
}

/*
 * Lock the subject's row, creating the subject (and its context) first
 * when it has none.
 */
static void
lock_subject(const char *context, const char *subject)
{
	if (catalog_lock_subject_row(context, subject))
		return;
	catalog_ensure_context(context);
	catalog_insert_subject(context, subject);
	if (!catalog_lock_subject_row(context, subject))
		elog(ERROR, "could not lock subject \"%s\"", subject);
}

/*
 * Create the subject row if it is new, then lock it: every writer of one
 * subject (SQL API, REST, a DBA's INSERT) passes here, so version numbers
 * and compatibility checks see each other's committed work.  Returns the
 * subject's highest version number (soft-deleted ones count), read under
 * the lock.
 */
int32
catalog_lock_subject(const char *context, const char *subject)
{
	lock_subject(context, subject);
	return catalog_max_version(context, subject);
}

/*
 * catalog_lock_subject(), with the schema of the subject's latest live
 * version read under the lock too: into *latest, *has_latest false when
 * the subject has no live version.
 */
int32
catalog_lock_subject_latest(const char *context, const char *subject, CatalogSchema *latest,
							bool *has_latest)
{
	lock_subject(context, subject);
	return catalog_max_version_latest(context, subject, latest, has_latest);
}
