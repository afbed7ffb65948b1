/*-------------------------------------------------------------------------
 *
 * rg_lint.c
 *	  The names of the lint modes and of the lints, read from a config.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_lint.h"

#include <stddef.h>
#include <string.h>

/* a name a config may give, and the lints it stands for */
typedef struct lint_name
{
	const char *name;
	rg_lint_rules rules;
} lint_name;

/* in the order of rg_lint_mode */
static const char *const lint_mode_names[] = {
	"NONE",
	"WARN",
	"FAIL"
};

static const lint_name lint_names[] = {
	{"FIELD_RENAMED_WITHOUT_ALIAS", RG_LINT_RENAMED_WITHOUT_ALIAS},
	{"DELETED_FIELD_NOT_RESERVED", RG_LINT_DELETED_NOT_RESERVED},
	{"FIELD_NUMBER_REUSED", RG_LINT_NUMBER_REUSED},
	{"FIELD_NAME_REUSED", RG_LINT_NAME_REUSED},
	{"FIELD_REMOVED_WITHOUT_DEPRECATION", RG_LINT_REMOVED_WITHOUT_DEPRECATION},
	{"FIELD_WITHOUT_DEFAULT", RG_LINT_WITHOUT_DEFAULT},
	{"FIELD_TYPE_CHANGED", RG_LINT_TYPE_CHANGED},
	{"DATA_LOSS", RG_LINT_DATA_LOSS},
	{"PRACTICES", RG_LINT_PRACTICES},
	{"ALL", RG_LINT_ALL}
};

/* Do s[0..len) and name (upper case) spell the same, ignoring ASCII case? */
static bool
same_name(const char *s, size_t len, const char *name)
{
	size_t		i;

	if (strlen(name) != len)
		return false;
	for (i = 0; i < len; i++)
	{
		char		c = s[i];

		if (c >= 'a' && c <= 'z')
			c = (char) (c - 'a' + 'A');
		if (c != name[i])
			return false;
	}
	return true;
}

/* A lint mode by its name, in any case. */
bool
rg_lint_mode_parse(const char *s, rg_lint_mode *out)
{
	size_t		i;

	if (s == NULL)
		return false;
	for (i = 0; i < sizeof(lint_mode_names) / sizeof(lint_mode_names[0]); i++)
		if (same_name(s, strlen(s), lint_mode_names[i]))
		{
			if (out)
				*out = (rg_lint_mode) i;
			return true;
		}
	return false;
}

/* The lints one name (s[0..len), spaces trimmed) stands for; 0 when unknown. */
static rg_lint_rules
rules_of_name(const char *s, size_t len)
{
	size_t		i;

	while (len > 0 && *s == ' ')
	{
		s++;
		len--;
	}
	while (len > 0 && s[len - 1] == ' ')
		len--;
	for (i = 0; i < sizeof(lint_names) / sizeof(lint_names[0]); i++)
		if (same_name(s, len, lint_names[i].name))
			return lint_names[i].rules;
	return 0;
}

/* See rg_lint.h */
bool
rg_lint_rules_parse(const char *s, rg_lint_rules *out)
{
	rg_lint_rules rules = 0;

	if (s == NULL)
	{
		if (out)
			*out = RG_LINT_DATA_LOSS;
		return true;
	}
	for (;;)
	{
		const char *comma = strchr(s, ',');
		size_t		len = comma ? (size_t) (comma - s) : strlen(s);
		rg_lint_rules one = rules_of_name(s, len);

		if (one == 0)
			return false;
		rules |= one;
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	if (out)
		*out = rules;
	return true;
}
