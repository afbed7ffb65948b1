/*-------------------------------------------------------------------------
 *
 * catalog_spi.c
 *	  The SQL statements of the catalog: its writes (which fire the tables'
 *	  triggers and check their constraints), as SPI plans kept for the
 *	  life of the backend.  Every name is
 *	  schema-qualified and every value is a parameter, so callers'
 *	  search_path and input cannot change a statement.  Each call connects
 *	  to SPI and finishes before it returns; see catalog.h for where its
 *	  results live.  The reads do not come here: each table's file reads it
 *	  through catalog_rel.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "catalog.h"
#include "catalog_internal.h"

/* --- one catalog call: connection, plans, columns ----------------------- */

/*
 * Open the SPI connection of one catalog call.  Returns the memory context
 * that was current, where the call puts what it returns.
 */
MemoryContext
catalog_connect(void)
{
	MemoryContext caller = CurrentMemoryContext;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	return caller;
}

/* Close the connection catalog_connect() opened, freeing SPI's memory. */
void
catalog_disconnect(void)
{
	SPI_finish();
}

/* the search_path every catalog statement is prepared and run with */
#define CATALOG_SEARCH_PATH "pg_catalog, pg_temp"

/*
 * Pin search_path to pg_catalog for the catalog statements that follow:
 * names are qualified, but operators are not, so a caller's schemas cannot
 * replace "=" in the registry's queries.  Returns the GUC nest level to
 * give catalog_unpin_search_path(), 0 when it was pinned already (inside
 * the registry's own SQL functions).  An error unwinds it with the
 * (sub)transaction.
 */
int
catalog_pin_search_path(void)
{
	int			nestlevel;

	if (strcmp(namespace_search_path, CATALOG_SEARCH_PATH) == 0)
		return 0;
	nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", CATALOG_SEARCH_PATH,
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	return nestlevel;
}

/* Does this process serve only REST requests (an HTTP or pool worker)? */
bool		catalog_rest_process = false;

/*
 * Prepare a process that runs nothing but REST requests (the HTTP and pool
 * workers): the catalog's search_path becomes the session's own, so
 * catalog_pin_search_path() has nothing to do, and the process keeps what
 * only the REST workers, a fixed few, keep across transactions (the subject
 * directory whole).  Outside a transaction is fine: the setting's check
 * reads no catalog.
 */
void
catalog_init_rest_process(void)
{
	SetConfigOption("search_path", CATALOG_SEARCH_PATH, PGC_USERSET, PGC_S_SESSION);
	catalog_rest_process = true;
}

/* Give back the search_path catalog_pin_search_path() pinned. */
void
catalog_unpin_search_path(int nestlevel)
{
	if (nestlevel > 0)
		AtEOXact_GUC(true, nestlevel);
}

/*
 * Prepare a plan on first use and keep it for the backend's lifetime, then
 * run it, checking the SPI result code against expected.  The plan is
 * prepared and run (and so re-planned, when it must be) with search_path
 * pinned to pg_catalog (catalog_pin_search_path).
 */
void
catalog_run(CatalogPlan *p, Datum *values, const char *nulls, int expected)
{
	int			nestlevel = catalog_pin_search_path();
	int			rc;

	if (p->plan == NULL)
	{
		SPIPlanPtr	plan = SPI_prepare(p->sql, p->nargs, p->argtypes);

		if (plan == NULL)
			elog(ERROR, "SPI_prepare failed for \"%s\": %s", p->sql,
				 SPI_result_code_string(SPI_result));
		if (SPI_keepplan(plan) != 0)
			elog(ERROR, "SPI_keepplan failed");
		p->plan = plan;
	}
	rc = SPI_execute_plan(p->plan, values, nulls, false, 0);
	catalog_unpin_search_path(nestlevel);
	if (rc != expected)
		elog(ERROR, "SPI_execute_plan returned %s for \"%s\"",
			 SPI_result_code_string(rc), p->sql);
}

/* The one row a statement that always answers one row (p) has just read. */
HeapTuple
catalog_one_row(CatalogPlan *p)
{
	if (SPI_processed != 1)
		elog(ERROR, "\"%s\" returned " UINT64_FORMAT " rows instead of one",
			 p->sql, SPI_processed);
	return SPI_tuptable->vals[0];
}

/* A text datum copied into cxt as a C string; NULL for NULL. */
char *
catalog_datum_text(Datum d, bool isnull, MemoryContext cxt)
{
	MemoryContext old;
	char	   *s;

	if (isnull)
		return NULL;
	old = MemoryContextSwitchTo(cxt);
	s = TextDatumGetCString(d);
	MemoryContextSwitchTo(old);
	return s;
}

/* A text column of a row of the current result, copied into cxt; NULL for NULL. */
char *
catalog_text(HeapTuple tup, int col, MemoryContext cxt)
{
	bool		isnull;
	Datum		d = catalog_datum(tup, col, &isnull);

	return catalog_datum_text(d, isnull, cxt);
}

/* A column of a row of the current result. */
Datum
catalog_datum(HeapTuple tup, int col, bool *isnull)
{
	return SPI_getbinval(tup, SPI_tuptable->tupdesc, col, isnull);
}

/* An integer column of a row of the current result; 0 for NULL. */
int32
catalog_int32(HeapTuple tup, int col)
{
	bool		isnull;
	Datum		d = catalog_datum(tup, col, &isnull);

	return isnull ? 0 : DatumGetInt32(d);
}

/* A boolean column of a row of the current result; false for NULL. */
bool
catalog_bool(HeapTuple tup, int col)
{
	bool		isnull;
	Datum		d = catalog_datum(tup, col, &isnull);

	return isnull ? false : DatumGetBool(d);
}

/* Bytes as a bytea value (see catalog.h). */
Datum
catalog_bytes_datum(const uint8 *bytes, int len)
{
	bytea	   *b = palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	memcpy(VARDATA(b), bytes, len);
	return PointerGetDatum(b);
}

/* A fingerprint as a bytea value (see catalog.h). */
Datum
catalog_fingerprint_datum(const uint8 *fp)
{
	return catalog_bytes_datum(fp, REGISTRY_FINGERPRINT_LEN);
}

/*
 * The text form of a JSON value as ->> gives it (a string unquoted, any
 * other value as JSON), palloc'd; NULL for JSON null.
 */
char *
catalog_jsonb_value_text(JsonbValue *v)
{
	if (v->type == jbvNull)
		return NULL;
	if (v->type == jbvString)
		return pnstrdup(v->val.string.val, v->val.string.len);
	return JsonbToCString(NULL, &JsonbValueToJsonb(v)->root, 0);
}

/*
 * The owner of registry.relname; false when there is no such table (an
 * extension older than it).
 */
bool
catalog_table_owner(const char *relname, Oid *owner)
{
	Oid			nsp = get_namespace_oid("registry", true);
	Oid			relid = OidIsValid(nsp) ? get_relname_relid(relname, nsp) : InvalidOid;
	HeapTuple	tup;

	if (!OidIsValid(relid))
		return false;
	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tup))
		return false;
	*owner = ((Form_pg_class) GETSTRUCT(tup))->relowner;
	ReleaseSysCache(tup);
	return true;
}

/* Run the next statements as owner (a table's), restricted as a maintenance command is. */
void
catalog_become_owner(Oid owner, CatalogUserSave *save)
{
	GetUserIdAndSecContext(&save->userid, &save->sec_context);
	SetUserIdAndSecContext(owner, save->sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
}

/* Back to who ran before catalog_become_owner(). */
void
catalog_restore_user(const CatalogUserSave *save)
{
	SetUserIdAndSecContext(save->userid, save->sec_context);
}
