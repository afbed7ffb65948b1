/*-------------------------------------------------------------------------
 *
 * settings_service.c
 *	  Confluent's config and mode operations (GET, PUT and DELETE of
 *	  /config and /mode, global, per context and per subject): one C
 *	  function each, which the REST routes call directly and the SQL
 *	  functions (registry.get_config(), set_mode(), ...; settings_sql.c)
 *	  wrap.
 *
 * An operation names its scope, reads or writes that scope's row, and
 * answers as Confluent does.  The rules a row must meet (a writable scope,
 * a valid level or mode, FORWARD only global, valid data contract
 * defaults) are the triggers' on registry.config and registry.modes
 * (settings.c), so a raw write meets them too.  One rule belongs to the
 * request rather than to the row, and lives here: PUT /mode IMPORT over a
 * scope that has live subjects needs the request's force.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog.h"
#include "confluent_messages.h"
#include "json_values.h"
#include "registry.h"
#include "settings_service.h"

/* --- scopes and their own rows ------------------------------------------- */

/* A scope named by a request: its row key, and the name as the request gave it. */
typedef struct Scope
{
	const char *named;			/* NULL: global */
	char	   *context;
	char	   *subject;
} Scope;

/* The scope a request names (NULL: global), 42208 for a name that is not one. */
static Scope
scope_of(const char *named)
{
	Scope		s;

	s.named = named;
	registry_scope_key(named, &s.context, &s.subject);
	return s;
}

/* The scope's own config row, false when it has none. */
static bool
own_config_row(const Scope *s, CatalogConfigRow *out)
{
	CatalogScopeRows rows;

	catalog_scope_rows(s->context, s->subject, &rows);
	for (int i = 0; i < rows.n_config; i++)
		if (strcmp(rows.config[i].context, s->context) == 0 &&
			strcmp(rows.config[i].subject, s->subject) == 0)
		{
			*out = rows.config[i];
			return true;
		}
	return false;
}

/* The scope's own mode, NULL when it sets none. */
static const char *
own_mode(const Scope *s)
{
	CatalogScopeRows rows;

	catalog_scope_rows(s->context, s->subject, &rows);
	for (int i = 0; i < rows.n_mode; i++)
		if (strcmp(rows.mode[i].context, s->context) == 0 &&
			strcmp(rows.mode[i].subject, s->subject) == 0)
			return rows.mode[i].mode;
	return NULL;
}

/* The settings in force for a scope (each field from the nearest scope that sets it). */
static CatalogSettings
in_force(const Scope *s)
{
	CatalogSettings settings;

	catalog_effective_settings(s->context, s->subject, &settings);
	return settings;
}

/* Raise 40401 for a subject that the operation found nothing of. */
static void
report_subject_not_found(const char *named)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
			 errmsg("subject \"%s\" not found", named)));
}

/* Raise 42203 for a configuration that is not one. */
static void
report_invalid_config(const char *message)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_COMPATIBILITY),
			 errmsg("%s", message),
			 errdetail("%s", confluent_text(CW_INVALID_COMPATIBILITY))));
}

/* --- config -------------------------------------------------------------- */

/*
 * GET /config[/{s}]: the configuration in force (global, or with
 * defaultToGlobal), else the scope's own, 40408 when it sets nothing.
 */
char *
registry_get_config(const char *named, bool default_to_global)
{
	Scope		s = scope_of(named);
	CatalogConfigRow row;
	char	   *config;

	if (named == NULL || default_to_global)
		return catalog_config_in_force(s.context, s.subject);
	if (!own_config_row(&s, &row) ||
		strcmp(config = catalog_config_row_json(&row, "compatibilityLevel"), "{}") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_CONFIG_NOT_FOUND),
				 errmsg("subject \"%s\" does not have subject-level compatibility configured",
						named)));
	return config;
}

/*
 * PUT /config[/{s}] with Confluent's ConfigUpdateRequest (a JSON object
 * text): the level and normalize given replace the scope's, the other
 * fields are merged into its own (nulls dropped).  Returns the request
 * with the level upper-cased and nulls dropped; *stored (when not NULL)
 * gets the scope's configuration as stored after it, as a
 * ConfigUpdateRequest (what Confluent 8.x answers).
 */
char *
registry_set_config(const char *named, const char *request, char **stored)
{
	Scope		s = scope_of(named);
	json_error_t jerr;
	json_t	   *config = json_loads(request, JSON_DECODE_ANY, &jerr);
	json_t	   *level;
	json_t	   *normalize;
	const char *upper = NULL;
	bool		norm = false;
	CatalogConfigRow row;
	char	   *answer;

	if (!json_is_object(config))
	{
		json_decref(config);
		report_invalid_config("a configuration must be a JSON object");
	}
	level = json_object_get(config, "compatibility");
	if (level != NULL && !json_is_string(level) && !json_is_null(level))
		report_invalid_config(psprintf("invalid compatibility level %s", registry_json_text(level)));
	if (json_is_string(level))
		upper = registry_sql_upper(json_string_value(level));
	normalize = json_object_get(config, "normalize");
	if (json_is_boolean(normalize))
		norm = json_is_true(normalize);
	catalog_write_config(s.context, s.subject, upper,
						 json_is_boolean(normalize) ? &norm : NULL, request, &row);
	if (stored)
		*stored = catalog_config_row_json(&row, "compatibility");
	if (upper)
		json_object_set_new(config, "compatibility", json_string(upper));
	registry_json_strip_nulls(config);
	answer = registry_json_text(config);
	json_decref(config);
	return answer;
}

/*
 * DELETE /config[/{s}]: the scope's configuration removed (as a Config
 * object), the default level when the global or a context scope set none;
 * 40401 for a subject without one.
 */
char *
registry_delete_config(const char *named)
{
	Scope		s = scope_of(named);
	CatalogConfigRow old;

	if (catalog_delete_config(s.context, s.subject, &old))
		return catalog_config_row_json(&old, "compatibilityLevel");
	if (named != NULL && s.subject[0] != '\0')
		report_subject_not_found(named);
	return psprintf("{\"compatibilityLevel\":\"%s\"}", REGISTRY_DEFAULT_COMPATIBILITY);
}

/* --- compatibility (the level alone, for the SQL API) ------------------------- */

/*
 * A scope's compatibility level: the one in force (default_to_global), else
 * its own, 40408 for a subject that sets none.
 */
const char *
registry_get_compatibility(const char *named, bool default_to_global)
{
	Scope		s = scope_of(named);
	CatalogConfigRow row;

	if (default_to_global)
		return in_force(&s).compatibility;
	if (own_config_row(&s, &row) && row.compatibility != NULL)
		return row.compatibility;
	if (named == NULL)
		return REGISTRY_DEFAULT_COMPATIBILITY;
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SUBJECT_CONFIG_NOT_FOUND),
			 errmsg("subject \"%s\" does not have subject-level compatibility configured",
					named)));
	return NULL;				/* keep the compiler quiet */
}

/* Set a scope's compatibility level; returns it upper-cased. */
const char *
registry_set_compatibility(const char *level, const char *named)
{
	Scope		s = scope_of(named);
	CatalogConfigRow row;
	char	   *upper;

	if (level == NULL)
		report_invalid_config("compatibility level must not be null");
	upper = registry_sql_upper(level);
	catalog_write_config(s.context, s.subject, upper, NULL, NULL, &row);
	return upper;
}

/* Remove a scope's configuration; returns the level it had (the default when none). */
const char *
registry_delete_compatibility(const char *named)
{
	Scope		s = scope_of(named);
	CatalogConfigRow old;

	if (catalog_delete_config(s.context, s.subject, &old))
		return old.compatibility ? old.compatibility : REGISTRY_DEFAULT_COMPATIBILITY;
	if (named != NULL && s.subject[0] != '\0')
		report_subject_not_found(named);
	return REGISTRY_DEFAULT_COMPATIBILITY;
}

/* --- mode ---------------------------------------------------------------- */

/*
 * GET /mode[/{s}]: the mode in force (default_to_global), else the scope's
 * own, 40409 for a subject that sets none.
 */
const char *
registry_get_mode(const char *named, bool default_to_global)
{
	Scope		s = scope_of(named);
	const char *mode;

	if (default_to_global)
		return in_force(&s).mode;
	if ((mode = own_mode(&s)) != NULL)
		return mode;
	if (named == NULL)
		return REGISTRY_DEFAULT_MODE;
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SUBJECT_MODE_NOT_FOUND),
			 errmsg("subject \"%s\" does not have subject-level mode configured", named)));
	return NULL;				/* keep the compiler quiet */
}

/*
 * Confluent's rule for PUT /mode IMPORT: a scope that is not in IMPORT
 * already and holds live subject versions switches only with force
 * (42205).
 */
static void
check_import_allowed(const Scope *s, bool force)
{
	const char *current = own_mode(s);

	if (force || (current != NULL && registry_mode(current) == RG_MODE_IMPORT))
		return;
	if (catalog_scope_has_live_versions(s->context, s->subject))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("cannot import since found existing subjects"),
				 errhint("Use force to switch to IMPORT mode anyway.")));
}

/* PUT /mode[/{s}]: set the scope's mode; returns it upper-cased. */
const char *
registry_set_mode(const char *mode, const char *named, bool force)
{
	Scope		s = scope_of(named);
	char	   *upper;
	rg_mode		parsed;

	if (mode == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_MODE),
				 errmsg("mode must not be null"),
				 errdetail("%s", confluent_text(CW_INVALID_MODE))));
	upper = registry_sql_upper(mode);
	if (rg_mode_parse(upper, &parsed) && parsed == RG_MODE_IMPORT)
		check_import_allowed(&s, force);
	catalog_write_mode(s.context, s.subject, upper);
	return upper;
}

/*
 * DELETE /mode[/{s}]: the mode removed (READWRITE when the global or a
 * context scope set none); 40401 for a subject without one.  recursive
 * (Confluent 8.2) on the global or a context scope removes the modes of
 * the context's subjects too, and is no 40401 for a subject.
 */
const char *
registry_delete_mode(const char *named, bool recursive)
{
	Scope		s = scope_of(named);
	char	   *old = catalog_delete_mode(s.context, s.subject);

	if (recursive && s.subject[0] == '\0')
		catalog_delete_subject_modes(s.context);
	if (old != NULL)
		return old;
	if (named != NULL && !recursive)
		report_subject_not_found(named);
	return REGISTRY_DEFAULT_MODE;
}
