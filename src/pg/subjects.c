/*-------------------------------------------------------------------------
 *
 * subjects.c
 *	  Names the SQL and REST APIs are given: Confluent's context-qualified
 *	  subjects (":.ctx:name"), which context and subject names are valid,
 *	  the subject a requested one is served as (its config's alias), and
 *	  version ids ("latest" or a number).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "catalog.h"
#include "confluent_messages.h"
#include "registry.h"

PG_FUNCTION_INFO_V1(registry_split_subject);
PG_FUNCTION_INFO_V1(registry_parse_version);
PG_FUNCTION_INFO_V1(registry_config_scope);
PG_FUNCTION_INFO_V1(registry_served_subject_sql);
PG_FUNCTION_INFO_V1(registry_check_context_sql);

/*
 * Confluent's qualified subject ":.ctx:name" -> (".ctx", "name"), as its
 * QualifiedSubject reads one: only ":." opens a context; ":.ctx" without
 * the closing colon is the context itself (empty name), as is ":.ctx:";
 * anything else, ":ctx:name" included, is a name in the default context.
 */
void
registry_split_subject_cstr(const char *qualified, char **context, char **subject)
{
	const char *end;

	if (qualified[0] == ':' && qualified[1] == '.')
	{
		end = strchr(qualified + 2, ':');
		if (end == NULL)
		{
			*context = pstrdup(qualified + 1);
			*subject = pstrdup("");
			return;
		}
		*context = pnstrdup(qualified + 1, end - (qualified + 1));
		*subject = pstrdup(end + 1);
		return;
	}
	*context = pstrdup(REGISTRY_DEFAULT_CONTEXT);
	*subject = pstrdup(qualified);
}

/*
 * What any subject name meets, a config or mode scope's too: no ASCII
 * control character in the qualified name, not one of the reserved names,
 * at most REGISTRY_MAX_SUBJECT_BYTES long.
 */
static bool
subject_name_allowed(const char *qualified, const char *subject)
{
	const unsigned char *p;

	if (strcmp(subject, "__GLOBAL") == 0 || strcmp(subject, "__EMPTY") == 0)
		return false;
	/* the keys of registry.subjects and friends must fit a btree entry */
	if (strlen(qualified) > REGISTRY_MAX_SUBJECT_BYTES)
		return false;
	for (p = (const unsigned char *) qualified; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* Does the name hold a C1 control (U+0080..U+009F, encoded 0xC2 0x80..0x9F)? */
static bool
has_c1_control(const char *qualified)
{
	const unsigned char *p;

	for (p = (const unsigned char *) qualified; *p; p++)
		if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
			return true;
	return false;
}

/*
 * Is this a valid context name: a dot, then only ASCII letters, digits,
 * '.', '_' and '-' (so no space, '!', '@', '#', ':' or control character)?
 * The default context "." is one.
 */
bool
registry_context_name_valid(const char *context)
{
	const char *p;

	if (context[0] != '.')
		return false;
	for (p = context + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			  (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			return false;
	return true;
}

/*
 * Can subjects of this context have versions: a valid name, and not
 * Confluent's ".__GLOBAL", which only holds config and mode.
 */
static bool
context_holds_versions(const char *context)
{
	return registry_context_name_valid(context) &&
		strcmp(context, REGISTRY_GLOBAL_CONTEXT) != 0;
}

static void report_invalid_subject(const char *qualified) pg_attribute_noreturn();

/* Raise 42208 for a subject name that is not valid. */
static void
report_invalid_subject(const char *qualified)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_SUBJECT),
			 errmsg("the specified subject is not valid"),
			 errdetail("%s", confluent_text(CW_INVALID_SUBJECT, qualified))));
}

/*
 * Confluent's isValidSubject for a subject that gets versions: not empty,
 * no ISO control characters (C0 or C1), not one of the reserved names.
 * Raises 42208.
 */
void
registry_validate_subject(const char *qualified, const char *subject)
{
	char	   *context;
	char	   *name;

	if (subject[0] == '\0' || !subject_name_allowed(qualified, subject) ||
		has_c1_control(qualified))
		report_invalid_subject(qualified);
	registry_split_subject_cstr(qualified, &context, &name);
	if (!context_holds_versions(context))
		report_invalid_subject(qualified);
}

/*
 * Confluent's spelling of a subject in a context (registry.qualify_subject):
 * the bare name in the default context, else ":ctx:name".
 */
char *
registry_qualify_subject(const char *context, const char *subject)
{
	if (strcmp(context, REGISTRY_DEFAULT_CONTEXT) == 0)
		return pstrdup(subject);
	return psprintf(":%s:%s", context, subject);
}

/*
 * Does the qualified spelling of (context, subject) start with prefix?
 * A NULL prefix and ":*:" (every context) take every subject.  Nothing is
 * allocated: a listing asks it of every subject.
 */
bool
registry_subject_has_prefix(const char *context, const char *subject, const char *prefix)
{
	size_t		len;
	size_t		clen;

	if (prefix == NULL || strcmp(prefix, ":*:") == 0)
		return true;
	if (strcmp(context, REGISTRY_DEFAULT_CONTEXT) == 0)
		return strncmp(subject, prefix, strlen(prefix)) == 0;
	/* ":" context ":" subject */
	len = strlen(prefix);
	if (len == 0)
		return true;
	if (prefix[0] != ':')
		return false;
	prefix++, len--;
	clen = strlen(context);
	if (len <= clen)
		return strncmp(context, prefix, len) == 0;
	if (strncmp(context, prefix, clen) != 0 || prefix[clen] != ':')
		return false;
	return strncmp(subject, prefix + clen + 1, len - clen - 1) == 0;
}

/*
 * A subject version's context (a raw INSERT's row included) must be one
 * that holds versions; else 42208 naming the qualified subject.
 */
void
registry_validate_version_context(const char *context, const char *subject)
{
	if (!context_holds_versions(context))
		report_invalid_subject(registry_qualify_subject(context, subject));
}

/*
 * 42208 unless subjects of the context can have versions (the check of
 * every new context row).
 */
void
registry_check_context(const char *context)
{
	if (!context_holds_versions(context))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SUBJECT),
				 errmsg("context \"%s\" cannot hold subjects", context),
				 errdetail("%s", confluent_text(CW_INVALID_SUBJECT,
												psprintf(":%s:", context)))));
}

/* registry.check_context(context): registry_check_context() */
Datum
registry_check_context_sql(PG_FUNCTION_ARGS)
{
	registry_check_context(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	PG_RETURN_VOID();
}

/*
 * The row key (context, subject) of a config or mode scope.  NULL is
 * global ('.', ''), ":.ctx:" the context (empty name); a name must meet
 * subject_name_allowed() and its context must have a valid name (42208).
 * ":.__GLOBAL:" is a scope too.
 */
void
registry_scope_key(const char *qualified, char **context, char **subject)
{
	*context = REGISTRY_DEFAULT_CONTEXT;
	*subject = "";
	if (qualified == NULL)
		return;
	registry_split_subject_cstr(qualified, context, subject);
	if (!subject_name_allowed(qualified, *subject) ||
		!registry_context_name_valid(*context))
		report_invalid_subject(qualified);
}

/* registry.config_scope(subject) -> (context, subject_name): registry_scope_key() */
Datum
registry_config_scope(PG_FUNCTION_ARGS)
{
	char	   *context;
	char	   *subject;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	registry_scope_key(PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0)),
					   &context, &subject);
	values[0] = CStringGetTextDatum(context);
	values[1] = CStringGetTextDatum(subject);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/*
 * The subject a request for qualified is served as: the alias in the
 * subject's own config when it has one, else the subject itself, as
 * Confluent's REST layer rewrites the subject of /subjects/{s}/...,
 * /compatibility/subjects/{s}/... and /schemas/ids/{id}?subject=s.  An
 * alias without a context is in the requested subject's context.  One
 * step only: the alias's own alias is not followed.
 */
char *
registry_served_subject(const char *qualified)
{
	char	   *context;
	char	   *subject;
	char	   *alias;
	char	   *alias_context;
	char	   *alias_subject;

	if (qualified[0] == '\0')
		return pstrdup(qualified);
	registry_split_subject_cstr(qualified, &context, &subject);
	alias = catalog_subject_alias(context, subject);
	if (alias == NULL || alias[0] == '\0')
		return pstrdup(qualified);
	registry_split_subject_cstr(alias, &alias_context, &alias_subject);
	if (strcmp(alias_context, REGISTRY_DEFAULT_CONTEXT) == 0)
		alias_context = context;
	return registry_qualify_subject(alias_context, alias_subject);
}

/* registry.served_subject(subject): see registry_served_subject() */
Datum
registry_served_subject_sql(PG_FUNCTION_ARGS)
{
	char	   *qualified = text_to_cstring(PG_GETARG_TEXT_PP(0));

	PG_RETURN_TEXT_P(cstring_to_text(registry_served_subject(qualified)));
}

/* registry.split_subject(qualified) -> (context, subject) */
Datum
registry_split_subject(PG_FUNCTION_ARGS)
{
	char	   *qualified = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *context;
	char	   *subject;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	registry_split_subject_cstr(qualified, &context, &subject);
	values[0] = CStringGetTextDatum(context);
	values[1] = CStringGetTextDatum(subject);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/*
 * Confluent's VersionId: "latest" (any case) or -1 is the latest version
 * (returned as -1); otherwise an integer in [1, 2^31-1].  Anything else is
 * 42202.
 */
int32
registry_version_number(const char *s)
{
	char	   *end;
	long		v;

	if (pg_strcasecmp(s, "latest") == 0)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (s[0] != '\0' && *end == '\0' && errno == 0 && (v == -1 || (v >= 1 && v <= INT_MAX)))
		return (int32) v;
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_VERSION),
			 errmsg("invalid version \"%s\"", s),
			 errdetail("%s", confluent_text(CW_INVALID_VERSION, s))));
	return 0;					/* keep the compiler quiet */
}

/* registry.parse_version(version): registry_version_number() */
Datum
registry_parse_version(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_INT32(registry_version_number(text_to_cstring(PG_GETARG_TEXT_PP(0))));
}
