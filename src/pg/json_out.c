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

/* Push a string (a key, a value or an element) into a jsonb being built; null for NULL. */
void
registry_jsonb_push_string(JsonbParseState **state, JsonbIteratorToken token, const char *value)
{
	JsonbValue	v;

	if (value == NULL)
		v.type = jbvNull;
	else
	{
		v.type = jbvString;
		v.val.string.val = (char *) value;
		v.val.string.len = strlen(value);
	}
	(void) pushJsonbValue(state, token, &v);
}

/* Push "key": value-or-null, where value is a string, into a jsonb object being built. */
void
registry_jsonb_push_member(JsonbParseState **state, const char *key, const char *value)
{
	registry_jsonb_push_string(state, WJB_KEY, key);
	registry_jsonb_push_string(state, WJB_VALUE, value);
}
