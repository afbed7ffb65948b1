/*-------------------------------------------------------------------------
 *
 * catalog_associations.c
 *	  The rows of registry.associations: read by resource id, by resource
 *	  name, by subject; inserted, updated and deleted for the association
 *	  operations (association_service.c) and read by their trigger
 *	  (association_triggers.c).
 *
 * Each write is one row statement, so the table's BEFORE trigger decides
 * whether it may be made and its AFTER trigger audits it, as for a raw
 * INSERT, UPDATE or DELETE by a DBA.  The reads are SPI statements over
 * the table's three indexes; rows come back in Confluent's order of
 * associations (resource name, namespace, type, association type, subject).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "catalog_internal.h"

#define ASSOCIATION_COLUMNS \
	"a.resource_type, a.resource_id, a.association_type, a.resource_name, " \
	"a.resource_namespace, a.context, a.subject, a.lifecycle, a.frozen, " \
	"a.created_at, a.updated_at"
#define ASSOCIATION_ORDER \
	" ORDER BY a.resource_name, a.resource_namespace, a.resource_type, " \
	"a.association_type, a.context, a.subject"
#define Anum_assoc_resource_type	1
#define Anum_assoc_resource_id		2
#define Anum_assoc_association_type 3
#define Anum_assoc_resource_name	4
#define Anum_assoc_resource_namespace 5
#define Anum_assoc_context			6
#define Anum_assoc_subject			7
#define Anum_assoc_lifecycle		8
#define Anum_assoc_frozen			9
#define Anum_assoc_created_at		10
#define Anum_assoc_updated_at		11

static CatalogPlan plan_by_id = {
	"SELECT " ASSOCIATION_COLUMNS " FROM registry.associations a "
	"WHERE a.resource_type = $1 AND a.resource_id = $2" ASSOCIATION_ORDER,
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_by_name = {
	"SELECT " ASSOCIATION_COLUMNS " FROM registry.associations a "
	"WHERE a.resource_name = $1 AND ($2::text IS NULL OR a.resource_namespace = $2)"
	ASSOCIATION_ORDER,
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_by_subject = {
	"SELECT " ASSOCIATION_COLUMNS " FROM registry.associations a "
	"WHERE a.context = $1 AND a.subject = $2" ASSOCIATION_ORDER,
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_insert = {
	"INSERT INTO registry.associations (resource_type, resource_id, association_type, "
	"resource_name, resource_namespace, context, subject, lifecycle, frozen) "
	"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
	9, {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID}
};
static CatalogPlan plan_update = {
	"UPDATE registry.associations a SET resource_name = $4, resource_namespace = $5, "
	"context = $6, subject = $7, lifecycle = $8, frozen = $9 "
	"WHERE a.resource_type = $1 AND a.resource_id = $2 AND a.association_type = $3",
	9, {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID}
};
static CatalogPlan plan_delete = {
	"DELETE FROM registry.associations a "
	"WHERE a.resource_type = $1 AND a.resource_id = $2 AND a.association_type = $3",
	3, {TEXTOID, TEXTOID, TEXTOID}
};

/* The rows the statement just read, copied into cxt. */
static CatalogAssociation *
returned_associations(MemoryContext cxt, int *n)
{
	CatalogAssociation *out;
	uint64		i;

	*n = (int) SPI_processed;
	out = MemoryContextAllocZero(cxt, sizeof(CatalogAssociation) * (SPI_processed + 1));
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		CatalogAssociation *a = &out[i];
		bool		isnull;

		a->resource_type = catalog_text(tup, Anum_assoc_resource_type, cxt);
		a->resource_id = catalog_text(tup, Anum_assoc_resource_id, cxt);
		a->association_type = catalog_text(tup, Anum_assoc_association_type, cxt);
		a->resource_name = catalog_text(tup, Anum_assoc_resource_name, cxt);
		a->resource_namespace = catalog_text(tup, Anum_assoc_resource_namespace, cxt);
		a->context = catalog_text(tup, Anum_assoc_context, cxt);
		a->subject = catalog_text(tup, Anum_assoc_subject, cxt);
		a->lifecycle = catalog_text(tup, Anum_assoc_lifecycle, cxt);
		a->frozen = catalog_bool(tup, Anum_assoc_frozen);
		a->created_at = DatumGetTimestampTz(catalog_datum(tup, Anum_assoc_created_at, &isnull));
		a->updated_at = DatumGetTimestampTz(catalog_datum(tup, Anum_assoc_updated_at, &isnull));
	}
	return out;
}

/* Run a read of two text keys (the second may be NULL) and return its rows. */
static CatalogAssociation *
read_associations(CatalogPlan *p, const char *key1, const char *key2, int *n)
{
	MemoryContext cxt = catalog_connect();
	Datum		v[2];
	char		nulls[2] = {' ', ' '};
	CatalogAssociation *out;

	v[0] = CStringGetTextDatum(key1);
	v[1] = key2 ? CStringGetTextDatum(key2) : (Datum) 0;
	if (key2 == NULL)
		nulls[1] = 'n';
	catalog_run(p, v, nulls, SPI_OK_SELECT);
	out = returned_associations(cxt, n);
	catalog_disconnect();
	return out;
}

/* The associations of a resource by type and id. */
CatalogAssociation *
catalog_associations_by_id(const char *resource_type, const char *resource_id, int *n)
{
	return read_associations(&plan_by_id, resource_type, resource_id, n);
}

/* The associations of a resource by name, in a namespace (NULL: any). */
CatalogAssociation *
catalog_associations_by_name(const char *resource_name, const char *resource_namespace, int *n)
{
	return read_associations(&plan_by_name, resource_name, resource_namespace, n);
}

/* The associations of a subject, of every resource type. */
CatalogAssociation *
catalog_associations_by_subject(const char *context, const char *subject, int *n)
{
	return read_associations(&plan_by_subject, context, subject, n);
}

/* Write a row with one of the two statements over all its columns. */
static void
write_association(CatalogPlan *p, const CatalogAssociation *a, int expected)
{
	Datum		v[9];

	catalog_connect();
	v[0] = CStringGetTextDatum(a->resource_type);
	v[1] = CStringGetTextDatum(a->resource_id);
	v[2] = CStringGetTextDatum(a->association_type);
	v[3] = CStringGetTextDatum(a->resource_name);
	v[4] = CStringGetTextDatum(a->resource_namespace);
	v[5] = CStringGetTextDatum(a->context);
	v[6] = CStringGetTextDatum(a->subject);
	v[7] = CStringGetTextDatum(a->lifecycle);
	v[8] = BoolGetDatum(a->frozen);
	catalog_run(p, v, NULL, expected);
	catalog_disconnect();
}

/* Insert an association (its trigger decides, and sets its times). */
void
catalog_insert_association(const CatalogAssociation *a)
{
	write_association(&plan_insert, a, SPI_OK_INSERT);
}

/* Update an association's row, found by its key (its trigger decides). */
void
catalog_update_association(const CatalogAssociation *a)
{
	write_association(&plan_update, a, SPI_OK_UPDATE);
}

/* Delete an association by its key. */
void
catalog_delete_association(const char *resource_type, const char *resource_id,
						   const char *association_type)
{
	Datum		v[3];

	catalog_connect();
	v[0] = CStringGetTextDatum(resource_type);
	v[1] = CStringGetTextDatum(resource_id);
	v[2] = CStringGetTextDatum(association_type);
	catalog_run(&plan_delete, v, NULL, SPI_OK_DELETE);
	catalog_disconnect();
}
