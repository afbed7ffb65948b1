/*-------------------------------------------------------------------------
 *
 * scope_cache.c
 *	  The config and mode rows of recently read scopes, and subjects'
 *	  aliases, kept across transactions while no config or mode can have
 *	  changed.
 *
 * Every registration reads the settings in force for its subject (four
 * scopes of registry.config and registry.modes) and the REST API reads the
 * subject's alias: a dozen index probes each time, for rows that change a
 * few times in a registry's life.  The rows read are kept here with the
 * shared generation (invalidation.c) read before they were scanned; a
 * config or mode written anywhere moves that generation at its commit (row
 * and TRUNCATE triggers enabled ALWAYS, so a logical replication subscriber
 * and a restore hear of them too), and on a standby any replay does.  A
 * generation that moved empties the cache, and so does any relcache
 * invalidation (DDL that changes the tables without firing a trigger).
 *
 * The rows are used only where a scan would give the same: in a READ
 * COMMITTED transaction that has written nothing (so it has no uncommitted
 * config or mode of its own), for a read whose snapshot sees the
 * generation's settings.  catalog_settings.c checks that snapshot, and,
 * each time, that the invalidating triggers are in place and enabled
 * ALWAYS, and it takes the table locks and checks the privileges a scan
 * would; without the triggers every read scans.
 *
 * At most SCOPE_CACHE_MAX_ENTRIES scopes are kept; past that the cache is
 * emptied, which keeps the memory bounded and the rule simple.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/xact.h"
#include "common/hashfn.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "invalidation.h"

#define SCOPE_CACHE_MAX_ENTRIES 4096

/* what is known of one (context, subject) */
typedef struct ScopeEntry
{
	uint64		key;			/* hash of context and subject */
	char	   *context;
	char	   *subject;
	bool		has_rows;
	CatalogScopeRows rows;
	bool		has_alias;
	char	   *alias;			/* or NULL: the subject has none */
} ScopeEntry;

static MemoryContext scope_cxt = NULL;
static HTAB *scopes = NULL;
static uint64 scopes_generation = 0;
static bool scopes_stale = false;	/* a relcache invalidation came */
static bool callback_registered = false;

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
									  ALLOCSET_SMALL_SIZES);
	ctl.keysize = sizeof(uint64);
	ctl.entrysize = sizeof(ScopeEntry);
	ctl.hcxt = scope_cxt;
	scopes = hash_create("registry scope cache", 256, &ctl,
						 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	scopes_generation = gen;
	scopes_stale = false;
}

/* The hash of a scope: its context's, seeded with its subject's. */
static uint64
scope_key(const char *context, const char *subject)
{
	return hash_bytes_extended((const unsigned char *) context, strlen(context),
							   hash_bytes_extended((const unsigned char *) subject,
												   strlen(subject), 0));
}

/*
 * The entry of a scope at generation gen: NULL when absent (or another
 * scope with the same hash holds the slot); with create, made (empty)
 * when absent, after emptying the cache when it is at its bound.
 */
static ScopeEntry *
scope_entry(uint64 gen, const char *context, const char *subject, bool create)
{
	uint64		key = scope_key(context, subject);
	ScopeEntry *e;
	bool		found;

	if (scopes == NULL || gen != scopes_generation || scopes_stale)
		scopes_reset(gen);
	e = hash_search(scopes, &key, HASH_FIND, NULL);
	if (e != NULL)
		return strcmp(e->context, context) == 0 && strcmp(e->subject, subject) == 0 ? e : NULL;
	if (!create)
		return NULL;
	if (hash_get_num_entries(scopes) >= SCOPE_CACHE_MAX_ENTRIES)
		scopes_reset(gen);
	e = hash_search(scopes, &key, HASH_ENTER, &found);
	e->context = MemoryContextStrdup(scope_cxt, context);
	e->subject = MemoryContextStrdup(scope_cxt, subject);
	e->has_rows = false;
	e->has_alias = false;
	e->alias = NULL;
	return e;
}

/* A copy of a string (NULL stays NULL) in cxt. */
static char *
copy_text(const char *s, MemoryContext cxt)
{
	return s ? MemoryContextStrdup(cxt, s) : NULL;
}

/* A deep copy of scope rows into cxt. */
static void
copy_rows(const CatalogScopeRows *from, CatalogScopeRows *to, MemoryContext cxt)
{
	to->n_config = from->n_config;
	to->n_mode = from->n_mode;
	to->config = MemoryContextAllocZero(cxt, sizeof(CatalogConfigRow) * (from->n_config + 1));
	to->mode = MemoryContextAllocZero(cxt, sizeof(CatalogModeRow) * (from->n_mode + 1));
	for (int i = 0; i < from->n_config; i++)
	{
		to->config[i] = from->config[i];
		to->config[i].context = copy_text(from->config[i].context, cxt);
		to->config[i].subject = copy_text(from->config[i].subject, cxt);
		to->config[i].compatibility = copy_text(from->config[i].compatibility, cxt);
		to->config[i].settings = copy_text(from->config[i].settings, cxt);
	}
	for (int i = 0; i < from->n_mode; i++)
	{
		to->mode[i].context = copy_text(from->mode[i].context, cxt);
		to->mode[i].subject = copy_text(from->mode[i].subject, cxt);
		to->mode[i].mode = copy_text(from->mode[i].mode, cxt);
	}
}

/* The kept rows of a scope into *out (the caller's memory); false when not kept. */
bool
scope_cache_rows(uint64 gen, const char *context, const char *subject, CatalogScopeRows *out)
{
	ScopeEntry *e = scope_entry(gen, context, subject, false);

	if (e == NULL || !e->has_rows)
		return false;
	copy_rows(&e->rows, out, CurrentMemoryContext);
	return true;
}

/* Keep the rows a scan at generation gen read for a scope. */
void
scope_cache_keep_rows(uint64 gen, const char *context, const char *subject,
					  const CatalogScopeRows *rows)
{
	ScopeEntry *e = scope_entry(gen, context, subject, true);

	if (e == NULL || e->has_rows)
		return;
	copy_rows(rows, &e->rows, scope_cxt);
	e->has_rows = true;
}

/* The kept alias of a subject into *alias (palloc'd, or NULL); false when not kept. */
bool
scope_cache_alias(uint64 gen, const char *context, const char *subject, char **alias)
{
	ScopeEntry *e = scope_entry(gen, context, subject, false);

	if (e == NULL || !e->has_alias)
		return false;
	*alias = e->alias ? pstrdup(e->alias) : NULL;
	return true;
}

/* Keep the alias (or NULL) a scan at generation gen read for a subject. */
void
scope_cache_keep_alias(uint64 gen, const char *context, const char *subject, const char *alias)
{
	ScopeEntry *e = scope_entry(gen, context, subject, true);

	if (e == NULL || e->has_alias)
		return;
	e->alias = copy_text(alias, scope_cxt);
	e->has_alias = true;
}
