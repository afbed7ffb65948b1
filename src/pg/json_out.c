/*-------------------------------------------------------------------------
 *
 * json_out.c
 *	  Writing a JSON object member by member into a StringInfo, and
 *	  building jsonb values (strings, a table row) without JSON text.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/json.h"
#include "utils/numeric.h"

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

/*
 * The jsonb value of one column's datum, as row_to_json's text would
 * parse to (numbers as numeric, times in JSON's ISO form, jsonb as it
 * is), into *v; false for a type not handled here.
 */
static bool
column_jsonb_value(Datum d, Oid type, JsonbValue *v)
{
	char		buf[MAXDATELEN + 1];

	switch (type)
	{
		case TEXTOID:
		case VARCHAROID:
			v->type = jbvString;
			v->val.string.val = TextDatumGetCString(d);
			v->val.string.len = strlen(v->val.string.val);
			return true;
		case INT2OID:
		case INT4OID:
		case INT8OID:
			v->type = jbvNumeric;
			v->val.numeric = int64_to_numeric(type == INT2OID ? DatumGetInt16(d) :
											  type == INT4OID ? DatumGetInt32(d) :
											  DatumGetInt64(d));
			return true;
		case BOOLOID:
			v->type = jbvBool;
			v->val.boolean = DatumGetBool(d);
			return true;
		case TIMESTAMPTZOID:
		case TIMESTAMPOID:
		case DATEOID:
			v->type = jbvString;
			v->val.string.val = pstrdup(JsonEncodeDateTime(buf, d, type, NULL));
			v->val.string.len = strlen(v->val.string.val);
			return true;
		case BYTEAOID:

			/*
			 * as row_to_json gives it: its output function's text
			 * (bytea_output)
			 */
			v->type = jbvString;
			v->val.string.val = DatumGetCString(DirectFunctionCall1(byteaout, d));
			v->val.string.len = strlen(v->val.string.val);
			return true;
		case JSONBOID:
			{
				Jsonb	   *jb = DatumGetJsonbP(d);

				v->type = jbvBinary;
				v->val.binary.data = &jb->root;
				v->val.binary.len = VARSIZE(jb) - VARHDRSZ;
				return true;
			}
		default:
			return false;
	}
}

/*
 * A table row as jsonb, its columns by name, then the n string members
 * keys[i]: values[i] (a later key replaces an earlier one): what
 * row_to_json's text with those members appended parses to, built
 * without the text.  NULL when a column's type is not one handled here
 * (the caller then goes through the text).
 */
Jsonb *
registry_row_jsonb(HeapTuple tup, TupleDesc desc, const char *const *keys,
				   const char *const *values, int n)
{
	JsonbParseState *state = NULL;

	(void) pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		bool		isnull;
		Datum		d;
		JsonbValue	v;

		if (att->attisdropped)
			continue;
		d = heap_getattr(tup, i + 1, desc, &isnull);
		if (isnull)
			v.type = jbvNull;
		else if (!column_jsonb_value(d, att->atttypid, &v))
			return NULL;
		registry_jsonb_push_string(&state, WJB_KEY, NameStr(att->attname));
		(void) pushJsonbValue(&state, WJB_VALUE, &v);
	}
	for (int i = 0; i < n; i++)
		registry_jsonb_push_member(&state, keys[i], values[i]);
	return JsonbValueToJsonb(pushJsonbValue(&state, WJB_END_OBJECT, NULL));
}
