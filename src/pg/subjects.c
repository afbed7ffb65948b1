/*-------------------------------------------------------------------------
 *
 * subjects.c
 *	  Names the SQL and REST APIs are given: Confluent's context-qualified
 *	  subjects (":.ctx:name"), which subject names are valid, and version
 *	  ids ("latest" or a number).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "confluent_messages.h"
#include "registry.h"

PG_FUNCTION_INFO_V1(registry_split_subject);
PG_FUNCTION_INFO_V1(registry_parse_version);
PG_FUNCTION_INFO_V1(registry_config_scope);

/*
 * Confluent's qualified subject ":.ctx:name" -> (".ctx", "name"); a plain
 * name is in the default context "."; ":.ctx:" is the context itself
 * (empty name).  A context given without its leading dot gets one, as
 * Confluent's QualifiedSubject does.
 */
void
registry_split_subject_cstr(const char *qualified, char **context, char **subject)
{
	const char *end;

	if (qualified[0] == ':' && (end = strchr(qualified + 1, ':')) != NULL)
	{
		size_t		len = end - (qualified + 1);

		if (len == 0)
			*context = pstrdup(REGISTRY_DEFAULT_CONTEXT);
		else if (qualified[1] == '.')
			*context = pnstrdup(qualified + 1, len);
		else
			*context = psprintf(".%.*s", (int) len, qualified + 1);
		*subject = pstrdup(end + 1);
		return;
	}
	*context = pstrdup(REGISTRY_DEFAULT_CONTEXT);
	*subject = pstrdup(qualified);
}

/*
 * What any subject name meets, a config or mode scope's too: no ASCII
 * control character in the qualified name, not one of the reserved names.
 */
static bool
subject_name_allowed(const char *qualified, const char *subject)
{
	const unsigned char *p;

	if (strcmp(subject, "__GLOBAL") == 0 || strcmp(subject, "__EMPTY") == 0)
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
	if (subject[0] == '\0' || !subject_name_allowed(qualified, subject) ||
		has_c1_control(qualified))
		report_invalid_subject(qualified);
}

/*
 * registry.config_scope(subject) -> (context, subject_name): the row key
 * of a config or mode scope.  NULL is global ('.', ''), ":.ctx:" the
 * context (empty name); a name must meet subject_name_allowed() (42208).
 */
Datum
registry_config_scope(PG_FUNCTION_ARGS)
{
	char	   *qualified;
	char	   *context = REGISTRY_DEFAULT_CONTEXT;
	char	   *subject = "";
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (!PG_ARGISNULL(0))
	{
		qualified = text_to_cstring(PG_GETARG_TEXT_PP(0));
		registry_split_subject_cstr(qualified, &context, &subject);
		if (!subject_name_allowed(qualified, subject))
			report_invalid_subject(qualified);
	}
	values[0] = CStringGetTextDatum(context);
	values[1] = CStringGetTextDatum(subject);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
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
Datum
registry_parse_version(PG_FUNCTION_ARGS)
{
	char	   *s;
	char	   *end;
	long		v;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	s = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (pg_strcasecmp(s, "latest") == 0)
		PG_RETURN_INT32(-1);
	errno = 0;
	v = strtol(s, &end, 10);
	if (s[0] != '\0' && *end == '\0' && errno == 0 && (v == -1 || (v >= 1 && v <= INT_MAX)))
		PG_RETURN_INT32((int32) v);
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_VERSION),
			 errmsg("invalid version \"%s\"", s),
			 errdetail("%s", confluent_text(CW_INVALID_VERSION, s))));
	PG_RETURN_NULL();
}
