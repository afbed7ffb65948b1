/*-------------------------------------------------------------------------
 *
 * catalog_schema_references.c
 *	  registry.schema_references, the references of each schema to other
 *	  subject-versions as rows: who references a subject-version, through
 *	  the table's index on the target.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
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
