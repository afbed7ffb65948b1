/*-------------------------------------------------------------------------
 *
 * schemas.c
 *	  Schema text to parsed schema: references, parsing, identity, and the
 *	  backend-local cache of parsed stored schemas.
 *
 * Stored schema content behind (context, id) is immutable until a hard
 * delete, so a parsed schema can be kept for the life of the backend.  An
 * entry carries the fingerprint it was parsed from: a lookup with another
 * fingerprint (the id was hard-deleted and reused by an IMPORT) re-parses,
 * so no cross-backend invalidation is needed for correctness.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "common/md5.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "lib/stringinfo.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "registry.h"
#include "schemas.h"

#define REFERENCE_DEPTH_LIMIT 64
#define CACHE_MAX_ENTRIES 100000
/* the first block of a parsed schema's memory context */
#define PARSED_SCHEMA_FIRST_BLOCK 1408

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
} CacheEntry;

static HTAB *schema_cache = NULL;
static MemoryContext CacheContext = NULL;

/*
 * what the SQL API is inserting right now (see registry_set_pending_insert):
 * a copy in PendingContext, so it outlives the submitted schema
 */
static struct
{
	bool		active;
	char	   *context;
	const char *schema_type;
	char	   *canonical;
	char	   *refs_json;
	char	   *metadata;
	char	   *rule_set;
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
	LocalTransactionId lxid;
}			pending;
static MemoryContext PendingContext = NULL;

/* references resolved to texts, in dependency order */
typedef struct ResolvedRefs
{
	rg_reference *refs;
	int			n;
	int			cap;
	int32	   *seen_ids;		/* schema ids already added */
	char	  **seen_contexts;
} ResolvedRefs;

const rg_format *
registry_format(const char *schema_type)
{
	const rg_format *format = rg_format_lookup(schema_type ? schema_type : "AVRO");

	if (format == NULL)
	{
		StringInfoData known;
		int			i;

		initStringInfo(&known);
		for (i = 0; rg_format_at(i) != NULL; i++)
			appendStringInfo(&known, "%s%s", i > 0 ? ", " : "", rg_format_at(i)->name);
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid schema type \"%s\"", schema_type),
				 errdetail("Invalid schema type %s; valid schema types are %s.", schema_type, known.data)));
	}
	return format;
}

/*
 * The core's allocation handler: palloc in the current memory context, or
 * in near's (a chunk of ours); with noerror NULL rather than an ERROR.
 */
static void *
core_alloc(const void *near, size_t size, bool noerror)
{
	MemoryContext cxt = near != NULL ? GetMemoryChunkContext((void *) near)
		: CurrentMemoryContext;

	return MemoryContextAllocExtended(cxt, size,
									  MCXT_ALLOC_HUGE | (noerror ? MCXT_ALLOC_NO_OOM : 0));
}

/* The core's realloc: repalloc, where the chunk lives. */
static void *
core_realloc(void *ptr, size_t size)
{
	return repalloc_huge(ptr, size);
}

/* The core's free: pfree. */
static void
core_free(void *ptr)
{
	pfree(ptr);
}

/* The core's scratch: a child of the current context, made current. */
static void *
core_scratch_begin(void)
{
	return MemoryContextSwitchTo(AllocSetContextCreate(CurrentMemoryContext,
													   "registry scratch",
													   0, 64 * 1024,
													   ALLOCSET_DEFAULT_MAXSIZE));
}

/* The end of the core's scratch: the context goes, mark is current again. */
static void
core_scratch_end(void *mark)
{
	MemoryContextDelete(MemoryContextSwitchTo((MemoryContext) mark));
}

/* The core's interrupt hook: a cancel or statement_timeout raises here. */
static void
core_check_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

/*
 * Back the core (and jansson and protobuf-c through it) with palloc, so
 * that everything a parsed schema or a check holds lives in a memory
 * context and an ERROR anywhere frees it with its context; and let its
 * long loops honour cancel and statement_timeout.  Called from _PG_init.
 */
void
registry_core_init(void)
{
	static const rg_allocator handlers = {
		.alloc = core_alloc,
		.realloc = core_realloc,
		.free = core_free,
		.scratch_begin = core_scratch_begin,
		.scratch_end = core_scratch_end,
	};

	rg_set_allocator(&handlers);
	rg_interrupt_hook = core_check_interrupts;
}

/*
 * Parse text into a memory context of its own, a child of the current
 * one (the caller moves it under the cache to keep it); NULL with err set
 * and nothing left behind when the text does not parse.
 */
static rg_schema *
parse_in_own_context(const rg_format *format, const char *text,
					 const ResolvedRefs *resolved, bool normalize,
					 rg_error *err, MemoryContext *memory)
{
	MemoryContext old;
	rg_schema  *parsed;

	/*
	 * The first block holds the context, the arena's first 1 KB block and
	 * the few small things a schema keeps beside it; the arena's bigger
	 * blocks get blocks of their own.
	 */
	*memory = AllocSetContextCreate(CurrentMemoryContext, "registry parsed schema",
									PARSED_SCHEMA_FIRST_BLOCK, ALLOCSET_SMALL_INITSIZE,
									ALLOCSET_SMALL_MAXSIZE);
	old = MemoryContextSwitchTo(*memory);
	rg_error_clear(err);
	parsed = format->parse(text, strlen(text), resolved->refs, resolved->n,
						   normalize, err);
	MemoryContextSwitchTo(old);
	if (parsed == NULL)
	{
		MemoryContextDelete(*memory);
		*memory = NULL;
	}
	return parsed;
}

/* A reference subject is relative to the referring schema's context. */
static void
reference_target(const char *context, const char *ref_subject,
				 char **ref_context, char **ref_name)
{
	if (ref_subject[0] == ':')
		registry_split_subject_cstr(ref_subject, ref_context, ref_name);
	else
	{
		*ref_context = pstrdup(context);
		*ref_name = pstrdup(ref_subject);
	}
}

static void
add_resolved(ResolvedRefs *out, const char *name, const char *text,
			 const char *context, int32 id)
{
	if (out->n == out->cap)
	{
		out->cap = out->cap ? out->cap * 2 : 8;
		out->refs = out->refs ? repalloc(out->refs, sizeof(rg_reference) * out->cap)
			: palloc(sizeof(rg_reference) * out->cap);
		out->seen_ids = out->seen_ids ? repalloc(out->seen_ids, sizeof(int32) * out->cap)
			: palloc(sizeof(int32) * out->cap);
		out->seen_contexts = out->seen_contexts ? repalloc(out->seen_contexts, sizeof(char *) * out->cap)
			: palloc(sizeof(char *) * out->cap);
	}
	out->refs[out->n].name = pstrdup(name);
	out->refs[out->n].schema = text;
	out->refs[out->n].schema_len = strlen(text);
	out->seen_ids[out->n] = id;
	out->seen_contexts[out->n] = pstrdup(context);
	out->n++;
}

static bool
already_resolved(ResolvedRefs *out, const char *context, int32 id)
{
	int			i;

	for (i = 0; i < out->n; i++)
		if (out->seen_ids[i] == id && strcmp(out->seen_contexts[i], context) == 0)
			return true;
	return false;
}

/*
 * Resolve a references array: each referenced subject-version's own
 * references first (depth first), then the reference itself.  refs is
 * rewritten with concrete version numbers (-1 means the latest live one).
 */
static void
resolve_refs(const char *context, CatalogRef *refs, int n, ResolvedRefs *out, int depth)
{
	int			i;

	if (depth > REFERENCE_DEPTH_LIMIT)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema references nest deeper than %d levels", REFERENCE_DEPTH_LIMIT)));
	for (i = 0; i < n; i++)
	{
		char	   *ref_context;
		char	   *ref_name;
		CatalogVersion v;
		CatalogSchema s;
		bool		found;

		reference_target(context, refs[i].subject, &ref_context, &ref_name);
		if (refs[i].version == -1)
			found = catalog_latest_version(ref_context, ref_name, &v);
		else
			found = catalog_get_version(ref_context, ref_name, refs[i].version, true, &v);
		if (!found)
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
					 errmsg("schema reference \"%s\" not found", refs[i].name),
					 errdetail("No version %d of subject \"%s\" exists.",
							   refs[i].version, refs[i].subject)));
		refs[i].version = v.version;
		if (already_resolved(out, ref_context, v.schema_id))
			continue;
		if (!catalog_get_schema(ref_context, v.schema_id, &s))
			elog(ERROR, "schema %d of subject \"%s\" is missing", v.schema_id, ref_name);
		{
			int			nsub;
			CatalogRef *sub = catalog_parse_refs(s.refs, &nsub);

			resolve_refs(ref_context, sub, nsub, out, depth + 1);
		}
		if (!already_resolved(out, ref_context, v.schema_id))
			add_resolved(out, refs[i].name, s.schema, ref_context, v.schema_id);
	}
}

/*
 * Confluent's identity of a schema: MD5 over the stored text, each
 * reference (name, subject, version), and the metadata and rule set when
 * present.
 */
static void
compute_fingerprint(const rg_schema *parsed, const CatalogRef *refs, int n,
					const char *metadata, const char *rule_set, uint8 *out)
{
	StringInfoData buf;
	const char *errstr = NULL;
	int			i;

	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, parsed->canonical, parsed->canonical_len);
	for (i = 0; i < n; i++)
	{
		appendStringInfoChar(&buf, '\0');
		appendStringInfoString(&buf, refs[i].name);
		appendStringInfoChar(&buf, '\0');
		appendStringInfoString(&buf, refs[i].subject);
		appendStringInfo(&buf, "%c%d", '\0', refs[i].version);
	}
	if (metadata)
	{
		appendStringInfoChar(&buf, '\1');
		appendStringInfoString(&buf, metadata);
	}
	if (rule_set)
	{
		appendStringInfoChar(&buf, '\2');
		appendStringInfoString(&buf, rule_set);
	}
	if (!pg_md5_binary(buf.data, buf.len, out, &errstr))
		elog(ERROR, "could not compute MD5: %s", errstr ? errstr : "out of memory");
	pfree(buf.data);
}

SubmittedSchema *
registry_parse_submitted(const char *context, const char *schema_type,
						 const char *text, const char *refs_json,
						 const char *metadata, const char *rule_set,
						 bool normalize, char **error_out)
{
	SubmittedSchema *s = palloc0(sizeof(SubmittedSchema));
	ResolvedRefs resolved = {0};
	CatalogRef *refs;
	int			nrefs;
	rg_error	err;

	s->format = registry_format(schema_type);
	refs = catalog_parse_refs(refs_json ? refs_json : "[]", &nrefs);
	resolve_refs(context, refs, nrefs, &resolved, 0);

	s->parsed = parse_in_own_context(s->format, text, &resolved, normalize,
									 &err, &s->memory);
	if (s->parsed == NULL)
	{
		if (err.code == RG_ERR_NOMEM)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory while parsing a schema")));
		if (error_out)
		{
			*error_out = pstrdup(err.message);
			return NULL;
		}
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid %s schema", s->format->name),
				 errdetail("%s", err.message)));
	}
	s->refs_json = catalog_refs_to_json(refs, nrefs);
	s->metadata = metadata ? pstrdup(metadata) : NULL;
	s->rule_set = rule_set ? pstrdup(rule_set) : NULL;
	compute_fingerprint(s->parsed, refs, nrefs, metadata, rule_set, s->fingerprint);
	return s;
}

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
}

/* Drop every entry (each schema's context is a child of CacheContext). */
static void
cache_reset(void)
{
	hash_destroy(schema_cache);
	MemoryContextDelete(CacheContext);
	schema_cache = NULL;
	CacheContext = NULL;
	cache_init();
}

/*
 * Give an entry a parsed schema and its memory context (moved under
 * CacheContext), freeing the one it had.
 */
static void
cache_entry_set(CacheEntry *e, rg_schema *schema, MemoryContext memory)
{
	if (e->memory != NULL && e->memory != memory)
		MemoryContextDelete(e->memory);
	if (memory != NULL)
		MemoryContextSetParent(memory, CacheContext);
	e->schema = schema;
	e->memory = memory;
}

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
	}
	else if (strcmp(e->context, context) != 0)
	{
		/* hash collision between two contexts: the newcomer takes the slot */
		cache_entry_set(e, NULL, NULL);
		pfree(e->context);
		e->context = MemoryContextStrdup(CacheContext, context);
		*found = false;
	}
	return e;
}

void
registry_cache_adopt(const char *context, int32 id, SubmittedSchema *submitted)
{
	bool		found;
	CacheEntry *e = cache_slot(context, id, &found);

	cache_entry_set(e, submitted->parsed, submitted->memory);
	memcpy(e->fingerprint, submitted->fingerprint, REGISTRY_FINGERPRINT_LEN);
}

void
registry_set_pending_insert(const char *context, SubmittedSchema *submitted)
{
	MemoryContext old;

	pending.active = false;
	if (PendingContext == NULL)
		PendingContext = AllocSetContextCreate(TopMemoryContext, "registry pending insert",
											   ALLOCSET_SMALL_SIZES);
	MemoryContextReset(PendingContext);
	old = MemoryContextSwitchTo(PendingContext);
	pending.context = pstrdup(context);
	pending.schema_type = submitted->format->name;
	pending.canonical = pstrdup(submitted->parsed->canonical);
	pending.refs_json = pstrdup(submitted->refs_json);
	pending.metadata = submitted->metadata ? pstrdup(submitted->metadata) : NULL;
	pending.rule_set = submitted->rule_set ? pstrdup(submitted->rule_set) : NULL;
	MemoryContextSwitchTo(old);
	memcpy(pending.fingerprint, submitted->fingerprint, REGISTRY_FINGERPRINT_LEN);
	pending.lxid = MyProc->lxid;
	pending.active = true;
}

/*
 * The schemas insert trigger asks whether the row it sees is exactly what
 * the SQL API parsed a moment ago in this backend; if so it need not parse
 * it again.  Anything else (a DBA's INSERT) is parsed in full.
 */
bool
registry_is_pending_insert(const char *context, const char *schema_type,
						   const char *schema, const char *refs,
						   const char *metadata, const char *rule_set,
						   const uint8 *fingerprint)
{
	if (!pending.active || pending.lxid != MyProc->lxid)
	{
		pending.active = false;
		return false;
	}
	pending.active = false;
	return strcmp(context, pending.context) == 0 &&
		strcmp(schema_type, pending.schema_type) == 0 &&
		strcmp(schema, pending.canonical) == 0 &&
		strcmp(refs, pending.refs_json) == 0 &&
		((metadata == NULL && pending.metadata == NULL) ||
		 (metadata && pending.metadata && strcmp(metadata, pending.metadata) == 0)) &&
		((rule_set == NULL && pending.rule_set == NULL) ||
		 (rule_set && pending.rule_set && strcmp(rule_set, pending.rule_set) == 0)) &&
		fingerprint != NULL &&
		memcmp(fingerprint, pending.fingerprint, REGISTRY_FINGERPRINT_LEN) == 0;
}

const rg_schema *
registry_stored_schema(const char *context, int32 id, const uint8 *fingerprint)
{
	bool		found;
	CacheEntry *e = cache_slot(context, id, &found);
	CatalogSchema row;
	ResolvedRefs resolved = {0};
	CatalogRef *refs;
	int			nrefs;
	rg_error	err;
	rg_schema  *parsed;
	MemoryContext memory;
	const rg_format *format;

	if (found && e->schema != NULL &&
		(fingerprint == NULL ||
		 memcmp(e->fingerprint, fingerprint, REGISTRY_FINGERPRINT_LEN) == 0))
		return e->schema;

	if (!catalog_get_schema(context, id, &row))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema %d not found", id)));
	format = registry_format(row.schema_type);
	refs = catalog_parse_refs(row.refs, &nrefs);
	resolve_refs(context, refs, nrefs, &resolved, 0);
	parsed = parse_in_own_context(format, row.schema, &resolved, false, &err, &memory);
	if (parsed == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_STORE_ERROR),
				 errmsg("stored schema %d in context \"%s\" does not parse", id, context),
				 errdetail("%s", err.message)));

	/* the slot may have moved if resolving references added entries */
	e = cache_slot(context, id, &found);
	cache_entry_set(e, parsed, memory);
	memcpy(e->fingerprint, row.fingerprint, REGISTRY_FINGERPRINT_LEN);
	return parsed;
}

bool
registry_check_versions(const char *context, const rg_schema *schema,
						rg_compat_level level, const CatalogVersion *versions,
						int n, rg_strlist *messages)
{
	rg_prior_version *prior;
	int			first = 0;
	int			i;

	if (level == RG_COMPAT_NONE || n == 0)
		return true;
	/* a non-transitive level looks at the latest version only */
	if (!rg_compat_is_transitive(level))
		first = n - 1;
	prior = palloc(sizeof(rg_prior_version) * (n - first));
	for (i = first; i < n; i++)
	{
		prior[i - first].schema = registry_stored_schema(context, versions[i].schema_id,
														 versions[i].fingerprint);
		prior[i - first].version = versions[i].version;
	}
	return rg_compat_check(level, schema, prior, n - first, messages);
}

char *
registry_messages_to_string(const rg_strlist *messages)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (i = 0; i < messages->n; i++)
	{
		if (i > 0)
			appendStringInfoString(&buf, ", ");
		appendStringInfoString(&buf, messages->items[i]);
	}
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

void
registry_strlist_init(rg_strlist *list)
{
	/* palloc-backed: the arena dies with the current memory context */
	rg_arena   *arena = rg_arena_create();

	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	rg_strlist_init(list, arena);
}

/* the version the SQL API has just checked and is about to insert */
static struct
{
	bool		active;
	char		context[NAMEDATALEN * 4];
	char		subject[NAMEDATALEN * 4];
	int32		schema_id;
	int32		version;
	LocalTransactionId lxid;	/* valid only in the transaction that set it */
}			checked;

bool
registry_check_subject(const char *context, const char *subject,
					   const rg_schema *schema, const char *level_name,
					   rg_strlist *messages)
{
	rg_compat_level level;
	CatalogVersion *versions;
	int			n;

	if (!rg_compat_level_parse(level_name, &level))
		elog(ERROR, "unknown compatibility level \"%s\"", level_name);
	if (level == RG_COMPAT_NONE)
		return true;
	/* a non-transitive level reads the latest live version only */
	if (rg_compat_is_transitive(level))
		versions = catalog_versions(context, subject, false, &n);
	else
	{
		versions = palloc(sizeof(CatalogVersion));
		n = catalog_latest_version(context, subject, versions) ? 1 : 0;
	}
	return registry_check_versions(context, schema, level, versions, n, messages);
}

void
registry_assert_compatible(const char *context, const char *subject,
						   const rg_schema *schema, const char *level_name)
{
	rg_strlist	messages;

	registry_strlist_init(&messages);
	if (!registry_check_subject(context, subject, schema, level_name, &messages))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INCOMPATIBLE_SCHEMA),
				 errmsg("schema being registered is incompatible with an earlier schema for subject \"%s\"",
						subject),
				 errdetail("Schema being registered is incompatible with an earlier schema for subject \"%s\", details: %s",
						   subject, registry_messages_to_string(&messages))));
}

/*
 * The SQL API, holding the subject's lock, has checked the mode, the
 * version number and compatibility of (schema_id, version) and now inserts
 * it: the insert trigger, which would repeat the same checks under the same
 * lock in the same transaction, may skip them for exactly that row.
 */
void
registry_mark_checked(const char *context, const char *subject, int32 schema_id,
					  int32 version)
{
	checked.active = false;
	if (strlen(context) >= sizeof(checked.context) || strlen(subject) >= sizeof(checked.subject))
		return;
	strcpy(checked.context, context);
	strcpy(checked.subject, subject);
	checked.schema_id = schema_id;
	checked.version = version;
	checked.lxid = MyProc->lxid;
	checked.active = true;
}

/* Is this the row the SQL API marked?  The mark is used up either way. */
bool
registry_take_checked(const char *context, const char *subject, int32 schema_id,
					  int32 version)
{
	bool		match = checked.active &&
		checked.lxid == MyProc->lxid &&
		strcmp(checked.context, context) == 0 &&
		strcmp(checked.subject, subject) == 0 &&
		checked.schema_id == schema_id && checked.version == version;

	checked.active = false;
	return match;
}
