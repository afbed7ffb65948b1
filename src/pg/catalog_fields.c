/*-------------------------------------------------------------------------
 *
 * catalog_fields.c
 *	  registry.schema_fields, the field index: one row per schema with the
 *	  fields it declares (field_index.c computes them), written when a
 *	  schema is inserted and rebuilt by registry.reindex_fields().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"

#include "catalog.h"
#include "catalog_internal.h"

/* the columns of registry.schema_fields */
#define Anum_schema_fields_context		1
#define Anum_schema_fields_id			2
#define Anum_schema_fields_fields		3
#define Anum_schema_fields_truncated	4
#define Natts_schema_fields				4

static const CatalogColumn schema_fields_columns[Natts_schema_fields] = {
	{"context", TEXTOID},
	{"id", INT4OID},
	{"fields", JSONBOID},
	{"truncated", BOOLOID},
};

static CatalogTable schema_fields_table = {"schema_fields", Natts_schema_fields,
schema_fields_columns};

static CatalogIndex schema_fields_pkey = {
	"schema_fields_pkey", &schema_fields_table, 2,
	{Anum_schema_fields_context, Anum_schema_fields_id}
};

static CatalogPlan plan_fields_delete = {
	"DELETE FROM registry.schema_fields f WHERE f.context = $1 AND f.id = $2",
	2, {TEXTOID, INT4OID}
};
static CatalogPlan plan_fields_put = {
	"INSERT INTO registry.schema_fields (context, id, fields, truncated)"
	" VALUES ($1, $2, $3, $4)",
	4, {TEXTOID, INT4OID, JSONBOID, BOOLOID}
};
static CatalogPlan plan_schema_keys_after = {
	"SELECT s.context, s.id, s.fingerprint FROM registry.schemas s"
	" WHERE (s.context, s.id) > ($1, $2) ORDER BY s.context, s.id LIMIT $3",
	3, {TEXTOID, INT4OID, INT4OID}
};

/*
 * Store the fields (a jsonb array) of a schema, replacing the row it had
 * when replace (a new schema has none to replace).
 */
void
catalog_put_schema_fields(const char *context, int32 id, Datum fields, bool truncated,
						  bool replace)
{
	Datum		values[4];

	values[0] = CStringGetTextDatum(context);
	values[1] = Int32GetDatum(id);
	values[2] = fields;
	values[3] = BoolGetDatum(truncated);
	catalog_connect();
	if (replace)
		catalog_run(&plan_fields_delete, values, NULL, SPI_OK_DELETE);
	catalog_run(&plan_fields_put, values, NULL, SPI_OK_INSERT);
	catalog_disconnect();
}

/* Has a schema its row in the field index?  A probe of the primary key. */
bool
catalog_schema_fields_exist(const char *context, int32 id)
{
	CatalogScan s;
	bool		found;

	catalog_scan_open(&s, &schema_fields_pkey);
	catalog_scan_text_key(&s, Anum_schema_fields_context, context);
	catalog_scan_key(&s, Anum_schema_fields_id, F_INT4EQ, Int32GetDatum(id));
	found = catalog_scan_next(&s, ForwardScanDirection);
	catalog_scan_close(&s);
	return found;
}

/*
 * The keys of up to limit schemas after (context, id) in key order (the
 * first ones with context NULL); how many, into out (palloc'd in the
 * caller's memory).
 */
int
catalog_schema_keys_after(const char *context, int32 id, int limit, CatalogSchemaKey **out)
{
	Datum		values[3];
	char		nulls[3] = {' ', ' ', ' '};
	MemoryContext caller = catalog_connect();
	CatalogSchemaKey *keys;
	uint64		i;

	values[0] = context ? CStringGetTextDatum(context) : CStringGetTextDatum("");
	values[1] = Int32GetDatum(context ? id : 0);
	values[2] = Int32GetDatum(limit);
	catalog_run(&plan_schema_keys_after, values, nulls, SPI_OK_SELECT);
	keys = MemoryContextAlloc(caller, sizeof(CatalogSchemaKey) * (SPI_processed + 1));
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;
		bytea	   *fp = DatumGetByteaPP(catalog_datum(tup, 3, &isnull));

		keys[i].context = catalog_text(tup, 1, caller);
		keys[i].id = catalog_int32(tup, 2);
		memset(keys[i].fingerprint, 0, REGISTRY_FINGERPRINT_LEN);
		if (!isnull && VARSIZE_ANY_EXHDR(fp) == REGISTRY_FINGERPRINT_LEN)
			memcpy(keys[i].fingerprint, VARDATA_ANY(fp), REGISTRY_FINGERPRINT_LEN);
	}
	*out = keys;
	catalog_disconnect();
	return (int) i;
}
