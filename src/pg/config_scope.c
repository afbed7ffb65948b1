/*-------------------------------------------------------------------------
 *
 * config_scope.c
 *	  The configuration and mode in force for a subject: Confluent's scope
 *	  rule, each field from the nearest scope that sets it.
 *
 * The scopes, nearest first: the subject, its context (":.ctx:"), the
 * global level, the ":.__GLOBAL:" context, then the server default
 * (BACKWARD, READWRITE).  The catalog reads the rows that can apply
 * (catalog_scope_rows); this file ranks and merges them, for the
 * registration path (catalog_effective_settings) and for
 * registry.config_in_force() alike.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog.h"
#include "json_values.h"
#include "registry.h"
#include "rg_json_text.h"

#define N_RANKS 4

/* How near a row's scope is to (context, subject): 0 nearest, N_RANKS - 1 farthest. */
static int
scope_rank(const char *row_context, const char *row_subject, const char *context)
{
	if (row_subject[0] != '\0')
		return 0;
	if (strcmp(row_context, context) == 0 && strcmp(row_context, REGISTRY_DEFAULT_CONTEXT) != 0)
		return 1;
	if (strcmp(row_context, REGISTRY_DEFAULT_CONTEXT) == 0)
		return 2;
	return 3;
}

/*
 * Set the non-null members of a config row's fields in config, its level
 * as level_key ("compatibilityLevel" in a Config object, "compatibility"
 * in a ConfigUpdateRequest).
 */
static void
overlay_row_as(json_t *config, const CatalogConfigRow *row, const char *level_key)
{
	json_error_t jerr;
	json_t	   *settings = row->settings ? json_loads(row->settings, 0, &jerr) : NULL;
	const char *key;
	json_t	   *value;

	if (json_is_object(settings))
		json_object_foreach(settings, key, value)
			if (!json_is_null(value))
			json_object_set(config, key, value);
	json_decref(settings);
	if (row->compatibility)
		json_object_set_new(config, level_key, json_string(row->compatibility));
	if (row->has_normalize)
		json_object_set_new(config, "normalize", json_boolean(row->normalize));
}

/* Set the non-null members of a config row's fields in a Config object. */
static void
overlay_row(json_t *config, const CatalogConfigRow *row)
{
	overlay_row_as(config, row, "compatibilityLevel");
}

/* The merged Config object in force (farthest scopes first, nearer ones over them). */
static json_t *
merged_config(const CatalogScopeRows *rows, const char *context)
{
	json_t	   *config = json_pack("{s:s}", "compatibilityLevel", REGISTRY_DEFAULT_COMPATIBILITY);
	int			rank;
	int			i;

	for (rank = N_RANKS - 1; rank >= 0; rank--)
		for (i = 0; i < rows->n_config; i++)
			if (scope_rank(rows->config[i].context, rows->config[i].subject, context) == rank)
				overlay_row(config, &rows->config[i]);
	return config;
}

/* The mode of the nearest scope that sets one; READWRITE without. */
static char *
mode_in_force(const CatalogScopeRows *rows, const char *context)
{
	char	   *mode = REGISTRY_DEFAULT_MODE;
	int			best = N_RANKS;
	int			i;

	for (i = 0; i < rows->n_mode; i++)
	{
		int			rank = scope_rank(rows->mode[i].context, rows->mode[i].subject, context);

		if (rank < best)
		{
			best = rank;
			mode = rows->mode[i].mode;
		}
	}
	return pstrdup(mode);
}

/* A member as palloc'd text: a string's value, else its JSON; NULL when absent. */
static char *
member_text(json_t *config, const char *key, bool as_json)
{
	json_t	   *v = json_object_get(config, key);

	if (v == NULL || json_is_null(v))
		return NULL;
	if (!as_json)
		return json_is_string(v) ? pstrdup(json_string_value(v)) : NULL;
	return registry_json_text(v);
}

/* An ASCII upper-cased copy. */
static char *
ascii_upper(const char *s)
{
	char	   *up = pstrdup(s);
	char	   *p;

	for (p = up; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p -= 'a' - 'A';
	return up;
}

/* The settings in force for a subject (see catalog.h). */
void
catalog_effective_settings(const char *context, const char *subject,
						   CatalogSettings *out)
{
	CatalogScopeRows rows;
	json_t	   *config;
	char	   *policy;
	char	   *lint;

	catalog_scope_rows(context, subject, &rows);
	config = merged_config(&rows, context);
	out->mode = mode_in_force(&rows, context);
	out->compatibility = member_text(config, "compatibilityLevel", false);
	if (out->compatibility == NULL)
		out->compatibility = REGISTRY_DEFAULT_COMPATIBILITY;
	out->normalize = json_is_true(json_object_get(config, "normalize"));
	policy = member_text(config, "compatibilityPolicy", false);
	out->policy = policy ? ascii_upper(policy) : "STRICT";
	out->validate_fields = json_is_true(json_object_get(config, "validateFields"));
	out->compatibility_group = member_text(config, "compatibilityGroup", false);
	lint = member_text(config, "lint", false);
	out->lint = lint ? ascii_upper(lint) : "NONE";
	out->lint_rules = member_text(config, "lintRules", false);
	out->default_metadata = member_text(config, "defaultMetadata", true);
	out->override_metadata = member_text(config, "overrideMetadata", true);
	out->default_rule_set = member_text(config, "defaultRuleSet", true);
	out->override_rule_set = member_text(config, "overrideRuleSet", true);
	json_decref(config);
}

/* The configuration in force as Confluent's Config object (JSON text). */
char *
catalog_config_in_force(const char *context, const char *subject)
{
	CatalogScopeRows rows;
	json_t	   *config;
	char	   *text;

	catalog_scope_rows(context, subject, &rows);
	config = merged_config(&rows, context);
	text = registry_json_text(config);
	json_decref(config);
	return text;
}

/* One scope's own config row as a Config object (JSON text), its level as level_key. */
char *
catalog_config_row_json(const CatalogConfigRow *row, const char *level_key)
{
	json_t	   *config = rg_json_new_object();
	char	   *text;

	overlay_row_as(config, row, level_key);
	text = registry_json_text(config);
	json_decref(config);
	return text;
}
