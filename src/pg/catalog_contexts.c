/*-------------------------------------------------------------------------
 *
 * catalog_contexts.c
 *	  registry.contexts: a context's row, made when something first uses
 *	  the context, and its id sequence, from which new schema ids are drawn
 *	  (raised past imported ids; on a new WAL timeline moved past what an
 *	  old primary handed out, catalog_fence.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/sequence.h"
#include "executor/spi.h"
#include "utils/builtins.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "registry.h"

/* the columns of registry.contexts */
#define Anum_contexts_context		1
#define Anum_contexts_id_sequence	2
#define Natts_contexts				2

static const CatalogColumn contexts_columns[Natts_contexts] = {
	{"context", TEXTOID},
	{"id_sequence", REGCLASSOID},
};

static CatalogTable contexts_table = {"contexts", Natts_contexts, contexts_columns};

static CatalogIndex contexts_pkey = {
	"contexts_pkey", &contexts_table, 1, {Anum_contexts_context}
};

static CatalogPlan plan_ensure_context = {
	"INSERT INTO registry.contexts (context) VALUES ($1) ON CONFLICT (context) DO NOTHING",
	1, {TEXTOID}
};
static CatalogPlan plan_advance_id = {
	"SELECT registry.advance_schema_id($1, $2, $3)",
	3, {TEXTOID, TEXTOID, INT4OID}
};

/* run by advance_schema_id, as the extension's owner: the floor only rises */
static CatalogPlan plan_raise_id_floor = {
	"SELECT pg_catalog.setval(c.id_sequence, $2::bigint) FROM registry.contexts c, "
	"LATERAL (SELECT pg_catalog.pg_sequence_last_value(c.id_sequence) AS last) l "
	"WHERE c.context = $1 AND $2 > 0 AND (l.last IS NULL OR l.last < $2::bigint)",
	2, {TEXTOID, INT4OID}
};

/*
 * Read the context's row: *seq its id sequence, InvalidOid when it has
 * none.  False when the context has no row.
 */
static bool
context_row(const char *context, Oid *seq)
{
	CatalogScan s;
	bool		found;
	bool		isnull;
	Datum		d;

	*seq = InvalidOid;
	catalog_scan_open(&s, &contexts_pkey);
	catalog_scan_text_key(&s, Anum_contexts_context, context);
	found = catalog_scan_next(&s, ForwardScanDirection);
	if (found)
	{
		d = catalog_scan_datum(&s, Anum_contexts_id_sequence, &isnull);
		if (!isnull)
			*seq = DatumGetObjectId(d);
	}
	catalog_scan_close(&s);
	return found;
}

/* The context's row, inserted if missing (a context nothing has used yet). */
void
catalog_ensure_context(const char *context)
{
	Oid			seq;
	Datum		v[1];

	if (context_row(context, &seq))
		return;
	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	catalog_run(&plan_ensure_context, v, NULL, SPI_OK_INSERT);
	catalog_disconnect();
}

/*
 * The names of the contexts, in order, read in the snapshot of the scan
 * share (which has read; NULL: the statement's), palloc'd.
 */
List *
catalog_context_names(const CatalogScan *share)
{
	CatalogScan s;
	List	   *names = NIL;

	catalog_scan_open(&s, &contexts_pkey);
	if (share != NULL)
		catalog_scan_share_snapshot(&s, share);
	while (catalog_scan_next(&s, ForwardScanDirection))
		names = lappend(names, catalog_scan_text(&s, Anum_contexts_context, CurrentMemoryContext));
	catalog_scan_close(&s);
	return names;
}

/*
 * After an IMPORT with an explicit id, new ids continue above it; refused
 * (42205) unless the subject's mode in force (subject "" for the context)
 * is IMPORT.
 */
void
catalog_advance_schema_id(const char *context, const char *subject, int32 id)
{
	Datum		v[3];

	catalog_ensure_context(context);
	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	v[2] = Int32GetDatum(id);
	catalog_run(&plan_advance_id, v, NULL, SPI_OK_SELECT);
	catalog_disconnect();
}

/* The context's id sequence moved up to id when it is below (never down). */
void
catalog_raise_id_floor(const char *context, int32 id)
{
	Datum		v[2];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = Int32GetDatum(id);
	catalog_run(&plan_raise_id_floor, v, NULL, SPI_OK_SELECT);
	catalog_disconnect();
}

/* The refusal of a registration once a context has handed out every id. */
static void
ids_exhausted(const char *context)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
			 errmsg("context \"%s\" has no schema id left", context),
			 errdetail("No new schema id is left in context %s: ids go up to %d. Register in another context.",
					   context, PG_INT32_MAX)));
}

/*
 * nextval of a context's sequence; a sequence at its end (or past the
 * integer range) is the registry's own 42205, not the sequence's error,
 * so the REST API answers 422 and clients do not retry.
 */
static int64
draw_id(Oid seq, const char *context)
{
	int64		id = 0;
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		id = nextval_internal(seq, true);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		if (edata->sqlerrcode != ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED)
			PG_RE_THROW();

		/*
		 * nextval still holds the sequence's buffer lock: nothing may run
		 * before the error that replaces its own (the abort releases it)
		 */
		FlushErrorState();
		ids_exhausted(context);
	}
	PG_END_TRY();
	if (id > PG_INT32_MAX)
		ids_exhausted(context);
	return id;
}

/*
 * A new schema id from the context's sequence (nextval, with its privilege
 * check), the context created first when nothing has used it yet; on a new
 * WAL timeline, after the ids an old primary may have handed out.
 */
int32
catalog_next_schema_id(const char *context)
{
	Oid			seq;
	int64		id;

	/* first, so a context made now is made after the fence */
	catalog_fence_ids();
	if (!context_row(context, &seq))
	{
		catalog_ensure_context(context);
		(void) context_row(context, &seq);
	}
	if (!OidIsValid(seq))
		elog(ERROR, "context \"%s\" has no id sequence", context);
	id = draw_id(seq, context);
	return (int32) id;
}
