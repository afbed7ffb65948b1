/*-------------------------------------------------------------------------
 *
 * field_index.c
 *	  The field index (registry.schema_fields): every field a schema
 *	  declares, in any format (rg_fields.h), kept as one jsonb array per
 *	  schema so that the views and registry.find_fields() can search
 *	  every field of every live version, by name, tag, type or path,
 *	  through one GIN index.
 *
 * An AFTER INSERT trigger on registry.schemas writes a new schema's row:
 * a registration's from the parse it made (registry_cache_insert_submitted
 * hands it over, so the row is not read back nor parsed again), a raw
 * INSERT's from a parse of the stored row.  A new schema has no row yet,
 * so the trigger only inserts one (the row's BEFORE INSERT trigger keeps
 * one that is there).  The table is dumped with the others (a restored schema
 * with references may name versions not restored yet, so its row is not
 * recomputed then; one without is, and the dump's copy of its row is then
 * skipped) and published with them to a logical replica, as the
 * references are.  registry.reindex_fields() rebuilds every row (after an update
 * from a version without the index, or when a replica was not sent it).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/trigger.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/memutils.h"

#include "catalog.h"
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

/* Append "key": value-or-null, where value is a string. */
static void
append_string_member(StringInfo buf, const char *key, const char *value, bool comma)
{
	if (comma)
		appendStringInfoChar(buf, ',');
	escape_json(buf, key);
	appendStringInfoChar(buf, ':');
	if (value)
		escape_json(buf, value);
	else
		appendStringInfoString(buf, "null");
}

/* Append one field as a JSON object. */
static void
append_field(StringInfo buf, const rg_field_info *f)
{
	int			i;

	appendStringInfoChar(buf, '{');
	append_string_member(buf, "path", f->path, false);
	append_string_member(buf, "name", f->name, true);
	append_string_member(buf, "record", f->record, true);
	append_string_member(buf, "type", f->type, true);
	append_string_member(buf, "doc", f->doc, true);
	appendStringInfoString(buf, ",\"default\":");
	appendStringInfoString(buf, f->default_json ? f->default_json : "null");
	append_string_member(buf, "logical_type", f->logical_type, true);
	appendStringInfoString(buf, ",\"tags\":[");
	for (i = 0; i < f->n_tags; i++)
	{
		if (i > 0)
			appendStringInfoChar(buf, ',');
		escape_json(buf, f->tags[i]);
	}
	appendStringInfoString(buf, "]}");
}

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

/* The fields of a parsed schema as a JSON array's text; *truncated when some were left out. */
static char *
fields_json(const rg_schema *s, bool *truncated)
{
	rg_arena   *arena = rg_arena_create();
	rg_field_list list;
	StringInfoData buf;
	int			i;

	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	rg_field_list_init(&list, arena);
	if (s->format->fields != NULL && !s->format->fields(s, &list))
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (i = 0; i < list.n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (i > 0)
			appendStringInfoChar(&buf, ',');
		append_field(&buf, &list.items[i]);
	}
	appendStringInfoChar(&buf, ']');
	drop_nul_escapes(buf.data);
	*truncated = list.truncated;
	rg_field_list_free(&list);
	rg_arena_destroy(arena);
	return buf.data;
}

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
	char	   *json = fields_json(s, &truncated);

	catalog_put_schema_fields(context, id, json, truncated, replace);
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
 * the index), and both say the same.
 */
Datum
registry_schema_fields_before_insert(PG_FUNCTION_ARGS)
{
	TriggerData *td = trigger_row_data(fcinfo, "schema_fields_before_insert");
	HeapTuple	tup = td->tg_trigtuple;
	TupleDesc	desc = td->tg_relation->rd_att;
	char	   *context = trigger_row_text(tup, desc, "context");
	int32		id;

	if (context != NULL && trigger_row_int(tup, desc, "id", &id) &&
		catalog_schema_fields_exist(context, id))
		return PointerGetDatum(NULL);
	return PointerGetDatum(tup);
}
