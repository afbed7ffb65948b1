/*-------------------------------------------------------------------------
 *
 * catalog.c
 *	  All SQL the registry's C code runs against its tables, as SPI plans
 *	  kept for the life of the backend.  Every name is schema-qualified and
 *	  every value is a parameter, so callers' search_path and input cannot
 *	  change a query.  Each call connects to SPI and finishes before it
 *	  returns; see catalog.h for where its results live.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/jsonb.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "registry.h"

/* the columns of plan_schema_any_context */
#define Anum_schema_context			1
#define Anum_schema_id				2
#define Anum_schema_schema_type		3
#define Anum_schema_schema			4
#define Anum_schema_refs			5
#define Anum_schema_metadata		6
#define Anum_schema_rule_set		7
#define Anum_schema_fingerprint		8

/* the columns of plan_parse_refs */
#define Anum_ref_name				1
#define Anum_ref_subject			2
#define Anum_ref_version			3
#define Anum_ref_kind				4
#define Anum_ref_version_kind		5

static CatalogPlan plan_context_exists = {
	"SELECT 1 FROM registry.contexts WHERE context = $1",
	1, {TEXTOID}
};
static CatalogPlan plan_ensure_context = {
	"INSERT INTO registry.contexts (context) VALUES ($1) ON CONFLICT (context) DO NOTHING",
	1, {TEXTOID}
};
static CatalogPlan plan_insert_subject = {
	"INSERT INTO registry.subjects (context, subject) VALUES ($1, $2) ON CONFLICT (context, subject) DO NOTHING",
	2, {TEXTOID, TEXTOID}
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

static CatalogPlan plan_schema_any_context = {
	"SELECT context, id, schema_type, schema, refs::text, metadata::text, rule_set::text, fingerprint "
	"FROM registry.schemas WHERE id = $1 ORDER BY context <> '.', context LIMIT 1",
	1, {INT4OID}
};

/* id NULL: the insert trigger draws one */
static CatalogPlan plan_insert_schema = {
	"INSERT INTO registry.schemas (context, id, schema_type, schema, refs, metadata, rule_set, fingerprint) "
	"VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8) ON CONFLICT DO NOTHING RETURNING id",
	8, {TEXTOID, INT4OID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, BYTEAOID}
};
static CatalogPlan plan_subject_modes = {
	"SELECT DISTINCT m.mode FROM registry.modes m WHERE m.context = $1 AND m.subject <> ''",
	1, {TEXTOID}
};
static CatalogPlan plan_insert_version = {
	"INSERT INTO registry.subject_versions (context, subject, version, schema_id) VALUES ($1, $2, $3, $4)",
	4, {TEXTOID, TEXTOID, INT4OID, INT4OID}
};

/*
 * A version's columns with its schema's fingerprint.  The fingerprint is a
 * subquery by the schema's whole key: a plan kept from a near-empty table
 * (a join's) could otherwise scan every schema of the context per version.
 */
/* any live version in a mode's scope: global (".", ""), a context ("") or a subject */
static CatalogPlan plan_scope_has_live_versions = {
	"SELECT 1 FROM registry.subject_versions sv WHERE NOT sv.deleted"
	" AND ($1 = '.' AND $2 = '' OR sv.context = $1 AND ($2 = '' OR sv.subject = $2)) LIMIT 1",
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_type_counts = {
	"SELECT s.schema_type, count(*), count(*) FILTER (WHERE v.deleted) "
	"FROM registry.subject_versions v "
	"JOIN registry.schemas s ON s.context = v.context AND s.id = v.schema_id "
	"GROUP BY s.schema_type ORDER BY s.schema_type",
	0, {InvalidOid}
};
static CatalogPlan plan_parse_refs = {
	"SELECT r->>'name', r->>'subject', r->>'version', pg_catalog.jsonb_typeof(r), "
	"pg_catalog.jsonb_typeof(r->'version') "
	"FROM pg_catalog.jsonb_array_elements($1::jsonb) AS r",
	1, {TEXTOID}
};
static CatalogPlan plan_json_type = {
	"SELECT pg_catalog.jsonb_typeof($1::jsonb)",
	1, {TEXTOID}
};
static CatalogPlan plan_refs_to_json = {
	"SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', n, 'subject', s, 'version', v) ORDER BY o), '[]')::text "
	"FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS t(n, s, v, o)",
	3, {TEXTARRAYOID, TEXTARRAYOID, INT4ARRAYOID}
};
static void fill_schema(HeapTuple tup, MemoryContext cxt, CatalogSchema *out);

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

/*
 * Make the catalog's search_path the session's own, for a process that runs
 * nothing else (the HTTP worker): catalog_pin_search_path() then has
 * nothing to do.  Outside a transaction is fine: the setting's check reads
 * no catalog.
 */
void
catalog_set_session_search_path(void)
{
	SetConfigOption("search_path", CATALOG_SEARCH_PATH, PGC_USERSET, PGC_S_SESSION);
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

/* A fingerprint as a bytea value (see catalog.h). */
Datum
catalog_fingerprint_datum(const uint8 *fp)
{
	bytea	   *b = palloc(VARHDRSZ + REGISTRY_FINGERPRINT_LEN);

	SET_VARSIZE(b, VARHDRSZ + REGISTRY_FINGERPRINT_LEN);
	memcpy(VARDATA(b), fp, REGISTRY_FINGERPRINT_LEN);
	return PointerGetDatum(b);
}

/* The fingerprint column col of tup, into out. */
static void
copy_fingerprint(HeapTuple tup, int col, uint8 *out)
{
	bool		isnull;
	bytea	   *b = DatumGetByteaPP(catalog_datum(tup, col, &isnull));

	if (VARSIZE_ANY_EXHDR(b) != REGISTRY_FINGERPRINT_LEN)
		elog(ERROR, "unexpected fingerprint length %d", (int) VARSIZE_ANY_EXHDR(b));
	memcpy(out, VARDATA_ANY(b), REGISTRY_FINGERPRINT_LEN);
}

/* --- contexts, subjects, ids ------------------------------------------------ */

/* The context's row, inserted if missing; runs inside a catalog call. */
static void
ensure_context(const char *context)
{
	Datum		v[1] = {CStringGetTextDatum(context)};

	catalog_run(&plan_context_exists, v, NULL, SPI_OK_SELECT);
	if (SPI_processed == 0)
		catalog_run(&plan_ensure_context, v, NULL, SPI_OK_INSERT);
}

/*
 * Lock the subject's row, creating the subject (and its context) first
 * when it has none.
 */
static void
lock_subject(const char *context, const char *subject)
{
	Datum		v[2];

	if (catalog_lock_subject_row(context, subject))
		return;
	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	ensure_context(context);
	catalog_run(&plan_insert_subject, v, NULL, SPI_OK_INSERT);
	catalog_disconnect();
	if (!catalog_lock_subject_row(context, subject))
		elog(ERROR, "could not lock subject \"%s\"", subject);
}

/*
 * Create the subject row if it is new, then lock it: every writer of one
 * subject (SQL API, REST, a DBA's INSERT) passes here, so version numbers
 * and compatibility checks see each other's committed work.  Returns the
 * subject's highest version number (soft-deleted ones count), read under
 * the lock.
 */
int32
catalog_lock_subject(const char *context, const char *subject)
{
	lock_subject(context, subject);
	return catalog_max_version(context, subject);
}

/*
 * catalog_lock_subject(), with the schema of the subject's latest live
 * version read under the lock too: into *latest, *has_latest false when
 * the subject has no live version.
 */
int32
catalog_lock_subject_latest(const char *context, const char *subject, CatalogSchema *latest,
							bool *has_latest)
{
	lock_subject(context, subject);
	return catalog_max_version_latest(context, subject, latest, has_latest);
}

/* The context's row, inserted if missing (a context nothing has used yet). */
void
catalog_ensure_context(const char *context)
{
	catalog_connect();
	ensure_context(context);
	catalog_disconnect();
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

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	v[2] = Int32GetDatum(id);
	ensure_context(context);
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

/* --- schemas and versions --------------------------------------------------- */

/* A schema row (plan_schema_any_context's columns) into out, its strings in cxt. */
static void
fill_schema(HeapTuple tup, MemoryContext cxt, CatalogSchema *out)
{
	out->context = catalog_text(tup, Anum_schema_context, cxt);
	out->id = catalog_int32(tup, Anum_schema_id);
	out->schema_type = catalog_text(tup, Anum_schema_schema_type, cxt);
	out->schema = catalog_text(tup, Anum_schema_schema, cxt);
	out->refs = catalog_text(tup, Anum_schema_refs, cxt);
	out->metadata = catalog_text(tup, Anum_schema_metadata, cxt);
	out->rule_set = catalog_text(tup, Anum_schema_rule_set, cxt);
	copy_fingerprint(tup, Anum_schema_fingerprint, out->fingerprint);
}

/* Run a plan that answers at most one schema row, into out; false when none. */
static bool
schema_call(CatalogPlan *plan, Datum *v, CatalogSchema *out)
{
	HeapTuple	tup;
	bool		found;
	MemoryContext caller = catalog_connect();

	catalog_run(plan, v, NULL, SPI_OK_SELECT);
	found = SPI_processed > 0;
	if (found)
	{
		tup = SPI_tuptable->vals[0];
		fill_schema(tup, caller, out);
	}
	catalog_disconnect();
	return found;
}

/*
 * The schema row with this id in the default context, else in the first
 * context (by name) that has it: the schema registry.schema_by_id(id)
 * answers without a subject.
 */
bool
catalog_schema_any_context(int32 id, CatalogSchema *out)
{
	Datum		v[1];

	v[0] = Int32GetDatum(id);
	return schema_call(&plan_schema_any_context, v, out);
}

/*
 * Insert a schema row, with its id (s->id 0: the insert trigger draws
 * one): the id it got, 0 when a concurrent transaction committed the same
 * identity (or took the id) first, after waiting for it, as unique indexes
 * do.
 */
int32
catalog_insert_schema(const CatalogSchema *s)
{
	Datum		v[8];
	char		nulls[8] = "        ";
	int32		id;

	catalog_connect();
	v[0] = CStringGetTextDatum(s->context);
	v[1] = Int32GetDatum(s->id);
	nulls[1] = s->id > 0 ? ' ' : 'n';
	v[2] = CStringGetTextDatum(s->schema_type);
	v[3] = CStringGetTextDatum(s->schema);
	v[4] = CStringGetTextDatum(s->refs ? s->refs : "[]");
	if (s->metadata)
		v[5] = CStringGetTextDatum(s->metadata);
	else
		nulls[5] = 'n';
	if (s->rule_set)
		v[6] = CStringGetTextDatum(s->rule_set);
	else
		nulls[6] = 'n';
	v[7] = catalog_fingerprint_datum(s->fingerprint);
	catalog_run(&plan_insert_schema, v, nulls, SPI_OK_INSERT_RETURNING);
	id = SPI_processed == 1 ? catalog_int32(SPI_tuptable->vals[0], 1) : 0;
	catalog_disconnect();
	return id;
}

/* Insert the row of a subject's version (its trigger checks the rules). */
void
catalog_insert_version(const char *context, const char *subject,
					   int32 version, int32 schema_id)
{
	Datum		v[4];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	v[2] = Int32GetDatum(version);
	v[3] = Int32GetDatum(schema_id);
	catalog_run(&plan_insert_version, v, NULL, SPI_OK_INSERT);
	catalog_disconnect();
}

/* --- settings ------------------------------------------------------------------ */

/*
 * Does the scope of a mode hold a live subject version?  context or
 * subject may be NULL (a raw INSERT), compared as SQL compares NULL.
 */
bool
catalog_scope_has_live_versions(const char *context, const char *subject)
{
	Datum		v[2];
	char		nulls[2] = {context ? ' ' : 'n', subject ? ' ' : 'n'};
	bool		has;

	catalog_connect();
	v[0] = context ? CStringGetTextDatum(context) : (Datum) 0;
	v[1] = subject ? CStringGetTextDatum(subject) : (Datum) 0;
	catalog_run(&plan_scope_has_live_versions, v, nulls, SPI_OK_SELECT);
	has = SPI_processed > 0;
	catalog_disconnect();
	return has;
}

/* The modes that subjects of the context set for themselves, each once; *n how many. */
char	  **
catalog_context_subject_modes(const char *context, int *n)
{
	MemoryContext cxt = catalog_connect();
	Datum		v[1];
	char	  **modes;

	v[0] = CStringGetTextDatum(context);
	catalog_run(&plan_subject_modes, v, NULL, SPI_OK_SELECT);
	*n = (int) SPI_processed;
	modes = MemoryContextAlloc(cxt, sizeof(char *) * Max(*n, 1));
	for (int i = 0; i < *n; i++)
		modes[i] = catalog_text(SPI_tuptable->vals[i], 1, cxt);
	catalog_disconnect();
	return modes;
}

/* --- references ------------------------------------------------------------------ */

/* One element of a references array (a row of plan_parse_refs) into out. */
static void
parse_ref(HeapTuple tup, MemoryContext caller, CatalogRef *out)
{
	char	   *kind = catalog_text(tup, Anum_ref_kind, CurrentMemoryContext);
	char	   *version = catalog_text(tup, Anum_ref_version, CurrentMemoryContext);
	char	   *version_kind = catalog_text(tup, Anum_ref_version_kind, CurrentMemoryContext);
	char	   *end;
	long		ver;

	out->name = catalog_text(tup, Anum_ref_name, caller);
	out->subject = catalog_text(tup, Anum_ref_subject, caller);
	if (kind == NULL || strcmp(kind, "object") != 0 || out->name == NULL ||
		out->subject == NULL || version == NULL ||
		version_kind == NULL || strcmp(version_kind, "number") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid schema reference"),
				 errdetail("Each reference needs a name, a subject and a version.")));
	errno = 0;
	ver = strtol(version, &end, 10);
	if (*end != '\0' || errno != 0 || ver < -1 || ver == 0 || ver > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid version %s in the reference to subject \"%s\"",
						version, out->subject)));
	out->version = (int32) ver;
}


/* Subject versions per schema type (live and soft-deleted), for GET /metrics. */
CatalogTypeCount *
catalog_schema_type_counts(int *n)
{
	MemoryContext caller = catalog_connect();
	CatalogTypeCount *out;
	uint64		i;

	catalog_run(&plan_type_counts, NULL, NULL, SPI_OK_SELECT);
	*n = (int) SPI_processed;
	out = MemoryContextAllocZero(caller, sizeof(CatalogTypeCount) * (SPI_processed + 1));
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;

		out[i].schema_type = catalog_text(tup, 1, caller);
		out[i].versions = DatumGetInt64(catalog_datum(tup, 2, &isnull));
		out[i].deleted = DatumGetInt64(catalog_datum(tup, 3, &isnull));
	}
	catalog_disconnect();
	return out;
}

/*
 * Read a Confluent references array [{"name","subject","version"}].  A
 * malformed array is an invalid schema (42201), as Confluent answers.
 */
CatalogRef *
catalog_parse_refs(const char *refs_json, int *n)
{
	Datum		v[1];
	CatalogRef *out;
	uint64		i;
	char	   *type;
	MemoryContext caller;

	/* the common case needs no query */
	if (strcmp(refs_json, "[]") == 0)
	{
		*n = 0;
		return palloc0(sizeof(CatalogRef));
	}
	caller = catalog_connect();
	v[0] = CStringGetTextDatum(refs_json);
	catalog_run(&plan_json_type, v, NULL, SPI_OK_SELECT);
	type = catalog_text(catalog_one_row(&plan_json_type), Anum_value, CurrentMemoryContext);
	if (type == NULL || strcmp(type, "array") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid schema references"),
				 errdetail("References must be a JSON array of objects with name, subject and version.")));
	catalog_run(&plan_parse_refs, v, NULL, SPI_OK_SELECT);
	*n = (int) SPI_processed;
	out = MemoryContextAllocZero(caller, sizeof(CatalogRef) * (SPI_processed + 1));
	for (i = 0; i < SPI_processed; i++)
		parse_ref(SPI_tuptable->vals[i], caller, &out[i]);
	catalog_disconnect();
	return out;
}

/* References as the jsonb text of a Confluent references array. */
char *
catalog_refs_to_json(const CatalogRef *refs, int n)
{
	Datum	   *names;
	Datum	   *subjects;
	Datum	   *versions;
	Datum		v[3];
	int			i;
	char	   *json;
	MemoryContext caller;

	if (n == 0)
		return pstrdup("[]");
	caller = catalog_connect();
	names = palloc(sizeof(Datum) * n);
	subjects = palloc(sizeof(Datum) * n);
	versions = palloc(sizeof(Datum) * n);
	for (i = 0; i < n; i++)
	{
		names[i] = CStringGetTextDatum(refs[i].name);
		subjects[i] = CStringGetTextDatum(refs[i].subject);
		versions[i] = Int32GetDatum(refs[i].version);
	}
	v[0] = PointerGetDatum(construct_array(names, n, TEXTOID, -1, false, TYPALIGN_INT));
	v[1] = PointerGetDatum(construct_array(subjects, n, TEXTOID, -1, false, TYPALIGN_INT));
	v[2] = PointerGetDatum(construct_array(versions, n, INT4OID, 4, true, TYPALIGN_INT));
	catalog_run(&plan_refs_to_json, v, NULL, SPI_OK_SELECT);
	json = catalog_text(catalog_one_row(&plan_refs_to_json), Anum_value, caller);
	catalog_disconnect();
	return json;
}

/* --- aliases ------------------------------------------------------------------ */
