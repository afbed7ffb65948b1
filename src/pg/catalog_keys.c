/*-------------------------------------------------------------------------
 *
 * catalog_keys.c
 *	  registry.keks and registry.deks: the DEK registry's reads and writes,
 *	  as SPI plans kept for the backend's life (catalog_spi.c).  They run
 *	  as the calling role: the grants on the tables decide what it may do,
 *	  the tables' BEFORE triggers (dek_triggers.c) what a write may be.
 *	  A DEK is created with ON CONFLICT DO NOTHING, so that of concurrent
 *	  creators of the same key one inserts and the others see it exists.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "storage/lmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "catalog_internal.h"
#include "catalog_keys.h"

#define KEK_COLUMNS "name, kms_type, kms_key_id, kms_props::text, doc, shared, deleted, " \
	"(extract(epoch FROM updated_at) * 1000)::bigint"
#define DEK_COLUMNS "kek_name, subject, algorithm, version, encrypted_key_material, deleted, " \
	"(extract(epoch FROM updated_at) * 1000)::bigint"

/* A KEK row of the current result, copied into cxt. */
static void
kek_from_row(HeapTuple tup, MemoryContext cxt, CatalogKek *out)
{
	bool		isnull;

	out->name = catalog_text(tup, 1, cxt);
	out->kms_type = catalog_text(tup, 2, cxt);
	out->kms_key_id = catalog_text(tup, 3, cxt);
	out->kms_props = catalog_text(tup, 4, cxt);
	out->doc = catalog_text(tup, 5, cxt);
	out->shared = catalog_bool(tup, 6);
	out->deleted = catalog_bool(tup, 7);
	out->ts = DatumGetInt64(catalog_datum(tup, 8, &isnull));
}

/* A DEK row of the current result, copied into cxt. */
static void
dek_from_row(HeapTuple tup, MemoryContext cxt, CatalogDek *out)
{
	bool		isnull;

	out->kek_name = catalog_text(tup, 1, cxt);
	out->subject = catalog_text(tup, 2, cxt);
	out->algorithm = catalog_text(tup, 3, cxt);
	out->version = catalog_int32(tup, 4);
	out->encrypted_key_material = catalog_text(tup, 5, cxt);
	out->deleted = catalog_bool(tup, 6);
	out->ts = DatumGetInt64(catalog_datum(tup, 7, &isnull));
}

/* A text parameter, NULL for a NULL string. */
static Datum
text_param(const char *s, char *nulls, int i)
{
	if (s == NULL)
	{
		nulls[i] = 'n';
		return (Datum) 0;
	}
	return CStringGetTextDatum(s);
}

/* Run a write (or a probe) in a catalog call of its own; how many rows it touched. */
static uint64
run_counted(CatalogPlan *p, Datum *values, const char *nulls, int expected)
{
	uint64		n;

	(void) catalog_connect();
	catalog_run(p, values, nulls, expected);
	n = SPI_processed;
	catalog_disconnect();
	return n;
}

/* The parameters $1 to $4 that name a DEK version: KEK, subject, algorithm, version. */
static void
dek_key_params(Datum *values, const char *kek_name, const char *subject,
			   const char *algorithm, int32 version)
{
	values[0] = CStringGetTextDatum(kek_name);
	values[1] = CStringGetTextDatum(subject);
	values[2] = CStringGetTextDatum(algorithm);
	values[3] = Int32GetDatum(version);
}

/* The names of the text column of every row of the current result, copied into cxt. */
static List *
text_column(MemoryContext cxt)
{
	List	   *out = NIL;
	MemoryContext old;

	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *s = catalog_text(SPI_tuptable->vals[i], 1, cxt);

		old = MemoryContextSwitchTo(cxt);
		out = lappend(out, s);
		MemoryContextSwitchTo(old);
	}
	return out;
}

/* See catalog_keys.h */
bool
catalog_kek_get(const char *name, bool deleted, CatalogKek *out)
{
	static CatalogPlan p = {
		"SELECT " KEK_COLUMNS " FROM registry.keks WHERE name = $1 AND (NOT deleted OR $2)",
		2, {TEXTOID, BOOLOID}
	};
	Datum		values[2] = {CStringGetTextDatum(name), BoolGetDatum(deleted)};
	MemoryContext cxt = catalog_connect();
	bool		found;

	catalog_run(&p, values, NULL, SPI_OK_SELECT);
	found = SPI_processed == 1;
	if (found)
		kek_from_row(SPI_tuptable->vals[0], cxt, out);
	catalog_disconnect();
	return found;
}

/* See catalog_keys.h */
List *
catalog_kek_names(bool deleted)
{
	static CatalogPlan p = {
		"SELECT name FROM registry.keks WHERE NOT deleted OR $1 ORDER BY name COLLATE \"C\"",
		1, {BOOLOID}
	};
	Datum		values[1] = {BoolGetDatum(deleted)};
	MemoryContext cxt = catalog_connect();
	List	   *out;

	catalog_run(&p, values, NULL, SPI_OK_SELECT);
	out = text_column(cxt);
	catalog_disconnect();
	return out;
}

/*
 * See catalog_keys.h: the names of the KEKs with a DEK whose subject
 * starts with one of the prefixes (soft-deleted DEKs too if deleted)
 */
List *
catalog_kek_names_of_dek_subjects(List *subject_prefixes, bool deleted)
{
	static CatalogPlan p = {
		"SELECT DISTINCT d.kek_name COLLATE \"C\" FROM registry.deks d"
		" WHERE (NOT d.deleted OR $1)"
		" AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS p(prefix)"
		" WHERE starts_with(d.subject, p.prefix)) ORDER BY 1",
		2, {BOOLOID, TEXTARRAYOID}
	};
	Datum	   *prefixes = palloc(sizeof(Datum) * list_length(subject_prefixes));
	Datum		values[2];
	MemoryContext cxt;
	List	   *out;
	ListCell   *lc;

	foreach(lc, subject_prefixes)
		prefixes[foreach_current_index(lc)] = CStringGetTextDatum((char *) lfirst(lc));
	values[0] = BoolGetDatum(deleted);
	values[1] = PointerGetDatum(construct_array(prefixes, list_length(subject_prefixes),
												TEXTOID, -1, false, TYPALIGN_INT));
	cxt = catalog_connect();
	catalog_run(&p, values, NULL, SPI_OK_SELECT);
	out = text_column(cxt);
	catalog_disconnect();
	return out;
}

/*
 * See catalog_keys.h: false when a KEK of that name exists already; one
 * INSERT, soft-deleted from the start when k->deleted
 */
bool
catalog_kek_insert(const CatalogKek *k)
{
	static CatalogPlan p = {
		"INSERT INTO registry.keks (name, kms_type, kms_key_id, kms_props, doc, shared, deleted)"
		" VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7) ON CONFLICT (name) DO NOTHING",
		7, {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID, BOOLOID}
	};
	char		nulls[8] = "       ";
	Datum		values[7];

	values[0] = CStringGetTextDatum(k->name);
	values[1] = CStringGetTextDatum(k->kms_type);
	values[2] = CStringGetTextDatum(k->kms_key_id);
	values[3] = CStringGetTextDatum(k->kms_props);
	values[4] = text_param(k->doc, nulls, 4);
	values[5] = BoolGetDatum(k->shared);
	values[6] = BoolGetDatum(k->deleted);
	return run_counted(&p, values, nulls, SPI_OK_INSERT) == 1;
}

/* See catalog_keys.h: the KEK's kms_props, doc and shared */
void
catalog_kek_update(const CatalogKek *k)
{
	static CatalogPlan p = {
		"UPDATE registry.keks SET kms_props = $2::jsonb, doc = $3, shared = $4"
		" WHERE name = $1 AND NOT deleted",
		4, {TEXTOID, TEXTOID, TEXTOID, BOOLOID}
	};
	char		nulls[5] = "    ";
	Datum		values[4];

	values[0] = CStringGetTextDatum(k->name);
	values[1] = CStringGetTextDatum(k->kms_props);
	values[2] = text_param(k->doc, nulls, 2);
	values[3] = BoolGetDatum(k->shared);
	(void) run_counted(&p, values, nulls, SPI_OK_UPDATE);
}

/* See catalog_keys.h: how many rows changed */
int
catalog_kek_set_deleted(const char *name, bool deleted)
{
	static CatalogPlan p = {
		"UPDATE registry.keks SET deleted = $2 WHERE name = $1 AND deleted <> $2",
		2, {TEXTOID, BOOLOID}
	};
	Datum		values[2] = {CStringGetTextDatum(name), BoolGetDatum(deleted)};

	return (int) run_counted(&p, values, NULL, SPI_OK_UPDATE);
}

/* See catalog_keys.h: how many rows went */
int
catalog_kek_delete(const char *name)
{
	static CatalogPlan p = {
		"DELETE FROM registry.keks WHERE name = $1", 1, {TEXTOID}
	};
	Datum		values[1] = {CStringGetTextDatum(name)};

	return (int) run_counted(&p, values, NULL, SPI_OK_DELETE);
}

/*
 * See catalog_keys.h: wait for the DEKs being created to commit or roll
 * back, and keep new ones out until this transaction ends (SHARE on
 * registry.deks, which each writer's ROW EXCLUSIVE conflicts with), so
 * that the count that follows sees them all
 */
void
catalog_dek_writers_wait(void)
{
	Oid			relid = get_relname_relid("deks", get_namespace_oid("registry", false));

	if (!OidIsValid(relid))
		elog(ERROR, "registry.deks not found");
	LockRelationOid(relid, ShareLock);
}

/* See catalog_keys.h: the DEKs of a KEK (live_only: those not soft-deleted) */
int64
catalog_dek_count(const char *kek_name, bool live_only)
{
	static CatalogPlan p = {
		"SELECT count(*) FROM registry.deks WHERE kek_name = $1 AND (NOT deleted OR NOT $2)",
		2, {TEXTOID, BOOLOID}
	};
	Datum		values[2] = {CStringGetTextDatum(kek_name), BoolGetDatum(live_only)};
	bool		isnull;
	int64		n;

	(void) catalog_connect();
	catalog_run(&p, values, NULL, SPI_OK_SELECT);
	n = DatumGetInt64(catalog_datum(catalog_one_row(&p), 1, &isnull));
	catalog_disconnect();
	return n;
}

/*
 * See catalog_keys.h: one version of a DEK, or its latest
 * (CATALOG_DEK_LATEST); deleted: soft-deleted ones count too
 */
bool
catalog_dek_get(const char *kek_name, const char *subject, const char *algorithm,
				int32 version, bool deleted, CatalogDek *out)
{
	static CatalogPlan p = {
		"SELECT " DEK_COLUMNS " FROM registry.deks"
		" WHERE kek_name = $1 AND subject = $2 AND algorithm = $3"
		" AND (version = $4 OR $4 = -1) AND (NOT deleted OR $5)"
		" ORDER BY version DESC LIMIT 1",
		5, {TEXTOID, TEXTOID, TEXTOID, INT4OID, BOOLOID}
	};
	Datum		values[5];
	MemoryContext cxt = catalog_connect();
	bool		found;

	dek_key_params(values, kek_name, subject, algorithm, version);
	values[4] = BoolGetDatum(deleted);
	catalog_run(&p, values, NULL, SPI_OK_SELECT);
	found = SPI_processed == 1;
	if (found)
		dek_from_row(SPI_tuptable->vals[0], cxt, out);
	catalog_disconnect();
	return found;
}

/* See catalog_keys.h: the subjects that have DEKs under a KEK, sorted */
List *
catalog_dek_subjects(const char *kek_name, bool deleted)
{
	static CatalogPlan p = {
		"SELECT DISTINCT subject COLLATE \"C\" FROM registry.deks"
		" WHERE kek_name = $1 AND (NOT deleted OR $2) ORDER BY 1",
		2, {TEXTOID, BOOLOID}
	};
	Datum		values[2] = {CStringGetTextDatum(kek_name), BoolGetDatum(deleted)};
	MemoryContext cxt = catalog_connect();
	List	   *out;

	catalog_run(&p, values, NULL, SPI_OK_SELECT);
	out = text_column(cxt);
	catalog_disconnect();
	return out;
}

/* See catalog_keys.h: the version numbers of a DEK, ascending (an IntList) */
List *
catalog_dek_versions(const char *kek_name, const char *subject, const char *algorithm,
					 bool deleted)
{
	static CatalogPlan p = {
		"SELECT version FROM registry.deks"
		" WHERE kek_name = $1 AND subject = $2 AND algorithm = $3 AND (NOT deleted OR $4)"
		" ORDER BY version",
		4, {TEXTOID, TEXTOID, TEXTOID, BOOLOID}
	};
	Datum		values[4];
	MemoryContext cxt = catalog_connect();
	MemoryContext old;
	List	   *out = NIL;

	values[0] = CStringGetTextDatum(kek_name);
	values[1] = CStringGetTextDatum(subject);
	values[2] = CStringGetTextDatum(algorithm);
	values[3] = BoolGetDatum(deleted);
	catalog_run(&p, values, NULL, SPI_OK_SELECT);
	old = MemoryContextSwitchTo(cxt);
	for (uint64 i = 0; i < SPI_processed; i++)
		out = lappend_int(out, catalog_int32(SPI_tuptable->vals[i], 1));
	MemoryContextSwitchTo(old);
	catalog_disconnect();
	return out;
}

/*
 * See catalog_keys.h: false when that version of the DEK exists already
 * (or a concurrent transaction created it and committed); one INSERT,
 * soft-deleted from the start when d->deleted
 */
bool
catalog_dek_insert(const CatalogDek *d)
{
	static CatalogPlan p = {
		"INSERT INTO registry.deks"
		" (kek_name, subject, algorithm, version, encrypted_key_material, deleted)"
		" VALUES ($1, $2, $3, $4, $5, $6)"
		" ON CONFLICT (kek_name, subject, algorithm, version) DO NOTHING",
		6, {TEXTOID, TEXTOID, TEXTOID, INT4OID, TEXTOID, BOOLOID}
	};
	Datum		values[6];

	values[0] = CStringGetTextDatum(d->kek_name);
	values[1] = CStringGetTextDatum(d->subject);
	values[2] = CStringGetTextDatum(d->algorithm);
	values[3] = Int32GetDatum(d->version);
	values[4] = CStringGetTextDatum(d->encrypted_key_material);
	values[5] = BoolGetDatum(d->deleted);
	return run_counted(&p, values, NULL, SPI_OK_INSERT) == 1;
}

/*
 * See catalog_keys.h: soft-delete or undelete one version of a DEK, or
 * all of them (version 0); how many rows changed
 */
int
catalog_dek_set_deleted(const char *kek_name, const char *subject, const char *algorithm,
						int32 version, bool deleted)
{
	static CatalogPlan p = {
		"UPDATE registry.deks SET deleted = $5"
		" WHERE kek_name = $1 AND subject = $2 AND algorithm = $3"
		" AND (version = $4 OR $4 = 0) AND deleted <> $5",
		5, {TEXTOID, TEXTOID, TEXTOID, INT4OID, BOOLOID}
	};
	Datum		values[5];

	dek_key_params(values, kek_name, subject, algorithm, version);
	values[4] = BoolGetDatum(deleted);
	return (int) run_counted(&p, values, NULL, SPI_OK_UPDATE);
}

/* See catalog_keys.h: hard-delete one version of a DEK, or all (version 0) */
int
catalog_dek_delete(const char *kek_name, const char *subject, const char *algorithm,
				   int32 version)
{
	static CatalogPlan p = {
		"DELETE FROM registry.deks"
		" WHERE kek_name = $1 AND subject = $2 AND algorithm = $3 AND (version = $4 OR $4 = 0)",
		4, {TEXTOID, TEXTOID, TEXTOID, INT4OID}
	};
	Datum		values[4];

	dek_key_params(values, kek_name, subject, algorithm, version);
	return (int) run_counted(&p, values, NULL, SPI_OK_DELETE);
}

/* See catalog_keys.h: is that version (0: any) of the DEK there and not soft-deleted? */
bool
catalog_dek_live_exists(const char *kek_name, const char *subject, const char *algorithm,
						int32 version)
{
	static CatalogPlan p = {
		"SELECT 1 FROM registry.deks WHERE kek_name = $1 AND subject = $2 AND algorithm = $3"
		" AND (version = $4 OR $4 = 0) AND NOT deleted LIMIT 1",
		4, {TEXTOID, TEXTOID, TEXTOID, INT4OID}
	};
	Datum		values[4];

	dek_key_params(values, kek_name, subject, algorithm, version);
	return run_counted(&p, values, NULL, SPI_OK_SELECT) > 0;
}
