/*-------------------------------------------------------------------------
 *
 * triggers.c
 *	  The C triggers that enforce the registry's rules on every write path:
 *	  the SQL API, the REST API and a DBA's raw INSERT all meet them.
 *
 * registry.schemas: a new row is parsed and stored in Confluent's form with
 * its identity; rows are immutable.  registry.subject_versions: a new
 * version passes the mode, numbering and compatibility rules under the
 * subject's row lock.  (The config and mode triggers are in settings.c;
 * soft and hard delete are PL/pgSQL triggers of the install script.)
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/rel.h"

#include "catalog.h"
#include "compatibility.h"
#include "confluent_messages.h"
#include "registry.h"
#include "schemas.h"

PG_FUNCTION_INFO_V1(registry_schemas_before_write);

/*
 * Outside IMPORT a version given explicitly must be the next number
 * (Confluent: "Version is not one more than previous version", 42201).
 */
void
registry_check_next_version(const char *subject, int32 version, int32 max_version)
{
	if (version != max_version + 1)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("version %d is not one more than the previous version %d of subject \"%s\"",
						version, max_version, subject),
				 errdetail("%s", confluent_text(CW_VERSION_NOT_NEXT))));
}
PG_FUNCTION_INFO_V1(registry_versions_before_insert);

/* A column of a trigger's row as text (jsonb in its text form), or NULL. */
static char *
text_attr(HeapTuple tup, TupleDesc desc, const char *name)
{
	int			attno = SPI_fnumber(desc, name);
	bool		isnull;
	Datum		d;

	if (attno <= 0)
		elog(ERROR, "column \"%s\" not found", name);
	d = heap_getattr(tup, attno, desc, &isnull);
	if (isnull)
		return NULL;
	/* jsonb columns come back in their text form */
	if (TupleDescAttr(desc, attno - 1)->atttypid != TEXTOID)
		return SPI_getvalue(tup, desc, attno);
	return TextDatumGetCString(d);
}

/* An integer column of a trigger's row; false when NULL. */
static bool
int_attr(HeapTuple tup, TupleDesc desc, const char *name, int32 *out)
{
	bool		isnull;
	Datum		d = heap_getattr(tup, SPI_fnumber(desc, name), desc, &isnull);

	if (!isnull)
		*out = DatumGetInt32(d);
	return !isnull;
}

/* Refuse a call that is not from the trigger manager. */
static void
check_trigger(FunctionCallInfo fcinfo, const char *name)
{
	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("%s: not called by trigger manager", name)));
}

/*
 * BEFORE INSERT OR UPDATE on registry.schemas.  An insert from the SQL API
 * was parsed already (registry_is_pending_insert); any other insert is
 * parsed here, its text replaced by Confluent's stored form, its references
 * pinned to concrete versions, its id allocated when NULL and its identity
 * computed.  An invalid schema is 42201 and nothing is stored.
 */
Datum
registry_schemas_before_write(PG_FUNCTION_ARGS)
{
	TriggerData *trig = (TriggerData *) fcinfo->context;
	TupleDesc	desc;
	HeapTuple	tup;
	char	   *context;
	char	   *schema_type;
	char	   *schema;
	char	   *refs;
	char	   *metadata;
	char	   *rule_set;
	int32		id;
	bool		has_id;
	bool		isnull;
	Datum		fp_datum;
	uint8		fp[REGISTRY_FINGERPRINT_LEN];
	bool		has_fp = false;
	SubmittedSchema *s;
	int			attnos[6];
	Datum		values[6];
	bool		nulls[6] = {false, false, false, false, false, false};
	HeapTuple	result;
	MemoryContext caller_cxt = CurrentMemoryContext;

	check_trigger(fcinfo, "schemas_before_write");
	if (TRIGGER_FIRED_BY_UPDATE(trig->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("registered schemas are immutable"),
				 errdetail("Register a new schema instead of updating a stored one.")));

	desc = trig->tg_relation->rd_att;
	tup = trig->tg_trigtuple;
	context = text_attr(tup, desc, "context");
	schema_type = text_attr(tup, desc, "schema_type");
	schema = text_attr(tup, desc, "schema");
	refs = text_attr(tup, desc, "refs");
	metadata = text_attr(tup, desc, "metadata");
	rule_set = text_attr(tup, desc, "rule_set");
	has_id = int_attr(tup, desc, "id", &id);
	fp_datum = heap_getattr(tup, SPI_fnumber(desc, "fingerprint"), desc, &isnull);
	if (!isnull && VARSIZE_ANY_EXHDR(DatumGetByteaPP(fp_datum)) == REGISTRY_FINGERPRINT_LEN)
	{
		memcpy(fp, VARDATA_ANY(DatumGetByteaPP(fp_datum)), REGISTRY_FINGERPRINT_LEN);
		has_fp = true;
	}
	if (context == NULL || schema == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_NOT_NULL_VIOLATION),
				 errmsg("a schema needs a context and a schema text")));
	if (schema_type == NULL)
		schema_type = "AVRO";
	if (refs == NULL)
		refs = "[]";

	if (has_id && registry_is_pending_insert(context, schema_type, schema, refs,
											 metadata, rule_set, has_fp ? fp : NULL))
		return PointerGetDatum(tup);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	catalog_ensure_context(context);
	s = registry_parse_submitted(context, schema_type, schema, refs, metadata,
								 rule_set, false, NULL);
	if (!has_id)
		id = catalog_next_schema_id(context);
	else
		catalog_advance_schema_id(context, id);

	attnos[0] = SPI_fnumber(desc, "id");
	values[0] = Int32GetDatum(id);
	attnos[1] = SPI_fnumber(desc, "schema_type");
	values[1] = CStringGetTextDatum(s->format->name);
	attnos[2] = SPI_fnumber(desc, "schema");
	values[2] = PointerGetDatum(cstring_to_text_with_len(s->parsed->canonical,
														 s->parsed->canonical_len));
	attnos[3] = SPI_fnumber(desc, "refs");
	values[3] = DirectFunctionCall1(jsonb_in, CStringGetDatum(s->refs_json));
	attnos[4] = SPI_fnumber(desc, "fingerprint");
	{
		bytea	   *b = palloc(VARHDRSZ + REGISTRY_FINGERPRINT_LEN);

		SET_VARSIZE(b, VARHDRSZ + REGISTRY_FINGERPRINT_LEN);
		memcpy(VARDATA(b), s->fingerprint, REGISTRY_FINGERPRINT_LEN);
		values[4] = PointerGetDatum(b);
	}
	attnos[5] = SPI_fnumber(desc, "context");
	values[5] = CStringGetTextDatum(context);

	/* the tuple must outlive SPI_finish */
	{
		MemoryContext old = MemoryContextSwitchTo(caller_cxt);

		result = heap_modify_tuple_by_cols(tup, desc, 6, attnos, values, nulls);
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	return PointerGetDatum(result);
}

/*
 * BEFORE INSERT on registry.subject_versions: lock the subject, then the
 * mode in force must allow writes (IMPORT/FORWARD skip the rest), the
 * version must be the next number (NULL means "the next one"), and the
 * schema must be compatible with the subject's live versions under the
 * compatibility level in force (409/40901 otherwise).
 */
Datum
registry_versions_before_insert(PG_FUNCTION_ARGS)
{
	TriggerData *trig = (TriggerData *) fcinfo->context;
	TupleDesc	desc = trig->tg_relation->rd_att;
	HeapTuple	tup = trig->tg_trigtuple;
	char	   *context = text_attr(tup, desc, "context");
	char	   *subject = text_attr(tup, desc, "subject");
	int32		version = 0;
	bool		has_version = int_attr(tup, desc, "version", &version);
	int32		schema_id;
	bool		isnull;
	bool		deleted;
	rg_mode		mode;
	bool		importing;
	int32		max_version;
	HeapTuple	result = tup;
	MemoryContext caller_cxt = CurrentMemoryContext;
	CatalogSettings settings;

	check_trigger(fcinfo, "versions_before_insert");
	if (context == NULL || subject == NULL || !int_attr(tup, desc, "schema_id", &schema_id))
		ereport(ERROR,
				(errcode(ERRCODE_NOT_NULL_VIOLATION),
				 errmsg("a subject version needs a context, a subject and a schema id")));
	deleted = DatumGetBool(heap_getattr(tup, SPI_fnumber(desc, "deleted"), desc, &isnull));
	if (!isnull && deleted)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("a new subject version cannot be inserted as deleted")));
	registry_validate_subject(subject, subject);

	/* the SQL API's own insert, checked a moment ago under the same lock */
	if (has_version && registry_take_checked(context, subject, schema_id, version))
		return PointerGetDatum(tup);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	max_version = catalog_lock_subject(context, subject);

	catalog_effective_settings(context, subject, &settings);
	mode = registry_mode(settings.mode);
	registry_check_writable(context, subject, mode);
	importing = rg_mode_is_import(mode);

	if (!has_version)
	{
		int			attno = SPI_fnumber(desc, "version");
		Datum		v = Int32GetDatum(max_version + 1);
		bool		n = false;
		MemoryContext old = MemoryContextSwitchTo(caller_cxt);

		version = max_version + 1;
		result = heap_modify_tuple_by_cols(tup, desc, 1, &attno, &v, &n);
		MemoryContextSwitchTo(old);
	}
	else if (!importing)
		registry_check_next_version(subject, version, max_version);

	if (!importing)
	{
		CatalogSchema row;

		if (!catalog_get_schema(context, schema_id, &row))
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
					 errmsg("schema %d not found in context \"%s\"", schema_id, context)));
		registry_assert_compatible(context, subject,
								   registry_stored_schema(context, schema_id, row.fingerprint),
								   registry_level(settings.compatibility));
	}
	SPI_finish();
	return PointerGetDatum(result);
}
