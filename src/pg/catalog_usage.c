/*-------------------------------------------------------------------------
 *
 * catalog_usage.c
 *	  registry.schema_reads and registry.subject_reads: the read counts a
 *	  flush adds (usage.c counts them in shared memory).
 *
 * A flush is one statement per table whatever the number of keys: the
 * rows go in as arrays, unnested, and a key already there adds its reads,
 * takes the later last read and the union of the readers (64 names at
 * most, in order).  Nobody but the registry writes the tables, so the
 * statements run as their owner, whoever flushes (the HTTP worker, or an
 * admin's registry.flush_usage()).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "catalog_internal.h"

/* the rows, as arrays, and each reader with the 1-based row it read */
#define USAGE_ROWS(key_columns, key_types) \
	"SELECT " key_columns ", e.n, e.unlisted, e.at, COALESCE(r.names, '{}') " \
	"FROM ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::" key_types "[]), " \
	"pg_catalog.unnest($3::int8[]), pg_catalog.unnest($4::int8[]), " \
	"pg_catalog.unnest($5::timestamptz[])) WITH ORDINALITY AS e(context, k, n, unlisted, at, i) " \
	"LEFT JOIN (SELECT x.i, pg_catalog.array_agg(DISTINCT x.name ORDER BY x.name) AS names " \
	"FROM ROWS FROM (pg_catalog.unnest($6::int8[]), pg_catalog.unnest($7::text[])) AS x(i, name) " \
	"GROUP BY x.i) r ON r.i = e.i "

/* what a key already there becomes */
#define USAGE_MERGE \
	"DO UPDATE SET read_count = t.read_count + excluded.read_count, " \
	"unlisted_reads = t.unlisted_reads + excluded.unlisted_reads, " \
	"last_read = GREATEST(t.last_read, excluded.last_read), " \
	"readers = ARRAY(SELECT DISTINCT u.x FROM pg_catalog.unnest(t.readers || excluded.readers) AS u(x) " \
	"ORDER BY u.x LIMIT 64)"

static CatalogPlan plan_schema_reads = {
	"INSERT INTO registry.schema_reads AS t "
	"(context, schema_id, read_count, unlisted_reads, last_read, readers) "
	USAGE_ROWS("e.context, e.k", "int4")
	"ON CONFLICT (context, schema_id) " USAGE_MERGE,
	7, {TEXTARRAYOID, INT4ARRAYOID, INT8ARRAYOID, INT8ARRAYOID, TIMESTAMPTZARRAYOID,
	INT8ARRAYOID, TEXTARRAYOID}
};
static CatalogPlan plan_subject_reads = {
	"INSERT INTO registry.subject_reads AS t "
	"(context, subject, read_count, unlisted_reads, last_read, readers) "
	USAGE_ROWS("e.context, e.k", "text")
	"ON CONFLICT (context, subject) " USAGE_MERGE,
	7, {TEXTARRAYOID, TEXTARRAYOID, INT8ARRAYOID, INT8ARRAYOID, TIMESTAMPTZARRAYOID,
	INT8ARRAYOID, TEXTARRAYOID}
};

/* a one-dimensional array of n Datums of a type */
static Datum
array_of(Datum *elems, int n, Oid type)
{
	int16		typlen;
	bool		typbyval;
	char		typalign;

	get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
	return PointerGetDatum(construct_array(elems, n, type, typlen, typbyval, typalign));
}

/* See catalog.h */
void
catalog_usage_add(const CatalogUsageRow *rows, int n, bool subjects)
{
	Datum		values[7];
	Datum	   *contexts;
	Datum	   *keys;
	Datum	   *reads;
	Datum	   *unlisted;
	Datum	   *at;
	Datum	   *reader_rows;
	Datum	   *reader_names;
	int			nreaders = 0;
	Oid			owner;
	CatalogUserSave save;

	if (n == 0 || !catalog_table_owner(subjects ? "subject_reads" : "schema_reads", &owner))
		return;
	contexts = palloc(sizeof(Datum) * n);
	keys = palloc(sizeof(Datum) * n);
	reads = palloc(sizeof(Datum) * n);
	unlisted = palloc(sizeof(Datum) * n);
	at = palloc(sizeof(Datum) * n);
	reader_rows = palloc(sizeof(Datum) * n * CATALOG_USAGE_MAX_READERS);
	reader_names = palloc(sizeof(Datum) * n * CATALOG_USAGE_MAX_READERS);
	for (int i = 0; i < n; i++)
	{
		contexts[i] = CStringGetTextDatum(rows[i].context);
		keys[i] = subjects ? CStringGetTextDatum(rows[i].subject) : Int32GetDatum(rows[i].id);
		reads[i] = Int64GetDatum(rows[i].reads);
		unlisted[i] = Int64GetDatum(rows[i].unlisted_reads);
		at[i] = TimestampTzGetDatum(rows[i].last_read);
		for (int j = 0; j < rows[i].nreaders; j++)
		{
			reader_rows[nreaders] = Int64GetDatum(i + 1);
			reader_names[nreaders++] = CStringGetTextDatum(rows[i].readers[j]);
		}
	}
	values[0] = array_of(contexts, n, TEXTOID);
	values[1] = array_of(keys, n, subjects ? TEXTOID : INT4OID);
	values[2] = array_of(reads, n, INT8OID);
	values[3] = array_of(unlisted, n, INT8OID);
	values[4] = array_of(at, n, TIMESTAMPTZOID);
	values[5] = array_of(reader_rows, nreaders, INT8OID);
	values[6] = array_of(reader_names, nreaders, TEXTOID);
	catalog_connect();
	catalog_become_owner(owner, &save);
	catalog_run(subjects ? &plan_subject_reads : &plan_schema_reads, values, NULL,
				SPI_OK_INSERT);
	catalog_restore_user(&save);
	catalog_disconnect();
}
