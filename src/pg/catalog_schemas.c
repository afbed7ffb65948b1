/*-------------------------------------------------------------------------
 *
 * catalog_schemas.c
 *	  registry.schemas: its reads (by id, by identity, by stored text, the
 *	  fingerprints of a subject's versions) through its indexes, and its
 *	  insert.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "common/md5.h"
#include "executor/spi.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/memutils.h"

#include "catalog.h"
#include "catalog_internal.h"

/* the columns of registry.schemas */
#define Anum_schemas_context		1
#define Anum_schemas_id				2
#define Anum_schemas_schema_type	3
#define Anum_schemas_schema			4
#define Anum_schemas_refs			5
#define Anum_schemas_metadata		6
#define Anum_schemas_rule_set		7
#define Anum_schemas_fingerprint	8
#define Anum_schemas_created_at		9
#define Natts_schemas				9

static const CatalogColumn schemas_columns[Natts_schemas] = {
	{"context", TEXTOID},
	{"id", INT4OID},
	{"schema_type", TEXTOID},
	{"schema", TEXTOID},
	{"refs", JSONBOID},
	{"metadata", JSONBOID},
	{"rule_set", JSONBOID},
	{"fingerprint", BYTEAOID},
	{"created_at", TIMESTAMPTZOID},
};

static CatalogTable schemas_table = {"schemas", Natts_schemas, schemas_columns};

static CatalogIndex schemas_pkey = {
	"schemas_pkey", &schemas_table, 2, {Anum_schemas_context, Anum_schemas_id}
};

static CatalogIndex schemas_fingerprint_context_key = {
	"schemas_fingerprint_context_key", &schemas_table, 2,
	{Anum_schemas_fingerprint, Anum_schemas_context}
};

/* (md5(schema), context) of the schemas with metadata or a rule set */
static CatalogIndex schemas_text_idx = {
	"schemas_text_idx", &schemas_table, 2, {InvalidAttrNumber, Anum_schemas_context},
	{Anum_schemas_metadata, Anum_schemas_rule_set}
};

/* id NULL: the insert trigger draws one */
static CatalogPlan plan_insert_schema = {
	"INSERT INTO registry.schemas (context, id, schema_type, schema, refs, metadata, rule_set, fingerprint) "
	"VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8) ON CONFLICT DO NOTHING RETURNING id",
	8, {TEXTOID, INT4OID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, BYTEAOID}
};

/*
 * The value of the boolean column called name, false when the table has
 * none (0.7's columns come after guid, whose place differs between an
 * install and an update, so they are found by name).
 */
static bool
bool_column(CatalogScan *s, const char *name)
{
	TupleDesc	desc = RelationGetDescr(s->heap);
	int			i;

	for (i = Natts_schemas; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && att->atttypid == BOOLOID &&
			strcmp(NameStr(att->attname), name) == 0)
			return catalog_scan_bool(s, att->attnum);
	}
	return false;
}

/*
 * The current row of a registry.schemas scan into out, its strings in cxt.
 * A catalog not yet updated to 0.7 has no parses_to_itself or
 * normalizes_to_itself: its rows vouch for no text.
 */
static void
fill_schema(CatalogScan *s, MemoryContext cxt, CatalogSchema *out)
{
	out->context = catalog_scan_text(s, Anum_schemas_context, cxt);
	out->id = catalog_scan_int32(s, Anum_schemas_id);
	out->schema_type = catalog_scan_text(s, Anum_schemas_schema_type, cxt);
	out->schema = catalog_scan_text(s, Anum_schemas_schema, cxt);
	out->refs = catalog_scan_jsonb_text(s, Anum_schemas_refs, cxt);
	out->metadata = catalog_scan_jsonb_text(s, Anum_schemas_metadata, cxt);
	out->rule_set = catalog_scan_jsonb_text(s, Anum_schemas_rule_set, cxt);
	catalog_scan_fingerprint(s, Anum_schemas_fingerprint, out->fingerprint);
	out->created_at = catalog_scan_timestamp(s, Anum_schemas_created_at);
	out->parses_to_itself = bool_column(s, "parses_to_itself");
	out->normalizes_to_itself = bool_column(s, "normalizes_to_itself");
}

/* Key an open primary-key scan for the schema row (context, id). */
static void
key_schema(CatalogScan *s, const char *context, int32 id)
{
	catalog_scan_text_key(s, Anum_schemas_context, context);
	catalog_scan_key(s, Anum_schemas_id, F_INT4EQ, Int32GetDatum(id));
}

/* Open a scan of the schema row (context, id). */
static void
schema_open(CatalogScan *s, const char *context, int32 id)
{
	catalog_scan_open(s, &schemas_pkey);
	key_schema(s, context, id);
}

/* The schema row (context, id) into out (NULL: only found or not), its strings in cxt. */
bool
catalog_schema_by_id(const char *context, int32 id, MemoryContext cxt, CatalogSchema *out)
{
	CatalogScan s;
	bool		found;

	schema_open(&s, context, id);
	found = catalog_scan_next(&s, ForwardScanDirection);
	if (found && out != NULL)
		fill_schema(&s, cxt, out);
	catalog_scan_close(&s);
	return found;
}

/* The schema row (context, id), if there is one. */
bool
catalog_get_schema(const char *context, int32 id, CatalogSchema *out)
{
	return catalog_schema_by_id(context, id, CurrentMemoryContext, out);
}

/* The fingerprint of the schema (context, id), which must exist. */
void
catalog_schema_fingerprint(const char *context, int32 id, uint8 *out)
{
	CatalogScan s;

	schema_open(&s, context, id);
	if (!catalog_scan_next(&s, ForwardScanDirection))
		elog(ERROR, "schema %d of context \"%s\" is missing", id, context);
	catalog_scan_fingerprint(&s, Anum_schemas_fingerprint, out);
	catalog_scan_close(&s);
}

/* Open a scan of the schema with this identity in the context. */
static void
schema_by_fingerprint_open(CatalogScan *s, const char *context, const uint8 *fingerprint)
{
	catalog_scan_open(s, &schemas_fingerprint_context_key);
	catalog_scan_key(s, Anum_schemas_fingerprint, F_BYTEAEQ,
					 catalog_fingerprint_datum(fingerprint));
	catalog_scan_text_key(s, Anum_schemas_context, context);
}

/* The schema row with this identity in the context, if there is one. */
bool
catalog_schema_by_fingerprint(const char *context, const uint8 *fingerprint,
							  CatalogSchema *out)
{
	CatalogScan s;
	bool		found;

	schema_by_fingerprint_open(&s, context, fingerprint);
	found = catalog_scan_next(&s, ForwardScanDirection);
	if (found)
		fill_schema(&s, CurrentMemoryContext, out);
	catalog_scan_close(&s);
	return found;
}

/* The id of the schema with this identity in the context, 0 when none. */
int32
catalog_schema_id_by_fingerprint(const char *context, const uint8 *fingerprint)
{
	CatalogScan s;
	int32		id = 0;

	schema_by_fingerprint_open(&s, context, fingerprint);
	if (catalog_scan_next(&s, ForwardScanDirection))
		id = catalog_scan_int32(&s, Anum_schemas_id);
	catalog_scan_close(&s);
	return id;
}

/*
 * The schema row with this id in the default context, else in the first
 * context (by name) that has it: the schema registry.schema_by_id(id)
 * answers without a subject.  The contexts and the schemas are read in one
 * snapshot.
 */
bool
catalog_schema_any_context(int32 id, CatalogSchema *out)
{
	CatalogScan s;
	List	   *contexts;
	ListCell   *lc;
	bool		found;

	schema_open(&s, ".", id);
	found = catalog_scan_next(&s, ForwardScanDirection);
	if (!found)
	{
		contexts = catalog_context_names(&s);
		foreach(lc, contexts)
		{
			const char *context = lfirst(lc);

			if (strcmp(context, ".") == 0)
				continue;
			catalog_scan_rekey(&s);
			key_schema(&s, context, id);
			if ((found = catalog_scan_next(&s, ForwardScanDirection)))
				break;
		}
	}
	if (found)
		fill_schema(&s, CurrentMemoryContext, out);
	catalog_scan_close(&s);
	return found;
}

/*
 * The schemas with this identity, one per context that has it, in the
 * order of their contexts; *n how many.
 */
CatalogSchema *
catalog_schemas_by_fingerprint(const uint8 *fingerprint, int *n)
{
	CatalogScan s;
	int			cap = 4;
	CatalogSchema *out = palloc(sizeof(CatalogSchema) * cap);

	*n = 0;
	catalog_scan_open(&s, &schemas_fingerprint_context_key);
	catalog_scan_key(&s, Anum_schemas_fingerprint, F_BYTEAEQ,
					 catalog_fingerprint_datum(fingerprint));
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (*n == cap)
			out = repalloc(out, sizeof(CatalogSchema) * (cap *= 2));
		fill_schema(&s, CurrentMemoryContext, &out[(*n)++]);
	}
	catalog_scan_close(&s);
	return out;
}

/* The highest schema id of the context into *max_id; false when it has none. */
bool
catalog_max_schema_id(const char *context, int32 *max_id)
{
	CatalogScan s;
	bool		found;

	catalog_scan_open(&s, &schemas_pkey);
	catalog_scan_text_key(&s, Anum_schemas_context, context);
	found = catalog_scan_next(&s, BackwardScanDirection);
	*max_id = found ? catalog_scan_int32(&s, Anum_schemas_id) : 0;
	catalog_scan_close(&s);
	return found;
}

/*
 * Insert a schema row, with its id (s->id 0: the insert trigger draws
 * one): the id it got, 0 when a concurrent transaction committed the same
 * identity (or took the id) first, after waiting for it, as unique indexes
 * do.
 */
int32
catalog_insert_schema(const CatalogSchema *s)
{
	Datum		v[8];
	char		nulls[8] = "        ";
	int32		id;

	catalog_connect();
	v[0] = CStringGetTextDatum(s->context);
	v[1] = Int32GetDatum(s->id);
	nulls[1] = s->id > 0 ? ' ' : 'n';
	v[2] = CStringGetTextDatum(s->schema_type);
	v[3] = CStringGetTextDatum(s->schema);
	v[4] = CStringGetTextDatum(s->refs ? s->refs : "[]");
	if (s->metadata)
		v[5] = CStringGetTextDatum(s->metadata);
	else
		nulls[5] = 'n';
	if (s->rule_set)
		v[6] = CStringGetTextDatum(s->rule_set);
	else
		nulls[6] = 'n';
	v[7] = catalog_fingerprint_datum(s->fingerprint);
	catalog_run(&plan_insert_schema, v, nulls, SPI_OK_INSERT_RETURNING);
	id = SPI_processed == 1 ? catalog_int32(SPI_tuptable->vals[0], 1) : 0;
	catalog_disconnect();
	return id;
}

/* --- the fingerprints of a subject's versions ----------------------------------- */

/*
 * Where this backend last found schema rows, by (context, id): a hint
 * only, in a direct-mapped table where consecutive ids take consecutive
 * slots.  A row fetched at a hinted place is used only if the snapshot
 * sees it and it has that context and id; the primary key lets one
 * snapshot see one such row at most, so it is the row an index probe
 * would find.  Anything else (a slot of another id, a row gone or moved
 * by VACUUM FULL) falls back to the probe.
 */
#define SCHEMA_TID_HINTS 4096

typedef struct SchemaTidHint
{
	uint32		context_hash;
	int32		id;
	ItemPointerData tid;
} SchemaTidHint;

static SchemaTidHint schema_tid_hints[SCHEMA_TID_HINTS];

/* The hint slot of schema (context, id). */
static SchemaTidHint *
schema_tid_hint(uint32 context_hash, int32 id)
{
	return &schema_tid_hints[((uint32) id + context_hash) % SCHEMA_TID_HINTS];
}

/*
 * Make schema (context, id) the current row of s by its hinted place;
 * false when the hint does not lead to it.
 */
static bool
schema_at_hint(CatalogScan *s, uint32 context_hash, const char *context, int32 id,
			   BlockNumber nblocks)
{
	SchemaTidHint *hint = schema_tid_hint(context_hash, id);

	return hint->id == id && hint->context_hash == context_hash &&
		catalog_scan_fetch_tid(s, &hint->tid, nblocks) &&
		catalog_scan_int32(s, Anum_schemas_id) == id &&
		catalog_scan_text_is(s, Anum_schemas_context, context);
}

/*
 * The fingerprints of the versions' schemas, read in the snapshot the
 * versions were read in (a schema a version names exists in it): each at
 * its hinted place, else by a probe of the schemas' primary key, whose
 * row's place becomes the hint.  A hinted fetch reads one heap page; a
 * probe also descends the index, which cost about as much as the rest of a
 * transitive check over 1,000 versions.
 */
void
catalog_add_fingerprints(const char *context, const CatalogScan *versions_scan,
						 CatalogVersion *versions, int n)
{
	CatalogScan s;
	uint32		context_hash;
	BlockNumber nblocks;

	context_hash = hash_bytes((const unsigned char *) context, strlen(context));
	catalog_scan_open(&s, &schemas_pkey);
	catalog_scan_share_snapshot(&s, versions_scan);
	nblocks = RelationGetNumberOfBlocks(s.heap);
	for (int i = 0; i < n; i++)
	{
		int32		id = versions[i].schema_id;

		if (!schema_at_hint(&s, context_hash, context, id, nblocks))
		{
			SchemaTidHint *hint = schema_tid_hint(context_hash, id);

			catalog_scan_rekey(&s);
			key_schema(&s, context, id);
			if (!catalog_scan_next(&s, ForwardScanDirection))
				elog(ERROR, "schema %d of context \"%s\" is missing", id, context);
			hint->context_hash = context_hash;
			hint->id = id;
			hint->tid = s.slot->tts_tid;
		}
		catalog_scan_fingerprint(&s, Anum_schemas_fingerprint, versions[i].fingerprint);
	}
	catalog_scan_close(&s);
}

/* --- schemas with the same text ---------------------------------------------------- */

/* the longest text whose md5 text_md5() keeps */
#define TEXT_MD5_KEPT_MAX	65536

/*
 * The md5 of a stored text as registry.schemas_text_idx keys it, into md5.
 * The last text's is kept (up to TEXT_MD5_KEPT_MAX bytes): a registration
 * asks for it before and again after it takes the subject's lock.
 */
static void
text_md5(const char *schema, char *md5)
{
	static char *kept_text = NULL;
	static char kept_md5[2 * MD5_DIGEST_LENGTH + 1];
	size_t		len = strlen(schema);
	const char *errstr = NULL;

	if (kept_text != NULL && strcmp(kept_text, schema) == 0)
	{
		memcpy(md5, kept_md5, sizeof(kept_md5));
		return;
	}
	if (!pg_md5_hash(schema, len, md5, &errstr))
		elog(ERROR, "could not compute an MD5 hash: %s", errstr);
	if (kept_text != NULL)
		pfree(kept_text);
	kept_text = NULL;
	if (len <= TEXT_MD5_KEPT_MAX)
	{
		kept_text = MemoryContextStrdup(TopMemoryContext, schema);
		memcpy(kept_md5, md5, sizeof(kept_md5));
	}
}

/* Append the current schemas row to same (a palloc'd array of *cap). */
static void
add_same_text(CatalogScan *s, CatalogSameText **same, int *n, int *cap)
{
	CatalogSameText *c;

	if (*n == *cap)
		*same = repalloc(*same, sizeof(CatalogSameText) * (*cap *= 2));
	c = &(*same)[(*n)++];
	c->id = catalog_scan_int32(s, Anum_schemas_id);
	catalog_scan_fingerprint(s, Anum_schemas_fingerprint, c->fingerprint);
	c->refs = catalog_scan_jsonb_text(s, Anum_schemas_refs, CurrentMemoryContext);
	c->metadata = catalog_scan_jsonb_text(s, Anum_schemas_metadata, CurrentMemoryContext);
	c->rule_set = catalog_scan_jsonb_text(s, Anum_schemas_rule_set, CurrentMemoryContext);
}

/* Is the current schemas row of this type and stored text? */
static bool
schema_row_is(CatalogScan *s, const char *schema_type, const char *schema)
{
	return catalog_scan_text_is(s, Anum_schemas_schema, schema) &&
		catalog_scan_text_is(s, Anum_schemas_schema_type, schema_type);
}

/* Has the current schemas row metadata or a rule set? */
static bool
has_contract(CatalogScan *s)
{
	bool		no_metadata;
	bool		no_rule_set;

	(void) catalog_scan_datum(s, Anum_schemas_metadata, &no_metadata);
	(void) catalog_scan_datum(s, Anum_schemas_rule_set, &no_rule_set);
	return !(no_metadata && no_rule_set);
}

/*
 * The context's schemas with this type and stored text: those with
 * metadata or a rule set found by the md5 of the text
 * (registry.schemas_text_idx, which keeps only those), and the one with
 * neither whose identity is plain_fingerprint (the text's with the
 * caller's references: one with other references is no twin; none when
 * plain_fingerprint is NULL), into a palloc'd array.
 */
CatalogSameText *
catalog_schemas_with_text(const char *context, const char *schema_type, const char *schema,
						  const uint8 *plain_fingerprint, int *n)
{
	CatalogScan s;
	char		md5[2 * MD5_DIGEST_LENGTH + 1];
	int			cap = 4;
	CatalogSameText *out = palloc(sizeof(CatalogSameText) * cap);

	*n = 0;
	text_md5(schema, md5);
	catalog_scan_open(&s, &schemas_text_idx);
	catalog_scan_text_key(&s, InvalidAttrNumber, md5);
	catalog_scan_text_key(&s, Anum_schemas_context, context);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		/* an index made before it kept only these has the others too */
		if (has_contract(&s) && schema_row_is(&s, schema_type, schema))
			add_same_text(&s, &out, n, &cap);
	}
	catalog_scan_close(&s);
	if (plain_fingerprint == NULL)
		return out;

	catalog_scan_open(&s, &schemas_fingerprint_context_key);
	catalog_scan_key(&s, Anum_schemas_fingerprint, F_BYTEAEQ,
					 catalog_fingerprint_datum(plain_fingerprint));
	catalog_scan_text_key(&s, Anum_schemas_context, context);
	if (catalog_scan_next(&s, ForwardScanDirection) && !has_contract(&s) &&
		schema_row_is(&s, schema_type, schema))
		add_same_text(&s, &out, n, &cap);
	catalog_scan_close(&s);
	return out;
}
