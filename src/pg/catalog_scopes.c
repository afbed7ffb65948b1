/*-------------------------------------------------------------------------
 *
 * catalog_scopes.c
 *	  The direct reads of what is kept per scope (the global scope, a
 *	  context, a subject): the config and mode rows of a subject's scopes,
 *	  a subject's alias, and a context's id sequence, through the catalog's
 *	  index scans (catalog_scan.c) and the scope cache (scope_cache.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_trigger.h"
#include "commands/sequence.h"
#include "commands/trigger.h"
#include "utils/jsonb.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "registry.h"

static void scan_scope_rows(const char *context, const char *subject, CatalogScopeRows *out);
static char *scan_subject_alias(const char *context, const char *subject);

/* Does the scope (context, subject) appear in the first n of keys? */
static bool
seen_scope(const char *(*keys)[2], int n, const char *context, const char *subject)
{
	for (int i = 0; i < n; i++)
		if (strcmp(keys[i][0], context) == 0 && strcmp(keys[i][1], subject) == 0)
			return true;
	return false;
}

/*
 * The scopes whose config and mode can be in force for a subject: its own,
 * its context's, the default context's and the global one; each once.
 */
static int
scope_keys(const char *context, const char *subject, const char *(*keys)[2])
{
	const char *all[4][2] = {{context, subject}, {context, ""}, {".", ""}, {".__GLOBAL", ""}};
	int			n = 0;

	for (int i = 0; i < 4; i++)
		if (!seen_scope(keys, n, all[i][0], all[i][1]))
		{
			keys[n][0] = all[i][0];
			keys[n][1] = all[i][1];
			n++;
		}
	return n;
}

/* Open a scan of registry.<table> (config or modes) at one scope. */
static void
scope_open(CatalogScan *s, const char *table, const char *index, const char *context,
		   const char *subject)
{
	catalog_scan_open(s, table, index);
	catalog_scan_text_key(s, 1, context);
	catalog_scan_text_key(s, 2, subject);
}

/* Point an open scope scan at another scope. */
static void
scope_rekey(CatalogScan *s, const char *context, const char *subject)
{
	catalog_scan_rekey(s);
	catalog_scan_text_key(s, 1, context);
	catalog_scan_text_key(s, 2, subject);
}

/* The config row of the scan into row, its strings in cxt. */
static void
fill_config_row(CatalogScan *s, MemoryContext cxt, CatalogConfigRow *row)
{
	bool		isnull;
	Datum		d;

	row->context = catalog_scan_text(s, "context", cxt);
	row->subject = catalog_scan_text(s, "subject", cxt);
	row->compatibility = catalog_scan_text(s, "compatibility", cxt);
	d = catalog_scan_datum(s, "normalize", &isnull);
	row->has_normalize = !isnull;
	row->normalize = !isnull && DatumGetBool(d);
	row->settings = catalog_scan_jsonb_text(s, "settings", cxt);
}

/*
 * Is a trigger of this name on the table, for these events on every row
 * (no WHEN condition, no column list), enabled ALWAYS (so that it fires in
 * every replication role)?
 */
static bool
has_always_trigger(Relation rel, const char *name, int16 type)
{
	TriggerDesc *td = rel->trigdesc;

	for (int i = 0; td != NULL && i < td->numtriggers; i++)
	{
		Trigger    *t = &td->triggers[i];

		if (strcmp(t->tgname, name) == 0)
			return t->tgenabled == TRIGGER_FIRES_ALWAYS && (t->tgtype & type) == type &&
				t->tgqual == NULL && t->tgnattr == 0;
	}
	return false;
}

/*
 * The generation at which settings may come from the scope cache now, 0
 * when they must be scanned.  The tables the read needs (config, and modes
 * unless config_only) are opened as a scan opens them (locks, privileges),
 * and each must have the triggers that move the generation when a row of
 * theirs changes.
 */
static uint64
scope_cache_open(bool config_only)
{
	uint64		gen = scope_cache_generation();
	const int16 rows = TRIGGER_TYPE_ROW | TRIGGER_TYPE_INSERT | TRIGGER_TYPE_UPDATE |
	TRIGGER_TYPE_DELETE;
	const char *tables[2][3] = {
		{"config", "config_after_write", "config_after_truncate"},
		{"modes", "modes_after_write", "modes_after_truncate"},
	};

	if (gen == 0)
		return 0;
	for (int i = 0; i < (config_only ? 1 : 2); i++)
	{
		Relation	rel = catalog_open_table(tables[i][0]);

		if (!has_always_trigger(rel, tables[i][1], rows) ||
			!has_always_trigger(rel, tables[i][2], TRIGGER_TYPE_TRUNCATE))
			gen = 0;
		table_close(rel, NoLock);
	}
	return gen;
}

/*
 * The config rows and mode rows that can be in force for a subject, for
 * config_scope.c to merge: kept ones while they cannot have changed, else
 * scanned.
 */
void
catalog_scope_rows(const char *context, const char *subject, CatalogScopeRows *out)
{
	uint64		gen = scope_cache_open(false);

	if (gen != 0 && scope_cache_rows(gen, context, subject, out))
		return;
	scan_scope_rows(context, subject, out);
	if (gen != 0)
		scope_cache_keep_rows(gen, context, subject, out);
}

/* The config rows and mode rows that can be in force for a subject, scanned. */
static void
scan_scope_rows(const char *context, const char *subject, CatalogScopeRows *out)
{
	const char *keys[4][2];
	int			n = scope_keys(context, subject, keys);
	MemoryContext cxt = CurrentMemoryContext;
	CatalogScan config;
	CatalogScan modes;

	out->n_config = 0;
	out->n_mode = 0;
	out->config = palloc0(sizeof(CatalogConfigRow) * (n + 1));
	out->mode = palloc0(sizeof(CatalogModeRow) * (n + 1));
	scope_open(&config, "config", "config_pkey", keys[0][0], keys[0][1]);
	scope_open(&modes, "modes", "modes_pkey", keys[0][0], keys[0][1]);
	for (int i = 0; i < n; i++)
	{
		if (i > 0)
		{
			scope_rekey(&config, keys[i][0], keys[i][1]);
			scope_rekey(&modes, keys[i][0], keys[i][1]);
		}
		if (catalog_scan_next(&config, ForwardScanDirection))
			fill_config_row(&config, cxt, &out->config[out->n_config++]);
		if (catalog_scan_next(&modes, ForwardScanDirection))
		{
			CatalogModeRow *row = &out->mode[out->n_mode++];

			row->context = catalog_scan_text(&modes, "context", cxt);
			row->subject = catalog_scan_text(&modes, "subject", cxt);
			row->mode = catalog_scan_text(&modes, "mode", cxt);
		}
	}
	catalog_scan_close(&modes);
	catalog_scan_close(&config);
}

/* The text form of a JSON value as ->> gives it: NULL for null. */
static char *
jsonb_value_text(JsonbValue *v)
{
	if (v->type == jbvNull)
		return NULL;
	if (v->type == jbvString)
		return pnstrdup(v->val.string.val, v->val.string.len);
	return JsonbToCString(NULL, &JsonbValueToJsonb(v)->root, 0);
}

/*
 * The alias set in the subject's own config (its scope only, not the wider
 * ones), or NULL when it has none.
 */
char *
catalog_subject_alias(const char *context, const char *subject)
{
	uint64		gen = scope_cache_open(true);
	char	   *alias;

	if (gen != 0 && scope_cache_alias(gen, context, subject, &alias))
		return alias;
	alias = scan_subject_alias(context, subject);
	if (gen != 0)
		scope_cache_keep_alias(gen, context, subject, alias);
	return alias;
}

/* The alias in a subject's own config, scanned. */
static char *
scan_subject_alias(const char *context, const char *subject)
{
	CatalogScan s;
	char	   *alias = NULL;
	bool		isnull;
	Datum		d;
	JsonbValue	v;

	scope_open(&s, "config", "config_pkey", context, subject);
	if (catalog_scan_next(&s, ForwardScanDirection))
	{
		d = catalog_scan_datum(&s, "settings", &isnull);
		if (!isnull &&
			getKeyJsonValueFromContainer(&DatumGetJsonbP(d)->root, "alias", 5, &v) != NULL)
			alias = jsonb_value_text(&v);
	}
	catalog_scan_close(&s);
	return alias;
}

/* --- ids ---------------------------------------------------------------------- */

/*
 * The id sequence of a context, InvalidOid when the context has no row
 * yet.
 */
static Oid
context_sequence(const char *context)
{
	CatalogScan s;
	Oid			seq = InvalidOid;
	bool		isnull;
	Datum		d;

	catalog_scan_open(&s, "contexts", "contexts_pkey");
	catalog_scan_text_key(&s, 1, context);
	if (catalog_scan_next(&s, ForwardScanDirection))
	{
		d = catalog_scan_datum(&s, "id_sequence", &isnull);
		if (!isnull)
			seq = DatumGetObjectId(d);
	}
	catalog_scan_close(&s);
	return seq;
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
	seq = context_sequence(context);
	if (!OidIsValid(seq))
	{
		catalog_ensure_context(context);
		seq = context_sequence(context);
	}
	if (!OidIsValid(seq))
		elog(ERROR, "context \"%s\" has no id sequence", context);
	id = draw_id(seq, context);
	return (int32) id;
}
