/*-------------------------------------------------------------------------
 *
 * json_out.c
 *	  Writing a JSON object member by member into a StringInfo.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/json.h"

#include "json_out.h"

/* The key of the next member of an object being written, after a comma unless first. */
void
registry_json_key(StringInfo out, bool *first, const char *key)
{
	if (!*first)
		appendStringInfoChar(out, ',');
	*first = false;
	escape_json(out, key);
	appendStringInfoChar(out, ':');
}
