/*-------------------------------------------------------------------------
 *
 * usage.c
 *	  Who still reads a schema: the read counts, last reads and readers of
 *	  each schema id and subject, in a fixed-size table in shared memory,
 *	  flushed to registry.schema_reads and registry.subject_reads.
 *
 * The read path (a REST answer about an id or a subject, cached or not)
 * calls registry_usage_note(): it hashes the key, takes the spinlock of
 * one of USAGE_PARTITIONS partitions of the table, finds or claims the
 * key's slot within USAGE_PROBE slots of its home and adds the read.  No
 * allocation, no SQL, no system call (the time is read through the vDSO),
 * and a spinlock rather than an LWLock, so several threads of one process
 * may call it.
 *
 * The table holds registry.usage_max_entries keys.  A key that finds no
 * free slot in its probe window takes the one read least recently: the
 * reads it held are lost, and counted (evicted_reads), and the latest
 * time among them moves the horizon before which the counts may miss a
 * read (registry.usage_stats()).  A key whose name (its context, or its
 * qualified subject) is longer than USAGE_NAME_MAX bytes is not counted
 * (untracked_reads); registry.unread_schemas() and unread_subjects()
 * leave such names out rather than call them unread.  Each slot names
 * USAGE_MAX_READERS roles; reads by others are counted apart.
 *
 * The primary's first HTTP worker empties the table into the tables
 * every registry.usage_flush_interval (registry.flush_usage() at once): each partition
 * is copied and cleared under its lock, then the copies are added to the
 * tables in one transaction; a flush that fails puts its reads back.  A
 * standby cannot write: its reads stay in its shared memory, since it
 * started (or since it last flushed as a primary), and
 * registry.pending_usage() shows them, which the registry.schema_usage
 * and registry.subject_usage views add to the tables' rows.  After a
 * promotion its first worker flushes them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/htup_details.h"
#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/spin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "audit.h"
#include "catalog.h"
#include "registry.h"
#include "shared_memory.h"
#include "usage.h"

PG_FUNCTION_INFO_V1(registry_pending_usage);
PG_FUNCTION_INFO_V1(registry_flush_usage);
PG_FUNCTION_INFO_V1(registry_usage_stats);

#define USAGE_PARTITIONS 32
#define USAGE_PROBE 16
#define USAGE_FLUSH_BATCH 256	/* keys a flush writes in one transaction */
#define USAGE_FLUSH_STEP_MS 20	/* between two of a flush's transactions */

/* the kinds of key */
#define USAGE_SCHEMA 1
#define USAGE_SUBJECT 2

/* one key's reads since the last flush; hash 0: a free slot */
typedef struct UsageEntry
{
	uint64		hash;
	int32		id;				/* a schema's id; 0 for a subject */
	uint16		namelen;
	uint8		kind;
	uint8		nreaders;
	uint64		reads;
	uint64		unlisted_reads; /* by roles not in readers[] */
	TimestampTz last_read;
	Oid			readers[CATALOG_USAGE_MAX_READERS];
	char		name[CATALOG_USAGE_NAME_MAX];	/* the context, or the
												 * qualified subject; no NUL */
} UsageEntry;

/* a partition: its lock; its slots follow the header's array of partitions */
typedef struct UsagePartition
{
	slock_t		lock;
} UsagePartition;

/* the shared table */
typedef struct UsageShared
{
	int			per_partition;	/* slots in each partition */
	pg_atomic_uint64 untracked_reads;	/* names too long to count */
	pg_atomic_uint64 evicted_entries;
	pg_atomic_uint64 evicted_reads;
	pg_atomic_uint64 horizon;	/* latest read of an evicted entry */
	pg_atomic_uint64 last_flush;
	UsagePartition parts[USAGE_PARTITIONS];
} UsageShared;

bool		registry_usage_tracking = true;
static int	usage_max_entries = 16384;
static int	usage_flush_interval = 10;	/* seconds */
static UsageShared *usage = NULL;

/* slots per partition for usage_max_entries */
static int
slots_per_partition(void)
{
	return Max((usage_max_entries + USAGE_PARTITIONS - 1) / USAGE_PARTITIONS, 1);
}

/* the size of the shared table */
static Size
usage_size(void)
{
	return add_size(MAXALIGN(sizeof(UsageShared)),
					mul_size(mul_size(slots_per_partition(), USAGE_PARTITIONS),
							 sizeof(UsageEntry)));
}

/* the first slot of partition p */
static UsageEntry *
partition_slots(int p)
{
	return (UsageEntry *) ((char *) usage + MAXALIGN(sizeof(UsageShared))) +
		(Size) p * usage->per_partition;
}

/* Make the table, every slot free. */
static void
usage_init(void *mem)
{
	UsageShared *u = mem;

	memset(u, 0, usage_size());
	u->per_partition = slots_per_partition();
	pg_atomic_init_u64(&u->untracked_reads, 0);
	pg_atomic_init_u64(&u->evicted_entries, 0);
	pg_atomic_init_u64(&u->evicted_reads, 0);
	pg_atomic_init_u64(&u->horizon, 0);
	pg_atomic_init_u64(&u->last_flush, 0);
	for (int p = 0; p < USAGE_PARTITIONS; p++)
		SpinLockInit(&u->parts[p].lock);
}

/* See usage.h */
void
registry_init_usage(void)
{
	RegistryShmem piece = {"registry usage", usage_size, usage_init, NULL, NULL, 0,
	(void **) &usage};

	DefineCustomBoolVariable("registry.usage_tracking",
							 "Whether the REST API counts the reads of each schema id and subject (registry.schema_usage, registry.subject_usage).",
							 NULL,
							 &registry_usage_tracking,
							 true,
							 PGC_SIGHUP, 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("registry.usage_flush_interval",
							"How often the primary's first REST API worker adds the read counts to registry.schema_reads and registry.subject_reads.",
							NULL,
							&usage_flush_interval,
							10, 1, 24 * 60 * 60,
							PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);
	if (process_shared_preload_libraries_in_progress)
		DefineCustomIntVariable("registry.usage_max_entries",
								"How many schema ids and subjects the read counts hold in shared memory between two flushes (on a standby: since it started).",
								"Past it, the key read least recently in a key's neighbourhood is forgotten; registry.usage_stats() counts what was lost.",
								&usage_max_entries,
								16384, 256, 4 * 1024 * 1024,
								PGC_POSTMASTER, 0,
								NULL, NULL, NULL);
	registry_shmem_add(&piece);
}

/* the key's hash, never 0 (a free slot) */
static uint64
key_hash(int kind, const char *name, size_t len, int32 id)
{
	uint64		h = hash_bytes_extended((const unsigned char *) name, len,
										((uint64) (uint32) id << 2) | (uint64) kind);

	return h == 0 ? 1 : h;
}

/* Does slot e hold this key? */
static inline bool
slot_is(const UsageEntry *e, uint64 hash, int kind, const char *name, size_t len, int32 id)
{
	return e->hash == hash && e->kind == kind && e->id == id && e->namelen == len &&
		memcmp(e->name, name, len) == 0;
}

/* Move the horizon up to t (a CAS loop: others may move it too). */
static void
raise_horizon(TimestampTz t)
{
	uint64		old = pg_atomic_read_u64(&usage->horizon);

	while ((int64) old < t &&
		   !pg_atomic_compare_exchange_u64(&usage->horizon, &old, (uint64) t))
		;
}

/*
 * The slot of a key in its partition (whose lock the caller holds): the
 * one that holds it, else a free one claimed for it, else the one read
 * least recently in the probe window, its reads counted as lost.
 */
static UsageEntry *
claim_slot(UsageEntry *slots, uint64 hash, int kind, const char *name, size_t len, int32 id)
{
	int			n = usage->per_partition;
	int			home = (int) ((hash >> 7) % (uint64) n);
	int			probe = Min(n, USAGE_PROBE);
	UsageEntry *victim = NULL;
	UsageEntry *e = NULL;

	for (int i = 0; i < probe; i++)
	{
		e = &slots[(home + i) % n];
		if (e->hash == 0)
			break;
		if (slot_is(e, hash, kind, name, len, id))
			return e;
		if (victim == NULL || e->last_read < victim->last_read)
			victim = e;
		e = NULL;
	}
	if (e == NULL)
	{
		e = victim;
		pg_atomic_fetch_add_u64(&usage->evicted_entries, 1);
		pg_atomic_fetch_add_u64(&usage->evicted_reads, e->reads);
		raise_horizon(e->last_read);
	}
	e->hash = hash;
	e->kind = (uint8) kind;
	e->id = id;
	e->namelen = (uint16) len;
	memcpy(e->name, name, len);
	e->reads = 0;
	e->unlisted_reads = 0;
	e->last_read = 0;
	e->nreaders = 0;
	return e;
}

/* Name role among the slot's readers, if it is not there and there is room. */
static bool
add_reader(UsageEntry *e, Oid role)
{
	for (int i = 0; i < e->nreaders; i++)
		if (e->readers[i] == role)
			return true;
	if (e->nreaders == CATALOG_USAGE_MAX_READERS)
		return false;
	e->readers[e->nreaders++] = role;
	return true;
}

/*
 * Add reads to a key: reads by the readers given (the first counted as
 * role's when it does not fit), unlisted more by others, the last at
 * last_read.
 */
static void
add_reads(int kind, const char *name, size_t len, int32 id, uint64 reads,
		  uint64 unlisted, TimestampTz last_read, const Oid *readers, int nreaders)
{
	uint64		hash;
	int			p;
	UsageEntry *e;

	if (len > CATALOG_USAGE_NAME_MAX)
	{
		pg_atomic_fetch_add_u64(&usage->untracked_reads, reads);
		return;
	}
	hash = key_hash(kind, name, len, id);
	p = (int) (hash % USAGE_PARTITIONS);
	SpinLockAcquire(&usage->parts[p].lock);
	e = claim_slot(partition_slots(p), hash, kind, name, len, id);
	e->reads += reads;
	e->unlisted_reads += unlisted;
	if (last_read > e->last_read)
		e->last_read = last_read;
	for (int i = 0; i < nreaders; i++)
		if (!add_reader(e, readers[i]) && nreaders == 1)
			e->unlisted_reads += reads;
	SpinLockRelease(&usage->parts[p].lock);
}

/* See usage.h */
void
registry_usage_note(const RegistryRead *read, Oid role)
{
	TimestampTz now;

	if (usage == NULL || !registry_usage_tracking ||
		((read->id <= 0 || read->context == NULL) && read->subject == NULL))
		return;
	now = GetCurrentTimestamp();
	if (read->id > 0 && read->context != NULL)
		add_reads(USAGE_SCHEMA, read->context, strlen(read->context), read->id, 1, 0, now,
				  &role, 1);
	if (read->subject != NULL)
		add_reads(USAGE_SUBJECT, read->subject, strlen(read->subject), 0, 1, 0, now,
				  &role, 1);
}

/* See usage.h */
void
registry_usage_note_sql(const char *context, int32 id, const char *subject)
{
	RegistryRead read = {context, id, subject};

	registry_usage_note(&read, GetUserId());
}

/* See usage.h */
void
registry_read_copy(RegistryRead *dst, const RegistryRead *src, MemoryContext cxt)
{
	RegistryRead copy = *src;

	copy.context = src->context ? MemoryContextStrdup(cxt, src->context) : NULL;
	copy.subject = src->subject ? MemoryContextStrdup(cxt, src->subject) : NULL;
	*dst = copy;
}

/*
 * Copy the used slots of the table into *out (palloc'd; *n of them),
 * emptying them when take (a flush), else leaving them (a look): the
 * partitions from first on, until limit slots are copied; *next is the
 * first partition left (USAGE_PARTITIONS: none).
 */
static UsageEntry *
copy_table(bool take, int first, int limit, int *n, int *next)
{
	int			per = usage->per_partition;
	UsageEntry *out = palloc(sizeof(UsageEntry) * per);
	UsageEntry *chunk = palloc(sizeof(UsageEntry) * per);
	int			used = 0;
	int			room = per;

	int			p;

	for (p = first; p < USAGE_PARTITIONS && used < limit; p++)
	{
		UsageEntry *slots = partition_slots(p);
		int			got = 0;

		SpinLockAcquire(&usage->parts[p].lock);
		for (int i = 0; i < per; i++)
			if (slots[i].hash != 0)
			{
				/* the name's length only: a short hold of the lock */
				memcpy(&chunk[got++], &slots[i],
					   offsetof(UsageEntry, name) + slots[i].namelen);
				if (take)
					slots[i].hash = 0;
			}
		SpinLockRelease(&usage->parts[p].lock);
		if (used + got > room)
		{
			room = Max(room * 2, used + got);
			out = repalloc(out, sizeof(UsageEntry) * room);
		}
		memcpy(&out[used], chunk, sizeof(UsageEntry) * got);
		used += got;
	}
	pfree(chunk);
	*n = used;
	if (next)
		*next = p;
	return out;
}

/* a role's name, or how pg_get_userbyid names a dropped one */
static char *
reader_name(Oid role)
{
	char	   *name = GetUserNameFromId(role, true);

	return name ? name : psprintf("unknown (OID=%u)", role);
}

/* The rows of entries of one kind, for the catalog; how many. */
static CatalogUsageRow *
rows_of_kind(const UsageEntry *entries, int n, int kind, int *nrows)
{
	CatalogUsageRow *rows = palloc0(sizeof(CatalogUsageRow) * Max(n, 1));
	int			k = 0;

	for (int i = 0; i < n; i++)
	{
		const UsageEntry *e = &entries[i];
		CatalogUsageRow *r;
		char	   *name;

		if (e->kind != kind)
			continue;
		r = &rows[k++];
		name = pnstrdup(e->name, e->namelen);
		if (kind == USAGE_SCHEMA)
		{
			r->context = name;
			r->id = e->id;
		}
		else
			registry_split_subject_cstr(name, &r->context, &r->subject);
		r->reads = (int64) e->reads;
		r->unlisted_reads = (int64) e->unlisted_reads;
		r->last_read = e->last_read;
		r->nreaders = e->nreaders;
		for (int j = 0; j < e->nreaders; j++)
			r->readers[j] = reader_name(e->readers[j]);
	}
	*nrows = k;
	return rows;
}

/* Put a flush's entries back into the table: their transaction failed. */
static void
put_back(const UsageEntry *entries, int n)
{
	for (int i = 0; i < n; i++)
	{
		const UsageEntry *e = &entries[i];

		add_reads(e->kind, e->name, e->namelen, e->id, e->reads, e->unlisted_reads,
				  e->last_read, e->readers, e->nreaders);
	}
}

/* a flush: what it took from the table, and whether its writes ran */
typedef struct UsageFlush
{
	UsageEntry *entries;
	int			n;
	bool		written;
} UsageFlush;

/* Add the entries taken to the tables (an AuditStep). */
static void
write_entries(void *arg)
{
	UsageFlush *f = (UsageFlush *) arg;
	int			nrows;
	CatalogUsageRow *rows;

	rows = rows_of_kind(f->entries, f->n, USAGE_SCHEMA, &nrows);
	catalog_usage_add(rows, nrows, false);
	rows = rows_of_kind(f->entries, f->n, USAGE_SUBJECT, &nrows);
	catalog_usage_add(rows, nrows, true);
	f->written = true;
}

/*
 * Take the reads of the partitions from first on (until limit keys) and
 * add them to the tables; how many keys.  *next: the first partition left.
 */
static int
flush_now(bool own_transaction, int first, int limit, int *next)
{
	UsageFlush	f = {NULL, 0, false};

	f.entries = copy_table(true, first, limit, &f.n, next);
	if (*next == USAGE_PARTITIONS)
		pg_atomic_write_u64(&usage->last_flush, (uint64) GetCurrentTimestamp());
	if (f.n == 0)
		return 0;
	if (own_transaction)
	{
		registry_audit_run_step(write_entries, &f);
		if (!f.written)
			put_back(f.entries, f.n);
	}
	else
	{
		PG_TRY();
		{
			write_entries(&f);
		}
		PG_CATCH();
		{
			put_back(f.entries, f.n);
			PG_RE_THROW();
		}
		PG_END_TRY();
	}
	pfree(f.entries);
	return f.n;
}

/*
 * See usage.h.  A flush goes USAGE_FLUSH_BATCH keys at a time, a
 * transaction each, USAGE_FLUSH_STEP_MS apart, so that the worker's
 * requests wait behind one batch at most.
 */
void
registry_usage_flush_due(TimestampTz now)
{
	static TimestampTz last_flush = 0;
	static TimestampTz last_step = 0;
	static int	next_part = USAGE_PARTITIONS;	/* none: no flush under way */

	if (usage == NULL)
		return;
	if (next_part == USAGE_PARTITIONS)
	{
		if (!TimestampDifferenceExceeds(last_flush, now, usage_flush_interval * 1000))
			return;
		last_flush = now;
		next_part = 0;
	}
	else if (!TimestampDifferenceExceeds(last_step, now, USAGE_FLUSH_STEP_MS))
		return;
	last_step = now;
	if (RecoveryInProgress())
	{
		next_part = USAGE_PARTITIONS;
		return;
	}
	(void) flush_now(true, next_part, USAGE_FLUSH_BATCH, &next_part);
}

/*
 * registry.flush_usage() -> integer: adds the reads this server counted
 * since the last flush to the tables now (in the caller's transaction);
 * how many schema ids and subjects.  A standby cannot: an error.
 */
Datum
registry_flush_usage(PG_FUNCTION_ARGS)
{
	int			next;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot flush the read counts during recovery"),
				 errdetail("A standby keeps its read counts in shared memory; registry.pending_usage() shows them.")));
	if (usage == NULL)
		PG_RETURN_INT32(0);
	PG_RETURN_INT32(flush_now(false, 0, INT_MAX, &next));
}

/* May the current user see who read what (a member of registry_admin)? */
static bool
may_see_readers(void)
{
	Oid			admin = get_role_oid("registry_admin", true);

	return OidIsValid(admin) && has_privs_of_role(GetUserId(), admin);
}

/*
 * registry.pending_usage(): the reads this server counted and has not
 * flushed (a standby: all of its own), one row per schema id or subject;
 * the readers' names only for registry_admin (NULL for others).
 */
Datum
registry_pending_usage(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		readers_visible = may_see_readers();
	UsageEntry *entries;
	int			n = 0;

	InitMaterializedSRF(fcinfo, 0);
	if (usage == NULL)
		return (Datum) 0;
	entries = copy_table(false, 0, INT_MAX, &n, NULL);
	for (int kind = USAGE_SCHEMA; kind <= USAGE_SUBJECT; kind++)
	{
		int			nrows;
		CatalogUsageRow *rows = rows_of_kind(entries, n, kind, &nrows);

		for (int i = 0; i < nrows; i++)
		{
			Datum		values[8];
			bool		nulls[8] = {false};
			Datum	   *names = palloc(sizeof(Datum) * CATALOG_USAGE_MAX_READERS);

			values[0] = CStringGetTextDatum(kind == USAGE_SCHEMA ? "schema" : "subject");
			values[1] = CStringGetTextDatum(rows[i].context);
			values[2] = Int32GetDatum(rows[i].id);
			nulls[2] = kind != USAGE_SCHEMA;
			values[3] = rows[i].subject ? CStringGetTextDatum(rows[i].subject) : (Datum) 0;
			nulls[3] = rows[i].subject == NULL;
			values[4] = Int64GetDatum(rows[i].reads);
			values[5] = Int64GetDatum(rows[i].unlisted_reads);
			values[6] = TimestampTzGetDatum(rows[i].last_read);
			for (int j = 0; j < rows[i].nreaders; j++)
				names[j] = CStringGetTextDatum(rows[i].readers[j]);
			values[7] = PointerGetDatum(construct_array(names, rows[i].nreaders, TEXTOID,
														-1, false, TYPALIGN_INT));
			nulls[7] = !readers_visible;
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	}
	return (Datum) 0;
}

/* a timestamp counter as a Datum, NULL when never set */
static Datum
stamp_or_null(pg_atomic_uint64 *c, bool *null)
{
	uint64		v = usage ? pg_atomic_read_u64(c) : 0;

	*null = v == 0;
	return TimestampTzGetDatum((TimestampTz) v);
}

/* a counter as a Datum, 0 without shared memory */
static Datum
counter(pg_atomic_uint64 *c)
{
	return Int64GetDatum(usage ? (int64) pg_atomic_read_u64(c) : 0);
}

/*
 * registry.usage_stats(): whether the reads are counted here, the
 * table's size and use, the reads it could not keep, the horizon before
 * which the counts may miss reads, and the last flush.
 */
Datum
registry_usage_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[8];
	bool		nulls[8] = {false};
	int			used = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	for (int p = 0; usage != NULL && p < USAGE_PARTITIONS; p++)
	{
		UsageEntry *slots = partition_slots(p);

		SpinLockAcquire(&usage->parts[p].lock);
		for (int i = 0; i < usage->per_partition; i++)
			used += slots[i].hash != 0;
		SpinLockRelease(&usage->parts[p].lock);
	}
	values[0] = BoolGetDatum(usage != NULL && registry_usage_tracking);
	values[1] = Int32GetDatum(usage ? usage->per_partition * USAGE_PARTITIONS : 0);
	values[2] = Int32GetDatum(used);
	values[3] = counter(usage ? &usage->untracked_reads : NULL);
	values[4] = counter(usage ? &usage->evicted_entries : NULL);
	values[5] = counter(usage ? &usage->evicted_reads : NULL);
	values[6] = stamp_or_null(usage ? &usage->horizon : NULL, &nulls[6]);
	values[7] = stamp_or_null(usage ? &usage->last_flush : NULL, &nulls[7]);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
