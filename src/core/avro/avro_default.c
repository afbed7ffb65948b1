/*-------------------------------------------------------------------------
 *
 * avro_default.c
 *	  Is a JSON value a valid default for an Avro type?  Avro Java 1.11's
 *	  isValidDefault, which Confluent runs on every field default, and
 *	  Java's Double.valueOf() for the string defaults of float and double
 *	  fields (Avro converts them before validating).
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Avro Java 1.11's isValidDefault.  Returns 1 when valid, 0 when not, -1
 * when a record default refers to a record whose fields are still being
 * parsed (Java fails with "Schema fields not set yet"), -2 when the check
 * goes too deep (a missing record field is checked against its own
 * default, so a chain of records each defaulting the next recurses once
 * per record, however flat the JSON).
 */
int
rg_avro_default_valid(const rg_avro_schema *s, const json_t *v, int depth)
{
	int			i;

	if (v == NULL)
		return 0;
	if (rg_too_deep(depth))
		return -2;
	switch (s->type)
	{
		case RG_AVRO_NULL:
			return json_is_null(v);
		case RG_AVRO_BOOLEAN:
			return json_is_boolean(v);
		case RG_AVRO_INT:
			return json_is_integer(v) &&
				json_integer_value(v) >= INT32_MIN &&
				json_integer_value(v) <= INT32_MAX;
		case RG_AVRO_LONG:
			return json_is_integer(v);
		case RG_AVRO_FLOAT:
		case RG_AVRO_DOUBLE:
			return json_is_number(v);
		case RG_AVRO_BYTES:
		case RG_AVRO_STRING:
		case RG_AVRO_FIXED:
			return json_is_string(v);
		case RG_AVRO_ENUM:
			if (!json_is_string(v))
				return 0;
			for (i = 0; i < s->n_symbols; i++)
				if (strcmp(s->symbols[i], json_string_value(v)) == 0 &&
					strlen(s->symbols[i]) == json_string_length(v))
					return 1;
			return 0;
		case RG_AVRO_ARRAY:
			{
				size_t		k;

				if (!json_is_array(v))
					return 0;
				for (k = 0; k < json_array_size(v); k++)
				{
					int			r = rg_avro_default_valid(s->items, json_array_get(v, k), depth + 1);

					if (r != 1)
						return r;
				}
				return 1;
			}
		case RG_AVRO_MAP:
			{
				const char *key;
				json_t	   *e;

				if (!json_is_object(v))
					return 0;
				json_object_foreach((json_t *) v, key, e)
				{
					int			r = rg_avro_default_valid(s->items, e, depth + 1);

					if (r != 1)
						return r;
				}
				return 1;
			}
		case RG_AVRO_UNION:
			if (s->n_branches == 0)
				return 0;
			return rg_avro_default_valid(s->branches[0], v, depth + 1);
		case RG_AVRO_RECORD:
			if (!json_is_object(v))
				return 0;
			if (s->fields == NULL)
				return -1;
			for (i = 0; i < s->n_fields; i++)
			{
				const rg_avro_field *f = &s->fields[i];
				json_t	   *fv = json_object_get(v, f->name);
				int			r = rg_avro_default_valid(f->type, fv ? fv : f->default_value, depth + 1);

				if (r != 1)
					return r;
			}
			return 1;
	}
	return 0;
}

/*
 * Java's Double.valueOf() on a string default of a float/double field
 * (Avro converts it to a number before validating).  Returns false when
 * the text is not a Java double literal.
 */
bool
rg_avro_java_double(const char *text, double *out, bool *special)
{
	char	   *end;
	const char *p = text;
	size_t		len;
	char		tmp[128];

	*special = false;
	while (*p && (unsigned char) *p <= ' ')
		p++;
	len = strlen(p);
	while (len > 0 && (unsigned char) p[len - 1] <= ' ')
		len--;
	if (len == 0 || len >= sizeof(tmp))
		return false;
	memcpy(tmp, p, len);
	tmp[len] = '\0';
	if (strcmp(tmp, "NaN") == 0 || strcmp(tmp, "Infinity") == 0 ||
		strcmp(tmp, "+Infinity") == 0 || strcmp(tmp, "-Infinity") == 0)
	{
		*special = true;
		return true;
	}
	/* strtod knows nan/inf spellings Java does not */
	for (p = tmp; *p; p++)
		if (*p == 'n' || *p == 'N' || *p == 'i' || *p == 'I')
			return false;
	if (len > 1 && strchr("dDfF", tmp[len - 1]) &&
		!(tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X')))
		tmp[--len] = '\0';
	*out = strtod(tmp, &end);
	return end != tmp && *end == '\0';
}
