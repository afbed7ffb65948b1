/*-------------------------------------------------------------------------
 *
 * http_cache.c
 *	  The HTTP worker's caches of answers: GET /schemas/ids/{id} (schema
 *	  content) and the subject reads clients make at start-up, GET
 *	  /subjects/{s}/versions/{v}[/schema] and the lookup POST /subjects/{s}.
 *
 * What an id names never changes until the schema is hard-deleted, so the
 * worker answers repeated reads of it from process memory, without a
 * transaction.  Any hard delete anywhere (the shared schema generation
 * moves, see invalidation.c) empties that cache; so does reaching its
 * size bound, which keeps the rule simple and the memory bounded.
 *
 * A subject read's answer changes with any version written, any schema
 * hard-deleted and any config change (an alias, a normalize setting):
 * the shared subject generation moves at the commit of each, and the
 * subject cache is emptied when it has moved since it was filled.  Its
 * key is the whole request as the route reads it (the role it runs as,
 * method, path, query, content type and body), compared in full, and an
 * answer is kept only when the route that made it is one of those reads.
 *
 * On a standby no trigger runs: changes arrive by WAL replay and move no
 * counter.  There the generation is the replay position, so each cache is
 * emptied whenever anything was replayed since it was filled.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "http_cache.h"
#include "invalidation.h"
#include "rest.h"

#define CACHE_MAX_ENTRIES 50000
#define CACHE_MAX_BYTES (64 * 1024 * 1024)

/* one answer: the hash of its key, the key in full and the body */
typedef struct CacheEntry
{
	uint64		hash;			/* hash table key */
	char	   *key;
	size_t		keylen;
	int			route;			/* the route that answered */
	char	   *content_type;	/* the answer's */
	char	   *body;
	size_t		len;
	RegistryRead read;			/* what it answered about */
} CacheEntry;

/* one cache: its entries, their memory, and the generation they belong to */
typedef struct ResponseCache
{
	const char *name;
	HTAB	   *entries;
	MemoryContext cxt;
	uint64		generation;
	size_t		bytes;
} ResponseCache;

static ResponseCache caches[] = {
	{NULL},						/* HTTP_CACHE_NONE */
	{"registry HTTP schema answers"},
	{"registry HTTP subject answers"},
};

/* the routes whose answers the subject cache keeps (-2: not looked up yet) */
static int	subject_routes[3] = {-2, -2, -2};

/* Create a cache's empty table in its own memory context. */
static void
cache_create(ResponseCache *c)
{
	HASHCTL		ctl;

	c->cxt = AllocSetContextCreate(TopMemoryContext, "registry HTTP answer cache",
								   ALLOCSET_DEFAULT_SIZES);
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(CacheEntry);
	ctl.hcxt = c->cxt;
	c->entries = hash_create(c->name, 1024, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	c->bytes = 0;
}

/* Drop every entry of a cache with its memory. */
static void
cache_flush(ResponseCache *c)
{
	if (c->cxt)
		MemoryContextDelete(c->cxt);
	c->cxt = NULL;
	c->entries = NULL;
	cache_create(c);
}

/* The generation answers of a class computed now belong to (invalidation.c's rule). */
static uint64
current_generation(HttpCacheClass cls)
{
	return registry_cache_generation(cls == HTTP_CACHE_SUBJECT);
}

/* Empty a cache when what it holds may have changed since it was filled. */
static ResponseCache *
cache_checked(HttpCacheClass cls)
{
	ResponseCache *c = &caches[cls];
	uint64		gen = current_generation(cls);

	if (c->entries == NULL)
		cache_create(c);
	if (gen != c->generation)
	{
		if (hash_get_num_entries(c->entries) > 0)
			cache_flush(c);
		c->generation = gen;
	}
	return c;
}

/*
 * Is this GET /schemas/ids/{digits}, with no fetchMaxId (the max id moves)
 * and no subject (the subject version it names, and whether that is
 * deleted, change)?
 */
static bool
is_schema_read(const char *method, const char *path, const char *query)
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
	return !(query && (strstr(query, "fetchMaxId") != NULL ||
					   strncmp(query, "subject=", 8) == 0 ||
					   strstr(query, "&subject=") != NULL));
}

/*
 * May this be a subject read: GET /subjects/{s}/versions/... or POST
 * /subjects/{s} (a lookup)?  Only a first sieve: the route that answers
 * decides whether the answer is kept.
 */
static bool
is_subject_read(const char *method, const char *path)
{
	const char *rest;

	if (strncmp(path, "/subjects/", 10) != 0 || path[10] == '\0')
		return false;
	rest = strchr(path + 10, '/');
	if (strcmp(method, "GET") == 0)
		return rest != NULL && strncmp(rest, "/versions/", 10) == 0;
	return strcmp(method, "POST") == 0 && rest == NULL;
}

/* Append a string after its length, so that no two key parts run together. */
static void
key_part(StringInfo key, const char *s, size_t len)
{
	uint64		n = (uint64) len;

	appendBinaryStringInfo(key, (const char *) &n, sizeof(n));
	appendBinaryStringInfo(key, s, len);
}

/*
 * The cache class of a request and its key into key: a schema read is
 * keyed by path and query, a subject read by the whole request as its
 * route reads it, with the role it runs as and the Accept header.  HTTP_CACHE_NONE: not cacheable.
 */
HttpCacheClass
http_cache_key(const RestRequest *req, Oid role, StringInfo key)
{
	HttpCacheClass cls;

	if (is_schema_read(req->method, req->path, req->query))
		cls = HTTP_CACHE_SCHEMA;
	else if (is_subject_read(req->method, req->path))
		cls = HTTP_CACHE_SUBJECT;
	else
		return HTTP_CACHE_NONE;
	resetStringInfo(key);
	if (cls == HTTP_CACHE_SUBJECT)
	{
		appendBinaryStringInfo(key, (const char *) &role, sizeof(role));
		key_part(key, req->method, strlen(req->method));
	}
	key_part(key, req->path, strlen(req->path));
	key_part(key, req->query ? req->query : "", req->query ? strlen(req->query) : 0);
	if (cls == HTTP_CACHE_SUBJECT)
	{
		key_part(key, req->content_type ? req->content_type : "",
				 req->content_type ? strlen(req->content_type) : 0);
		key_part(key, req->accept ? req->accept : "", req->accept ? strlen(req->accept) : 0);
		key_part(key, req->body ? req->body : "", req->body_len);
	}
	return cls;
}

/* The entry of a key in a cache, if it holds that very key. */
static CacheEntry *
cache_find(ResponseCache *c, const StringInfoData *key, uint64 hash)
{
	CacheEntry *e = hash_search(c->entries, &hash, HASH_FIND, NULL);

	if (e == NULL || e->keylen != (size_t) key->len || memcmp(e->key, key->data, key->len) != 0)
		return NULL;
	return e;
}

/*
 * The cached answer for key, if any, and the route that made it (after a
 * change it may have missed, none).
 */
bool
http_cache_lookup(HttpCacheClass cls, const StringInfoData *key, HttpCachedAnswer *answer)
{
	ResponseCache *c = cache_checked(cls);
	CacheEntry *e = cache_find(c, key, hash_bytes_extended((const unsigned char *) key->data,
														   key->len, 0));

	if (e == NULL)
		return false;
	answer->body = e->body;
	answer->len = e->len;
	answer->route = e->route;
	answer->content_type = e->content_type;
	answer->read = e->read;
	return true;
}

/* May the subject cache keep an answer of this route? */
static bool
subject_route_cacheable(int route)
{
	int			i;

	if (subject_routes[0] == -2)
	{
		subject_routes[0] = registry_rest_route_index("GET", "subjects/*/versions/*");
		subject_routes[1] = registry_rest_route_index("GET", "subjects/*/versions/*/schema");
		subject_routes[2] = registry_rest_route_index("POST", "subjects/*");
	}
	for (i = 0; i < lengthof(subject_routes); i++)
		if (route >= 0 && route == subject_routes[i])
			return true;
	return false;
}

/*
 * Remember a 200 answer (of its route).  generation is the class's counter read
 * before the answering transaction started: if a change committed since,
 * the answer may be stale and is not kept.
 */
void
http_cache_store(HttpCacheClass cls, const StringInfoData *key, const HttpCachedAnswer *answer,
				 uint64 generation)
{
	ResponseCache *c;
	CacheEntry *e;
	uint64		hash;
	bool		found;

	if (cls == HTTP_CACHE_SUBJECT && !subject_route_cacheable(answer->route))
		return;
	c = cache_checked(cls);
	if (generation != c->generation)
		return;
	if (hash_get_num_entries(c->entries) >= CACHE_MAX_ENTRIES ||
		c->bytes + answer->len + key->len > CACHE_MAX_BYTES)
		cache_flush(c);
	hash = hash_bytes_extended((const unsigned char *) key->data, key->len, 0);
	e = hash_search(c->entries, &hash, HASH_ENTER, &found);
	if (found)
		return;					/* the same key, or (rarely) another with its
								 * hash */
	e->key = MemoryContextAlloc(c->cxt, key->len);
	memcpy(e->key, key->data, key->len);
	e->keylen = key->len;
	e->route = answer->route;
	e->content_type = MemoryContextStrdup(c->cxt, answer->content_type);
	e->body = MemoryContextAlloc(c->cxt, answer->len + 1);
	memcpy(e->body, answer->body, answer->len);
	e->body[answer->len] = '\0';
	e->len = answer->len;
	registry_read_copy(&e->read, &answer->read, c->cxt);
	c->bytes += answer->len + key->len + sizeof(CacheEntry);
}

/* The generation an answer of the class computed now belongs to. */
uint64
http_cache_generation(HttpCacheClass cls)
{
	return current_generation(cls);
}

/* Empty every cache (a reload may have changed what the answers depend on). */
void
http_cache_reset(void)
{
	if (caches[HTTP_CACHE_SCHEMA].entries)
		cache_flush(&caches[HTTP_CACHE_SCHEMA]);
	if (caches[HTTP_CACHE_SUBJECT].entries)
		cache_flush(&caches[HTTP_CACHE_SUBJECT]);
}
