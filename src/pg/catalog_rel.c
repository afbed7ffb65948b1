/*-------------------------------------------------------------------------
 *
 * catalog_rel.c
 *	  How the catalog reads a registry table: as PostgreSQL reads its own
 *	  catalogs (systable_beginscan_ordered over a B-tree index, columns by
 *	  attribute number), not by SQL statements.  A registration reads its
 *	  settings, its subject and the submitted schema a dozen times; each
 *	  read is an index probe of a few microseconds, where a statement costs
 *	  tens in executor start-up alone.
 *
 *	  Each table's file declares the table's columns (Anum_ constants and
 *	  a CatalogTable) and the indexes it reads by (CatalogIndex); both are
 *	  checked against the relations when they are first opened (again
 *	  after any invalidation), so a table or index that is not the one the
 *	  extension's script made is an error, not a wrong read: a column of
 *	  another name or type, an index of another access method than B-tree
 *	  (an ordered scan relies on its order), other key columns, or a
 *	  predicate that leaves out rows.
 *
 *	  A read opens the table as a SELECT would: AccessShareLock until the
 *	  end of the transaction, the current role's SELECT privilege on it,
 *	  and no row-level security to bypass (a table with it enabled is
 *	  refused).  ExecutorCheckPerms_hook is not called: see doc/design.md.
 *
 *	  Which snapshot a read sees: catalog_read_snapshot().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_index.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "catalog_internal.h"

/* --- the snapshot of a read ------------------------------------------------- */

/*
 * The snapshot a catalog read reads in, registered (the caller unregisters
 * it).  A read sees what the statement that called it sees -- the active
 * snapshot -- unless the statement has written since that snapshot was
 * taken: then it sees a new one, taken after a command counter increment,
 * as the next statement of a volatile function would.
 *
 * So the registry's SQL functions that only read (get_version,
 * resolve_version, effective_compatibility, ...) see one state of the
 * tables for the whole statement, as STABLE promises, and the REST API's
 * reads see the one snapshot of their request; while a registration, a
 * delete or a trigger sees its own rows and, once it holds the subject's
 * lock (which increments the command counter, catalog_subjects.c), what
 * committed before it got it.  "Has written" is the command counter moved
 * past the active snapshot's: the increment below moves it only when this
 * command has written (or locked a row), and SPI's statements move it.
 */
Snapshot
catalog_read_snapshot(void)
{
	CommandCounterIncrement();
	if (ActiveSnapshotSet() &&
		GetActiveSnapshot()->curcid == GetCurrentCommandId(false))
		return RegisterSnapshot(GetActiveSnapshot());
	return RegisterSnapshot(GetTransactionSnapshot());
}

/* --- tables and indexes ------------------------------------------------------ */

/*
 * The tables and indexes whose oids this backend has looked up and
 * checked: forgotten at any relcache invalidation of one of them (or of
 * all) and at any namespace invalidation (the schema renamed), so a
 * checked oid never outlives what was checked.
 */
#define CATALOG_RELS_MAX 32

static Oid *catalog_rel_oids[CATALOG_RELS_MAX];
static int	catalog_rels_n = 0;
static bool callbacks_registered = false;

/* Forget the oids checked, all of them or the one of relid (a relcache callback). */
static void
forget_rel(Datum arg, Oid relid)
{
	for (int i = 0; i < catalog_rels_n; i++)
		if (!OidIsValid(relid) || *catalog_rel_oids[i] == relid)
			*catalog_rel_oids[i] = InvalidOid;
}

/* Forget every oid checked (a syscache callback on namespaces). */
static void
forget_rels(Datum arg, int cacheid, uint32 hashvalue)
{
	forget_rel(arg, InvalidOid);
}

/* Remember where the checked oid of a table or index is kept, to forget it. */
static void
track_rel(Oid *relid)
{
	if (!callbacks_registered)
	{
		CacheRegisterRelcacheCallback(forget_rel, (Datum) 0);
		CacheRegisterSyscacheCallback(NAMESPACEOID, forget_rels, (Datum) 0);
		callbacks_registered = true;
	}
	for (int i = 0; i < catalog_rels_n; i++)
		if (catalog_rel_oids[i] == relid)
			return;
	if (catalog_rels_n == CATALOG_RELS_MAX)
		elog(ERROR, "too many registry relations");
	catalog_rel_oids[catalog_rels_n++] = relid;
}

/* The oid of registry.<name>. */
static Oid
registry_relid(const char *name)
{
	Oid			relid = get_relname_relid(name, get_namespace_oid("registry", false));

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"registry.%s\" does not exist", name)));
	return relid;
}

/* The refusal of a table that is not the one the extension's script made. */
static void
not_the_registrys_table(const CatalogTable *t, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("table registry.%s is not the registry's", t->name),
			 errdetail("%s", detail),
			 errhint("Make it again as the extension's script does, or reinstall the extension.")));
}

/* The refusal of an index that is not the one the extension's script made. */
static void
not_the_registrys_index(const CatalogIndex *ix, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("index registry.%s is not the registry's index on registry.%s",
					ix->name, ix->table->name),
			 errdetail("%s", detail),
			 errhint("Make it again as the extension's script does, or reinstall the extension.")));
}

/* Refuse a table whose columns are not the ones its Anum_ constants name. */
static void
check_columns(Relation rel, const CatalogTable *t)
{
	TupleDesc	desc = RelationGetDescr(rel);

	for (int i = 0; i < t->ncols; i++)
	{
		Form_pg_attribute att;

		if (i >= desc->natts)
			not_the_registrys_table(t, "It has fewer columns than the registry reads.");
		att = TupleDescAttr(desc, i);
		if (att->attisdropped || att->atttypid != t->cols[i].type ||
			strcmp(NameStr(att->attname), t->cols[i].name) != 0)
			not_the_registrys_table(t, psprintf("Its column %d is not \"%s\" of type %s.", i + 1,
												t->cols[i].name, format_type_be(t->cols[i].type)));
	}
}

/*
 * Open registry.<name> for reading as a SELECT would: its lock, the
 * current role's privilege, and no row-level security to bypass; its
 * columns checked when it is opened first.
 */
Relation
catalog_open_table(CatalogTable *t)
{
	Oid			relid = OidIsValid(t->relid) ? t->relid : registry_relid(t->name);
	Relation	rel = table_open(relid, AccessShareLock);
	AclResult	acl = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);

	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_TABLE, t->name);
	if (check_enable_rls(relid, InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("row-level security on registry.%s is not supported", t->name),
				 errdetail("The registry reads its tables as PostgreSQL reads its catalogs.")));
	if (!OidIsValid(t->relid))
	{
		check_columns(rel, t);
		track_rel(&t->relid);
		t->relid = relid;
	}
	return rel;
}

/* Is expr "column attno IS NOT NULL"? */
static bool
is_not_null_test(Node *expr, AttrNumber attno)
{
	NullTest   *test = (NullTest *) expr;

	return IsA(expr, NullTest) && test->nulltesttype == IS_NOT_NULL && !test->argisrow &&
		IsA(test->arg, Var) && ((Var *) test->arg)->varattno == attno;
}

/*
 * Does the index keep every row, or (or_not_null given) either every row
 * or those where one of the two columns is not null, as the script makes
 * it?
 */
static bool
index_predicate_ok(Relation index, const CatalogIndex *ix)
{
	List	   *pred = RelationGetIndexPredicate(index);
	BoolExpr   *or;

	if (pred == NIL)
		return true;
	if (ix->or_not_null[0] == InvalidAttrNumber || list_length(pred) != 1 ||
		!is_orclause(linitial(pred)))
		return false;
	or = linitial_node(BoolExpr, pred);
	return list_length(or->args) == 2 &&
		is_not_null_test(linitial(or->args), ix->or_not_null[0]) &&
		is_not_null_test(lsecond(or->args), ix->or_not_null[1]);
}

/*
 * Refuse an index that is not a valid B-tree on the table, whose leading
 * key columns are not the ones the scans give keys for, or that leaves out
 * rows the scans expect (an index dropped and made again by hand under the
 * same name, say): its answers would be wrong.
 */
static void
check_index(Relation heap, Relation index, const CatalogIndex *ix)
{
	Form_pg_index form = index->rd_index;

	if (index->rd_rel->relam != BTREE_AM_OID)
		not_the_registrys_index(ix, "It is not a B-tree index.");
	if (form->indrelid != RelationGetRelid(heap) || !form->indisvalid)
		not_the_registrys_index(ix, "It is not a valid index of its table.");
	for (int k = 0; k < ix->nkeys; k++)
		if (k >= form->indnkeyatts || form->indkey.values[k] != ix->keys[k])
			not_the_registrys_index(ix, "Its key columns are not the registry's.");
	if (!index_predicate_ok(index, ix))
		not_the_registrys_index(ix, "It leaves out rows the registry reads.");
}

/* Open the index's table and the index for a scan, with no keys yet. */
void
catalog_scan_open(CatalogScan *s, CatalogIndex *ix)
{
	Oid			relid;

	memset(s, 0, sizeof(CatalogScan));
	s->heap = catalog_open_table(ix->table);
	relid = OidIsValid(ix->relid) ? ix->relid : registry_relid(ix->name);
	s->index = index_open(relid, AccessShareLock);
	if (!OidIsValid(ix->relid))
	{
		check_index(s->heap, s->index, ix);
		track_rel(&ix->relid);
		ix->relid = relid;
	}
}

/*
 * Make a scan not yet started read in the snapshot another scan read in,
 * so that two tables are seen in one state, as one statement sees them.
 */
void
catalog_scan_share_snapshot(CatalogScan *s, const CatalogScan *from)
{
	Assert(s->scan == NULL && s->snapshot == NULL && from->snapshot != NULL);
	s->snapshot = RegisterSnapshot(from->snapshot);
}

/*
 * Add "column attno <op> value" (strategy and proc: the B-tree operator's);
 * InvalidAttrNumber keys the index's expression column.
 */
void
catalog_scan_key_op(CatalogScan *s, AttrNumber attno, StrategyNumber strategy,
					RegProcedure proc, Datum value)
{
	Form_pg_index form = s->index->rd_index;
	Oid			collation = InvalidOid;

	Assert(s->nkeys < SCAN_MAX_KEYS && (s->scan == NULL || s->rekeyed));
	for (int k = 0; k < form->indnkeyatts; k++)
		if (form->indkey.values[k] == attno)
			collation = s->index->rd_indcollation[k];
	ScanKeyEntryInitialize(&s->keys[s->nkeys++], 0, attno, strategy, InvalidOid,
						   collation, proc, value);
}

/* Add "column attno = value" (proc: the type's equality function). */
void
catalog_scan_key(CatalogScan *s, AttrNumber attno, RegProcedure proc, Datum value)
{
	catalog_scan_key_op(s, attno, BTEqualStrategyNumber, proc, value);
}

/* Add "text column attno = value". */
void
catalog_scan_text_key(CatalogScan *s, AttrNumber attno, const char *value)
{
	catalog_scan_key(s, attno, F_TEXTEQ, CStringGetTextDatum(value));
}

/*
 * Start the begun scan again with its new keys, given by table column as
 * systable_beginscan_ordered() takes them: a B-tree scan keeps room for as
 * many keys as it began with, so a rekey with another number ends it and
 * begins anew.
 */
static void
rescan(CatalogScan *s)
{
	ScanKeyData idxkeys[SCAN_MAX_KEYS];
	Form_pg_index form = s->index->rd_index;

	if (s->nkeys != s->scan->iscan->numberOfKeys)
	{
		systable_endscan_ordered(s->scan);
		s->scan = systable_beginscan_ordered(s->heap, s->index, s->snapshot,
											 s->nkeys, s->keys);
		return;
	}
	for (int i = 0; i < s->nkeys; i++)
	{
		int			k = 0;

		while (k < form->indnatts && form->indkey.values[k] != s->keys[i].sk_attno)
			k++;
		if (k == form->indnatts)
			elog(ERROR, "column is not in index");
		idxkeys[i] = s->keys[i];
		idxkeys[i].sk_attno = k + 1;
	}
	index_rescan(s->scan->iscan, idxkeys, s->nkeys, NULL, 0);
}

/*
 * The next row of the scan in direction dir, false at its end; the first
 * call takes the snapshot (catalog_read_snapshot) unless the scan shares
 * one, and begins the scan with the keys given; the first after
 * catalog_scan_rekey() starts it again with the new keys.
 */
bool
catalog_scan_next(CatalogScan *s, ScanDirection dir)
{
	HeapTuple	tup;

	if (s->scan == NULL)
	{
		if (s->snapshot == NULL)
			s->snapshot = catalog_read_snapshot();
		s->scan = systable_beginscan_ordered(s->heap, s->index, s->snapshot,
											 s->nkeys, s->keys);
	}
	else if (s->rekeyed)
		rescan(s);
	s->rekeyed = false;
	CHECK_FOR_INTERRUPTS();
	tup = systable_getnext_ordered(s->scan, dir);
	s->slot = tup != NULL ? s->scan->slot : NULL;
	return tup != NULL;
}

/*
 * Drop the scan's keys for new ones, to probe again in the same snapshot:
 * one read of several rows (the scopes of a subject's settings) sees one
 * state of the table, and probes with one scan, as many times as it has
 * keys of the same number.
 */
void
catalog_scan_rekey(CatalogScan *s)
{
	s->nkeys = 0;
	s->rekeyed = true;
	s->slot = NULL;
}

/*
 * Make the row at tid the scan's current row if the scan's snapshot sees
 * it (a scan in a shared snapshot: catalog_scan_share_snapshot); false
 * when tid is past the table's nblocks or names no row the snapshot sees.
 * For a place remembered from an earlier probe, which the caller checks is
 * the row it wants.
 */
bool
catalog_scan_fetch_tid(CatalogScan *s, ItemPointer tid, BlockNumber nblocks)
{
	Assert(s->snapshot != NULL);
	if (!ItemPointerIsValid(tid) || ItemPointerGetBlockNumber(tid) >= nblocks)
		return false;
	if (s->fetch_slot == NULL)
		s->fetch_slot = table_slot_create(s->heap, NULL);
	CHECK_FOR_INTERRUPTS();
	if (!table_tuple_fetch_row_version(s->heap, tid, s->snapshot, s->fetch_slot))
		return false;
	s->slot = s->fetch_slot;
	return true;
}

/* End the scan; the locks stay until the end of the transaction. */
void
catalog_scan_close(CatalogScan *s)
{
	if (s->scan != NULL)
		systable_endscan_ordered(s->scan);
	if (s->fetch_slot != NULL)
		ExecDropSingleTupleTableSlot(s->fetch_slot);
	if (s->snapshot != NULL)
		UnregisterSnapshot(s->snapshot);
	index_close(s->index, NoLock);
	table_close(s->heap, NoLock);
}

/* --- columns of the current row ---------------------------------------------- */

/* Column attno of the scan's current row. */
Datum
catalog_scan_datum(CatalogScan *s, AttrNumber attno, bool *isnull)
{
	Assert(s->slot != NULL);
	return slot_getattr(s->slot, attno, isnull);
}

/* A text column of the current row, copied into cxt; NULL for NULL. */
char *
catalog_scan_text(CatalogScan *s, AttrNumber attno, MemoryContext cxt)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, attno, &isnull);

	return catalog_datum_text(d, isnull, cxt);
}

/* A jsonb column of the current row as jsonb's text form, in cxt; NULL for NULL. */
char *
catalog_scan_jsonb_text(CatalogScan *s, AttrNumber attno, MemoryContext cxt)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, attno, &isnull);
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
int32
catalog_scan_int32(CatalogScan *s, AttrNumber attno)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, attno, &isnull);

	return isnull ? 0 : DatumGetInt32(d);
}

/* A timestamptz column of the current row; 0 for NULL. */
TimestampTz
catalog_scan_timestamp(CatalogScan *s, AttrNumber attno)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, attno, &isnull);

	return isnull ? 0 : DatumGetTimestampTz(d);
}

/* A boolean column of the current row; false for NULL. */
bool
catalog_scan_bool(CatalogScan *s, AttrNumber attno)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, attno, &isnull);

	return !isnull && DatumGetBool(d);
}

/* Does the text column of the current row equal value? */
bool
catalog_scan_text_is(CatalogScan *s, AttrNumber attno, const char *value)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, attno, &isnull);
	text	   *t;

	if (isnull)
		return false;
	t = DatumGetTextPP(d);
	return VARSIZE_ANY_EXHDR(t) == strlen(value) &&
		memcmp(VARDATA_ANY(t), value, VARSIZE_ANY_EXHDR(t)) == 0;
}

/* A fingerprint column of the current row, into out. */
void
catalog_scan_fingerprint(CatalogScan *s, AttrNumber attno, uint8 *out)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, attno, &isnull);
	bytea	   *b = isnull ? NULL : DatumGetByteaPP(d);

	if (b == NULL || VARSIZE_ANY_EXHDR(b) != REGISTRY_FINGERPRINT_LEN)
		elog(ERROR, "unexpected fingerprint in registry.%s", RelationGetRelationName(s->heap));
	memcpy(out, VARDATA_ANY(b), REGISTRY_FINGERPRINT_LEN);
}
