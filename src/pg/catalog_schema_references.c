/*-------------------------------------------------------------------------
 *
 * catalog_schema_references.c
 *	  registry.schema_references, the references of each schema to other
 *	  subject-versions as rows: who references a subject-version, through
 *	  the table's index on the target; whether a reference is recorded,
 *	  through its primary key; and the insert of a new schema's rows.
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

/* the columns of registry.schema_references */
#define Anum_schema_references_context		1
#define Anum_schema_references_schema_id	2
#define Anum_schema_references_position		3
#define Anum_schema_references_name			4
#define Anum_schema_references_ref_subject	5
#define Anum_schema_references_ref_version	6
#define Natts_schema_references				6

static const CatalogColumn schema_references_columns[Natts_schema_references] = {
	{"context", TEXTOID},
	{"schema_id", INT4OID},
	{"position", INT4OID},
	{"name", TEXTOID},
	{"ref_subject", TEXTOID},
	{"ref_version", INT4OID},
};

static CatalogTable schema_references_table = {
	"schema_references", Natts_schema_references, schema_references_columns
};

static CatalogIndex schema_references_pkey = {
	"schema_references_pkey", &schema_references_table, 3,
	{Anum_schema_references_context, Anum_schema_references_schema_id,
	Anum_schema_references_position}
};

/* a schema's references array as its rows, positions from 1 */
static CatalogPlan plan_insert_references = {
	"INSERT INTO registry.schema_references (context, schema_id, position, name, ref_subject, ref_version) "
	"SELECT $1, $2, r.ord::integer, r.ref->>'name', r.ref->>'subject', (r.ref->>'version')::integer "
	"FROM pg_catalog.jsonb_array_elements($3::jsonb) WITH ORDINALITY AS r(ref, ord)",
	3, {TEXTOID, INT4OID, TEXTOID}
};

static CatalogIndex schema_references_target_idx = {
	"schema_references_target_idx", &schema_references_table, 3,
	{Anum_schema_references_context, Anum_schema_references_ref_subject,
	Anum_schema_references_ref_version}
};

/*
 * The ids of the context's schemas that reference subject's version, each
 * once, in ascending order.
 */
List *
catalog_referencing_ids(const char *context, const char *subject, int32 version)
{
	CatalogScan s;
	List	   *ids = NIL;

	catalog_scan_open(&s, &schema_references_target_idx);
	catalog_scan_text_key(&s, Anum_schema_references_context, context);
	catalog_scan_text_key(&s, Anum_schema_references_ref_subject, subject);
	catalog_scan_key(&s, Anum_schema_references_ref_version, F_INT4EQ, Int32GetDatum(version));
	while (catalog_scan_next(&s, ForwardScanDirection))
		ids = list_append_unique_int(ids, catalog_scan_int32(&s, Anum_schema_references_schema_id));
	catalog_scan_close(&s);
	list_sort(ids, list_int_cmp);
	return ids;
}

/* Record the references of schema (context, id), a jsonb array's text, as rows. */
void
catalog_insert_schema_references(const char *context, int32 id, const char *refs)
{
	Datum		v[3];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = Int32GetDatum(id);
	v[2] = CStringGetTextDatum(refs);
	catalog_run(&plan_insert_references, v, NULL, SPI_OK_INSERT);
	catalog_disconnect();
}

/* Is this reference row recorded already, every column alike? */
bool
catalog_schema_reference_exists(const CatalogReferenceRow *row)
{
	CatalogScan s;
	bool		found;

	catalog_scan_open(&s, &schema_references_pkey);
	catalog_scan_text_key(&s, Anum_schema_references_context, row->context);
	catalog_scan_key(&s, Anum_schema_references_schema_id, F_INT4EQ,
					 Int32GetDatum(row->schema_id));
	catalog_scan_key(&s, Anum_schema_references_position, F_INT4EQ,
					 Int32GetDatum(row->position));
	found = catalog_scan_next(&s, ForwardScanDirection) &&
		catalog_scan_text_is(&s, Anum_schema_references_name, row->name) &&
		catalog_scan_text_is(&s, Anum_schema_references_ref_subject, row->ref_subject) &&
		catalog_scan_int32(&s, Anum_schema_references_ref_version) == row->ref_version;
	catalog_scan_close(&s);
	return found;
}
