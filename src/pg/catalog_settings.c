/*-------------------------------------------------------------------------
 *
 * catalog_settings.c
 *	  registry.config and registry.modes, what is set per scope (the
 *	  global scope, a context, a subject): the config and mode rows of a
 *	  subject's scopes and a subject's alias, through the tables' primary
 *	  keys and the scope cache (scope_cache.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "registry.h"

/* the columns of registry.config */
#define Anum_config_context			1
#define Anum_config_subject			2
#define Anum_config_compatibility	3
#define Anum_config_normalize		4
#define Anum_config_settings		5
#define Natts_config				5

static const CatalogColumn config_columns[Natts_config] = {
	{"context", TEXTOID},
	{"subject", TEXTOID},
	{"compatibility", TEXTOID},
	{"normalize", BOOLOID},
	{"settings", JSONBOID},
};

static CatalogTable config_table = {"config", Natts_config, config_columns};

static CatalogIndex config_pkey = {
	"config_pkey", &config_table, 2, {Anum_config_context, Anum_config_subject}
};

/* the columns of registry.modes */
#define Anum_modes_context			1
#define Anum_modes_subject			2
#define Anum_modes_mode				3
#define Natts_modes					3

static const CatalogColumn modes_columns[Natts_modes] = {
	{"context", TEXTOID},
	{"subject", TEXTOID},
	{"mode", TEXTOID},
};

static CatalogTable modes_table = {"modes", Natts_modes, modes_columns};

static CatalogIndex modes_pkey = {
	"modes_pkey", &modes_table, 2, {Anum_modes_context, Anum_modes_subject}
};

StaticAssertDecl(Anum_config_context == Anum_modes_context &&
				 Anum_config_subject == Anum_modes_subject,
				 "config and modes are keyed by the same columns");

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

/* Open a scan of config or modes (their keys are the same columns) at one scope. */
static void
scope_open(CatalogScan *s, CatalogIndex *index, Snapshot snapshot, const char *context,
		   const char *subject)
{
	catalog_scan_open(s, index);
	s->snapshot = RegisterSnapshot(snapshot);
	catalog_scan_text_key(s, Anum_config_context, context);
	catalog_scan_text_key(s, Anum_config_subject, subject);
}

/* Point an open scope scan at another scope. */
static void
scope_rekey(CatalogScan *s, const char *context, const char *subject)
{
	catalog_scan_rekey(s);
	catalog_scan_text_key(s, Anum_config_context, context);
	catalog_scan_text_key(s, Anum_config_subject, subject);
}

/* The config row of the scan into row, its strings in cxt. */
static void
fill_config_row(CatalogScan *s, MemoryContext cxt, CatalogConfigRow *row)
{
	bool		isnull;
	Datum		d;

	row->context = catalog_scan_text(s, Anum_config_context, cxt);
	row->subject = catalog_scan_text(s, Anum_config_subject, cxt);
	row->compatibility = catalog_scan_text(s, Anum_config_compatibility, cxt);
	d = catalog_scan_datum(s, Anum_config_normalize, &isnull);
	row->has_normalize = !isnull;
	row->normalize = !isnull && DatumGetBool(d);
	row->settings = catalog_scan_jsonb_text(s, Anum_config_settings, cxt);
}

/* the horizon of the scope cache's generation (catalog_horizon.c) */
static CatalogHorizon horizon;

/* the rows each table had when last analyzed (0: never), as scope_cache_open saw */
static double table_rows[SCOPE_TABLES];

/*
 * The generation at which settings read in snapshot may come from the
 * scope cache now, 0 when they must be scanned.  The tables the read needs
 * (config, and modes unless config_only) are opened as a scan opens them
 * (locks, privileges), and each must have the triggers that move the
 * generation when a row of theirs changes.
 */
static uint64
scope_cache_open(bool config_only, Snapshot snapshot)
{
	uint64		gen = scope_cache_generation();
	const int16 rows = TRIGGER_TYPE_ROW | TRIGGER_TYPE_INSERT | TRIGGER_TYPE_UPDATE |
	TRIGGER_TYPE_DELETE;
	CatalogTable *tables[2] = {&config_table, &modes_table};
	const char *triggers[2][2] = {
		{"config_after_write", "config_after_truncate"},
		{"modes_after_write", "modes_after_truncate"},
	};

	if (gen == 0)
		return 0;
	for (int i = 0; i < (config_only ? 1 : 2); i++)
	{
		Relation	rel = catalog_open_table(tables[i]);

		if (!catalog_has_always_trigger(rel, triggers[i][0], rows) ||
			!catalog_has_always_trigger(rel, triggers[i][1], TRIGGER_TYPE_TRUNCATE))
			gen = 0;
		table_rows[i] = Max(rel->rd_rel->reltuples, 0);
		table_close(rel, NoLock);
	}
	/* (the tables' invalidations are processed by now, at their locks) */
	if (scope_cache_stale())
		catalog_horizon_forget(&horizon);
	if (gen != 0 && !catalog_horizon_sees(&horizon, snapshot, gen))
		gen = 0;
	return gen;
}

/* The alias the settings of the scan's config row set, or NULL. */
static char *
scan_config_alias(CatalogScan *s)
{
	bool		isnull;
	Datum		d = catalog_scan_datum(s, Anum_config_settings, &isnull);
	JsonbValue	v;

	if (!isnull &&
		getKeyJsonValueFromContainer(&DatumGetJsonbP(d)->root, "alias", 5, &v) != NULL)
		return catalog_jsonb_value_text(&v);
	return NULL;
}

/*
 * Scan the scopes of keys that need it (config, and modes unless
 * config_only) into k[i], the config row stored in rows[i]; one scan of
 * each table, moved from scope to scope.
 */
static void
scan_scopes(const char *(*keys)[2], int n, const bool *need, bool config_only,
			Snapshot snapshot, ScopeKnown *k, CatalogConfigRow *rows)
{
	MemoryContext cxt = CurrentMemoryContext;
	CatalogScan config;
	CatalogScan modes;
	bool		open = false;

	for (int i = 0; i < n; i++)
	{
		if (!need[i])
			continue;
		if (!open)
		{
			scope_open(&config, &config_pkey, snapshot, keys[i][0], keys[i][1]);
			if (!config_only)
				scope_open(&modes, &modes_pkey, snapshot, keys[i][0], keys[i][1]);
			open = true;
		}
		else
		{
			scope_rekey(&config, keys[i][0], keys[i][1]);
			if (!config_only)
				scope_rekey(&modes, keys[i][0], keys[i][1]);
		}
		memset(&k[i], 0, sizeof(ScopeKnown));
		k[i].known[SCOPE_CONFIG] = true;
		if (catalog_scan_next(&config, ForwardScanDirection))
		{
			fill_config_row(&config, cxt, &rows[i]);
			k[i].config = &rows[i];
			k[i].alias = scan_config_alias(&config);
		}
		if (!config_only)
		{
			k[i].known[SCOPE_MODES] = true;
			if (catalog_scan_next(&modes, ForwardScanDirection))
				k[i].mode = catalog_scan_text(&modes, Anum_modes_mode, cxt);
		}
	}
	if (open)
	{
		if (!config_only)
			catalog_scan_close(&modes);
		catalog_scan_close(&config);
	}
}

/*
 * Read table t (SCOPE_CONFIG or SCOPE_MODES) whole into the scope cache at
 * generation gen, in snapshot, unless it does not fit (scope_cache.c).
 */
static void
load_table(uint64 gen, int t, Snapshot snapshot)
{
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "registry scope load",
												 ALLOCSET_SMALL_SIZES);
	CatalogScan s;
	bool		complete = true;

	scope_cache_load_begin(gen, t);
	catalog_scan_open(&s, t == SCOPE_CONFIG ? &config_pkey : &modes_pkey);
	s.snapshot = RegisterSnapshot(snapshot);
	while (complete && catalog_scan_next(&s, ForwardScanDirection))
	{
		MemoryContext old = MemoryContextSwitchTo(rowcxt);
		ScopeKnown	k;
		CatalogConfigRow row;

		memset(&k, 0, sizeof(k));
		k.known[t] = true;
		if (t == SCOPE_CONFIG)
		{
			fill_config_row(&s, rowcxt, &row);
			k.config = &row;
			k.alias = scan_config_alias(&s);
		}
		else
			k.mode = catalog_scan_text(&s, Anum_modes_mode, rowcxt);
		complete = scope_cache_load_row(gen, t, catalog_scan_text(&s, Anum_config_context, rowcxt),
										catalog_scan_text(&s, Anum_config_subject, rowcxt), &k);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	catalog_scan_close(&s);
	scope_cache_load_end(gen, t, complete);
	MemoryContextDelete(rowcxt);
}

/* Append a scope's rows that k holds to out (copies in the current context). */
static void
append_scope(CatalogScopeRows *out, const char *context, const char *subject,
			 const ScopeKnown *k)
{
	if (k->config != NULL)
	{
		CatalogConfigRow *row = &out->config[out->n_config++];

		*row = *k->config;
		row->context = pstrdup(context);
		row->subject = pstrdup(subject);
		row->compatibility = k->config->compatibility ? pstrdup(k->config->compatibility) : NULL;
		row->settings = k->config->settings ? pstrdup(k->config->settings) : NULL;
	}
	if (k->mode != NULL)
	{
		CatalogModeRow *row = &out->mode[out->n_mode++];

		row->context = pstrdup(context);
		row->subject = pstrdup(subject);
		row->mode = pstrdup(k->mode);
	}
}

/*
 * The config rows and mode rows that can be in force for a subject, for
 * config_scope.c to merge: kept ones while they cannot have changed, else
 * scanned (and kept).
 */
void
catalog_scope_rows(const char *context, const char *subject, CatalogScopeRows *out)
{
	Snapshot	snapshot = catalog_read_snapshot();
	uint64		gen = scope_cache_open(false, snapshot);
	const char *keys[4][2];
	int			n = scope_keys(context, subject, keys);
	ScopeKnown	k[4];
	CatalogConfigRow rows[4];
	bool		need[4] = {false};

	out->n_config = 0;
	out->n_mode = 0;
	out->config = palloc0(sizeof(CatalogConfigRow) * (n + 1));
	out->mode = palloc0(sizeof(CatalogModeRow) * (n + 1));
	for (int t = 0; t < SCOPE_TABLES && gen != 0; t++)
		if (scope_cache_wants_load(gen, t, table_rows[t]))
			load_table(gen, t, snapshot);
	for (int i = 0; i < n; i++)
	{
		need[i] = gen == 0 || !scope_cache_find(gen, keys[i][0], keys[i][1], &k[i]) ||
			!k[i].known[SCOPE_CONFIG] || !k[i].known[SCOPE_MODES];
		if (!need[i])
			append_scope(out, keys[i][0], keys[i][1], &k[i]);
	}
	scan_scopes(keys, n, need, false, snapshot, k, rows);
	for (int i = 0; i < n; i++)
		if (need[i])
		{
			if (gen != 0)
				scope_cache_keep(gen, keys[i][0], keys[i][1], &k[i]);
			append_scope(out, keys[i][0], keys[i][1], &k[i]);
		}
	UnregisterSnapshot(snapshot);
}

/*
 * The alias set in the subject's own config (its scope only, not the wider
 * ones), or NULL when it has none.
 */
char *
catalog_subject_alias(const char *context, const char *subject)
{
	Snapshot	snapshot = catalog_read_snapshot();
	uint64		gen = scope_cache_open(true, snapshot);
	const char *keys[1][2] = {{context, subject}};
	bool		need = true;
	ScopeKnown	k;
	CatalogConfigRow row;
	char	   *alias;

	if (gen != 0 && scope_cache_wants_load(gen, SCOPE_CONFIG, table_rows[SCOPE_CONFIG]))
		load_table(gen, SCOPE_CONFIG, snapshot);
	if (gen != 0 && scope_cache_find(gen, context, subject, &k) && k.known[SCOPE_CONFIG])
		need = false;
	else
	{
		scan_scopes(keys, 1, &need, true, snapshot, &k, &row);
		if (gen != 0)
			scope_cache_keep(gen, context, subject, &k);
	}
	alias = k.alias ? pstrdup(k.alias) : NULL;
	UnregisterSnapshot(snapshot);
	return alias;
}

/*
 * The subjects whose own config sets an alias (not empty), with it, in
 * (context, subject) order; *n how many.
 */
CatalogAlias *
catalog_subject_aliases(int *n)
{
	CatalogScan s;
	int			cap = 4;
	CatalogAlias *out = palloc(sizeof(CatalogAlias) * cap);

	*n = 0;
	catalog_scan_open(&s, &config_pkey);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		bool		isnull;
		Datum		d = catalog_scan_datum(&s, Anum_config_settings, &isnull);
		JsonbValue	v;
		char	   *alias;

		if (isnull || catalog_scan_text_is(&s, Anum_config_subject, "") ||
			getKeyJsonValueFromContainer(&DatumGetJsonbP(d)->root, "alias", 5, &v) == NULL)
			continue;
		alias = catalog_jsonb_value_text(&v);
		if (alias == NULL || alias[0] == '\0')
			continue;
		if (*n == cap)
			out = repalloc(out, sizeof(CatalogAlias) * (cap *= 2));
		out[*n].context = catalog_scan_text(&s, Anum_config_context, CurrentMemoryContext);
		out[*n].subject = catalog_scan_text(&s, Anum_config_subject, CurrentMemoryContext);
		out[(*n)++].alias = alias;
	}
	catalog_scan_close(&s);
	return out;
}

/*
 * The modes that subjects of the context set for themselves (each row's,
 * in key order; the scope rules in settings.c decide what they allow); *n
 * how many.
 */
char	  **
catalog_context_subject_modes(const char *context, int *n)
{
	Snapshot	snapshot = catalog_read_snapshot();
	CatalogScan s;
	int			cap = 8;
	char	  **modes = palloc(sizeof(char *) * cap);

	*n = 0;
	catalog_scan_open(&s, &modes_pkey);
	s.snapshot = RegisterSnapshot(snapshot);
	catalog_scan_text_key(&s, Anum_modes_context, context);
	while (catalog_scan_next(&s, ForwardScanDirection))
	{
		if (catalog_scan_text_is(&s, Anum_modes_subject, ""))
			continue;
		if (*n == cap)
			modes = repalloc(modes, sizeof(char *) * (cap *= 2));
		modes[(*n)++] = catalog_scan_text(&s, Anum_modes_mode, CurrentMemoryContext);
	}
	catalog_scan_close(&s);
	UnregisterSnapshot(snapshot);
	return modes;
}
