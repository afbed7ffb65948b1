/*-------------------------------------------------------------------------
 *
 * schema_cache.c
 *	  The backend-local cache of parsed stored schemas, by (context, id).
 *
 * Stored schema content behind (context, id) is immutable until a hard
 * delete, so a parsed schema can be kept for the life of the backend.  An
 * entry carries the fingerprint it was parsed from: a lookup with another
 * fingerprint (the id was hard-deleted and reused by an IMPORT) re-parses,
 * so no cross-backend invalidation is needed for correctness.
 *
 * A registration inserting a new schema has just parsed it: while its
 * insert runs (registry_cache_insert_submitted), a miss of the id drawn
 * for it is answered with that parse (the row's fingerprint is the
 * submission's), so the row's triggers (the field index's among them) do
 * not read the row back and parse it again.  A raw INSERT's row is parsed
 * by its insert trigger, which offers that parse under the id it drew
 * (registry_cache_offer): its AFTER triggers find it.  An offer is not
 * kept where it would push out another offer not taken yet (a bulk
 * insert's rows past what the cache holds are parsed again by their AFTER
 * triggers), and one pushed out before it was taken is freed at once.
 *
 * The cache holds at most registry.schema_cache_size of parsed schemas
 * (their memory contexts, measured as allocated); past it the least
 * recently used entries go, so a backend that meets a million distinct
 * schemas keeps only the ones it uses.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/xact.h"

#include "common/hashfn.h"
#include "lib/ilist.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "registry.h"
#include "schemas.h"

#define CACHE_MAX_ENTRIES 100000

typedef struct CacheKey
{
	int32		id;
	uint32		context_hash;
} CacheKey;

typedef struct CacheEntry
{
	CacheKey	key;
	char	   *context;		/* in CacheContext */
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
	rg_schema  *schema;
	MemoryContext memory;		/* schema's own, a child of CacheContext */
	Size		bytes;			/* what memory had allocated when set */
	bool		lent;			/* schema handed to a caller since it was set */
	dlist_node	lru;			/* in lru_list, most recently used first */
} CacheEntry;

static HTAB *schema_cache = NULL;
static MemoryContext CacheContext = NULL;
static dlist_head lru_list = DLIST_STATIC_INIT(lru_list);
static Size cached_bytes = 0;

/* the submission whose row is being inserted (registry_cache_insert_submitted) */
static const char *incoming_context = NULL;
static SubmittedSchema *incoming = NULL;

/* registry.schema_cache_size, in kB */
int			registry_schema_cache_size = 64 * 1024;

/* From _PG_init: the cache's size limit. */
void
registry_init_schema_cache(void)
{
	DefineCustomIntVariable("registry.schema_cache_size",
							"Memory the parsed schemas one backend keeps may take; past it the least recently used go.",
							NULL,
							&registry_schema_cache_size,
							64 * 1024, 64, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
}

/* Create the cache on first use. */
static void
cache_init(void)
{
	HASHCTL		ctl;

	if (schema_cache != NULL)
		return;
	CacheContext = AllocSetContextCreate(TopMemoryContext, "registry schema cache",
										 ALLOCSET_DEFAULT_SIZES);
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(CacheKey);
	ctl.entrysize = sizeof(CacheEntry);
	ctl.hcxt = CacheContext;
	schema_cache = hash_create("registry parsed schemas", 1024, &ctl,
							   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	dlist_init(&lru_list);
	cached_bytes = 0;
}

/*
 * Free memory that held cached schemas.  A caller may still be using a
 * schema it got earlier in this transaction (a transitive check collects
 * the versions it compares before it compares them), so inside a
 * transaction the memory goes at its end, not now; a schema never lent
 * to anyone (offered by an insert trigger, not asked for since) goes now.
 */
static void
retire_memory(MemoryContext memory, bool lent)
{
	if (lent && IsTransactionState())
		MemoryContextSetParent(memory, TopTransactionContext);
	else
		MemoryContextDelete(memory);
}

/* Drop every entry (each schema's context is a child of CacheContext). */
static void
cache_reset(void)
{
	hash_destroy(schema_cache);
	retire_memory(CacheContext, true);
	schema_cache = NULL;
	CacheContext = NULL;
	cache_init();
}

/* Drop the least recently used entry. */
static void
evict_one(void)
{
	CacheEntry *e = dlist_container(CacheEntry, lru, dlist_tail_node(&lru_list));
	bool		found;

	dlist_delete(&e->lru);
	cached_bytes -= e->bytes;
	if (e->memory != NULL)
		retire_memory(e->memory, e->lent);
	pfree(e->context);
	hash_search(schema_cache, &e->key, HASH_REMOVE, &found);
}

/* Evict the least recently used entries, keep, until the cache fits its limit. */
static void
cache_fit(CacheEntry *keep)
{
	Size		limit = (Size) registry_schema_cache_size * 1024;

	while (cached_bytes > limit && !dlist_is_empty(&lru_list) &&
		   dlist_tail_node(&lru_list) != &keep->lru)
		evict_one();
}

/*
 * Give an entry a parsed schema and its memory context (moved under
 * CacheContext), freeing the one it had; then the cache is made to fit.
 * lent: the caller holds the schema.
 */
static void
cache_entry_set(CacheEntry *e, rg_schema *schema, MemoryContext memory, bool lent)
{
	if (e->memory != NULL && e->memory != memory)
		retire_memory(e->memory, e->lent);
	else
		lent |= e->lent;
	e->lent = lent;
	if (memory != NULL)
		MemoryContextSetParent(memory, CacheContext);
	e->schema = schema;
	e->memory = memory;
	cached_bytes -= e->bytes;
	e->bytes = memory != NULL ? MemoryContextMemAllocated(memory, true) : 0;
	cached_bytes += e->bytes;
	cache_fit(e);
}

/* The entry for (context, id), created empty when new; *found says whether it was there. */
static CacheEntry *
cache_slot(const char *context, int32 id, bool *found)
{
	CacheKey	key;
	CacheEntry *e;

	cache_init();
	if (hash_get_num_entries(schema_cache) >= CACHE_MAX_ENTRIES)
		cache_reset();
	memset(&key, 0, sizeof(key));
	key.id = id;
	key.context_hash = hash_bytes((const unsigned char *) context, strlen(context));
	e = hash_search(schema_cache, &key, HASH_ENTER, found);
	if (!*found)
	{
		e->context = MemoryContextStrdup(CacheContext, context);
		e->schema = NULL;
		e->memory = NULL;
		e->bytes = 0;
		e->lent = false;
		dlist_push_head(&lru_list, &e->lru);
	}
	else
	{
		dlist_move_head(&lru_list, &e->lru);
		if (strcmp(e->context, context) != 0)
		{
			/*
			 * hash collision between two contexts: the newcomer takes the
			 * slot
			 */
			cache_entry_set(e, NULL, NULL, false);
			pfree(e->context);
			e->context = MemoryContextStrdup(CacheContext, context);
			*found = false;
		}
	}
	return e;
}

/* Put a submitted schema in the cache under its id; lent: the caller keeps using it. */
static void
cache_submitted(const char *context, int32 id, SubmittedSchema *submitted, bool lent)
{
	bool		found;
	CacheEntry *e = cache_slot(context, id, &found);

	cache_entry_set(e, submitted->parsed, submitted->memory, lent);
	memcpy(e->fingerprint, submitted->fingerprint, REGISTRY_FINGERPRINT_LEN);
}

/* Hand a submitted schema to the cache under its new id. */
void
registry_cache_adopt(const char *context, int32 id, SubmittedSchema *submitted)
{
	cache_submitted(context, id, submitted, true);
}

/*
 * Would an offer of this much memory fit without pushing out another
 * offer not taken yet?  The least recently used entries it would push
 * out must all have been lent.  A bulk insert's AFTER triggers run after
 * all its rows' insert triggers, in the same order: its first rows keep
 * their offers, and the later ones do not push those out.
 */
static bool
offer_fits(Size bytes)
{
	Size		limit = (Size) registry_schema_cache_size * 1024;
	Size		over;
	dlist_iter	iter;

	cache_init();
	if (cached_bytes + bytes <= limit)
		return true;
	if (bytes > limit)
		return false;
	over = cached_bytes + bytes - limit;
	dlist_reverse_foreach(iter, &lru_list)
	{
		CacheEntry *e = dlist_container(CacheEntry, lru, iter.cur);

		if (!e->lent)
			return false;
		if (e->bytes >= over)
			return true;
		over -= e->bytes;
	}
	return false;
}

/* See schemas.h: the insert trigger's parse of a raw INSERT's row, for its AFTER triggers. */
void
registry_cache_offer(const char *context, int32 id, SubmittedSchema *submitted)
{
	if (submitted->memory != NULL &&
		offer_fits(MemoryContextMemAllocated(submitted->memory, true)))
		cache_submitted(context, id, submitted, false);
}

/* See schemas.h: the submission's parse answers for its row while the row is inserted. */
int32
registry_cache_insert_submitted(SubmittedSchema *submitted, const CatalogSchema *row)
{
	const char *outer_context = incoming_context;
	SubmittedSchema *outer = incoming;
	int32		id;

	/* put back after: a registration run by a trigger of the row sets its own */
	incoming_context = row->context;
	incoming = submitted;
	PG_TRY();
	{
		id = catalog_insert_schema(row);
	}
	PG_FINALLY();
	{
		incoming_context = outer_context;
		incoming = outer;
	}
	PG_END_TRY();
	if (id > 0)
		registry_cache_adopt(row->context, id, submitted);
	return id;
}

/*
 * Is the schema with this fingerprint in context the one a registration
 * is inserting now (a real parse, not a text taken as its stored form)?
 */
static bool
is_incoming(const char *context, const uint8 *fingerprint)
{
	return incoming != NULL && incoming->memory != NULL && fingerprint != NULL &&
		strcmp(incoming_context, context) == 0 &&
		memcmp(incoming->fingerprint, fingerprint, REGISTRY_FINGERPRINT_LEN) == 0;
}

/* The parsed form of a stored schema, from the cache or parsed once. */
const rg_schema *
registry_stored_schema(const char *context, int32 id, const uint8 *fingerprint)
{
	bool		found;
	CacheEntry *e = cache_slot(context, id, &found);
	CatalogSchema row;
	rg_error	err;
	rg_schema  *parsed;
	MemoryContext memory;

	if (found && e->schema != NULL &&
		(fingerprint == NULL ||
		 memcmp(e->fingerprint, fingerprint, REGISTRY_FINGERPRINT_LEN) == 0))
	{
		e->lent = true;
		return e->schema;
	}
	if (is_incoming(context, fingerprint))
	{
		registry_cache_adopt(context, id, incoming);
		return incoming->parsed;
	}

	ereport(DEBUG1,
			(errmsg_internal("registry parses stored schema %d of context \"%s\"",
							 id, context)));
	if (!catalog_get_schema(context, id, &row))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema %d not found", id)));
	parsed = registry_parse_stored(context, &row, &err, &memory);
	if (parsed == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_STORE_ERROR),
				 errmsg("stored schema %d in context \"%s\" does not parse", id, context),
				 errdetail("%s", err.message)));

	/* the slot may have moved if resolving references added entries */
	e = cache_slot(context, id, &found);
	cache_entry_set(e, parsed, memory, true);
	memcpy(e->fingerprint, row.fingerprint, REGISTRY_FINGERPRINT_LEN);
	return parsed;
}
