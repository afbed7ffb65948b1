/*-------------------------------------------------------------------------
 *
 * settings.c
 *	  Modes and compatibility levels: the settings in force for a subject
 *	  and the one read-only rule (for C callers and, as
 *	  registry.check_writable(), for the install script), which also
 *	  keeps a logical replication subscriber of the registry read-only.
 *	  The names of modes and levels come from rg_compat's tables only, the
 *	  wording from confluent_messages.c.
 *
 * The triggers that keep registry.config and registry.modes valid: a
 * config write needs a writable scope and a valid level, a mode must be
 * valid and FORWARD only global.  Names are stored upper-cased (SQL's
 * upper()).  IMPORT over a scope with live subjects needs the request's
 * force, a rule of the set-mode operation (settings_service.c): a raw
 * write of a mode row is an administrator's, as forced as it gets.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_subscription_rel.h"
#include "commands/trigger.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "confluent_messages.h"
#include "data_contract.h"
#include "registry.h"
#include "trigger_row.h"

PG_FUNCTION_INFO_V1(registry_effective_mode);
PG_FUNCTION_INFO_V1(registry_config_in_force);
PG_FUNCTION_INFO_V1(registry_effective_compatibility);
PG_FUNCTION_INFO_V1(registry_effective_normalize);
PG_FUNCTION_INFO_V1(registry_check_writable_sql);
PG_FUNCTION_INFO_V1(registry_config_before_write);
PG_FUNCTION_INFO_V1(registry_modes_before_write);

/*
 * registry.force_mode: read by nothing.  It is defined only so that the
 * set_mode() of a catalog before 0.6, which sets it, still runs until
 * ALTER EXTENSION registry UPDATE (the "registry" prefix is reserved).
 */
static bool registry_force_mode_unused = false;

/* receives_registry()'s last answer, while subscribed_known */
static bool subscribed_known = false;
static bool subscribed = false;
static uint64 subscribed_invalidations = 0;

/* A catalog row the subscriber answer depends on changed: ask again. */
static void
forget_subscribed(Datum arg, int cacheid, uint32 hashvalue)
{
	subscribed_known = false;
	subscribed_invalidations++;
}

/*
 * Define the GUCs of the settings rules; the subscriber answer is kept
 * until a subscription's tables, a relation or a schema change.
 */
void
registry_init_settings(void)
{
	CacheRegisterSyscacheCallback(SUBSCRIPTIONRELMAP, forget_subscribed, (Datum) 0);
	CacheRegisterSyscacheCallback(RELOID, forget_subscribed, (Datum) 0);
	CacheRegisterSyscacheCallback(NAMESPACEOID, forget_subscribed, (Datum) 0);
	DefineCustomBoolVariable("registry.force_mode",
							 "Not used since 0.6 (set by the set_mode() of older catalogs).",
							 NULL,
							 &registry_force_mode_unused,
							 false,
							 PGC_USERSET,
							 GUC_NOT_IN_SAMPLE | GUC_NO_SHOW_ALL,
							 NULL, NULL, NULL);
}

/*
 * The mode a stored name stands for.  The modes trigger stores Confluent's
 * names only; any other name (a row written with the trigger disabled)
 * counts as READWRITE, as it always has.
 */
rg_mode
registry_mode(const char *name)
{
	rg_mode		mode;

	if (name == NULL || !rg_mode_parse(name, &mode) || strcmp(name, rg_mode_name(mode)) != 0)
		return RG_MODE_READWRITE;
	return mode;
}

/* The level a stored name stands for; the triggers let no other be stored. */
rg_compat_level
registry_level(const char *name)
{
	rg_compat_level level;

	if (!rg_compat_level_parse(name, &level))
		elog(ERROR, "unknown compatibility level \"%s\"", name);
	return level;
}

/*
 * Does this database receive registry tables from a logical replication
 * subscription (enabled or not)?  pg_subscription_rel lists the tables of
 * this database's subscriptions; it is empty but on a subscriber.
 */
static bool
receives_registry(void)
{
	Oid			registry_ns = get_namespace_oid("registry", true);
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tup;
	bool		found = false;

	if (!OidIsValid(registry_ns))
		return false;
	rel = table_open(SubscriptionRelRelationId, AccessShareLock);
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	while (!found && HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_subscription_rel subscribed = (Form_pg_subscription_rel) GETSTRUCT(tup);

		found = get_rel_namespace(subscribed->srrelid) == registry_ns;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * A subscriber of the registry is read-only (42205): a write there would
 * take ids and keys that the publisher gives too, and the subscription
 * would stop when they arrive.  Its apply fires none of the triggers that
 * call this.  The answer is kept between calls: every registration asks.
 */
void
registry_check_not_subscriber(void)
{
	if (!subscribed_known)
	{
		uint64		before = subscribed_invalidations;

		subscribed = receives_registry();
		/* kept unless an invalidation came in while it was read */
		subscribed_known = subscribed_invalidations == before;
	}
	if (subscribed)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("the registry of this database is a logical replication subscriber"),
				 errdetail("This registry is a read-only logical replication subscriber. Write to the publisher."),
				 errhint("To write here, drop the subscription and run registry.raise_id_sequences() first.")));
}

/*
 * The one read-only rule: READONLY and READONLY_OVERRIDE refuse writes to
 * the scope (42205), and so does a subscriber of the registry.  An empty
 * subject is the context itself.
 */
void
registry_check_writable(const char *context, const char *subject, rg_mode mode)
{
	registry_check_not_subscriber();
	if (!rg_mode_is_read_only(mode))
		return;
	if (subject[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("context \"%s\" is in read-only mode", context),
				 errdetail("%s", confluent_text(CW_CONTEXT_READ_ONLY, context))));
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
			 errmsg("subject \"%s\" in context \"%s\" is in read-only mode", subject, context),
			 errdetail("%s", confluent_text(CW_SUBJECT_READ_ONLY, subject, context))));
}

/*
 * 42205 unless mode (in force for the scope; subject "" for a context)
 * imports: choosing a schema id is importing.
 */
void
registry_check_importing(const char *context, const char *subject, rg_mode mode)
{
	if (rg_mode_is_import(mode))
		return;
	if (subject[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("context \"%s\" is not in import mode", context),
				 errdetail("%s", confluent_text(CW_CONTEXT_NOT_IMPORT, context)),
				 errhint("A schema with an explicit id needs IMPORT mode.")));
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
			 errmsg("subject \"%s\" in context \"%s\" is not in import mode", subject, context),
			 errdetail("%s", confluent_text(CW_SUBJECT_NOT_IMPORT, subject, context))));
}

/* The settings in force for (context, subject). */
static CatalogSettings
settings_in_force(const char *context, const char *subject)
{
	CatalogSettings s;

	catalog_effective_settings(context, subject, &s);
	return s;
}

/* Does a subject of the context set for itself a mode that meets test? */
static bool
subject_of_context_sets(const char *context, bool (*test) (rg_mode))
{
	int			n;
	char	  **modes = catalog_context_subject_modes(context, &n);

	for (int i = 0; i < n; i++)
		if (test(registry_mode(modes[i])))
			return true;
	return false;
}

/* Can a subject with this mode write? */
static bool
mode_writes(rg_mode mode)
{
	return !rg_mode_is_read_only(mode);
}

/*
 * Refuse a schema row in a context none of whose subjects can take
 * versions: the context's mode in force is read-only and no subject of it
 * sets a writable mode for itself.  A schema row names no subject, and a
 * subject's own READWRITE in a read-only registry takes new schemas.
 */
void
registry_check_schema_context_writable(const char *context)
{
	rg_mode		mode = registry_mode(settings_in_force(context, "").mode);

	if (!rg_mode_is_read_only(mode) || subject_of_context_sets(context, mode_writes))
		return;
	registry_check_writable(context, "", mode);
}

PG_FUNCTION_INFO_V1(registry_advance_schema_id);

/*
 * registry.advance_schema_id(context, subject, id), SECURITY DEFINER: in
 * IMPORT mode, new ids of the context continue above id (never below what
 * they are); 42205 otherwise, so no writer can move the allocator.  For a
 * context (subject ''), as a schema row with an explicit id asks, a
 * subject of the context with its own IMPORT mode counts too: that is how
 * an import into one subject adds its schemas.
 */
Datum
registry_advance_schema_id(PG_FUNCTION_ARGS)
{
	char	   *context = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *subject = text_to_cstring(PG_GETARG_TEXT_PP(1));
	CatalogSettings settings;

	catalog_effective_settings(context, subject, &settings);
	if (subject[0] != '\0' || !subject_of_context_sets(context, rg_mode_is_import))
		registry_check_importing(context, subject, registry_mode(settings.mode));
	catalog_raise_id_floor(context, PG_GETARG_INT32(2));
	PG_RETURN_VOID();
}

/*
 * registry.effective_mode/compatibility/normalize(context, subject): the
 * settings in force, by the one rule in catalog_effective_settings().
 */
static CatalogSettings
effective_settings(FunctionCallInfo fcinfo)
{
	return settings_in_force(text_to_cstring(PG_GETARG_TEXT_PP(0)),
							 text_to_cstring(PG_GETARG_TEXT_PP(1)));
}

/* registry.config_in_force(context, subject): the configuration in force, as jsonb */
Datum
registry_config_in_force(PG_FUNCTION_ARGS)
{
	char	   *config = catalog_config_in_force(text_to_cstring(PG_GETARG_TEXT_PP(0)),
												 text_to_cstring(PG_GETARG_TEXT_PP(1)));

	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(config)));
}

/* registry.effective_mode(context, subject) */
Datum
registry_effective_mode(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(effective_settings(fcinfo).mode));
}

/* registry.effective_compatibility(context, subject) */
Datum
registry_effective_compatibility(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(effective_settings(fcinfo).compatibility));
}

/* registry.effective_normalize(context, subject) */
Datum
registry_effective_normalize(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(effective_settings(fcinfo).normalize);
}

/* Refuse a write to (context, subject) when the mode in force is read-only. */
void
registry_check_scope_writable(const char *context, const char *subject)
{
	registry_check_writable(context, subject,
							registry_mode(settings_in_force(context, subject).mode));
}

/* registry.check_writable(context, subject): 42205 when the scope is read-only */
Datum
registry_check_writable_sql(PG_FUNCTION_ARGS)
{
	registry_check_scope_writable(text_to_cstring(PG_GETARG_TEXT_PP(0)),
								  text_to_cstring(PG_GETARG_TEXT_PP(1)));
	PG_RETURN_VOID();
}

/* --- the triggers on registry.config and registry.modes ------------------ */

/* SQL's upper() of a value, in the database's default collation. */
char *
registry_sql_upper(const char *s)
{
	return TextDatumGetCString(DirectFunctionCall1Coll(upper, DEFAULT_COLLATION_OID,
													   CStringGetTextDatum(s)));
}

/*
 * NEW with value (the upper-cased name, unless NULL) in column and
 * updated_at set to now(), formed in the trigger caller's memory.
 */
static HeapTuple
row_with_name_and_time(TriggerData *trig, const char *column, const char *value)
{
	TupleDesc	desc = trig->tg_relation->rd_att;
	int			attnos[2];
	Datum		values[2];
	bool		nulls[2] = {false, false};
	int			n = 0;

	if (value != NULL)
	{
		attnos[n] = trigger_row_column(desc, column);
		values[n++] = CStringGetTextDatum(value);
	}
	attnos[n] = trigger_row_column(desc, "updated_at");
	values[n++] = TimestampTzGetDatum(GetCurrentTransactionStartTimestamp());
	return heap_modify_tuple_by_cols(trig->tg_newtuple ? trig->tg_newtuple : trig->tg_trigtuple,
									 desc, n, attnos, values, nulls);
}

/*
 * Is the trigger's row a config or mode row a restore brings back
 * (restore.c: its time is before the transaction)?  It is kept as it was:
 * it was checked when it was set, and may come back before or after the
 * rows of the scope it speaks of.
 */
static bool
restored_setting(TriggerData *trig)
{
	return TRIGGER_FIRED_BY_INSERT(trig->tg_event) &&
		registry_trigger_row_restored(trig->tg_trigtuple, trig->tg_relation->rd_att,
									  "updated_at");
}

/*
 * BEFORE INSERT OR UPDATE OR DELETE on registry.config: the scope must be
 * writable; a level is stored upper-cased and must be one of rg_compat's
 * (42203); data contract defaults and overrides must be valid.
 */
Datum
registry_config_before_write(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "config_before_write");
	TupleDesc	desc;
	HeapTuple	row;
	char	   *context;
	char	   *subject;
	char	   *level;
	rg_compat_level parsed;

	if (restored_setting(trig))
		return PointerGetDatum(trig->tg_trigtuple);

	desc = trig->tg_relation->rd_att;
	row = TRIGGER_FIRED_BY_UPDATE(trig->tg_event) ? trig->tg_newtuple : trig->tg_trigtuple;
	context = trigger_row_text(row, desc, "context");
	subject = trigger_row_text(row, desc, "subject");
	if (context != NULL && subject != NULL)
		registry_check_scope_writable(context, subject);
	if (TRIGGER_FIRED_BY_DELETE(trig->tg_event))
		return PointerGetDatum(trig->tg_trigtuple);
	level = trigger_row_text(row, desc, "compatibility");
	if (level != NULL)
	{
		level = registry_sql_upper(level);
		if (!rg_compat_level_parse(level, &parsed) ||
			strcmp(level, rg_compat_level_name(parsed)) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_INVALID_COMPATIBILITY),
					 errmsg("invalid compatibility level \"%s\"", level),
					 errdetail("%s", confluent_text(CW_INVALID_COMPATIBILITY))));
	}
	dc_check_config(trigger_row_text(row, desc, "settings"));
	return PointerGetDatum(row_with_name_and_time(trig, "compatibility", level));
}

/*
 * Is (context, subject) not the global scope, as SQL's "context <> '.' OR
 * subject <> ''" answers it: a NULL side is never the true one.
 */
static bool
not_global(const char *context, const char *subject)
{
	return (context != NULL && strcmp(context, REGISTRY_DEFAULT_CONTEXT) != 0) ||
		(subject != NULL && subject[0] != '\0');
}

/*
 * BEFORE INSERT OR UPDATE OR DELETE on registry.modes: not on a subscriber
 * (42205); a mode is stored upper-cased and must be one of rg_compat's
 * (42204); FORWARD is only global.
 */
Datum
registry_modes_before_write(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "modes_before_write");
	TupleDesc	desc;
	bool		inserting;
	HeapTuple	row;
	char	   *name;
	char	   *context;
	char	   *subject;
	rg_mode		mode;

	registry_check_not_subscriber();
	if (TRIGGER_FIRED_BY_DELETE(trig->tg_event))
		return PointerGetDatum(trig->tg_trigtuple);
	if (restored_setting(trig))
		return PointerGetDatum(trig->tg_trigtuple);
	desc = trig->tg_relation->rd_att;
	inserting = TRIGGER_FIRED_BY_INSERT(trig->tg_event);
	row = inserting ? trig->tg_trigtuple : trig->tg_newtuple;
	name = trigger_row_text(row, desc, "mode");
	context = trigger_row_text(row, desc, "context");
	subject = trigger_row_text(row, desc, "subject");
	if (name != NULL)
	{
		name = registry_sql_upper(name);
		if (!rg_mode_parse(name, &mode) || strcmp(name, rg_mode_name(mode)) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_INVALID_MODE),
					 errmsg("invalid mode \"%s\"", name),
					 errdetail("%s", confluent_text(CW_INVALID_MODE))));
		if (mode == RG_MODE_FORWARD && not_global(context, subject))
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_INVALID_MODE),
					 errmsg("mode FORWARD can only be set globally")));
	}
	return PointerGetDatum(row_with_name_and_time(trig, "mode", name));
}
