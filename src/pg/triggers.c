/*-------------------------------------------------------------------------
 *
 * triggers.c
 *	  The C triggers that enforce the registry's rules on every write path:
 *	  the SQL API, the REST API and a DBA's raw INSERT all meet them.
 *
 * registry.schemas: a new row is parsed and stored in Confluent's form with
 * its identity; rows are immutable.  registry.subject_versions: a new
 * version passes the mode, numbering and compatibility rules under the
 * subject's row lock.  (The config and mode triggers are in settings.c,
 * soft and hard delete in version_triggers.c, new contexts and subjects in
 * scope_triggers.c.)
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "compatibility.h"
#include "confluent_messages.h"
#include "data_contract.h"
#include "registry.h"
#include "trigger_row.h"
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
PG_FUNCTION_INFO_V1(registry_version_text_key);

/*
 * A schema row's parses_to_itself and normalizes_to_itself as shown (the
 * entries from attnos, values and nulls, how many: none in a catalog not
 * yet updated to 0.7, which lacks them): never what an insert claims.
 */
static int
set_own_form(int *attnos, Datum *values, bool *nulls, TupleDesc desc, const OwnForm *own)
{
	if (!trigger_row_has_column(desc, "parses_to_itself") ||
		!trigger_row_has_column(desc, "normalizes_to_itself"))
		return 0;
	attnos[0] = trigger_row_column(desc, "parses_to_itself");
	values[0] = BoolGetDatum(own->plain);
	nulls[0] = false;
	attnos[1] = trigger_row_column(desc, "normalizes_to_itself");
	values[1] = BoolGetDatum(own->normalized);
	nulls[1] = false;
	return 2;
}

/*
 * BEFORE INSERT OR UPDATE on registry.schemas.  An insert is parsed, its
 * text replaced by Confluent's stored form, its references pinned to
 * concrete versions and its identity computed, unless its content is
 * exactly what a parse of this transaction gave (registry_parsed_before:
 * the registration's own row, parsed a moment ago).  parses_to_itself and
 * normalizes_to_itself are set to what a parse showed (a restored row's
 * by registry_check_restored_schema), never taken from the insert.  Every
 * insert needs a context some subject of which can write; its id is drawn
 * when NULL, and an explicit one needs the context, or a subject of it,
 * importing.  An invalid schema is 42201 and nothing is stored.
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
	bool		parsed;
	SubmittedSchema *s = NULL;
	OwnForm		own;
	int			attnos[11];
	Datum		values[11];
	bool		nulls[11] = {false};

	(void) trigger_row_data(fcinfo, "schemas_before_write");
	if (TRIGGER_FIRED_BY_UPDATE(trig->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("registered schemas are immutable"),
				 errdetail("Register a new schema instead of updating a stored one.")));

	desc = trig->tg_relation->rd_att;
	tup = trig->tg_trigtuple;
	context = trigger_row_text(tup, desc, "context");
	schema_type = trigger_row_text(tup, desc, "schema_type");
	schema = trigger_row_text(tup, desc, "schema");
	refs = trigger_row_text(tup, desc, "refs");
	metadata = dc_metadata_canonical(trigger_row_text(tup, desc, "metadata"));
	rule_set = dc_rule_set_canonical(trigger_row_text(tup, desc, "rule_set"));
	has_id = trigger_row_int(tup, desc, "id", &id);
	fp_datum = trigger_row_value(tup, desc, "fingerprint", &isnull);
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

	if (has_id && has_fp && registry_trigger_row_restored(tup, desc, "created_at"))
	{
		uint8		identity[REGISTRY_FINGERPRINT_LEN];
		int			n;

		own.plain = false;
		own.normalized = false;
		if (trigger_row_has_column(desc, "normalizes_to_itself"))
		{
			Datum		claim = trigger_row_value(tup, desc, "normalizes_to_itself", &isnull);

			own.normalized = !isnull && DatumGetBool(claim);
		}
		registry_check_restored_schema(context, schema_type, schema, refs, metadata,
									   rule_set, fp, &own, identity);
		catalog_raise_id_floor(context, id);
		n = set_own_form(attnos, values, nulls, desc, &own);
		if (memcmp(identity, fp, REGISTRY_FINGERPRINT_LEN) != 0)
		{
			/* a 0.6 row: its identity becomes Confluent's guid */
			attnos[n] = trigger_row_column(desc, "fingerprint");
			values[n] = catalog_fingerprint_datum(identity);
			nulls[n] = false;
			n++;
		}
		return PointerGetDatum(n == 0 ? tup :
							   heap_modify_tuple_by_cols(tup, desc, n, attnos, values, nulls));
	}

	registry_check_not_subscriber();
	registry_check_schema_context_writable(context);
	parsed = has_fp && registry_parsed_before(context, schema_type, schema, refs,
											  metadata, rule_set, fp, &own);
	if (!parsed)
	{
		s = registry_parse_submitted(context, schema_type, schema, refs, metadata,
									 rule_set, false, NULL);
		registry_own_form(s, &own);
	}
	if (!has_id)
		id = catalog_next_schema_id(context);
	else
		catalog_advance_schema_id(context, "", id); /* the context must be
													 * importing */
	if (s != NULL)
		registry_cache_offer(context, id, s);	/* for the AFTER triggers */

	attnos[0] = trigger_row_column(desc, "id");
	values[0] = Int32GetDatum(id);
	if (parsed)
	{
		/* the row's text, type, references and identity are the parse's */
		attnos[1] = trigger_row_column(desc, "metadata");
		values[1] = dc_jsonb_datum(metadata, &nulls[1]);
		attnos[2] = trigger_row_column(desc, "rule_set");
		values[2] = dc_jsonb_datum(rule_set, &nulls[2]);
		attnos[3] = trigger_row_column(desc, "created_at");
		values[3] = TimestampTzGetDatum(GetCurrentTransactionStartTimestamp());
		return PointerGetDatum(heap_modify_tuple_by_cols(tup, desc,
														 4 + set_own_form(attnos + 4, values + 4,
																		  nulls + 4, desc, &own),
														 attnos, values, nulls));
	}
	attnos[1] = trigger_row_column(desc, "schema_type");
	values[1] = CStringGetTextDatum(s->format->name);
	attnos[2] = trigger_row_column(desc, "schema");
	values[2] = PointerGetDatum(cstring_to_text_with_len(s->parsed->canonical,
														 s->parsed->canonical_len));
	attnos[3] = trigger_row_column(desc, "refs");
	values[3] = DirectFunctionCall1(jsonb_in, CStringGetDatum(s->refs_json));
	attnos[4] = trigger_row_column(desc, "fingerprint");
	values[4] = catalog_fingerprint_datum(s->fingerprint);
	attnos[5] = trigger_row_column(desc, "context");
	values[5] = CStringGetTextDatum(context);
	attnos[6] = trigger_row_column(desc, "metadata");
	values[6] = dc_jsonb_datum(s->metadata, &nulls[6]);
	attnos[7] = trigger_row_column(desc, "rule_set");
	values[7] = dc_jsonb_datum(s->rule_set, &nulls[7]);
	attnos[8] = trigger_row_column(desc, "created_at");
	values[8] = TimestampTzGetDatum(GetCurrentTransactionStartTimestamp());
	return PointerGetDatum(heap_modify_tuple_by_cols(tup, desc,
													 9 + set_own_form(attnos + 9, values + 9,
																	  nulls + 9, desc, &own),
													 attnos, values, nulls));
}

/*
 * A raw insert's version row with what the registry sets: its number (the
 * next one when none was given) and its creation time, never a writer's.
 */
static HeapTuple
version_row_as_registered(HeapTuple tup, TupleDesc desc, int32 version)
{
	int			attnos[2];
	Datum		values[2];
	bool		nulls[2] = {false, false};

	attnos[0] = trigger_row_column(desc, "version");
	values[0] = Int32GetDatum(version);
	attnos[1] = trigger_row_column(desc, "created_at");
	values[1] = TimestampTzGetDatum(GetCurrentTransactionStartTimestamp());
	return heap_modify_tuple_by_cols(tup, desc, 2, attnos, values, nulls);
}

/*
 * The text_key of a version of schema id as its schema row gives it (the
 * key of its exact text where the row vouches for it), *isnull when none.
 */
static Datum
version_text_key(const char *context, int32 schema_id, bool *isnull)
{
	CatalogSchema row;
	uint8		key[REGISTRY_TEXT_KEY_MAX];
	int			len = catalog_get_schema(context, schema_id, &row) ?
	registry_schema_text_key(&row, key) : 0;

	*isnull = len == 0;
	return *isnull ? (Datum) 0 : catalog_bytes_datum(key, len);
}

/*
 * The row with its text_key as its schema row gives it: the key of the
 * schema's exact text where that row vouches for it, else NULL; never what
 * the insert said (a catalog before 0.8 has no such column).
 */
static HeapTuple
version_row_keyed(HeapTuple tup, TupleDesc desc, const char *context, int32 schema_id)
{
	int			attno;
	bool		isnull;
	Datum		value;

	if (!trigger_row_has_column(desc, "text_key"))
		return tup;
	value = version_text_key(context, schema_id, &isnull);
	attno = trigger_row_column(desc, "text_key");
	return heap_modify_tuple_by_cols(tup, desc, 1, &attno, &value, &isnull);
}

/*
 * registry.version_text_key_0_8(context, schema_id) -> bytea: the
 * text_key of a version of that schema, for the update from 0.7, which
 * gives the versions stored before it theirs (and drops the function).
 */
Datum
registry_version_text_key(PG_FUNCTION_ARGS)
{
	bool		isnull;
	Datum		key = version_text_key(text_to_cstring(PG_GETARG_TEXT_PP(0)),
									   PG_GETARG_INT32(1), &isnull);

	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(key);
}

/*
 * Is this the row a registration is inserting, with a decision that stands
 * under the settings in force now (the same class of mode and, but for
 * IMPORT, the same compatibility rule; version_handoff.c)?  Then the
 * subject is locked already and the number and compatibility are decided;
 * the mode read now is checked.
 */
static bool
decided_by_registration(const char *context, const char *subject, int32 schema_id,
						int32 version)
{
	bool		importing;
	CompatRule	rule;
	CatalogSettings settings;
	rg_mode		mode;

	if (!registry_version_decided(context, subject, schema_id, version, &importing, &rule))
		return false;
	catalog_effective_settings(context, subject, &settings);
	mode = registry_mode(settings.mode);
	if (rg_mode_is_import(mode) != importing ||
		(!importing && !registry_same_rule(rule, registry_compat_rule(&settings))))
		return false;
	registry_check_writable(context, subject, mode);
	return true;
}

/*
 * The checks of a new version row under the subject's lock, taken here:
 * the version must be the next number (NULL means "the next one") and,
 * outside IMPORT, compatible with the subject's live versions under the
 * settings' rule.  The row with the number it gets.
 */
static HeapTuple
version_row_checked(HeapTuple tup, TupleDesc desc, const char *context, const char *subject,
					int32 schema_id, bool has_version, int32 version)
{
	int32		max_version = catalog_lock_subject(context, subject);
	CatalogSettings settings;
	rg_mode		mode;
	bool		importing;
	HeapTuple	result;

	catalog_effective_settings(context, subject, &settings);
	mode = registry_mode(settings.mode);
	registry_check_writable(context, subject, mode);
	importing = rg_mode_is_import(mode);

	if (has_version && !importing)
		registry_check_next_version(subject, version, max_version);
	if (!has_version)
		version = max_version + 1;
	result = version_row_as_registered(tup, desc, version);

	if (!importing)
	{
		CatalogSchema row;
		CompatCandidate candidate;

		if (!catalog_get_schema(context, schema_id, &row))
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
					 errmsg("schema %d not found in context \"%s\"", schema_id, context)));
		candidate.schema = registry_stored_schema(context, schema_id, row.fingerprint);
		candidate.metadata = row.metadata;
		candidate.identity = row.fingerprint;
		registry_assert_compatible(context, subject, candidate,
								   registry_compat_rule(&settings));
	}
	return result;
}

/*
 * BEFORE INSERT on registry.subject_versions: lock the subject, then the
 * mode in force must allow writes (IMPORT/FORWARD skip the rest), the
 * version must be the next number (NULL means "the next one"), and the
 * schema must be compatible with the subject's live versions under the
 * compatibility level in force (409/40901 otherwise).  The row a
 * registration is inserting has had all of that decided under the lock it
 * holds: when the settings read again here still give that decision, the
 * mode is checked and the rest is not done twice.
 */
Datum
registry_versions_before_insert(PG_FUNCTION_ARGS)
{
	TriggerData *trig = (TriggerData *) fcinfo->context;
	TupleDesc	desc = trig->tg_relation->rd_att;
	HeapTuple	tup = trig->tg_trigtuple;
	char	   *context = trigger_row_text(tup, desc, "context");
	char	   *subject = trigger_row_text(tup, desc, "subject");
	int32		version = 0;
	bool		has_version = trigger_row_int(tup, desc, "version", &version);
	int32		schema_id;
	bool		isnull;
	bool		deleted;

	(void) trigger_row_data(fcinfo, "versions_before_insert");
	if (context == NULL || subject == NULL || !trigger_row_int(tup, desc, "schema_id", &schema_id))
		ereport(ERROR,
				(errcode(ERRCODE_NOT_NULL_VIOLATION),
				 errmsg("a subject version needs a context, a subject and a schema id")));

	/*
	 * a restored version, soft-deleted or not: kept as it was, its key made
	 * again
	 */
	if (has_version && registry_trigger_row_restored(tup, desc, "created_at"))
	{
		registry_validate_subject(subject, subject);
		return PointerGetDatum(version_row_keyed(tup, desc, context, schema_id));
	}
	deleted = DatumGetBool(trigger_row_value(tup, desc, "deleted", &isnull));
	if (!isnull && deleted)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("a new subject version cannot be inserted as deleted")));
	registry_validate_subject(subject, subject);
	registry_validate_version_context(context, subject);

	if (has_version && decided_by_registration(context, subject, schema_id, version))
		tup = version_row_as_registered(tup, desc, version);
	else
		tup = version_row_checked(tup, desc, context, subject, schema_id, has_version, version);
	return PointerGetDatum(version_row_keyed(tup, desc, context, schema_id));
}
