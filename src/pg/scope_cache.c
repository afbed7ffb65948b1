/*-------------------------------------------------------------------------
 *
 * scope_cache.c
 *	  The config and mode rows of scopes (the global scope, a context, a
 *	  subject), with the alias a subject's own config sets, kept across
 *	  transactions while no config or mode can have changed.
 *
 * Every registration and lookup reads the settings in force for its
 * subject (four scopes of registry.config and registry.modes) and the REST
 * API reads the subject's alias: up to eight index probes each time, for
 * rows that change a few times in a registry's life.  The rows read are
 * kept here with the shared generation (invalidation.c) read before they
 * were scanned; a config or mode written anywhere moves that generation at
 * its commit (row and TRUNCATE triggers enabled ALWAYS, so a logical
 * replication subscriber and a restore hear of them too), and on a standby
 * any replay does.  A generation that moved empties the cache, and so does
 * any relcache invalidation (DDL that changes the tables without firing a
 * trigger).
 *
 * The rows are used only where a scan would give the same: in a READ
 * COMMITTED transaction that has written nothing (so it has no uncommitted
 * config or mode of its own), for a read whose snapshot sees the
 * generation's settings.  catalog_settings.c checks that snapshot, and,
 * each time, that the invalidating triggers are in place and enabled
 * ALWAYS, and it takes the table locks and checks the privileges a scan
 * would; without the triggers every read scans.
 *
 * An entry is one scope: whether its config row and its mode row are known
 * at the generation, and each row or its absence.  Most subjects set
 * nothing of their own, so a table is also read whole into the cache
 * (catalog_settings.c's load) when it fits: the cache then holds every row
 * of that table at the generation, and a scope without an entry, or whose
 * entry holds no row of it, has none ("complete").  A load is tried once
 * per generation per table, after enough probes have missed to pay for
 * reading as many rows as the table had when last analyzed, or as the last
 * load read, so neither a new backend nor a standby whose generation moves
 * with every replay reads a large table whole for a few requests.
 *
 * The entries take at most registry.scope_cache_size of memory (their
 * allocations, measured); past it the least recently used go, one at a
 * time.  Evicting a row of a complete table makes the table incomplete
 * again (its absence would no longer mean "none").
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/xact.h"
#include "common/hashfn.h"
#include "lib/ilist.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "invalidation.h"

/* rows read past which a load is not tried before this many missed probes each */
#define SCOPE_LOAD_ROWS_PER_MISS 8

/* what is known of one (context, subject) */
typedef struct ScopeEntry
{
	uint64		key;			/* hash of context and subject */
	dlist_node	lru;			/* in scope_lru, most recently used first */
	char	   *context;		/* context, then subject, in one allocation */
	char	   *subject;
	Size		bytes;			/* this entry's share of scopes_bytes */
	bool		known[SCOPE_TABLES];
	CatalogConfigRow *config;	/* NULL: no config row (when known) */
	char	   *alias;			/* the config's alias, or NULL */
	char	   *mode;			/* NULL: no mode row (when known) */
} ScopeEntry;

/* registry.scope_cache_size, in kB */
int			registry_scope_cache_size = 16 * 1024;

static MemoryContext scope_cxt = NULL;
static HTAB *scopes = NULL;
static dlist_head scope_lru = DLIST_STATIC_INIT(scope_lru);
static Size scopes_bytes = 0;
static uint64 scopes_generation = 0;
static bool scopes_stale = false;	/* a relcache invalidation came */
static bool callback_registered = false;

/* per table: every row of it is in the cache, a load was tried, probes missed */
static bool table_complete[SCOPE_TABLES];
static bool load_tried[SCOPE_TABLES];
static int64 table_misses[SCOPE_TABLES];
static int64 last_load_rows[SCOPE_TABLES];	/* across generations */
static bool row_lost[SCOPE_TABLES]; /* since the table's load began */

/* From _PG_init: the cache's size limit. */
void
registry_init_scope_cache(void)
{
	DefineCustomIntVariable("registry.scope_cache_size",
							"Memory the config and mode rows one backend keeps across transactions may take; past it the least recently used go.",
							NULL,
							&registry_scope_cache_size,
							16 * 1024, 64, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
}

/*
 * Forget everything at any relcache invalidation: a change no row trigger
 * announces (triggers disabled and enabled again, the extension dropped and
 * made again, a table rewritten) comes with one, processed when the tables
 * are locked, before the cache is looked at.
 */
static void
scopes_forget(Datum arg, Oid relid)
{
	scopes_stale = true;
}

/* Has a relcache invalidation come since the cache was last emptied? */
bool
scope_cache_stale(void)
{
	return scopes_stale;
}

/* The generation the cache may be used at now, 0 when a scan must answer. */
uint64
scope_cache_generation(void)
{
	if (!callback_registered)
	{
		CacheRegisterRelcacheCallback(scopes_forget, (Datum) 0);
		callback_registered = true;
	}
	if (XactIsoLevel != XACT_READ_COMMITTED ||
		TransactionIdIsValid(GetTopTransactionIdIfAny()))
		return 0;
	return registry_cache_generation(false);
}

/* Empty the cache and make it belong to generation gen. */
static void
scopes_reset(uint64 gen)
{
	HASHCTL		ctl;

	if (scope_cxt != NULL)
		MemoryContextDelete(scope_cxt);
	scope_cxt = AllocSetContextCreate(TopMemoryContext, "registry scope cache",
									  ALLOCSET_DEFAULT_SIZES);
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(ScopeEntry);
	ctl.hcxt = scope_cxt;
	scopes = hash_create("registry scope cache", 256, &ctl,
						 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	dlist_init(&scope_lru);
	scopes_bytes = 0;
	scopes_generation = gen;
	scopes_stale = false;
	for (int t = 0; t < SCOPE_TABLES; t++)
	{
		table_complete[t] = false;
		load_tried[t] = false;
		table_misses[t] = 0;
	}
}

/* Make the cache belong to generation gen, emptied when it belonged to another. */
static void
scopes_at(uint64 gen)
{
	if (scopes == NULL || gen != scopes_generation || scopes_stale)
		scopes_reset(gen);
}

/* The hash of a scope: its context's, seeded with its subject's. */
static uint64
scope_key(const char *context, const char *subject)
{
	return hash_bytes_extended((const unsigned char *) context, strlen(context),
							   hash_bytes_extended((const unsigned char *) subject,
												   strlen(subject), 0));
}

/* The memory a chunk of the cache takes, 0 for none. */
static Size
chunk_bytes(void *p)
{
	return p != NULL ? GetMemoryChunkSpace(p) : 0;
}

/* What an entry takes: its hash element, bucket pointer and allocations. */
static Size
entry_bytes(ScopeEntry *e)
{
	Size		n = MAXALIGN(sizeof(HASHELEMENT)) + MAXALIGN(sizeof(ScopeEntry)) +
	sizeof(void *) + chunk_bytes(e->context) + chunk_bytes(e->alias) + chunk_bytes(e->mode);

	if (e->config != NULL)
		n += chunk_bytes(e->config) + chunk_bytes(e->config->compatibility) +
			chunk_bytes(e->config->settings);
	return n;
}

/* Count an entry's memory again after a change. */
static void
entry_measure(ScopeEntry *e)
{
	scopes_bytes -= e->bytes;
	e->bytes = entry_bytes(e);
	scopes_bytes += e->bytes;
}

/* Free an entry's config row and alias. */
static void
entry_clear_config(ScopeEntry *e)
{
	if (e->config != NULL)
	{
		if (e->config->compatibility)
			pfree(e->config->compatibility);
		if (e->config->settings)
			pfree(e->config->settings);
		pfree(e->config);
	}
	if (e->alias)
		pfree(e->alias);
	e->config = NULL;
	e->alias = NULL;
}

/*
 * Free what an entry holds beyond its names.  A row it held is no longer
 * in the cache, so its table is no longer complete.
 */
static void
entry_clear(ScopeEntry *e)
{
	for (int t = 0; t < SCOPE_TABLES; t++)
		if (t == SCOPE_CONFIG ? e->config != NULL : e->mode != NULL)
		{
			table_complete[t] = false;
			row_lost[t] = true;
		}
	entry_clear_config(e);
	if (e->mode)
		pfree(e->mode);
	e->mode = NULL;
}

/* Drop the least recently used entry. */
static void
evict_one(void)
{
	ScopeEntry *e = dlist_container(ScopeEntry, lru, dlist_tail_node(&scope_lru));

	dlist_delete(&e->lru);
	scopes_bytes -= e->bytes;
	entry_clear(e);
	pfree(e->context);
	hash_search(scopes, &e->key, HASH_REMOVE, NULL);
}

/* Evict the least recently used entries but keep until the cache fits its limit. */
static void
scopes_fit(ScopeEntry *keep)
{
	Size		limit = (Size) registry_scope_cache_size * 1024;

	while (scopes_bytes > limit && !dlist_is_empty(&scope_lru) &&
		   dlist_tail_node(&scope_lru) != &keep->lru)
		evict_one();
}

/*
 * The entry of a scope (the cache at its generation already): NULL when
 * absent; with create, made (knowing nothing) when absent, or given to
 * this scope when another with the same hash held it.  A found entry
 * becomes the most recently used.
 */
static ScopeEntry *
scope_entry(const char *context, const char *subject, bool create)
{
	uint64		key = scope_key(context, subject);
	ScopeEntry *e;
	bool		found;
	size_t		clen;
	size_t		slen;
	char	   *names;

	e = hash_search(scopes, &key, HASH_FIND, &found);
	if (e != NULL && strcmp(e->context, context) == 0 && strcmp(e->subject, subject) == 0)
	{
		dlist_move_head(&scope_lru, &e->lru);
		return e;
	}
	if (!create)
		return NULL;
	/* what can fail is done before the table holds the entry */
	clen = strlen(context);
	slen = strlen(subject);
	names = MemoryContextAlloc(scope_cxt, clen + slen + 2);
	memcpy(names, context, clen + 1);
	memcpy(names + clen + 1, subject, slen + 1);
	e = hash_search(scopes, &key, HASH_ENTER, &found);
	if (found)
	{
		/* a hash collision: the newcomer takes the slot */
		entry_clear(e);
		pfree(e->context);
		dlist_move_head(&scope_lru, &e->lru);
	}
	else
	{
		e->bytes = 0;
		e->config = NULL;
		e->alias = NULL;
		e->mode = NULL;
		dlist_push_head(&scope_lru, &e->lru);
	}
	e->context = names;
	e->subject = names + clen + 1;
	for (int t = 0; t < SCOPE_TABLES; t++)
		e->known[t] = false;
	entry_measure(e);
	return e;
}

/* A copy of a string (NULL stays NULL) in cxt. */
static char *
copy_text(const char *s, MemoryContext cxt)
{
	return s ? MemoryContextStrdup(cxt, s) : NULL;
}

/*
 * Set what an entry knows of table t from k (rows copied into the cache,
 * before the entry lets go of what it held).
 */
static void
entry_set(ScopeEntry *e, int t, const ScopeKnown *k)
{
	if (t == SCOPE_CONFIG)
	{
		CatalogConfigRow *row = NULL;
		char	   *alias;

		if (k->config != NULL)
		{
			row = MemoryContextAllocZero(scope_cxt, sizeof(CatalogConfigRow));
			row->compatibility = copy_text(k->config->compatibility, scope_cxt);
			row->settings = copy_text(k->config->settings, scope_cxt);
			row->has_normalize = k->config->has_normalize;
			row->normalize = k->config->normalize;
			row->context = e->context;
			row->subject = e->subject;
		}
		alias = copy_text(k->alias, scope_cxt);
		entry_clear_config(e);
		e->config = row;
		e->alias = alias;
	}
	else
	{
		char	   *mode = copy_text(k->mode, scope_cxt);

		if (e->mode)
			pfree(e->mode);
		e->mode = mode;
	}
	e->known[t] = true;
}

/*
 * What the cache at generation gen knows of a scope, into *k (pointing
 * into the cache: good until the cache's next call): for each table
 * whether known, and then the row or NULL.  A probe of a table the cache
 * does not answer for counts as missed.  False when nothing is known.
 */
bool
scope_cache_find(uint64 gen, const char *context, const char *subject, ScopeKnown *k)
{
	ScopeEntry *e;

	scopes_at(gen);
	e = scope_entry(context, subject, false);
	memset(k, 0, sizeof(ScopeKnown));
	for (int t = 0; t < SCOPE_TABLES; t++)
	{
		k->known[t] = table_complete[t] || (e != NULL && e->known[t]);
		if (!k->known[t])
			table_misses[t]++;
	}
	if (e != NULL)
	{
		k->config = e->config;
		k->alias = e->alias;
		k->mode = e->mode;
	}
	return k->known[SCOPE_CONFIG] || k->known[SCOPE_MODES];
}

/* Keep what a scan at generation gen read of a scope (the tables k knows). */
void
scope_cache_keep(uint64 gen, const char *context, const char *subject, const ScopeKnown *k)
{
	ScopeEntry *e;

	scopes_at(gen);
	e = scope_entry(context, subject, true);
	for (int t = 0; t < SCOPE_TABLES; t++)
		if (k->known[t] && !table_complete[t])
			entry_set(e, t, k);
	entry_measure(e);
	scopes_fit(e);
}

/*
 * Should table t, of about rows rows, be read whole into the cache at
 * generation gen now?  Once per generation, when it is not complete yet
 * and enough probes missed to pay for reading as many rows as it has, or
 * as the last load read.
 */
bool
scope_cache_wants_load(uint64 gen, int t, double rows)
{
	scopes_at(gen);
	return !table_complete[t] && !load_tried[t] &&
		table_misses[t] * SCOPE_LOAD_ROWS_PER_MISS >= Max(rows, (double) last_load_rows[t]);
}

/* A load of table t at generation gen begins. */
void
scope_cache_load_begin(uint64 gen, int t)
{
	scopes_at(gen);
	load_tried[t] = true;
	last_load_rows[t] = 0;
	row_lost[t] = false;
}

/*
 * One row of the load of table t (k holds it): false when the cache is
 * full, and the load stops there.
 */
bool
scope_cache_load_row(uint64 gen, int t, const char *context, const char *subject,
					 const ScopeKnown *k)
{
	ScopeEntry *e;

	Assert(gen == scopes_generation && load_tried[t]);
	last_load_rows[t]++;
	e = scope_entry(context, subject, true);
	entry_set(e, t, k);
	entry_measure(e);
	return scopes_bytes <= (Size) registry_scope_cache_size * 1024;
}

/*
 * The load of table t ends, with every row of it read (complete) or not:
 * only a complete one, none of whose rows another scope with the same hash
 * displaced, lets an absent row mean "none".  Then the cache is made to
 * fit.
 */
void
scope_cache_load_end(uint64 gen, int t, bool complete)
{
	Assert(gen == scopes_generation && load_tried[t]);
	table_complete[t] = complete && !row_lost[t];
	if (!dlist_is_empty(&scope_lru))
		scopes_fit(dlist_container(ScopeEntry, lru, dlist_head_node(&scope_lru)));
}
