/*-------------------------------------------------------------------------
 *
 * confluent_messages.c
 *	  The one table of Confluent's wording: the message of each REST error
 *	  body and the detail of each SQL error that carries Confluent's words,
 *	  by error_code.  A wording written anywhere else would drift from
 *	  this one; callers name it by ConfluentWording instead.
 *
 * The list of compatibility levels in the 42203 wording is not written
 * here: it is built from rg_compat's name table, in Confluent's order (the
 * plain levels, then the transitive ones, lower-cased).  The install
 * script's PL/pgSQL reads the table through registry.confluent_message()
 * for the error codes that have one wording.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "confluent_messages.h"
#include "rg_compat.h"

PG_FUNCTION_INFO_V1(registry_confluent_message);

typedef struct ConfluentMessage
{
	ConfluentWording wording;
	int			error_code;
	const char *text;			/* "%s": the next argument */
} ConfluentMessage;

static const ConfluentMessage messages[] = {
	{CW_SUBJECT_NOT_FOUND, 40401, "Subject '%s' not found."},
	{CW_VERSION_NOT_FOUND, 40402, "Version %s not found."},
	{CW_SCHEMA_ID_NOT_FOUND, 40403, "Schema %s not found"},
	{CW_SCHEMA_NOT_FOUND, 40403, "Schema not found"},
	{CW_SUBJECT_SOFT_DELETED, 40404,
	"Subject '%s' was soft deleted.Set permanent=true to delete permanently"},
	{CW_SUBJECT_NOT_SOFT_DELETED, 40405,
	"Subject '%s' was not deleted first before being permanently deleted"},
	{CW_VERSION_SOFT_DELETED, 40406,
	"Subject '%s' Version %s was soft deleted.Set permanent=true to delete permanently"},
	{CW_VERSION_NOT_SOFT_DELETED, 40407,
	"Subject '%s' Version %s was not deleted first before being permanently deleted"},
	{CW_SUBJECT_CONFIG_NOT_FOUND, 40408,
	"Subject '%s' does not have subject-level compatibility configured"},
	{CW_SUBJECT_MODE_NOT_FOUND, 40409,
	"Subject '%s' does not have subject-level mode configured"},
	{CW_INCOMPATIBLE_SCHEMA, 40901,
	"Schema being registered is incompatible with an earlier schema for subject \"%s\", details: %s"},
	{CW_INVALID_SCHEMA, 42201, "Invalid schema: %s"},
	{CW_EMPTY_SCHEMA, 42201, "Empty schema"},
	{CW_INVALID_SCHEMA_TYPE, 42201, "Invalid schema type %s; valid schema types are %s."},
	{CW_VERSION_NOT_NEXT, 42201, "Version is not one more than previous version"},
	{CW_INVALID_VERSION, 42202,
	"The specified version '%s' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\""},
	{CW_INVALID_COMPATIBILITY, 42203, NULL},	/* built by level_list_text() */
	{CW_INVALID_MODE, 42204, "Invalid mode. Valid values are READWRITE, READONLY, IMPORT and FORWARD."},
	{CW_SUBJECT_READ_ONLY, 42205, "Subject %s in context %s is in read-only mode"},
	{CW_CONTEXT_READ_ONLY, 42205, "Context %s is in read-only mode"},
	{CW_SUBJECT_NOT_READ_WRITE, 42205, "Subject %s in context %s is not in read-write mode"},
	{CW_SUBJECT_NOT_IMPORT, 42205, "Subject %s in context %s is not in import mode"},
	{CW_CONTEXT_NOT_IMPORT, 42205, "Context %s is not in import mode"},
	{CW_OVERWRITE_SCHEMA_ID, 42205, "Overwrite new schema with id %s in context %s is not permitted."},
	{CW_REFERENCE_EXISTS, 42206,
	"One or more references exist to the schema {magic=1,keytype=SCHEMA,subject=%s,version=%s}."},
	{CW_INVALID_SUBJECT, 42208, "The specified subject '%s' is not a valid."},
	{CW_STORE_ERROR, 50001, "Error in the backend data store"},
	{CW_OPERATION_TIMED_OUT, 50002, "Operation timed out"},
	{CW_FORWARD_REGISTER, 50003, "Error while forwarding register schema request to the leader"},
	{CW_FORWARD_DELETE_VERSION, 50003, "Error while forwarding delete schema version request to the leader"},
	{CW_FORWARD_UPDATE_CONFIG, 50003, "Error while forwarding update config request to the leader"},
	{CW_FORWARD_DELETE_CONFIG, 50003, "Error while forwarding delete config request to the leader"},
	{CW_FORWARD_UPDATE_MODE, 50003, "Error while forwarding update mode request to the leader"},
	{CW_FORWARD_DELETE_MODE, 50003, "Error while forwarding delete mode request to the leader"},
	{CW_FORWARD_OTHER, 50003, "Error while forwarding the request to the leader"},
	{CW_LEADER_UNKNOWN, 50004, "Leader not known."},
	{CW_UNKNOWN_UPDATE_CONFIG, 50004, "Failed to update compatibility level"},
	{CW_UNKNOWN_DELETE_CONFIG, 50004, "Failed to delete compatibility level"},
	{CW_UNKNOWN_UPDATE_MODE, 50004, "Failed to update mode"},
	{CW_UNKNOWN_DELETE_MODE, 50004, "Failed to delete mode"},
	{CW_DELETE_SUBJECT_FAILED, 500, "Error while deleting the subject %s"},
	{CW_KEY_NOT_FOUND, 40470, "Key '%s' not found"},
	{CW_KEY_NOT_SOFT_DELETED, 40471, "Key '%s' was not deleted first before being permanently deleted"},
	{CW_KEY_SOFT_DELETED, 40472, "Key '%s' must be undeleted first"},
	{CW_KEY_EXISTS, 40971, "Key '%s' already exists; use a different value"},
	{CW_KEY_INVALID, 42271, "Invalid or missing value for field '%s' of key"},
	{CW_KEY_REFERENCED, 42272, "One or more references exist to the key %s"},
	{CW_DEK_GENERATION, 50070, "Could not generate encrypted dek for %s: %s"},
	{CW_DEK_UNWRAP, 50070, "Could not generate raw dek for %s: %s"},
	{CW_HTTP_NOT_FOUND, 404, "HTTP 404 Not Found"},
	{CW_HTTP_METHOD_NOT_ALLOWED, 405, "HTTP 405 Method Not Allowed"},
	{CW_HTTP_NOT_ACCEPTABLE, 406, "HTTP 406 Not Acceptable"},
	{CW_HTTP_UNSUPPORTED_MEDIA_TYPE, 415, "HTTP 415 Unsupported Media Type"},
	{CW_ASSOCIATION_NOT_FOUND, 40410, "Association for '%s' not found."},
	{CW_ASSOCIATION_EXISTS, 40903, "An association of type '%s' already exists for resource '%s'"},
	{CW_ASSOCIATION_FOR_SUBJECT, 40904, "An association already exists for subject '%s'"},
	{CW_STRONG_ASSOCIATION, 40905, "A strong association already exists for subject '%s'"},
	{CW_NO_ACTIVE_VERSION, 40907, "No active (non-deleted) version exists for subject '%s'"},
	/* sic: Confluent's format has two blanks after "type" */
	{CW_ASSOCIATION_FROZEN, 40908, "The association of type  '%s' is frozen for subject '%s'"},
	{CW_INVALID_ASSOCIATION, 42212,
	"The association specified an invalid value for property: '%s', reason: %s"},
	{CW_CONTEXT_NOT_EMPTY, 42211, "The specified context '%s' is not empty."},
};

#define N_MESSAGES ((int) (sizeof(messages) / sizeof(messages[0])))

/* The table's row for a wording (rows are in enum order). */
static const ConfluentMessage *
message_row(ConfluentWording w)
{
	if ((int) w < 0 || (int) w >= N_MESSAGES || messages[w].wording != w)
		elog(ERROR, "unknown Confluent wording %d", (int) w);
	return &messages[w];
}

/* Append the levels of one kind (plain or transitive), lower-cased. */
static void
append_levels(StringInfo buf, bool transitive, int *listed, int total)
{
	rg_compat_level level;
	int			i;

	for (i = 0; rg_compat_level_at(i, &level); i++)
	{
		const char *p;

		if (rg_compat_is_transitive(level) != transitive)
			continue;
		if (*listed > 0)
			appendStringInfoString(buf, *listed == total - 1 ? ", and " : ", ");
		for (p = rg_compat_level_name(level); *p; p++)
			appendStringInfoChar(buf, (*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : *p);
		(*listed)++;
	}
}

/*
 * Confluent's 42203 wording: "Invalid compatibility level. Valid values
 * are none, backward, ..., and full_transitive".
 */
static char *
level_list_text(void)
{
	StringInfoData buf;
	rg_compat_level level;
	int			total = 0;
	int			listed = 0;

	while (rg_compat_level_at(total, &level))
		total++;
	initStringInfo(&buf);
	appendStringInfoString(&buf, "Invalid compatibility level. Valid values are ");
	append_levels(&buf, false, &listed, total);
	append_levels(&buf, true, &listed, total);
	return buf.data;
}

/* The error_code Confluent answers with a wording. */
int
confluent_error_code(ConfluentWording w)
{
	return message_row(w)->error_code;
}

/* A wording that has no blanks, straight from the table. */
const char *
confluent_fixed_text(ConfluentWording w)
{
	const ConfluentMessage *row = message_row(w);

	if (row->text == NULL || strstr(row->text, "%s") != NULL)
		elog(ERROR, "Confluent wording %d has blanks", (int) w);
	return row->text;
}

/*
 * A row's wording with each "%s" replaced by the next of n words (NULL,
 * or a blank past the last word, is empty, as format() has it for NULL).
 */
static char *
fill_blanks(const ConfluentMessage *row, const char *const *words, int n)
{
	const char *p;
	StringInfoData buf;
	int			next = 0;

	if (row->text == NULL)
		return level_list_text();
	initStringInfo(&buf);
	for (p = row->text; *p; p++)
	{
		if (p[0] == '%' && p[1] == 's')
		{
			if (next < n && words[next] != NULL)
				appendStringInfoString(&buf, words[next]);
			next++;
			p++;
		}
		else
			appendStringInfoChar(&buf, *p);
	}
	return buf.data;
}

/* The number of blanks ("%s") in a row's wording. */
static int
count_blanks(const ConfluentMessage *row)
{
	const char *p;
	int			n = 0;

	for (p = row->text; p != NULL && (p = strstr(p, "%s")) != NULL; p += 2)
		n++;
	return n;
}

/* The wording with each "%s" replaced by the next argument. */
char *
confluent_text(ConfluentWording w,...)
{
	const ConfluentMessage *row = message_row(w);
	int			n = count_blanks(row);
	const char **words = palloc(sizeof(char *) * (n + 1));
	va_list		args;
	int			i;

	va_start(args, w);
	for (i = 0; i < n; i++)
		words[i] = va_arg(args, const char *);
	va_end(args);
	return fill_blanks(row, words, n);
}

/*
 * registry.confluent_message(error_code, VARIADIC words): the wording of
 * an error_code that has exactly one, its blanks filled with words.
 */
Datum
registry_confluent_message(PG_FUNCTION_ARGS)
{
	int			code = PG_GETARG_INT32(0);
	ArrayType  *array = PG_GETARG_ARRAYTYPE_P(1);
	const ConfluentMessage *found = NULL;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	const char **words;
	int			i;

	for (i = 0; i < N_MESSAGES; i++)
		if (messages[i].error_code == code)
		{
			if (found != NULL)
				elog(ERROR, "error code %d has several Confluent wordings", code);
			found = &messages[i];
		}
	if (found == NULL)
		elog(ERROR, "error code %d has no Confluent wording", code);
	deconstruct_array(array, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	words = palloc(sizeof(char *) * (n + 1));
	for (i = 0; i < n; i++)
		words[i] = nulls[i] ? NULL : TextDatumGetCString(elems[i]);
	PG_RETURN_TEXT_P(cstring_to_text(fill_blanks(found, words, n)));
}
