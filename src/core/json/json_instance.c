/*-------------------------------------------------------------------------
 *
 * json_instance.c
 *	  JSON values as payload validation compares them (json_payload.c):
 *	  their types as messages name them, numbers against limits and
 *	  multiples, equality (with the schema's kept values too) and hashes
 *	  for uniqueItems.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* See json_internal.h */
const char *
jv_value_type(const jx *v)
{
	switch (v->type)
	{
		case JX_NULL:
			return "null";
		case JX_TRUE:
		case JX_FALSE:
			return "boolean";
		case JX_INT:
			return "integer";
		case JX_DECIMAL:
		case JX_SPECIAL:
			return "number";
		case JX_STRING:
			return "string";
		case JX_ARRAY:
			return "array";
		case JX_OBJECT:
			return "object";
	}
	return "value";
}

/* See json_internal.h */
bool
jv_number_is_integer(const jx *v)
{
	const char *p = v->text;
	const char *e;
	const char *dot;
	long		exp = 0;
	long		point;
	long		k;
	long		n_digits = 0;
	char		digits[1100];

	if (v->type == JX_INT)
		return true;
	if (v->type != JX_DECIMAL)
		return false;
	if (*p == '-')
		p++;
	e = strpbrk(p, "eE");
	dot = strchr(p, '.');
	if (e)
	{
		errno = 0;
		exp = strtol(e + 1, NULL, 10);
		if (errno != 0)
			return exp > 0;
	}
	for (k = 0; p[k] && p + k != e && n_digits < (long) sizeof(digits); k++)
		if (p[k] != '.')
			digits[n_digits++] = p[k];
	point = (dot && (!e || dot < e) ? (long) (dot - p) : (e ? (long) (e - p) : (long) strlen(p))) + exp;
	for (k = point < 0 ? 0 : point; k < n_digits; k++)
		if (digits[k] != '0')
			return false;
	return true;
}

/* See json_internal.h */
bool
jv_within(const jx *v, const rg_js_number *limit, bool below, bool exclusive)
{
	double		x = jx_number_value(v);

	if (below)
		return exclusive ? x < limit->value : x <= limit->value;
	return exclusive ? x > limit->value : x >= limit->value;
}

/* See json_internal.h */
bool
jv_multiple_of(const jx *v, const rg_js_number *m)
{
	double		x;
	double		q;

	if (v->type == JX_INT && m->lexeme && strpbrk(m->lexeme, ".eE") == NULL)
	{
		char	   *end1;
		char	   *end2;
		long long	a;
		long long	b;

		errno = 0;
		a = strtoll(v->text, &end1, 10);
		b = strtoll(m->lexeme, &end2, 10);
		if (errno == 0 && *end1 == '\0' && *end2 == '\0' && b != 0)
			return a % b == 0;
	}
	x = jx_number_value(v);
	q = x / m->value;
	if (!isfinite(q))
		return false;
	return fabs(q - nearbyint(q)) <= 1e-9 * fmax(1.0, fabs(q));
}

/* See json_internal.h */
bool
jv_numbers_equal(const jx *a, const char *b_text, bool b_integer, long long b_int, double b_value)
{
	if (a->type == JX_INT && b_integer)
	{
		char	   *end;
		long long	n;

		errno = 0;
		n = strtoll(a->text, &end, 10);
		if (errno == 0 && *end == '\0')
			return n == b_int;
	}
	return jx_number_value(a) == b_value;
}

/* See json_internal.h */
bool
jv_equals_kept(const jx *v, const json_t *j, int depth)
{
	int			i;

	if (rg_too_deep(depth))
		return false;
	switch (v->type)
	{
		case JX_NULL:
			return json_is_null(j);
		case JX_TRUE:
			return json_is_true(j);
		case JX_FALSE:
			return json_is_false(j);
		case JX_INT:
		case JX_DECIMAL:
			if (!json_is_number(j))
				return false;
			return jv_numbers_equal(v, NULL, json_is_integer(j),
									json_is_integer(j) ? json_integer_value(j) : 0,
									json_number_value(j));
		case JX_SPECIAL:
			return false;
		case JX_STRING:
			return json_is_string(j) && json_string_length(j) == v->len &&
				memcmp(json_string_value(j), v->text, v->len) == 0;
		case JX_ARRAY:
			if (!json_is_array(j) || json_array_size(j) != (size_t) v->n)
				return false;
			for (i = 0; i < v->n; i++)
				if (!jv_equals_kept(v->items[i], json_array_get(j, i), depth + 1))
					return false;
			return true;
		case JX_OBJECT:
			if (!json_is_object(j) || json_object_size(j) != (size_t) v->n)
				return false;
			for (i = 0; i < v->n; i++)
			{
				json_t	   *m = json_object_getn(j, v->members[i].key, v->members[i].key_len);

				if (m == NULL || !jv_equals_kept(v->members[i].value, m, depth + 1))
					return false;
			}
			return true;
	}
	return false;
}

/* See json_internal.h */
const jx   *
jv_member(const jx *obj, const char *key, size_t len)
{
	int			i;

	for (i = 0; i < obj->n; i++)
		if (obj->members[i].key_len == len && memcmp(obj->members[i].key, key, len) == 0)
			return obj->members[i].value;
	return NULL;
}

/* See json_internal.h */
bool
jv_values_equal(const jx *a, const jx *b, int depth)
{
	int			i;

	if (rg_too_deep(depth))
		return false;
	if ((a->type == JX_INT || a->type == JX_DECIMAL) &&
		(b->type == JX_INT || b->type == JX_DECIMAL))
	{
		char	   *end;
		long long	n = 0;
		bool		integer = false;

		if (b->type == JX_INT)
		{
			errno = 0;
			n = strtoll(b->text, &end, 10);
			integer = errno == 0 && *end == '\0';
		}
		return jv_numbers_equal(a, b->text, integer, n, jx_number_value(b));
	}
	if (a->type != b->type)
		return false;
	switch (a->type)
	{
		case JX_STRING:
			return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
		case JX_ARRAY:
			if (a->n != b->n)
				return false;
			for (i = 0; i < a->n; i++)
				if (!jv_values_equal(a->items[i], b->items[i], depth + 1))
					return false;
			return true;
		case JX_OBJECT:
			if (a->n != b->n)
				return false;
			for (i = 0; i < a->n; i++)
			{
				const jx   *m = jv_member(b, a->members[i].key, a->members[i].key_len);

				if (m == NULL || !jv_values_equal(a->members[i].value, m, depth + 1))
					return false;
			}
			return true;
		default:
			return true;
	}
}

/* See json_internal.h */
uint64_t
jv_value_hash(const jx *v, int depth)
{
	uint64_t	h = 1469598103934665603ULL ^ (uint64_t) v->type;
	size_t		k;
	int			i;

	if (depth > 64)
		return h;
	switch (v->type)
	{
		case JX_INT:
		case JX_DECIMAL:
			{
				double		d = jx_number_value(v);
				uint64_t	bits;

				if (d == 0)
					d = 0;		/* -0.0 and 0.0 */
				memcpy(&bits, &d, sizeof(bits));
				return bits * 1099511628211ULL;
			}
		case JX_STRING:
			for (k = 0; k < v->len; k++)
				h = (h ^ (unsigned char) v->text[k]) * 1099511628211ULL;
			return h;
		case JX_ARRAY:
			for (i = 0; i < v->n; i++)
				h = (h ^ jv_value_hash(v->items[i], depth + 1)) * 1099511628211ULL;
			return h;
		case JX_OBJECT:
			{
				uint64_t	sum = 0;

				for (i = 0; i < v->n; i++)
				{
					uint64_t	m = 1469598103934665603ULL;

					for (k = 0; k < v->members[i].key_len; k++)
						m = (m ^ (unsigned char) v->members[i].key[k]) * 1099511628211ULL;
					sum += m ^ (jv_value_hash(v->members[i].value, depth + 1) * 31);
				}
				return h ^ sum;
			}
		default:
			return h;
	}
}
