/*-------------------------------------------------------------------------
 *
 * errors.c
 *	  The map between the registry's SQLSTATEs and Confluent's error_code
 *	  (see registry.h), and the one way a schema parser's refusal is
 *	  raised, so the REST layer can tell it apart by structure.
 *
 * A parser's error (42201) carries the parser's words both as its detail
 * and as its log-only detail (errdetail_log, which the server log prints
 * in place of the same detail and no client receives): that second copy
 * is the mark registry_is_parser_error() reads.  Nothing here, nor in the
 * REST layer, looks at the text of a message.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "registry.h"

/*
 * The Confluent error_code behind a registry SQLSTATE (see registry.h), or
 * 50001 for anything else.
 */
int
registry_confluent_error_code(int sqlerrcode)
{
	char		state[6];
	int			i;
	int			code = 0;

	for (i = 0; i < 5; i++)
	{
		state[i] = PGUNSIXBIT(sqlerrcode);
		sqlerrcode >>= 6;
	}
	state[5] = '\0';
	if (state[0] != 'R' && state[0] != 'S')
		return 50001;
	for (i = 1; i < 5; i++)
	{
		if (!isdigit((unsigned char) state[i]))
			return 50001;
		code = code * 10 + (state[i] - '0');
	}
	return (state[0] == 'R' ? 40000 : 50000) + code;
}

/* Raise 42201 for a schema a parser refused, with the parser's words. */
void
registry_report_invalid_schema(const char *format_name, const char *parser_message)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
			 errmsg("invalid %s schema", format_name),
			 errdetail("%s", parser_message),
			 errdetail_log("%s", parser_message)));
	pg_unreachable();
}

/* Is this error a parser's refusal raised by registry_report_invalid_schema? */
bool
registry_is_parser_error(const ErrorData *edata)
{
	return edata->sqlerrcode == ERRCODE_REGISTRY_INVALID_SCHEMA &&
		edata->detail != NULL && edata->detail_log != NULL;
}
