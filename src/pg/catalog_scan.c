/*-------------------------------------------------------------------------
 *
 * catalog_scan.c
 *	  The catalog's point reads as direct B-tree scans of the registry's
 *	  tables, the way PostgreSQL reads its own catalogs, instead of SQL
 *	  statements: a registration reads its settings, its subject and the
 *	  submitted schema a dozen times, and each read is one or two index
 *	  probes that cost a few microseconds, where an SPI statement costs
 *	  tens in executor start-up and shutdown alone.
 *
 *	  Each scan behaves as the statement it replaces: it takes a new
 *	  snapshot after a command counter increment (as SPI does for a
 *	  statement that may write), locks the table and index in
 *	  AccessShareLock until the end of the transaction, and checks the
 *	  current role's SELECT privilege on the table.  Row-level security
 *	  would need the planner, so a table with it enabled is refused rather
 *	  than read past its policies.  The subject's row lock is taken here
 *	  too, as SELECT ... FOR UPDATE takes it; the writes stay SQL
 *	  (catalog.c): they fire the tables' triggers and constraints.  The
 *	  reads of the settings and contexts use these scans from
 *	  catalog_scopes.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_index.h"
#include "common/md5.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "common/hashfn.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "registry.h"

/* --- opening, keys, rows ---------------------------------------------------- */

/*
 * The oids of registry.<name> this backend has looked up, with the index
 * whose key columns were checked under that name: two syscache probes and a key check
 * per scan saved.  Forgotten at any relcache or namespace invalidation (a
 * table or index dropped, renamed, altered or made again, the schema
 * renamed), so an entry never outlives what it names.
 */
typedef struct RelidEntry
{
	const char *name;			/* a string literal of this file */
	Oid			relid;
	Oid			keys_checked;	/* the index whose key columns were checked */
} RelidEntry;

#define RELID_CACHE_SIZE 16

static RelidEntry relid_cache[RELID_CACHE_SIZE];
static int	relid_cache_n = 0;
static bool relid_callbacks_registered = false;

/* Forget every cached oid (a relcache invalidation callback). */
static void
forget_relids(Datum arg, Oid relid)
{
	relid_cache_n = 0;
}

/* Forget every cached oid (a syscache invalidation callback). */
static void
forget_relids_namespace(Datum arg, int cacheid, uint32 hashvalue)
{
	relid_cache_n = 0;
}

/* The cache entry of registry.<name>, looked up and added when missing. */
static RelidEntry *
relid_entry(const char *name)
{
	Oid			nsp;
	Oid			relid;

	for (int i = 0; i < relid_cache_n; i++)
		if (strcmp(relid_cache[i].name, name) == 0)
			return &relid_cache[i];
	if (!relid_callbacks_registered)
	{
		CacheRegisterRelcacheCallback(forget_relids, (Datum) 0);
		CacheRegisterSyscacheCallback(NAMESPACEOID, forget_relids_namespace, (Datum) 0);
		relid_callbacks_registered = true;
	}
	nsp = get_namespace_oid("registry", false);
	relid = get_relname_relid(name, nsp);
	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"registry.%s\" does not exist", name)));
	if (relid_cache_n == RELID_CACHE_SIZE)
		relid_cache_n = 0;
	relid_cache[relid_cache_n].name = name;
	relid_cache[relid_cache_n].relid = relid;
	relid_cache[relid_cache_n].keys_checked = InvalidOid;
	return &relid_cache[relid_cache_n++];
}

/* The oid of registry.<name>, a table or an index of the extension. */
static Oid
registry_relid(const char *name)
{
	return relid_entry(name)->relid;
}

/*
 * Open registry.<name> for reading as a SELECT would: its lock, the
 * current role's privilege, and no row-level security to bypass.
 */
Relation
catalog_open_table(const char *name)
{
	Relation	rel = table_open(registry_relid(name), AccessShareLock);
	AclResult	acl = pg_class_aclcheck(RelationGetRelid(rel), GetUserId(), ACL_SELECT);

	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_TABLE, name);
	if (check_enable_rls(RelationGetRelid(rel), InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("row-level security on registry.%s is not supported", name),
				 errdetail("The registry reads its tables as PostgreSQL reads its catalogs.")));
	return rel;
}

/*
 * The leading key columns of the indexes the scans use, as the extension's
 * scripts create them (NULL: the expression md5(schema)), and the columns
 * a partial index may keep the rows of ("a IS NOT NULL OR b IS NOT NULL").
 */
typedef struct IndexKeys
{
	const char *index;
	const char *cols[3];
	const char *not_null[2];
} IndexKeys;

static const IndexKeys index_keys[] = {
	{"schemas_pkey", {"context", "id"}},
	{"schemas_fingerprint_context_key", {"fingerprint", "context"}},
	{"schemas_text_idx", {NULL, "context"}, {"metadata", "rule_set"}},
	{"subject_versions_pkey", {"context", "subject", "version"}},
	{"subject_versions_schema_idx", {"context", "schema_id"}},
	{"config_pkey", {"context", "subject"}},
	{"modes_pkey", {"context", "subject"}},
	{"contexts_pkey", {"context"}},
	{"subjects_pkey", {"context", "subject"}},
};

/* Is expr "col IS NOT NULL" on the open table? */
static bool
is_not_null_test(CatalogScan *s, Node *expr, const char *col)
{
	NullTest   *test = (NullTest *) expr;

	return IsA(expr, NullTest) && test->nulltesttype == IS_NOT_NULL && !test->argisrow &&
		IsA(test->arg, Var) &&
		((Var *) test->arg)->varattno == get_attnum(RelationGetRelid(s->heap), col);
}

/*
 * Does the open index keep every row, or (not_null given) either every row
 * or just those where one of the two columns is not null, as the script
 * writes it?
 */
static bool
index_predicate_ok(CatalogScan *s, const char *const *not_null)
{
	List	   *pred = RelationGetIndexPredicate(s->index);
	BoolExpr   *or;

	if (pred == NIL)
		return true;
	if (not_null[0] == NULL || list_length(pred) != 1 || !is_orclause(linitial(pred)))
		return false;
	or = linitial_node(BoolExpr, pred);
	return list_length(or->args) == 2 &&
		is_not_null_test(s, linitial(or->args), not_null[0]) &&
		is_not_null_test(s, lsecond(or->args), not_null[1]);
}

/*
 * Refuse an index that is not on the table, whose key columns are not the
 * ones the scans give keys for or that leaves out rows the scans expect
 * (an index dropped and made again by hand under the same name, say): its
 * answers would be wrong.
 */
static void
check_index_keys(CatalogScan *s, const char *table, const char *index)
{
	RelidEntry *entry = relid_entry(index);
	Form_pg_index form = s->index->rd_index;
	bool		ok = form->indrelid == RelationGetRelid(s->heap) && form->indisvalid;
	bool		known = false;

	if (entry->keys_checked == RelationGetRelid(s->index))
		return;

	for (int i = 0; ok && i < lengthof(index_keys); i++)
	{
		if (strcmp(index_keys[i].index, index) != 0)
			continue;
		known = true;
		for (int k = 0; ok && k < 3 && (k == 0 || index_keys[i].cols[k] != NULL); k++)
		{
			const char *col = index_keys[i].cols[k];
			AttrNumber	want = col ? get_attnum(RelationGetRelid(s->heap), col) : 0;

			ok = k < form->indnkeyatts && form->indkey.values[k] == want;
		}
		ok = ok && index_predicate_ok(s, index_keys[i].not_null);
	}
	if (!ok || !known)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("index registry.%s is not the registry's index on registry.%s", index, table),
				 errhint("Make it again as the extension's script does, or reinstall the extension.")));

	/*
	 * the open index's oid: a lookup again after an invalidation may name
	 * another
	 */
	entry->keys_checked = RelationGetRelid(s->index);
}

/* Open table with its index for a scan, with no keys yet. */
void
catalog_scan_open(CatalogScan *s, const char *table, const char *index)
{
	memset(s, 0, sizeof(CatalogScan));
	s->heap = catalog_open_table(table);
	s->index = index_open(registry_relid(index), AccessShareLock);
	check_index_keys(s, table, index);
}

/* Add "index column col <op> value" (strategy and proc: the B-tree operator's). */
static void
scan_key_op(CatalogScan *s, int col, StrategyNumber strategy, RegProcedure proc, Datum value)
{
	Assert(s->nkeys < SCAN_MAX_KEYS && (s->scan == NULL || s->rekeyed));
	ScanKeyEntryInitialize(&s->keys[s->nkeys++], 0, col, strategy, InvalidOid,
						   s->index->rd_indcollation[col - 1], proc, value);
}

/* Add "index column col = value" (proc: the type's equality function). */
static void
scan_key(CatalogScan *s, int col, RegProcedure proc, Datum value)
{
	scan_key_op(s, col, BTEqualStrategyNumber, proc, value);
}

/* Add a text key. */
void
catalog_scan_text_key(CatalogScan *s, int col, const char *value)
{
	scan_key(s, col, F_TEXTEQ, CStringGetTextDatum(value));
}

/*
 * Drop the scan's keys for as many new ones, to be probed in the same
 * snapshot: one read of several rows (the scopes of a subject's settings)
 * opens its table once and sees one state of it.
 */
void
catalog_scan_rekey(CatalogScan *s)
{
	s->nkeys = 0;
	s->rekeyed = true;
}

/*
 * The next row of the scan in direction dir, false at its end; the first
 * call takes the snapshot and starts the scan, the first after
 * catalog_scan_rekey() starts it again with the new keys.
 */
bool
catalog_scan_next(CatalogScan *s, ScanDirection dir)
{
	if (s->scan == NULL)
	{
		if (s->snapshot == NULL)
		{
			CommandCounterIncrement();
			s->snapshot = RegisterSnapshot(GetTransactionSnapshot());
		}
		s->scan = index_beginscan(s->heap, s->index, s->snapshot, s->nkeys, 0);
		index_rescan(s->scan, s->keys, s->nkeys, NULL, 0);
		if (s->slot == NULL)
			s->slot = table_slot_create(s->heap, NULL);
	}
	else if (s->rekeyed)
	{
		/* a B-tree scan keeps room for as many keys as it began with */
		if (s->nkeys != s->scan->numberOfKeys)
			elog(ERROR, "a scan of %s re-keyed with %d keys instead of %d",
				 RelationGetRelationName(s->index), s->nkeys, s->scan->numberOfKeys);
		index_rescan(s->scan, s->keys, s->nkeys, NULL, 0);
	}
	s->rekeyed = false;
	CHECK_FOR_INTERRUPTS();
	return index_getnext_slot(s->scan, dir, s->slot);
}

/*
 * Make a scan not yet started read in the snapshot another scan read in,
 * so that two tables are seen in one state, as one statement sees them.
 */
static void
scan_share_snapshot(CatalogScan *s, const CatalogScan *from)
{
	Assert(s->scan == NULL && s->snapshot == NULL && from->snapshot != NULL);
	s->snapshot = RegisterSnapshot(from->snapshot);
}

/*
 * Make the row at tid the scan's current row if the scan's snapshot sees
 * it (a scan in a shared snapshot: scan_share_snapshot); false when tid
 * is past the table's nblocks or names no row the snapshot sees.
 */
static bool
scan_fetch_tid(CatalogScan *s, ItemPointer tid, BlockNumber nblocks)
{
	Assert(s->snapshot != NULL);
	if (!ItemPointerIsValid(tid) || ItemPointerGetBlockNumber(tid) >= nblocks)
		return false;
	if (s->slot == NULL)
		s->slot = table_slot_create(s->heap, NULL);
	CHECK_FOR_INTERRUPTS();
	return table_tuple_fetch_row_version(s->heap, tid, s->snapshot, s->slot);
}

/* End the scan; the locks stay until the end of the transaction. */
void
catalog_scan_close(CatalogScan *s)
{
	if (s->scan != NULL)
		index_endscan(s->scan);
	if (s->slot != NULL)
		ExecDropSingleTupleTableSlot(s->slot);
	if (s->snapshot != NULL)
		UnregisterSnapshot(s->snapshot);
	index_close(s->index, NoLock);
	table_close(s->heap, NoLock);
}

/*
 * A column of the scan's current row, by name: found in the open table's
 * descriptor (a few string comparisons, where a syscache probe hashes).
 */
Datum
catalog_scan_datum(CatalogScan *s, const char *name, bool *isnull)
{
	TupleDesc	desc = RelationGetDescr(s->heap);

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
			return slot_getattr(s->slot, att->attnum, isnull);
	}
	elog(ERROR, "column \"%s\" of \"%s\" does not exist", name,
		 RelationGetRelationName(s->heap));
	pg_unreachable();
}

/* A text column of the current row, copied into cxt; NULL for NULL. */
char *
catalog_scan_text(CatalogScan *s, const char *name, MemoryContext cxt)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, name, &isnull);

	return catalog_datum_text(d, isnull, cxt);
}

/* A jsonb column of the current row as jsonb's text form, in cxt; NULL for NULL. */
char *
catalog_scan_jsonb_text(CatalogScan *s, const char *name, MemoryContext cxt)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, name, &isnull);
	MemoryContext old;
	Jsonb	   *jb;
	char	   *str;

	if (isnull)
		return NULL;
	old = MemoryContextSwitchTo(cxt);
	jb = DatumGetJsonbP(d);
	str = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
	MemoryContextSwitchTo(old);
	return str;
}

/* An integer column of the current row; 0 for NULL. */
static int32
col_int32(CatalogScan *s, const char *name)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, name, &isnull);

	return isnull ? 0 : DatumGetInt32(d);
}

/* A boolean column of the current row; false for NULL. */
static bool
col_bool(CatalogScan *s, const char *name)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, name, &isnull);

	return !isnull && DatumGetBool(d);
}

/* Does the text column of the current row equal value? */
static bool
col_text_is(CatalogScan *s, const char *name, const char *value)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, name, &isnull);
	text	   *t;

	if (isnull)
		return false;
	t = DatumGetTextPP(d);
	return VARSIZE_ANY_EXHDR(t) == strlen(value) &&
		memcmp(VARDATA_ANY(t), value, VARSIZE_ANY_EXHDR(t)) == 0;
}

/* The fingerprint column of the current row, into out. */
static void
col_fingerprint(CatalogScan *s, uint8 *out)
{
	bool		isnull;
	bytea	   *b = DatumGetByteaPP(catalog_scan_datum(s, "fingerprint", &isnull));

	if (isnull || VARSIZE_ANY_EXHDR(b) != REGISTRY_FINGERPRINT_LEN)
		elog(ERROR, "unexpected fingerprint in registry.schemas");
	memcpy(out, VARDATA_ANY(b), REGISTRY_FINGERPRINT_LEN);
}

/* --- schemas ------------------------------------------------------------------ */

/* The current row of a registry.schemas scan into out, its strings in cxt. */
static void
fill_schema(CatalogScan *s, MemoryContext cxt, CatalogSchema *out)
{
	out->context = catalog_scan_text(s, "context", cxt);
	out->id = col_int32(s, "id");
	out->schema_type = catalog_scan_text(s, "schema_type", cxt);
	out->schema = catalog_scan_text(s, "schema", cxt);
	out->refs = catalog_scan_jsonb_text(s, "refs", cxt);
	out->metadata = catalog_scan_jsonb_text(s, "metadata", cxt);
	out->rule_set = catalog_scan_jsonb_text(s, "rule_set", cxt);
	col_fingerprint(s, out->fingerprint);
}

/* Open a scan of the schema row (context, id). */
static void
schema_open(CatalogScan *s, const char *context, int32 id)
{
	catalog_scan_open(s, "schemas", "schemas_pkey");
	catalog_scan_text_key(s, 1, context);
	scan_key(s, 2, F_INT4EQ, Int32GetDatum(id));
}

/* The schema row (context, id) into out (NULL: only found or not), its strings in cxt. */
static bool
schema_by_id(const char *context, int32 id, MemoryContext cxt, CatalogSchema *out)
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

/* The fingerprint of the schema (context, id). */
static void
schema_fingerprint(const char *context, int32 id, uint8 *out)
{
	CatalogScan s;

	schema_open(&s, context, id);
	if (!catalog_scan_next(&s, ForwardScanDirection))
		elog(ERROR, "schema %d of context \"%s\" is missing", id, context);
	col_fingerprint(&s, out);
	catalog_scan_close(&s);
}

/* The id of the schema with this identity in the context, 0 when none. */
static int32
schema_id_by_fingerprint(const char *context, const uint8 *fingerprint)
{
	CatalogScan s;
	int32		id = 0;

	catalog_scan_open(&s, "schemas", "schemas_fingerprint_context_key");
	scan_key(&s, 1, F_BYTEAEQ, catalog_fingerprint_datum(fingerprint));
	catalog_scan_text_key(&s, 2, context);
	if (catalog_scan_next(&s, ForwardScanDirection))
		id = col_int32(&s, "id");
	catalog_scan_close(&s);
	return id;
}

/* The schema row (context, id), if there is one. */
bool
catalog_get_schema(const char *context, int32 id, CatalogSchema *out)
{
	return schema_by_id(context, id, CurrentMemoryContext, out);
}

/* --- versions ----------------------------------------------------------------- */

/* The current row of a registry.subject_versions scan into out (without its fingerprint). */
static void
fill_version(CatalogScan *s, CatalogVersion *out)
{
	memset(out, 0, sizeof(CatalogVersion));
	out->version = col_int32(s, "version");
	out->schema_id = col_int32(s, "schema_id");
	out->deleted = col_bool(s, "deleted");
}

/* Open a scan of a subject's versions, by number. */
static void
subject_versions_open(CatalogScan *s, const char *context, const char *subject)
{
	catalog_scan_open(s, "subject_versions", "subject_versions_pkey");
	catalog_scan_text_key(s, 1, context);
	catalog_scan_text_key(s, 2, subject);
}

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
		scan_fetch_tid(s, &hint->tid, nblocks) &&
		col_int32(s, "id") == id && col_text_is(s, "context", context);
}

/*
 * The fingerprints of the versions' schemas, read in the snapshot the
 * versions were read in (a schema a version names exists in it): each at
 * its hinted place, else by a probe of the schemas' primary key (one scan
 * re-keyed for each id), whose row's place becomes the hint.  A hinted
 * fetch reads one heap page; a probe also descends the index, which cost
 * about as much as the rest of a transitive check over 1,000 versions.
 */
static void
add_fingerprints(const char *context, const CatalogScan *versions_scan,
				 CatalogVersion *versions, int n)
{
	CatalogScan s;
	uint32		context_hash;
	BlockNumber nblocks;
	bool		keyed = false;

	context_hash = hash_bytes((const unsigned char *) context, strlen(context));
	catalog_scan_open(&s, "schemas", "schemas_pkey");
	scan_share_snapshot(&s, versions_scan);
	nblocks = RelationGetNumberOfBlocks(s.heap);
	for (int i = 0; i < n; i++)
	{
		int32		id = versions[i].schema_id;

		if (!schema_at_hint(&s, context_hash, context, id, nblocks))
		{
			SchemaTidHint *hint = schema_tid_hint(context_hash, id);

			if (keyed)
				catalog_scan_rekey(&s);
			catalog_scan_text_key(&s, 1, context);
			scan_key(&s, 2, F_INT4EQ, Int32GetDatum(id));
			keyed = true;
			if (!catalog_scan_next(&s, ForwardScanDirection))
				elog(ERROR, "schema %d of context \"%s\" is missing", id, context);
			hint->context_hash = context_hash;
			hint->id = id;
			hint->tid = s.slot->tts_tid;
		}
		col_fingerprint(&s, versions[i].fingerprint);
	}
	catalog_scan_close(&s);
}

/*
 * A subject's versions in ascending order (soft-deleted ones when asked),
 * each with its schema's fingerprint, read in one snapshot as the
 * statement this replaces read them (it probed the schemas' index once a
 * version, some 2 us each: most of a transitive check's catalog reads).
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
		if (!include_deleted && col_bool(&s, "deleted"))
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
		add_fingerprints(context, &s, out, *n);
	catalog_scan_close(&s);
	return out;
}

/* Open a scan of the context's versions (of any subject) of schema id. */
static void
versions_of_id_open(CatalogScan *s, const char *context, int32 id)
{
	catalog_scan_open(s, "subject_versions", "subject_versions_schema_idx");
	catalog_scan_text_key(s, 1, context);
	scan_key(s, 2, F_INT4EQ, Int32GetDatum(id));
}

/*
 * The subject's best version of schema id (live ones first, then the
 * highest number; soft-deleted ones only when include_deleted) into out:
 * false when it has none.
 */
static bool
subject_version_of_schema(const char *context, const char *subject, int32 id,
						  bool include_deleted, CatalogVersion *out)
{
	CatalogScan s;
	CatalogVersion v;
	bool		found = false;

	versions_of_id_open(&s, context, id);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (!col_text_is(&s, "subject", subject))
			continue;
		fill_version(&s, &v);
		if (v.deleted && !include_deleted)
			continue;
		if (!found || (out->deleted && !v.deleted) ||
			(out->deleted == v.deleted && v.version > out->version))
			*out = v;
		found = true;
	}
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
 * highest number (0 when none) and the newest live one into *latest
 * (version 0 when none).
 */
static int32
scan_newest(const char *context, const char *subject, int32 from, CatalogVersion *latest)
{
	CatalogScan s;
	int32		max_version = 0;

	memset(latest, 0, sizeof(CatalogVersion));
	subject_versions_open(&s, context, subject);
	if (from > 0)
		scan_key_op(&s, 3, BTGreaterEqualStrategyNumber, F_INT4GE, Int32GetDatum(from));
	while (catalog_scan_next(&s, BackwardScanDirection))
	{
		if (max_version == 0)
			max_version = col_int32(&s, "version");
		if (!col_bool(&s, "deleted"))
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
 * has none) and its latest live version into *latest (version 0 when none;
 * without its fingerprint, which the callers that need it read).
 */
static int32
subject_max_and_latest(const char *context, const char *subject, CatalogVersion *latest)
{
	int32		from = hinted_version(context, subject);
	int32		max_version = scan_newest(context, subject, from, latest);

	if (from > 0 && latest->version == 0)
		max_version = scan_newest(context, subject, 0, latest);
	if (max_version > 0)
		remember_version(context, subject, max_version);
	return max_version;
}

/* The subject's highest version number, read after its row was locked. */
int32
catalog_max_version(const char *context, const char *subject)
{
	CatalogVersion latest;

	return subject_max_and_latest(context, subject, &latest);
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
	int32		max_version = subject_max_and_latest(context, subject, &v);

	*has_latest = v.version > 0 &&
		schema_by_id(context, v.schema_id, CurrentMemoryContext, latest);
	return max_version;
}

/* The latest live version of a subject, if it has one. */
bool
catalog_latest_version(const char *context, const char *subject, CatalogVersion *out)
{
	(void) subject_max_and_latest(context, subject, out);
	if (out->version == 0)
		return false;
	schema_fingerprint(context, out->schema_id, out->fingerprint);
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
 * when asked), without its fingerprint; its registration time into
 * *created_at when that is not NULL.
 */
static bool
version_by_number(const char *context, const char *subject, int32 version,
				  bool include_deleted, CatalogVersion *out, TimestampTz *created_at)
{
	CatalogScan s;
	bool		found = false;

	subject_versions_open(&s, context, subject);
	scan_key(&s, 3, F_INT4EQ, Int32GetDatum(version));
	if (catalog_scan_next(&s, ForwardScanDirection))
	{
		bool		isnull;

		fill_version(&s, out);
		found = include_deleted || !out->deleted;
		if (created_at != NULL)
			*created_at = DatumGetTimestampTz(catalog_scan_datum(&s, "created_at", &isnull));
	}
	catalog_scan_close(&s);
	return found;
}

/* One version of a subject, if it has it (soft-deleted ones when asked). */
bool
catalog_get_version(const char *context, const char *subject, int32 version,
					bool include_deleted, CatalogVersion *out)
{
	bool		found = version_by_number(context, subject, version, include_deleted, out, NULL);

	if (found)
		schema_fingerprint(context, out->schema_id, out->fingerprint);
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
	if (version == -1)
	{
		CatalogVersion latest;
		int32		max_version = subject_max_and_latest(context, subject, &latest);

		version = include_deleted ? max_version : latest.version;
		if (version == 0)
			return false;
	}
	return version_by_number(context, subject, version, include_deleted, out, created_at);
}

/* Does the subject have a version (soft-deleted ones counting when asked)? */
bool
catalog_subject_has_versions(const char *context, const char *subject, bool include_deleted)
{
	CatalogScan s;
	bool		has = false;

	subject_versions_open(&s, context, subject);
	while (!has && catalog_scan_next(&s, ForwardScanDirection))
		has = include_deleted || !col_bool(&s, "deleted");
	catalog_scan_close(&s);
	return has;
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
	int32		id = schema_id_by_fingerprint(context, fingerprint);

	memset(version, 0, sizeof(CatalogVersion));
	if (id != 0 && subject_version_of_schema(context, subject, id, include_deleted, version))
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

/* A schema of the context with the submitted type and stored text. */
typedef struct SameText
{
	int32		id;
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
	char	   *refs;
	char	   *metadata;
	char	   *rule_set;
} SameText;

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
add_same_text(CatalogScan *s, SameText **same, int *n, int *cap)
{
	SameText   *c;

	if (*n == *cap)
		*same = repalloc(*same, sizeof(SameText) * (*cap *= 2));
	c = &(*same)[(*n)++];
	c->id = col_int32(s, "id");
	col_fingerprint(s, c->fingerprint);
	c->refs = catalog_scan_jsonb_text(s, "refs", CurrentMemoryContext);
	c->metadata = catalog_scan_jsonb_text(s, "metadata", CurrentMemoryContext);
	c->rule_set = catalog_scan_jsonb_text(s, "rule_set", CurrentMemoryContext);
}

/* Is the current schemas row of this type and stored text? */
static bool
schema_row_is(CatalogScan *s, const char *schema_type, const char *schema)
{
	return col_text_is(s, "schema", schema) && col_text_is(s, "schema_type", schema_type);
}

/* Has the current schemas row metadata or a rule set? */
static bool
has_contract(CatalogScan *s)
{
	bool		no_metadata;
	bool		no_rule_set;

	(void) catalog_scan_datum(s, "metadata", &no_metadata);
	(void) catalog_scan_datum(s, "rule_set", &no_rule_set);
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
static SameText *
schemas_with_text(const char *context, const char *schema_type, const char *schema,
				  const uint8 *plain_fingerprint, int *n)
{
	CatalogScan s;
	char		md5[2 * MD5_DIGEST_LENGTH + 1];
	int			cap = 4;
	SameText   *out = palloc(sizeof(SameText) * cap);

	*n = 0;
	text_md5(schema, md5);
	catalog_scan_open(&s, "schemas", "schemas_text_idx");
	catalog_scan_text_key(&s, 1, md5);
	catalog_scan_text_key(&s, 2, context);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		/* an index made before it kept only these has the others too */
		if (has_contract(&s) && schema_row_is(&s, schema_type, schema))
			add_same_text(&s, &out, n, &cap);
	}
	catalog_scan_close(&s);
	if (plain_fingerprint == NULL)
		return out;

	catalog_scan_open(&s, "schemas", "schemas_fingerprint_context_key");
	scan_key(&s, 1, F_BYTEAEQ, catalog_fingerprint_datum(plain_fingerprint));
	catalog_scan_text_key(&s, 2, context);
	if (catalog_scan_next(&s, ForwardScanDirection) && !has_contract(&s) &&
		schema_row_is(&s, schema_type, schema))
		add_same_text(&s, &out, n, &cap);
	catalog_scan_close(&s);
	return out;
}

/* Append the subject's versions of schema c (soft-deleted ones when asked) to rows. */
static void
add_versions_of(const char *context, const char *subject, bool include_deleted,
				const SameText *c, CatalogVersionRow **rows, int *n, int *cap)
{
	CatalogScan s;
	CatalogVersionRow *row;

	versions_of_id_open(&s, context, c->id);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (!col_text_is(&s, "subject", subject) || (!include_deleted && col_bool(&s, "deleted")))
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
	SameText   *same = schemas_with_text(context, schema_type, schema, plain_fingerprint,
										 &n_same);
	int			cap = 4;
	CatalogVersionRow *rows = palloc0(sizeof(CatalogVersionRow) * cap);

	*n = 0;
	for (int i = 0; i < n_same; i++)
		add_versions_of(context, subject, include_deleted, &same[i], &rows, n, &cap);
	if (*n > 1)
		qsort(rows, *n, sizeof(CatalogVersionRow), version_row_cmp);
	return rows;
}

/* --- the subject lock ---------------------------------------------------------- */

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

/* Does the scan's current row still have the key (context, subject)? */
static bool
subject_row_is(CatalogScan *s, const char *context, const char *subject)
{
	return col_text_is(s, "context", context) && col_text_is(s, "subject", subject);
}

/*
 * Lock the subject's row FOR UPDATE as "SELECT 1 FROM registry.subjects
 * WHERE context = $1 AND subject = $2 FOR UPDATE" does: refused in a
 * read-only transaction and on a standby (which forwards the write to the
 * primary on that error), its privilege, its RowShareLock on the table, a
 * wait for a concurrent locker, the newest version of the row, and in
 * REPEATABLE READ or SERIALIZABLE a serialization failure when the row
 * changed.  False when the subject has no row, or its row went away while
 * this waited.  One index probe and the lock, where the statement costs an
 * executor start-up for the lock-rows plan.
 */
bool
catalog_lock_subject_row(const char *context, const char *subject)
{
	CatalogScan s;
	bool		locked = false;

	/* a standby or a read-only transaction refuses it as the statement: 25006 */
	PreventCommandIfReadOnly("SELECT FOR UPDATE");
	catalog_scan_open(&s, "subjects", "subjects_pkey");
	check_row_lock_privilege(s.heap);
	/* the table lock of a statement with FOR UPDATE, above AccessShareLock */
	LockRelationOid(RelationGetRelid(s.heap), RowShareLock);
	catalog_scan_text_key(&s, 1, context);
	catalog_scan_text_key(&s, 2, subject);
	if (catalog_scan_next(&s, ForwardScanDirection))
	{
		TM_FailureData tmfd;
		TM_Result	result;

		result = table_tuple_lock(s.heap, &s.slot->tts_tid, s.snapshot, s.slot,
								  GetCurrentCommandId(true), LockTupleExclusive,
								  LockWaitBlock, TUPLE_LOCK_FLAG_FIND_LAST_VERSION, &tmfd);
		switch (result)
		{
			case TM_Ok:
				/* a newer version found after a wait must be the subject's */
				locked = !tmfd.traversed || subject_row_is(&s, context, subject);
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
				if (result == TM_Updated)
					elog(ERROR, "unexpected table_tuple_lock status: %u", result);
				break;			/* deleted meanwhile: the subject has no row */
			default:
				elog(ERROR, "unexpected table_tuple_lock status: %u", result);
		}
	}
	catalog_scan_close(&s);
	return locked;
}
