/*-------------------------------------------------------------------------
 *
 * http_cache.c
 *	  The HTTP worker's cache of GET /schemas/ids/{id} responses.
 *
 * What an id names never changes until the schema is hard-deleted, so the
 * worker answers repeated reads of it from process memory, without a
 * transaction.  Any hard delete anywhere (the shared schema generation
 * moves, see invalidation.c) empties the cache; so does reaching its size
 * bound, which keeps the rule simple and the memory bounded.
 *
 * On a standby no trigger runs: a hard delete arrives by WAL replay and
 * moves no counter.  There the generation is the replay position, so the
 * cache is emptied whenever anything was replayed since it was filled.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "access/xlogrecovery.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "http_cache.h"
#include "invalidation.h"

#define CACHE_KEY_LEN 256
#define CACHE_MAX_ENTRIES 50000
#define CACHE_MAX_BYTES (64 * 1024 * 1024)

typedef struct CacheEntry
{
	char		key[CACHE_KEY_LEN];
	char	   *body;
	size_t		len;
} CacheEntry;

static HTAB *cache = NULL;
static MemoryContext cache_cxt = NULL;
static uint64 cache_generation = 0;
static size_t cache_bytes = 0;

/* Create the empty cache in its own memory context. */
static void
cache_create(void)
{
	HASHCTL		ctl;

	cache_cxt = AllocSetContextCreate(TopMemoryContext, "registry HTTP response cache",
									  ALLOCSET_DEFAULT_SIZES);
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = CACHE_KEY_LEN;
	ctl.entrysize = sizeof(CacheEntry);
	ctl.hcxt = cache_cxt;
	cache = hash_create("registry HTTP responses", 1024, &ctl,
						HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	cache_bytes = 0;
}

/* Drop every entry with the cache's memory. */
static void
cache_flush(void)
{
	if (cache_cxt)
		MemoryContextDelete(cache_cxt);
	cache_cxt = NULL;
	cache = NULL;
	cache_create();
}

/*
 * The generation answers computed now belong to: the shared schema
 * generation, or on a standby the replay position (its top bit set, so
 * that the two never meet).
 */
static uint64
current_generation(void)
{
	if (RecoveryInProgress())
		return UINT64CONST(0x8000000000000000) | GetXLogReplayRecPtr(NULL);
	return registry_schema_generation();
}

/* Empty the cache when a schema may have been hard-deleted since it was filled. */
static void
cache_check_generation(void)
{
	uint64		gen = current_generation();

	if (cache == NULL)
		cache_create();
	if (gen != cache_generation)
	{
		if (hash_get_num_entries(cache) > 0)
			cache_flush();
		cache_generation = gen;
	}
}

/*
 * Is this request one whose answer may come from the cache?  GET
 * /schemas/ids/{digits}, with no fetchMaxId (the max id moves) and no
 * subject (the subject version it names, and whether that is deleted,
 * change).  Sets the key (path and query) when it is.
 */
bool
http_cache_key(const char *method, const char *path, const char *query,
			   char *key, size_t keylen)
{
	const char *p;

	if (strcmp(method, "GET") != 0 || strncmp(path, "/schemas/ids/", 13) != 0)
		return false;
	p = path + 13;
	if (*p == '\0')
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	if (query && (strstr(query, "fetchMaxId") != NULL ||
				  strncmp(query, "subject=", 8) == 0 || strstr(query, "&subject=") != NULL))
		return false;
	if (snprintf(key, keylen, "%s?%s", path, query ? query : "") >= (int) keylen)
		return false;
	return true;
}

/* The cached body for key, if any (after a hard delete anywhere, none). */
bool
http_cache_lookup(const char *key, const char **body, size_t *len)
{
	CacheEntry *e;

	cache_check_generation();
	e = hash_search(cache, key, HASH_FIND, NULL);
	if (e == NULL)
		return false;
	*body = e->body;
	*len = e->len;
	return true;
}

/*
 * Remember a 200 answer.  generation is the counter's value read before
 * the answering transaction started: if a delete committed since, the
 * answer may be stale and is not kept.
 */
void
http_cache_store(const char *key, const char *body, size_t len, uint64 generation)
{
	CacheEntry *e;
	bool		found;

	cache_check_generation();
	if (generation != cache_generation)
		return;
	if (hash_get_num_entries(cache) >= CACHE_MAX_ENTRIES ||
		cache_bytes + len > CACHE_MAX_BYTES)
		cache_flush();
	e = hash_search(cache, key, HASH_ENTER, &found);
	if (found)
		return;
	e->body = MemoryContextAlloc(cache_cxt, len + 1);
	memcpy(e->body, body, len);
	e->body[len] = '\0';
	e->len = len;
	cache_bytes += len + CACHE_KEY_LEN;
}

/* The generation a response computed now belongs to. */
uint64
http_cache_generation(void)
{
	return current_generation();
}
