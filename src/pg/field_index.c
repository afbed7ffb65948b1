/*-------------------------------------------------------------------------
 *
 * field_index.c
 *	  The field index (registry.schema_fields): every field a schema
 *	  declares, in any format (rg_fields.h), kept as one jsonb array per
 *	  schema so that the views and registry.find_fields() can search
 *	  every field of every live version, by name, tag, type or path,
 *	  through one GIN index.
 *
 * An AFTER INSERT trigger on registry.schemas writes a new schema's row,
 * built as jsonb from the parse that stored the schema: a registration's
 * (registry_cache_insert_submitted hands it over) or a raw INSERT's
 * insert trigger's (offered to the schema cache; a bulk insert's rows
 * past what the cache holds are parsed again from the table).  A new
 * schema has no row yet, so the trigger only inserts one (the row's
 * BEFORE INSERT trigger keeps one that is there).  The table is dumped
 * with the others (a restored schema with references may name versions
 * not restored yet, so its row is not recomputed then; one without is,
 * and the dump's copy of its row is then skipped) and published with them
 * to a logical replica, as the references are.  registry.reindex_fields()
 * rebuilds every row (after an update from a version without the index,
 * or when a replica was not sent it).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/trigger.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "catalog.h"
#include "json_out.h"
#include "registry.h"
#include "rg_fields.h"
#include "schemas.h"
#include "subtransaction.h"
#include "trigger_row.h"

PG_FUNCTION_INFO_V1(registry_schemas_index_fields);
PG_FUNCTION_INFO_V1(registry_schema_fields_before_insert);
PG_FUNCTION_INFO_V1(registry_reindex_fields);

/* how many schemas registry.reindex_fields() reads at a time */
#define REINDEX_BATCH 500

/*
 * Replace each \u0000 escape of JSON text (a NUL in a default, which jsonb
 * cannot hold) by \ufffd, in place; other escapes are skipped whole.
 */
static void
drop_nul_escapes(char *json)
{
	char	   *p;

	for (p = json; *p; p++)
	{
		if (*p != '\\')
			continue;
		if (p[1] == 'u' && strncmp(p + 2, "0000", 4) == 0)
			memcpy(p + 2, "fffd", 4);
		if (p[1] != '\0')
			p++;
	}
}

/* Push a field's default (JSON text, NULL for none) as a value. */
static void
push_default(JsonbParseState **state, const char *default_json)
{
	char	   *text;
	Jsonb	   *jb;
	JsonbValue	v;

	if (default_json == NULL)
	{
		registry_jsonb_push_string(state, WJB_VALUE, NULL);
		return;
	}
	text = pstrdup(default_json);
	drop_nul_escapes(text);
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));
	v.type = jbvBinary;
	v.val.binary.data = &jb->root;
	v.val.binary.len = VARSIZE(jb) - VARHDRSZ;
	(void) pushJsonbValue(state, WJB_VALUE, &v);
}

/* Push one field as a JSON object. */
static void
push_field(JsonbParseState **state, const rg_field_info *f)
{
	int			i;

	(void) pushJsonbValue(state, WJB_BEGIN_OBJECT, NULL);
	registry_jsonb_push_member(state, "path", f->path);
	registry_jsonb_push_member(state, "name", f->name);
	registry_jsonb_push_member(state, "record", f->record);
	registry_jsonb_push_member(state, "type", f->type);
	registry_jsonb_push_member(state, "doc", f->doc);
	registry_jsonb_push_string(state, WJB_KEY, "default");
	push_default(state, f->default_json);
	registry_jsonb_push_member(state, "logical_type", f->logical_type);
	registry_jsonb_push_string(state, WJB_KEY, "tags");
	(void) pushJsonbValue(state, WJB_BEGIN_ARRAY, NULL);
	for (i = 0; i < f->n_tags; i++)
		registry_jsonb_push_string(state, WJB_ELEM, f->tags[i]);
	(void) pushJsonbValue(state, WJB_END_ARRAY, NULL);
	(void) pushJsonbValue(state, WJB_END_OBJECT, NULL);
}

/*
 * The fields of a parsed schema as a jsonb array, built as jsonb (not
 * written as text and parsed again); *truncated when some were left out.
 */
static Jsonb *
fields_jsonb(const rg_schema *s, bool *truncated)
{
	rg_arena   *arena = rg_arena_create();
	rg_field_list list;
	JsonbParseState *state = NULL;
	Jsonb	   *out;
	int			i;

	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	rg_field_list_init(&list, arena);
	if (s->format->fields != NULL && !s->format->fields(s, &list))
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	(void) pushJsonbValue(&state, WJB_BEGIN_ARRAY, NULL);
	for (i = 0; i < list.n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		push_field(&state, &list.items[i]);
	}
	/* the values point into the arena: made into jsonb before it goes */
	out = JsonbValueToJsonb(pushJsonbValue(&state, WJB_END_ARRAY, NULL));
	*truncated = list.truncated;
	rg_field_list_free(&list);
	rg_arena_destroy(arena);
	return out;
}

/*
 * True while index_schema() inserts a new schema's row: that row's BEFORE
 * trigger need not look for one already there (a schema inserted by the
 * statement running has none, and the primary key would refuse a second).
 */
static bool writing_new_row = false;

/*
 * Write the field index row of one stored schema, replacing the one it
 * has when replace.  A registration's new schema is its own parse
 * (registry_cache_insert_submitted), not parsed again.
 */
static void
index_schema(const char *context, int32 id, const uint8 *fingerprint, bool replace)
{
	const rg_schema *s = registry_stored_schema(context, id, fingerprint);
	bool		truncated;
	Jsonb	   *fields = fields_jsonb(s, &truncated);

	writing_new_row = !replace;
	PG_TRY();
	{
		catalog_put_schema_fields(context, id, JsonbPGetDatum(fields), truncated, replace);
	}
	PG_FINALLY();
	{
		writing_new_row = false;
	}
	PG_END_TRY();
}

/*
 * schemas_index_fields(): AFTER INSERT on registry.schemas, FOR EACH ROW;
 * the new schema's fields into registry.schema_fields.
 */
Datum
registry_schemas_index_fields(PG_FUNCTION_ARGS)
{
	TriggerData *td = trigger_row_data(fcinfo, "schemas_index_fields");
	HeapTuple	tup = td->tg_trigtuple;
	TupleDesc	desc = td->tg_relation->rd_att;
	char	   *context = trigger_row_text(tup, desc, "context");
	int32		id;
	bool		isnull;
	Datum		fp = trigger_row_value(tup, desc, "fingerprint", &isnull);
	bytea	   *fingerprint = isnull ? NULL : DatumGetByteaPP(fp);

	char	   *refs = trigger_row_text(tup, desc, "refs");

	/* a restored schema with references: they may not be back yet */
	if (refs != NULL && strcmp(refs, "[]") != 0 &&
		registry_trigger_row_restored(tup, desc, "created_at"))
		return PointerGetDatum(NULL);
	if (context != NULL && trigger_row_int(tup, desc, "id", &id) && fingerprint != NULL &&
		VARSIZE_ANY_EXHDR(fingerprint) == REGISTRY_FINGERPRINT_LEN)
		index_schema(context, id, (const uint8 *) VARDATA_ANY(fingerprint), false);
	return PointerGetDatum(NULL);
}

/* index_schema() of one key, for registry_call_in_subtransaction() */
static void
index_key(void *arg)
{
	CatalogSchemaKey *key = arg;

	index_schema(key->context, key->id, key->fingerprint, true);
}

/*
 * Rebuild one schema's row; a schema that no longer parses is left
 * without one, with a WARNING, rather than failing the whole rebuild (an
 * update must not stop at one old row).
 */
static void
reindex_one(CatalogSchemaKey *key)
{
	ErrorData  *edata = registry_call_in_subtransaction(index_key, key);

	if (edata == NULL)
		return;
	if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
		ReThrowError(edata);
	ereport(WARNING,
			(errcode(edata->sqlerrcode),
			 errmsg("schema %d of context \"%s\" was left out of the field index: %s",
					key->id, key->context, edata->message)));
	FreeErrorData(edata);
}

/*
 * reindex_fields() -> bigint: rebuild the field index row of every
 * schema, a batch at a time; how many.
 */
Datum
registry_reindex_fields(PG_FUNCTION_ARGS)
{
	MemoryContext batch_cxt = AllocSetContextCreate(CurrentMemoryContext,
													"registry reindex_fields",
													ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(batch_cxt);
	char	   *context = NULL;
	int32		id = 0;
	int64		done = 0;

	for (;;)
	{
		CatalogSchemaKey *keys;
		int			n = catalog_schema_keys_after(context, id, REINDEX_BATCH, &keys);
		int			i;

		for (i = 0; i < n; i++)
		{
			CHECK_FOR_INTERRUPTS();
			reindex_one(&keys[i]);
		}
		done += n;
		if (n < REINDEX_BATCH)
			break;
		context = MemoryContextStrdup(old, keys[n - 1].context);
		id = keys[n - 1].id;
		MemoryContextReset(batch_cxt);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(batch_cxt);
	PG_RETURN_INT64(done);
}

/*
 * schema_fields_before_insert(): BEFORE INSERT on registry.schema_fields,
 * FOR EACH ROW.  A row whose schema has one already is not inserted: a
 * restore brings the row the restored schema's insert wrote (a schema
 * without references is indexed as it comes back, for dumps made before
 * the index), and both say the same.  The row of a schema being inserted
 * is not looked for (writing_new_row).
 */
Datum
registry_schema_fields_before_insert(PG_FUNCTION_ARGS)
{
	TriggerData *td = trigger_row_data(fcinfo, "schema_fields_before_insert");
	HeapTuple	tup = td->tg_trigtuple;
	TupleDesc	desc = td->tg_relation->rd_att;
	char	   *context;
	int32		id;

	if (writing_new_row)
		return PointerGetDatum(tup);
	context = trigger_row_text(tup, desc, "context");
	if (context != NULL && trigger_row_int(tup, desc, "id", &id) &&
		catalog_schema_fields_exist(context, id))
		return PointerGetDatum(NULL);
	return PointerGetDatum(tup);
}
