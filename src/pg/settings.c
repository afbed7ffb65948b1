/*-------------------------------------------------------------------------
 *
 * settings.c
 *	  Modes and compatibility levels: the settings in force for a subject
 *	  and the one read-only rule (for C callers and, as
 *	  registry.check_writable(), for the install script).  The names of
 *	  modes and levels come from rg_compat's tables only, the wording from
 *	  confluent_messages.c.  The triggers that keep registry.config and
 *	  registry.modes valid are in triggers.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "catalog.h"
#include "confluent_messages.h"
#include "registry.h"

PG_FUNCTION_INFO_V1(registry_effective_mode);
PG_FUNCTION_INFO_V1(registry_effective_compatibility);
PG_FUNCTION_INFO_V1(registry_effective_normalize);
PG_FUNCTION_INFO_V1(registry_check_writable_sql);

/* registry.force_mode: set_mode's force, for the one statement it runs */
static bool registry_force_mode = false;

/* Define the GUCs of the settings rules. */
void
registry_init_settings(void)
{
	DefineCustomBoolVariable("registry.force_mode",
							 "Lets set_mode switch a scope with live subjects to IMPORT.",
							 "Set for one transaction by registry.set_mode(..., force => true).",
							 &registry_force_mode,
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
 * The one read-only rule: READONLY and READONLY_OVERRIDE refuse writes to
 * the scope (42205).  An empty subject is the context itself.
 */
void
registry_check_writable(const char *context, const char *subject, rg_mode mode)
{
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

/* The settings in force for (context, subject), copied out of SPI's memory. */
static CatalogSettings
settings_in_force(const char *context, const char *subject)
{
	CatalogSettings s;
	CatalogSettings out;
	MemoryContext cxt = CurrentMemoryContext;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	catalog_effective_settings(context, subject, &s);
	out.mode = MemoryContextStrdup(cxt, s.mode);
	out.compatibility = MemoryContextStrdup(cxt, s.compatibility);
	out.normalize = s.normalize;
	SPI_finish();
	return out;
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

/* Does the scope of a mode (global, a context or a subject) hold a live subject version? */
bool
registry_scope_has_live_subjects(const char *context, const char *subject)
{
	bool		found;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	found = catalog_scope_has_live_versions(context, subject);
	SPI_finish();
	return found;
}

/* Is registry.force_mode on (set_mode's force, for its statement)? */
bool
registry_forcing_mode(void)
{
	return registry_force_mode;
}
