/*-------------------------------------------------------------------------
 *
 * catalog_audit.c
 *	  registry.audit's writes: a row recorded, old rows purged (audit.c
 *	  decides what to record and when to purge).
 *
 * Nobody but the registry writes the audit table, so its statements run
 * as the table's owner, whoever's write is being recorded (a writer, a
 * SECURITY DEFINER trigger's cleanup, the HTTP worker's failure record).
 * A database whose extension predates the table records nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/xid8.h"

#include "catalog.h"
#include "catalog_internal.h"

static CatalogPlan plan_audit_insert = {
	"INSERT INTO registry.audit (role, http_user, http_peer, operation,"
	" context, subject, version, schema_id, result, before, after, xact)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
	12, {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, INT4OID, INT4OID, TEXTOID,
	JSONBOID, JSONBOID, XID8OID}
};
static CatalogPlan plan_audit_purge_some = {
	"DELETE FROM registry.audit a WHERE a.id = ANY (ARRAY("
	"SELECT o.id FROM registry.audit o WHERE o.at < $1 ORDER BY o.at LIMIT $2))",
	2, {TIMESTAMPTZOID, INT4OID}
};
static CatalogPlan plan_audit_purge_all = {
	"DELETE FROM registry.audit a WHERE a.at < $1",
	1, {TIMESTAMPTZOID}
};

/* A text Datum of s, and whether it is NULL. */
static Datum
text_or_null(const char *s, char *null)
{
	*null = s ? ' ' : 'n';
	return s ? CStringGetTextDatum(s) : (Datum) 0;
}

/* A jsonb Datum of j, and whether it is NULL. */
static Datum
jsonb_or_null(Jsonb *j, char *null)
{
	*null = j ? ' ' : 'n';
	return j ? JsonbPGetDatum(j) : (Datum) 0;
}

/* Record one audit row; its id, 0 when the table does not exist. */
int64
catalog_audit_insert(const CatalogAuditRow *e)
{
	Datum		values[12];
	char		nulls[12];
	Oid			owner;
	CatalogUserSave save;
	bool		isnull;
	int64		id;

	if (!catalog_table_owner("audit", &owner))
		return 0;
	values[0] = text_or_null(e->role, &nulls[0]);
	values[1] = text_or_null(e->http_user, &nulls[1]);
	values[2] = text_or_null(e->http_peer, &nulls[2]);
	values[3] = text_or_null(e->operation, &nulls[3]);
	values[4] = text_or_null(e->context, &nulls[4]);
	values[5] = text_or_null(e->subject, &nulls[5]);
	values[6] = Int32GetDatum(e->version);
	nulls[6] = e->has_version ? ' ' : 'n';
	values[7] = Int32GetDatum(e->schema_id);
	nulls[7] = e->has_schema_id ? ' ' : 'n';
	values[8] = text_or_null(e->result, &nulls[8]);
	values[9] = jsonb_or_null(e->before, &nulls[9]);
	values[10] = jsonb_or_null(e->after, &nulls[10]);
	values[11] = FullTransactionIdGetDatum(GetTopFullTransactionId());
	nulls[11] = ' ';
	catalog_connect();
	catalog_become_owner(owner, &save);
	catalog_run(&plan_audit_insert, values, nulls, SPI_OK_INSERT_RETURNING);
	catalog_restore_user(&save);
	id = DatumGetInt64(catalog_datum(catalog_one_row(&plan_audit_insert), 1, &isnull));
	catalog_disconnect();
	return id;
}

/*
 * Delete the audit rows older than cutoff, the oldest limit of them (0:
 * all); how many.
 */
uint64
catalog_audit_purge(TimestampTz cutoff, int limit)
{
	Datum		values[2] = {TimestampTzGetDatum(cutoff), Int32GetDatum(limit)};
	Oid			owner;
	CatalogUserSave save;
	uint64		n;

	if (!catalog_table_owner("audit", &owner))
		return 0;
	catalog_connect();
	catalog_become_owner(owner, &save);
	catalog_run(limit > 0 ? &plan_audit_purge_some : &plan_audit_purge_all, values, NULL,
				SPI_OK_DELETE);
	catalog_restore_user(&save);
	n = SPI_processed;
	catalog_disconnect();
	return n;
}
