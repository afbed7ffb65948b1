/*-------------------------------------------------------------------------
 *
 * catalog_versions.c
 *	  registry.subject_versions: a subject's versions (all, the newest, by
 *	  number, of a schema), the live versions in a mode's scope, through
 *	  the table's indexes; its insert; and the count of versions per schema
 *	  type.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/fmgroids.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "catalog_internal.h"

/* the columns of registry.subject_versions */
#define Anum_subject_versions_context		1
#define Anum_subject_versions_subject		2
#define Anum_subject_versions_version		3
#define Anum_subject_versions_schema_id		4
#define Anum_subject_versions_deleted		5
#define Anum_subject_versions_created_at	6
#define Natts_subject_versions				6

static const CatalogColumn subject_versions_columns[Natts_subject_versions] = {
	{"context", TEXTOID},
	{"subject", TEXTOID},
	{"version", INT4OID},
	{"schema_id", INT4OID},
	{"deleted", BOOLOID},
	{"created_at", TIMESTAMPTZOID},
};

static CatalogTable subject_versions_table = {
	"subject_versions", Natts_subject_versions, subject_versions_columns
};

static CatalogIndex subject_versions_pkey = {
	"subject_versions_pkey", &subject_versions_table, 3,
	{Anum_subject_versions_context, Anum_subject_versions_subject, Anum_subject_versions_version}
};

/* (context, schema_id, subject, version): an id's users in the listing's order */
static CatalogIndex subject_versions_schema_idx = {
	"subject_versions_schema_idx", &subject_versions_table, 4,
	{Anum_subject_versions_context, Anum_subject_versions_schema_id,
	Anum_subject_versions_subject, Anum_subject_versions_version}
};

/*
 * (text_key, context, subject): a version by the key of its schema's exact
 * text (0.8), the key first so that a descent compares bytes, not the
 * subject's text by collation.  text_key comes after the columns above, so
 * its attribute number is found by name when the index is first opened.
 */
static CatalogIndex subject_versions_text_key_idx = {
	"subject_versions_text_key_idx", &subject_versions_table, 3,
	{InvalidAttrNumber, Anum_subject_versions_context, Anum_subject_versions_subject}
};

static CatalogPlan plan_insert_version = {
	"INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ($1, $2, $3, $4)",
	4, {TEXTOID, TEXTOID, INT4OID, INT4OID}
};

/* an aggregate over two tables, for GET /metrics: the planner's join */
static CatalogPlan plan_type_counts = {
	"SELECT s.schema_type, count(*), count(*) FILTER (WHERE v.deleted) "
	"FROM registry.subject_versions v "
	"JOIN registry.schemas s ON s.context = v.context AND s.id = v.schema_id "
	"GROUP BY s.schema_type ORDER BY s.schema_type",
	0, {InvalidOid}
};

/* The current row of a registry.subject_versions scan into out (without its fingerprint). */
static void
fill_version(CatalogScan *s, CatalogVersion *out)
{
	bool		isnull;

	memset(out, 0, sizeof(CatalogVersion));
	out->version = catalog_scan_int32(s, Anum_subject_versions_version);
	out->schema_id = catalog_scan_int32(s, Anum_subject_versions_schema_id);
	out->deleted = catalog_scan_bool(s, Anum_subject_versions_deleted);
	out->created_at = DatumGetTimestampTz(catalog_scan_datum(s, Anum_subject_versions_created_at,
															 &isnull));
}

/* Open a scan of a subject's versions, by number. */
static void
subject_versions_open(CatalogScan *s, const char *context, const char *subject)
{
	catalog_scan_open(s, &subject_versions_pkey);
	catalog_scan_text_key(s, Anum_subject_versions_context, context);
	catalog_scan_text_key(s, Anum_subject_versions_subject, subject);
}

/*
 * A subject's versions in ascending order (soft-deleted ones when asked),
 * each with its schema's fingerprint, read in one snapshot as one
 * statement would read them.
 */
CatalogVersion *
catalog_versions(const char *context, const char *subject, bool include_deleted, int *n)
{
	CatalogScan s;
	int			cap = 16;
	CatalogVersion *out = palloc0(sizeof(CatalogVersion) * cap);

	*n = 0;
	subject_versions_open(&s, context, subject);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (!include_deleted && catalog_scan_bool(&s, Anum_subject_versions_deleted))
			continue;
		if (*n + 1 == cap)
		{
			out = repalloc(out, sizeof(CatalogVersion) * cap * 2);
			memset(&out[cap], 0, sizeof(CatalogVersion) * cap);
			cap *= 2;
		}
		fill_version(&s, &out[(*n)++]);
	}
	if (*n > 0)
		catalog_add_fingerprints(context, &s, out, *n);
	catalog_scan_close(&s);
	return out;
}

/*
 * A subject's version numbers in ascending order: the live ones (deleted:
 * also the soft-deleted ones; deleted_only: only those), the soft-deleted
 * ones negative with as_negative; the page from offset, of at most limit
 * (limit <= 0: all), read no further than its end.  *any: whether the
 * subject has a version of those kinds at all.
 */
List *
catalog_version_numbers(const char *context, const char *subject, bool deleted,
						bool deleted_only, bool as_negative, int offset, int limit, bool *any)
{
	CatalogScan s;
	List	   *out = NIL;
	int			index = 0;

	subject_versions_open(&s, context, subject);
	while ((limit <= 0 || index < (int64) offset + limit) &&
		   catalog_scan_next(&s, ForwardScanDirection))
	{
		bool		is_deleted = catalog_scan_bool(&s, Anum_subject_versions_deleted);
		int32		version;

		if (deleted_only ? !is_deleted : (is_deleted && !deleted))
			continue;
		if (index++ < offset)
			continue;
		version = catalog_scan_int32(&s, Anum_subject_versions_version);
		out = lappend_int(out, is_deleted && as_negative ? -version : version);
	}
	catalog_scan_close(&s);
	*any = index > 0;
	return out;
}

/* Open a scan of the context's versions (of any subject) of schema id. */
static void
versions_of_id_open(CatalogScan *s, const char *context, int32 id)
{
	catalog_scan_open(s, &subject_versions_schema_idx);
	catalog_scan_text_key(s, Anum_subject_versions_context, context);
	catalog_scan_key(s, Anum_subject_versions_schema_id, F_INT4EQ, Int32GetDatum(id));
}

/* The current row of a scan as an entry, its strings in cxt. */
static void
fill_entry(CatalogScan *s, MemoryContext cxt, CatalogVersionEntry *out)
{
	out->context = catalog_scan_text(s, Anum_subject_versions_context, cxt);
	out->subject = catalog_scan_text(s, Anum_subject_versions_subject, cxt);
	out->version = catalog_scan_int32(s, Anum_subject_versions_version);
	out->schema_id = catalog_scan_int32(s, Anum_subject_versions_schema_id);
	out->deleted = catalog_scan_bool(s, Anum_subject_versions_deleted);
	out->created_at = catalog_scan_timestamp(s, Anum_subject_versions_created_at);
}

/*
 * The context's versions (of any subject, soft-deleted ones too) of schema
 * id, in no particular order; *n how many.
 */
CatalogVersionEntry *
catalog_versions_of_id(const char *context, int32 id, int *n)
{
	CatalogScan s;
	int			cap = 8;
	CatalogVersionEntry *out = palloc(sizeof(CatalogVersionEntry) * cap);

	*n = 0;
	versions_of_id_open(&s, context, id);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (*n == cap)
			out = repalloc(out, sizeof(CatalogVersionEntry) * (cap *= 2));
		fill_entry(&s, CurrentMemoryContext, &out[(*n)++]);
	}
	catalog_scan_close(&s);
	return out;
}

/*
 * Give visit the rows of an open scan until it returns false (then false)
 * or the scan ends (true), each row in row_cxt, reset for each.
 */
static bool
visit_versions(CatalogScan *s, MemoryContext row_cxt, CatalogVersionVisitor visit, void *arg)
{
	CatalogVersionEntry entry;

	while (catalog_scan_next(s, ForwardScanDirection))
	{
		MemoryContext old;
		bool		more;

		MemoryContextReset(row_cxt);
		old = MemoryContextSwitchTo(row_cxt);
		fill_entry(s, row_cxt, &entry);
		more = visit(&entry, arg);
		MemoryContextSwitchTo(old);
		if (!more)
			return false;
	}
	return true;
}

/*
 * Every subject version (of one context, or of all when context is NULL)
 * in (context, subject, version) order, each given to visit until it
 * returns false; with from_context, from the first version of subject
 * from_subject of from_context on (the subjects before it left unread).
 * visit runs in a memory context reset for each row (the entry's strings
 * live there): what it keeps it allocates elsewhere, and the scan holds
 * the memory of one row at a time, whatever the table's size.
 */
void
catalog_scan_versions_from(const char *context, const char *from_context,
						   const char *from_subject, CatalogVersionVisitor visit, void *arg)
{
	CatalogScan s;
	MemoryContext row_cxt = AllocSetContextCreate(CurrentMemoryContext, "registry version scan",
												  ALLOCSET_SMALL_SIZES);
	bool		more;

	catalog_scan_open(&s, &subject_versions_pkey);
	if (from_context == NULL)
	{
		if (context != NULL)
			catalog_scan_text_key(&s, Anum_subject_versions_context, context);
		(void) visit_versions(&s, row_cxt, visit, arg);
		catalog_scan_close(&s);
		MemoryContextDelete(row_cxt);
		return;
	}
	/* the rest of from_context, then (all contexts) the contexts after it */
	catalog_scan_text_key(&s, Anum_subject_versions_context, from_context);
	catalog_scan_key_op(&s, Anum_subject_versions_subject, BTGreaterEqualStrategyNumber,
						F_TEXT_GE, CStringGetTextDatum(from_subject));
	more = visit_versions(&s, row_cxt, visit, arg);
	catalog_scan_close(&s);
	if (more && context == NULL)
	{
		catalog_scan_open(&s, &subject_versions_pkey);
		catalog_scan_key_op(&s, Anum_subject_versions_context, BTGreaterStrategyNumber,
							F_TEXT_GT, CStringGetTextDatum(from_context));
		(void) visit_versions(&s, row_cxt, visit, arg);
		catalog_scan_close(&s);
	}
	MemoryContextDelete(row_cxt);
}

/*
 * The context's versions (of any subject, soft-deleted ones too) of schema
 * id in (subject, version) order, each given to visit until it returns
 * false, in memory of one row as catalog_scan_versions_from() gives them.
 */
void
catalog_scan_versions_of_id(const char *context, int32 id, CatalogVersionVisitor visit,
							void *arg)
{
	CatalogScan s;
	MemoryContext row_cxt = AllocSetContextCreate(CurrentMemoryContext, "registry version scan",
												  ALLOCSET_SMALL_SIZES);

	versions_of_id_open(&s, context, id);
	(void) visit_versions(&s, row_cxt, visit, arg);
	catalog_scan_close(&s);
	MemoryContextDelete(row_cxt);
}

/* Every subject version: catalog_scan_versions_from() from the start. */
void
catalog_scan_versions(const char *context, CatalogVersionVisitor visit, void *arg)
{
	catalog_scan_versions_from(context, NULL, NULL, visit, arg);
}

/*
 * The subjects that have versions, in (context, subject) order, each with
 * how many live and soft-deleted versions it has, in cxt: one scan of the
 * table's primary key that copies a subject's names once, not per row.
 * NULL once there are more than max subjects.
 */
CatalogSubjectCount *
catalog_count_subject_versions(MemoryContext cxt, int max, int *n)
{
	CatalogScan s;
	int			cap = 1024;
	CatalogSubjectCount *out = MemoryContextAlloc(cxt, sizeof(CatalogSubjectCount) * cap);
	CatalogSubjectCount *cur = NULL;

	*n = 0;
	catalog_scan_open(&s, &subject_versions_pkey);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (cur == NULL || !catalog_scan_text_is(&s, Anum_subject_versions_subject, cur->subject) ||
			!catalog_scan_text_is(&s, Anum_subject_versions_context, cur->context))
		{
			if (*n == max)
			{
				catalog_scan_close(&s);
				return NULL;
			}
			if (*n == cap)
				out = repalloc(out, sizeof(CatalogSubjectCount) * (cap *= 2));
			cur = &out[(*n)++];
			/* most subjects share their context's name with the one before */
			if (*n > 1 && catalog_scan_text_is(&s, Anum_subject_versions_context, cur[-1].context))
				cur->context = cur[-1].context;
			else
				cur->context = catalog_scan_text(&s, Anum_subject_versions_context, cxt);
			cur->subject = catalog_scan_text(&s, Anum_subject_versions_subject, cxt);
			cur->live = 0;
			cur->deleted = 0;
		}
		if (catalog_scan_bool(&s, Anum_subject_versions_deleted))
			cur->deleted++;
		else
			cur->live++;
	}
	catalog_scan_close(&s);
	return out;
}

/*
 * Does each change of registry.subject_versions move the subject
 * generation (its row and TRUNCATE triggers, enabled ALWAYS, in place)?
 * The table's oid into *relid.
 */
bool
catalog_versions_announced(Oid *relid)
{
	Relation	rel = catalog_open_table(&subject_versions_table);
	bool		announced;

	*relid = RelationGetRelid(rel);
	announced = catalog_has_always_trigger(rel, "versions_after_write",
										   TRIGGER_TYPE_ROW | TRIGGER_TYPE_INSERT |
										   TRIGGER_TYPE_UPDATE | TRIGGER_TYPE_DELETE) &&
		catalog_has_always_trigger(rel, "versions_after_truncate", TRIGGER_TYPE_TRUNCATE);
	table_close(rel, NoLock);
	return announced;
}

/*
 * Take the scan's current version into out if it is better than the one
 * there (found: there is one): live ones first, then the highest number;
 * soft-deleted ones only when include_deleted.  Whether out holds one now.
 */
static bool
pick_version(CatalogScan *s, bool include_deleted, bool found, CatalogVersion *out)
{
	CatalogVersion v;

	fill_version(s, &v);
	if (v.deleted && !include_deleted)
		return found;
	if (!found || (out->deleted && !v.deleted) ||
		(out->deleted == v.deleted && v.version > out->version))
		*out = v;
	return true;
}

/*
 * The subject's best version of schema id (pick_version's) into out: false
 * when it has none.  Its fingerprint is not read.
 */
bool
catalog_subject_version_of_schema(const char *context, const char *subject, int32 id,
								  bool include_deleted, CatalogVersion *out)
{
	CatalogScan s;
	bool		found = false;

	versions_of_id_open(&s, context, id);
	while (catalog_scan_next(&s, ForwardScanDirection))
		if (catalog_scan_text_is(&s, Anum_subject_versions_subject, subject))
			found = pick_version(&s, include_deleted, found, out);
	catalog_scan_close(&s);
	return found;
}

/*
 * Is the text_key index there to be read (a catalog updated to 0.8), its
 * key column found?  Looked up again after any invalidation of it; the
 * table is locked first (the lock takes in the invalidations), so an index
 * dropped meanwhile is seen here, not when the scan opens it.
 */
static bool
text_key_index_ready(void)
{
	CatalogIndex *ix = &subject_versions_text_key_idx;
	Relation	rel;
	TupleDesc	desc;

	if (OidIsValid(ix->table->relid))
		LockRelationOid(ix->table->relid, AccessShareLock);
	if (OidIsValid(ix->relid))
		return true;
	if (!OidIsValid(get_relname_relid(ix->name, get_namespace_oid("registry", false))))
		return false;
	rel = catalog_open_table(ix->table);
	desc = RelationGetDescr(rel);
	ix->keys[0] = InvalidAttrNumber;
	for (int i = Natts_subject_versions; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && att->atttypid == BYTEAOID &&
			strcmp(NameStr(att->attname), "text_key") == 0)
			ix->keys[0] = att->attnum;
	}
	table_close(rel, NoLock);
	return ix->keys[0] != InvalidAttrNumber;
}

/*
 * The subject's best version (pick_version's) whose row carries this key
 * of its schema's exact text, into out (its fingerprint not read): false
 * when it has none, or the catalog has no such key (before 0.8).
 */
bool
catalog_version_by_text_key(const char *context, const char *subject, const uint8 *key,
							int keylen, bool include_deleted, CatalogVersion *out)
{
	CatalogScan s;
	bool		found = false;

	if (!text_key_index_ready())
		return false;
	catalog_scan_open(&s, &subject_versions_text_key_idx);
	catalog_scan_key(&s, subject_versions_text_key_idx.keys[0], F_BYTEAEQ,
					 catalog_bytes_datum(key, keylen));
	catalog_scan_text_key(&s, Anum_subject_versions_context, context);
	catalog_scan_text_key(&s, Anum_subject_versions_subject, subject);
	while (catalog_scan_next(&s, ForwardScanDirection))
		found = pick_version(&s, include_deleted, found, out);
	catalog_scan_close(&s);
	return found;
}

/*
 * A backward scan of a subject's versions reads a whole index page (some
 * 250 versions) before it answers the newest, so the newest number this
 * backend last saw for a subject bounds the next scan from below.  It is
 * only a hint, in a small direct-mapped table: a scan from it that finds
 * no live version is done again from the start.
 */
#define VERSION_HINTS 256

typedef struct VersionHint
{
	char	   *context;		/* in TopMemoryContext; NULL: a free slot */
	char	   *subject;
	int32		version;
} VersionHint;

static VersionHint version_hints[VERSION_HINTS];

/* The hint slot of a subject (another subject's when they collide). */
static VersionHint *
version_hint(const char *context, const char *subject)
{
	uint32		h = hash_combine(hash_bytes((const unsigned char *) context, strlen(context)),
								 hash_bytes((const unsigned char *) subject, strlen(subject)));

	return &version_hints[h % VERSION_HINTS];
}

/* The subject's hint, 0 when its slot holds another subject. */
static int32
hinted_version(const char *context, const char *subject)
{
	VersionHint *hint = version_hint(context, subject);

	if (hint->context == NULL || strcmp(hint->context, context) != 0 ||
		strcmp(hint->subject, subject) != 0)
		return 0;
	return hint->version;
}

/* Remember the subject's newest version number, for the backend's life. */
static void
remember_version(const char *context, const char *subject, int32 version)
{
	VersionHint *hint = version_hint(context, subject);

	if (hint->context == NULL || strcmp(hint->context, context) != 0 ||
		strcmp(hint->subject, subject) != 0)
	{
		/* both copied before the slot changes: an error leaves it whole */
		char	   *c = MemoryContextStrdup(TopMemoryContext, context);
		char	   *sub = MemoryContextStrdup(TopMemoryContext, subject);

		if (hint->context != NULL)
		{
			pfree(hint->context);
			pfree(hint->subject);
		}
		hint->context = c;
		hint->subject = sub;
	}
	hint->version = version;
}

/*
 * The subject's versions numbered from on (all when 0), newest first: the
 * highest number (0 when none) and the newest version into *latest
 * (version 0 when none), the newest live one unless with_deleted.
 */
static int32
scan_newest(const char *context, const char *subject, int32 from, bool with_deleted,
			CatalogVersion *latest)
{
	CatalogScan s;
	int32		max_version = 0;

	memset(latest, 0, sizeof(CatalogVersion));
	subject_versions_open(&s, context, subject);
	if (from > 0)
		catalog_scan_key_op(&s, Anum_subject_versions_version, BTGreaterEqualStrategyNumber,
							F_INT4GE, Int32GetDatum(from));
	while (catalog_scan_next(&s, BackwardScanDirection))
	{
		if (max_version == 0)
			max_version = catalog_scan_int32(&s, Anum_subject_versions_version);
		if (with_deleted || !catalog_scan_bool(&s, Anum_subject_versions_deleted))
		{
			fill_version(&s, latest);
			break;
		}
	}
	catalog_scan_close(&s);
	return max_version;
}

/*
 * The subject's highest version number (soft-deleted ones count; 0 when it
 * has none) and its newest version into *latest (version 0 when none; the
 * newest live one unless with_deleted; without its fingerprint, which the
 * callers that need it read): one scan, from the number last seen when it
 * can.
 */
static int32
subject_max_and_latest(const char *context, const char *subject, bool with_deleted,
					   CatalogVersion *latest)
{
	int32		from = hinted_version(context, subject);
	int32		max_version = scan_newest(context, subject, from, with_deleted, latest);

	if (from > 0 && latest->version == 0)
		max_version = scan_newest(context, subject, 0, with_deleted, latest);
	if (max_version > 0)
		remember_version(context, subject, max_version);
	return max_version;
}

/* The subject's highest version number, read after its row was locked. */
int32
catalog_max_version(const char *context, const char *subject)
{
	CatalogVersion latest;

	return subject_max_and_latest(context, subject, false, &latest);
}

/*
 * The subject's highest version number and the schema row of its latest
 * live version into *latest (strings in the caller's context), *has_latest
 * false when it has no live version.
 */
int32
catalog_max_version_latest(const char *context, const char *subject, CatalogSchema *latest,
						   bool *has_latest)
{
	CatalogVersion v;
	int32		max_version = subject_max_and_latest(context, subject, false, &v);

	*has_latest = v.version > 0 &&
		catalog_schema_by_id(context, v.schema_id, CurrentMemoryContext, latest);
	return max_version;
}

/* The latest live version of a subject, if it has one. */
bool
catalog_latest_version(const char *context, const char *subject, CatalogVersion *out)
{
	(void) subject_max_and_latest(context, subject, false, out);
	if (out->version == 0)
		return false;
	catalog_schema_fingerprint(context, out->schema_id, out->fingerprint);
	return true;
}

/* The schema row of a subject's latest live version, if it has one. */
bool
catalog_latest_schema(const char *context, const char *subject, CatalogSchema *out)
{
	bool		has_latest;

	(void) catalog_max_version_latest(context, subject, out, &has_latest);
	return has_latest;
}

/*
 * Version number version of a subject, if it has it (soft-deleted ones
 * when asked), without its fingerprint.
 */
static bool
version_by_number(const char *context, const char *subject, int32 version,
				  bool include_deleted, CatalogVersion *out)
{
	CatalogScan s;
	bool		found = false;

	subject_versions_open(&s, context, subject);
	catalog_scan_key(&s, Anum_subject_versions_version, F_INT4EQ, Int32GetDatum(version));
	if (catalog_scan_next(&s, ForwardScanDirection))
	{
		fill_version(&s, out);
		found = include_deleted || !out->deleted;
	}
	catalog_scan_close(&s);
	return found;
}

/* One version of a subject, if it has it (soft-deleted ones when asked). */
bool
catalog_get_version(const char *context, const char *subject, int32 version,
					bool include_deleted, CatalogVersion *out)
{
	bool		found = version_by_number(context, subject, version, include_deleted, out);

	if (found)
		catalog_schema_fingerprint(context, out->schema_id, out->fingerprint);
	return found;
}

/*
 * The version a read names, without its fingerprint, and its registration
 * time: number version, or for -1 the newest (the newest live one unless
 * include_deleted).  False when the subject lacks it.
 */
bool
catalog_read_version(const char *context, const char *subject, int32 version,
					 bool include_deleted, CatalogVersion *out, TimestampTz *created_at)
{
	bool		found;

	if (version == -1)
	{
		(void) subject_max_and_latest(context, subject, include_deleted, out);
		found = out->version != 0;
	}
	else
		found = version_by_number(context, subject, version, include_deleted, out);
	if (found && created_at != NULL)
		*created_at = out->created_at;
	return found;
}

/* Does the subject have a version (soft-deleted ones counting when asked)? */
bool
catalog_subject_has_versions(const char *context, const char *subject, bool include_deleted)
{
	CatalogScan s;
	bool		has = false;

	subject_versions_open(&s, context, subject);
	while (!has && catalog_scan_next(&s, ForwardScanDirection))
		has = include_deleted || !catalog_scan_bool(&s, Anum_subject_versions_deleted);
	catalog_scan_close(&s);
	return has;
}

/* Whether the subject has live versions (*live) and soft-deleted ones (*deleted). */
void
catalog_subject_version_kinds(const char *context, const char *subject, bool *live,
							  bool *deleted)
{
	CatalogScan s;

	*live = false;
	*deleted = false;
	subject_versions_open(&s, context, subject);
	while (!(*live && *deleted) && catalog_scan_next(&s, ForwardScanDirection))
	{
		if (catalog_scan_bool(&s, Anum_subject_versions_deleted))
			*deleted = true;
		else
			*live = true;
	}
	catalog_scan_close(&s);
}

/* The subject's version of the schema with this identity (live ones first). */
bool
catalog_find_version_by_fingerprint(const char *context, const char *subject,
									const uint8 *fingerprint, bool include_deleted,
									CatalogVersion *out)
{
	(void) catalog_find_schema_in_subject(context, subject, fingerprint, include_deleted, out);
	return out->version > 0;
}

/*
 * One lookup for registration: the id of the schema with this identity in
 * the context (0 if none) and, in *version, the subject's version of it
 * (version 0 if the subject has none).
 */
int32
catalog_find_schema_in_subject(const char *context, const char *subject,
							   const uint8 *fingerprint, bool include_deleted,
							   CatalogVersion *version)
{
	int32		id = catalog_schema_id_by_fingerprint(context, fingerprint);

	memset(version, 0, sizeof(CatalogVersion));
	if (id != 0 && catalog_subject_version_of_schema(context, subject, id, include_deleted, version))
		memcpy(version->fingerprint, fingerprint, REGISTRY_FINGERPRINT_LEN);
	return id;
}

/* --- versions of schemas with the same text ------------------------------------ */

/* newest first */
static int
version_row_cmp(const void *a, const void *b)
{
	const CatalogVersionRow *x = a;
	const CatalogVersionRow *y = b;

	if (x->version.version == y->version.version)
		return 0;
	return x->version.version < y->version.version ? 1 : -1;
}

/* Append the subject's versions of schema c (soft-deleted ones when asked) to rows. */
static void
add_versions_of(const char *context, const char *subject, bool include_deleted,
				const CatalogSameText *c, CatalogVersionRow **rows, int *n, int *cap)
{
	CatalogScan s;
	CatalogVersionRow *row;

	versions_of_id_open(&s, context, c->id);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (!catalog_scan_text_is(&s, Anum_subject_versions_subject, subject) ||
			(!include_deleted && catalog_scan_bool(&s, Anum_subject_versions_deleted)))
			continue;
		if (*n == *cap)
			*rows = repalloc(*rows, sizeof(CatalogVersionRow) * (*cap *= 2));
		row = &(*rows)[(*n)++];
		fill_version(&s, &row->version);
		memcpy(row->version.fingerprint, c->fingerprint, REGISTRY_FINGERPRINT_LEN);
		row->refs = c->refs;
		row->metadata = c->metadata;
		row->rule_set = c->rule_set;
	}
	catalog_scan_close(&s);
}

/*
 * The versions of a subject (newest first; soft-deleted ones when asked)
 * whose schema has this type and stored text, with their references,
 * metadata and rule set: of those with neither metadata nor a rule set,
 * only the versions of plain_fingerprint (the identity of the text with
 * the caller's references alone), none when it is NULL.
 */
CatalogVersionRow *
catalog_versions_of_schema(const char *context, const char *subject, bool include_deleted,
						   const char *schema_type, const char *schema,
						   const uint8 *plain_fingerprint, int *n)
{
	int			n_same;
	CatalogSameText *same = catalog_schemas_with_text(context, schema_type, schema,
													  plain_fingerprint, &n_same);
	int			cap = 4;
	CatalogVersionRow *rows = palloc0(sizeof(CatalogVersionRow) * cap);

	*n = 0;
	for (int i = 0; i < n_same; i++)
		add_versions_of(context, subject, include_deleted, &same[i], &rows, n, &cap);
	if (*n > 1)
		qsort(rows, *n, sizeof(CatalogVersionRow), version_row_cmp);
	return rows;
}

/* --- the live versions in a scope ------------------------------------------------ */

/* Is there a live version in a read of the whole table (the global scope)? */
static bool
any_live_version(void)
{
	Relation	rel = catalog_open_table(&subject_versions_table);
	Snapshot	snapshot = catalog_read_snapshot();
	SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, snapshot, 0, NULL);
	HeapTuple	tup;
	bool		has = false;

	while (!has && (tup = systable_getnext(scan)) != NULL)
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, Anum_subject_versions_deleted,
									 RelationGetDescr(rel), &isnull);

		CHECK_FOR_INTERRUPTS();
		has = !isnull && !DatumGetBool(d);
	}
	systable_endscan(scan);
	UnregisterSnapshot(snapshot);
	table_close(rel, NoLock);
	return has;
}

/*
 * Does the scope of a mode hold a live subject version: any subject for
 * the global scope (".", ""), the context's for a context (subject ""),
 * the subject's own for a subject?  context or subject may be NULL (a raw
 * INSERT), which matches nothing, as SQL compares NULL.
 */
bool
catalog_scope_has_live_versions(const char *context, const char *subject)
{
	CatalogScan s;
	bool		has = false;

	if (context == NULL || subject == NULL)
		return false;
	if (strcmp(context, ".") == 0 && subject[0] == '\0')
		return any_live_version();
	catalog_scan_open(&s, &subject_versions_pkey);
	catalog_scan_text_key(&s, Anum_subject_versions_context, context);
	if (subject[0] != '\0')
		catalog_scan_text_key(&s, Anum_subject_versions_subject, subject);
	while (!has && catalog_scan_next(&s, ForwardScanDirection))
		has = !catalog_scan_bool(&s, Anum_subject_versions_deleted);
	catalog_scan_close(&s);
	return has;
}

/* Insert the row of a subject's version (its trigger checks the rules). */
void
catalog_insert_version(const char *context, const char *subject,
					   int32 version, int32 schema_id)
{
	Datum		v[4];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	v[2] = Int32GetDatum(version);
	v[3] = Int32GetDatum(schema_id);
	catalog_run(&plan_insert_version, v, NULL, SPI_OK_INSERT);
	catalog_disconnect();
}

/* Subject versions per schema type (live and soft-deleted), for GET /metrics. */
CatalogTypeCount *
catalog_schema_type_counts(int *n)
{
	MemoryContext caller = catalog_connect();
	CatalogTypeCount *out;
	uint64		i;

	catalog_run(&plan_type_counts, NULL, NULL, SPI_OK_SELECT);
	*n = (int) SPI_processed;
	out = MemoryContextAllocZero(caller, sizeof(CatalogTypeCount) * (SPI_processed + 1));
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;

		out[i].schema_type = catalog_text(tup, 1, caller);
		out[i].versions = DatumGetInt64(catalog_datum(tup, 2, &isnull));
		out[i].deleted = DatumGetInt64(catalog_datum(tup, 3, &isnull));
	}
	catalog_disconnect();
	return out;
}
