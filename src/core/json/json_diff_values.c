/*-------------------------------------------------------------------------
 *
 * json_diff_values.c
 *	  Equality as the JSON Schema diff needs it: of kept JSON values as
 *	  Java compares everit's (Integer, BigDecimal, Map, List), of numeric
 *	  keywords by BigDecimal (multipleOf), and of whole schemas as
 *	  everit's equals() (by which Confluent collapses duplicate
 *	  subschemas of a combined schema).
 *
 *-------------------------------------------------------------------------
 */
#include "json_diff_internal.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

/* A number lexeme as (digits without leading zeros, scale), like BigDecimal. */
typedef struct jd_decimal
{
	bool		negative;
	char		digits[64];		/* unscaled value; "" for zero */
	int			n_digits;
	long		scale;			/* value = digits * 10^-scale */
	bool		ok;				/* fits (else compare as double) */
} jd_decimal;

/* Read a JSON number lexeme into d. */
static void
decimal_parse(const char *s, jd_decimal *d)
{
	long		frac = 0;
	long		exp = 0;
	bool		in_frac = false;

	memset(d, 0, sizeof(*d));
	d->ok = s != NULL;
	if (s == NULL)
		return;
	if (*s == '-')
	{
		d->negative = true;
		s++;
	}
	for (; *s && *s != 'e' && *s != 'E'; s++)
	{
		if (*s == '.')
		{
			in_frac = true;
			continue;
		}
		if (*s < '0' || *s > '9')
		{
			d->ok = false;
			return;
		}
		if (in_frac)
			frac++;
		if (d->n_digits == 0 && *s == '0')
			continue;
		if (d->n_digits >= (int) sizeof(d->digits) - 1)
		{
			d->ok = false;
			return;
		}
		d->digits[d->n_digits++] = *s;
	}
	if (*s == 'e' || *s == 'E')
	{
		char	   *end;

		exp = strtol(s + 1, &end, 10);
		if (*end != '\0' || exp > 100000 || exp < -100000)
			d->ok = false;
	}
	d->scale = frac - exp;
	if (d->n_digits == 0)
		d->negative = false;
}

/* BigDecimal.equals of two lexemes (same unscaled value and scale). */
static bool
decimal_lexemes_equal(const char *a, const char *b)
{
	jd_decimal	x;
	jd_decimal	y;

	decimal_parse(a, &x);
	decimal_parse(b, &y);
	if (!x.ok || !y.ok)
		return a != NULL && b != NULL && strcmp(a, b) == 0;
	if (x.n_digits == 0 && y.n_digits == 0)
		return x.scale == y.scale;
	return x.negative == y.negative && x.scale == y.scale &&
		x.n_digits == y.n_digits && memcmp(x.digits, y.digits, (size_t) x.n_digits) == 0;
}

/* Is the lexeme a decimal (fraction or exponent), as Jackson reads floats? */
static bool
lexeme_is_decimal(const char *s)
{
	return s != NULL && strpbrk(s, ".eE") != NULL;
}

/*
 * Java equality of two numbers by their lexemes: an integer (Integer,
 * Long, BigInteger) is never equal to a decimal (BigDecimal); two of a kind
 * are equal when their values, and for decimals their scales, are.
 */
static bool
numbers_equal(const char *a, const char *b)
{
	if (lexeme_is_decimal(a) != lexeme_is_decimal(b))
		return false;
	return decimal_lexemes_equal(a, b);
}

/*
 * Java equality of two kept JSON values as the diff sees them (everit's
 * Set of enum values, ConstSchema): integers by value, decimals as
 * BigDecimal (1.5 and 1.50 differ; exactly only where the lexeme is
 * known, that is for a value that is itself a number), an integer never
 * equal to a decimal, objects by their members in any order.
 */
static bool
kept_json_equal(const json_t *a, const char *a_text, const json_t *b, const char *b_text, int depth)
{
	if (rg_too_deep(depth))
		return false;
	if (a == NULL || b == NULL)
		return a_text != NULL && b_text != NULL && strcmp(a_text, b_text) == 0;
	if (json_is_number(a) && json_is_number(b) && a_text != NULL && b_text != NULL)
		return numbers_equal(a_text, b_text);
	if (json_typeof(a) != json_typeof(b))
		return false;
	switch (json_typeof(a))
	{
		case JSON_INTEGER:
			return json_integer_value(a) == json_integer_value(b);
		case JSON_REAL:
			return json_real_value(a) == json_real_value(b);
		case JSON_STRING:
			return json_string_length(a) == json_string_length(b) &&
				memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
		case JSON_ARRAY:
			{
				size_t		i;

				if (json_array_size(a) != json_array_size(b))
					return false;
				for (i = 0; i < json_array_size(a); i++)
					if (!kept_json_equal(json_array_get(a, i), NULL, json_array_get(b, i), NULL, depth + 1))
						return false;
				return true;
			}
		case JSON_OBJECT:
			{
				const char *key;
				json_t	   *v;

				if (json_object_size(a) != json_object_size(b))
					return false;
				json_object_foreach((json_t *) a, key, v)
				{
					json_t	   *w = json_object_get(b, key);

					if (w == NULL || !kept_json_equal(v, NULL, w, NULL, depth + 1))
						return false;
				}
				return true;
			}
		default:
			return true;		/* true, false, null */
	}
}

/* Java equality of two kept values, either possibly NULL (absent). */
bool
rg_jd_value_equal(const rg_js_value *a, const rg_js_value *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return kept_json_equal(a->json, a->text, b->json, b->text, 0);
}

/* Is v equal to one of vals[0..n-1]? */
static bool
value_in(const rg_js_value *v, const rg_js_value *const *vals, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (rg_jd_value_equal(v, vals[i]))
			return true;
	return false;
}

/* The same values written the same way, in the same order (the usual case)? */
static bool
same_texts(const rg_js_value *const *a, int na, const rg_js_value *const *b, int nb)
{
	int			i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (a[i] == NULL || b[i] == NULL || a[i]->text == NULL || b[i]->text == NULL ||
			strcmp(a[i]->text, b[i]->text) != 0)
			return false;
	return true;
}

/* Does a contain every value of b (Set.containsAll)? */
bool
rg_jd_values_contain_all(const rg_js_value *const *a, int na, const rg_js_value *const *b, int nb)
{
	int			i;

	if (same_texts(a, na, b, nb))
		return true;
	for (i = 0; i < nb; i++)
	{
		rg_check_interrupts();
		if (!value_in(b[i], a, na))
			return false;
	}
	return true;
}

/* Two strings equal, NULL standing for absent (Objects.equals). */
bool
rg_jd_str_equal(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* an unsigned 128-bit integer (GCC and Clang) */
typedef unsigned __int128 jd_u128;

/* A decimal as an unsigned 128-bit mantissa and a power of ten. */
typedef struct jd_exact
{
	jd_u128		mant;
	long		exp;
} jd_exact;

/* n's exact value, trailing zeros folded into the exponent; false if too big. */
static bool
exact_of(const rg_js_number *n, jd_exact *out)
{
	jd_decimal	d;
	int			i;

	decimal_parse(n->lexeme, &d);
	if (!d.ok || d.n_digits > 38)
		return false;
	out->mant = 0;
	for (i = 0; i < d.n_digits; i++)
		out->mant = out->mant * 10 + (unsigned) (d.digits[i] - '0');
	out->exp = -d.scale;
	while (out->mant != 0 && out->mant % 10 == 0)
	{
		out->mant /= 10;
		out->exp++;
	}
	return true;
}

/* m * 10^k, false on overflow */
static bool
exact_scale(jd_u128 m, long k, jd_u128 *out)
{
	static const jd_u128 limit = ((jd_u128) 1 << 124);

	while (k-- > 0)
	{
		if (m >= limit)
			return false;
		m *= 10;
	}
	*out = m;
	return true;
}

/*
 * Is a an integer multiple of b (BigDecimal a.remainder(b) == 0)?  Exact
 * on the lexemes where they fit in 38 digits, else on the doubles.
 */
bool
rg_jd_multiple_of(const rg_js_number *a, const rg_js_number *b)
{
	jd_exact	x;
	jd_exact	y;
	jd_u128		xa;
	jd_u128		yb;
	long		e;

	if (exact_of(a, &x) && exact_of(b, &y))
	{
		if (y.mant == 0)
			return false;
		if (x.mant == 0)
			return true;
		e = x.exp < y.exp ? x.exp : y.exp;
		if (exact_scale(x.mant, x.exp - e, &xa) && exact_scale(y.mant, y.exp - e, &yb))
			return xa % yb == 0;
	}
	if (b->value == 0)
		return false;
	return fmod(a->value, b->value) == 0;
}

/* Equal by BigDecimal.compareTo? */
bool
rg_jd_number_same(const rg_js_number *a, const rg_js_number *b)
{
	jd_exact	x;
	jd_exact	y;

	if (exact_of(a, &x) && exact_of(b, &y))
		return x.mant == y.mant && (x.mant == 0 || x.exp == y.exp);
	return a->value == b->value;
}


/* Two lists of kept values equal in order. */
static bool
same_values(const rg_js_value *const *a, int na, const rg_js_value *const *b, int nb)
{
	int			i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (!rg_jd_value_equal(a[i], b[i]))
			return false;
	return true;
}

/* Two optional sub-schemas equal. */
static bool
same_sub(const rg_js *a, const rg_js *b, int depth)
{
	if (a == NULL || b == NULL)
		return a == b;
	return rg_jd_same_schema(a, b, depth + 1);
}

/* Two member lists (properties, pattern properties) equal as maps. */
static bool
same_members(const rg_js_member *a, int na, const rg_js_member *b, int nb, int depth)
{
	int			i;
	int			j;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
	{
		for (j = 0; j < nb; j++)
			if (strcmp(a[i].name, b[j].name) == 0)
				break;
		if (j == nb || !same_sub(a[i].schema, b[j].schema, depth))
			return false;
	}
	return true;
}

/* See json_diff_internal.h */
bool
rg_jd_names_contain_all(const char *const *a, int na, const char *const *b, int nb)
{
	int			i;
	int			j;

	for (j = 0; j < nb; j++)
	{
		for (i = 0; i < na; i++)
			if (strcmp(a[i], b[j]) == 0)
				break;
		if (i == na)
			return false;
	}
	return true;
}

/* Two string lists equal as sets. */
static bool
same_names(const char *const *a, int na, const char *const *b, int nb)
{
	return rg_jd_names_contain_all(a, na, b, nb) && rg_jd_names_contain_all(b, nb, a, na);
}

/* Two property dependency lists equal as maps of sets. */
static bool
same_prop_deps(const rg_js_prop_dependency *a, int na, const rg_js_prop_dependency *b, int nb)
{
	int			i;
	int			j;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
	{
		for (j = 0; j < nb; j++)
			if (strcmp(a[i].name, b[j].name) == 0)
				break;
		if (j == nb || !same_names(a[i].requires, a[i].n_requires, b[j].requires, b[j].n_requires))
			return false;
	}
	return true;
}

/* Two numbers equal (Objects.equals on the Number objects, by value here). */
static bool
same_number(rg_js_number a, rg_js_number b)
{
	return a.present == b.present && (!a.present || a.value == b.value);
}

/* Two counts equal. */
static bool
same_count(rg_js_count a, rg_js_count b)
{
	return a.present == b.present && (!a.present || a.value == b.value);
}

/* The annotations every schema class compares in its equals(). */
static bool
same_common(const rg_js *a, const rg_js *b)
{
	int			i;
	int			j;

	if (!rg_jd_str_equal(a->id, b->id) || !rg_jd_str_equal(a->title, b->title) ||
		!rg_jd_str_equal(a->description, b->description) ||
		!rg_jd_value_equal(a->default_value, b->default_value) ||
		a->n_unprocessed != b->n_unprocessed)
		return false;
	for (i = 0; i < a->n_unprocessed; i++)
	{
		for (j = 0; j < b->n_unprocessed; j++)
			if (strcmp(a->unprocessed_names[i], b->unprocessed_names[j]) == 0)
				break;
		if (j == b->n_unprocessed ||
			!rg_jd_value_equal(a->unprocessed_values[i], b->unprocessed_values[j]))
			return false;
	}
	return true;
}

/* Object-specific parts of equals(). */
static bool
same_object(const rg_js *a, const rg_js *b, int depth)
{
	return a->u.object.requires_object == b->u.object.requires_object &&
		same_members(a->u.object.properties, a->u.object.n_properties,
					 b->u.object.properties, b->u.object.n_properties, depth) &&
		same_names(a->u.object.required, a->u.object.n_required,
				   b->u.object.required, b->u.object.n_required) &&
		a->u.object.permits_additional == b->u.object.permits_additional &&
		same_sub(a->u.object.additional_schema, b->u.object.additional_schema, depth) &&
		same_members(a->u.object.pattern_properties, a->u.object.n_pattern_properties,
					 b->u.object.pattern_properties, b->u.object.n_pattern_properties, depth) &&
		same_sub(a->u.object.unevaluated, b->u.object.unevaluated, depth) &&
		same_prop_deps(a->u.object.property_dependencies, a->u.object.n_property_dependencies,
					   b->u.object.property_dependencies, b->u.object.n_property_dependencies) &&
		same_members(a->u.object.schema_dependencies, a->u.object.n_schema_dependencies,
					 b->u.object.schema_dependencies, b->u.object.n_schema_dependencies, depth) &&
		same_sub(a->u.object.property_names, b->u.object.property_names, depth) &&
		same_count(a->u.object.min_properties, b->u.object.min_properties) &&
		same_count(a->u.object.max_properties, b->u.object.max_properties);
}

/* Array-specific parts of equals(). */
static bool
same_array(const rg_js *a, const rg_js *b, int depth)
{
	int			i;

	if (a->u.array.n_item_schemas != b->u.array.n_item_schemas)
		return false;
	for (i = 0; i < a->u.array.n_item_schemas; i++)
		if (!same_sub(a->u.array.item_schemas[i], b->u.array.item_schemas[i], depth))
			return false;
	return a->u.array.requires_array == b->u.array.requires_array &&
		same_sub(a->u.array.all_items, b->u.array.all_items, depth) &&
		a->u.array.permits_additional == b->u.array.permits_additional &&
		same_sub(a->u.array.additional_items, b->u.array.additional_items, depth) &&
		same_sub(a->u.array.unevaluated, b->u.array.unevaluated, depth) &&
		same_sub(a->u.array.contains, b->u.array.contains, depth) &&
		same_count(a->u.array.min_items, b->u.array.min_items) &&
		same_count(a->u.array.max_items, b->u.array.max_items) &&
		same_count(a->u.array.min_contains, b->u.array.min_contains) &&
		same_count(a->u.array.max_contains, b->u.array.max_contains) &&
		a->u.array.unique_items == b->u.array.unique_items;
}

/* The kind-specific part of equals(). */
static bool
same_kind_fields(const rg_js *a, const rg_js *b, int depth)
{
	int			i;

	switch (a->kind)
	{
		case RG_JS_STRING:
			return same_count(a->u.string.min_length, b->u.string.min_length) &&
				same_count(a->u.string.max_length, b->u.string.max_length) &&
				rg_jd_str_equal(a->u.string.pattern, b->u.string.pattern) &&
				rg_jd_str_equal(a->u.string.format, b->u.string.format) &&
				a->u.string.requires_string == b->u.string.requires_string;
		case RG_JS_NUMBER:
			return a->u.number.requires_number == b->u.number.requires_number &&
				a->u.number.requires_integer == b->u.number.requires_integer &&
				same_number(a->u.number.minimum, b->u.number.minimum) &&
				same_number(a->u.number.maximum, b->u.number.maximum) &&
				same_number(a->u.number.exclusive_minimum, b->u.number.exclusive_minimum) &&
				same_number(a->u.number.exclusive_maximum, b->u.number.exclusive_maximum) &&
				a->u.number.exclusive_minimum_flag == b->u.number.exclusive_minimum_flag &&
				a->u.number.exclusive_maximum_flag == b->u.number.exclusive_maximum_flag &&
				same_number(a->u.number.multiple_of, b->u.number.multiple_of);
		case RG_JS_OBJECT:
			return same_object(a, b, depth);
		case RG_JS_ARRAY:
			return same_array(a, b, depth);
		case RG_JS_ENUM:
			return same_values(a->u.enumeration.values, a->u.enumeration.n_values,
							   b->u.enumeration.values, b->u.enumeration.n_values);
		case RG_JS_CONST:
			return rg_jd_value_equal(a->u.constant.value, b->u.constant.value);
		case RG_JS_COMBINED:
			if (a->u.combined.criterion != b->u.combined.criterion ||
				a->u.combined.n_subschemas != b->u.combined.n_subschemas)
				return false;
			for (i = 0; i < a->u.combined.n_subschemas; i++)
				if (!same_sub(a->u.combined.subschemas[i], b->u.combined.subschemas[i], depth))
					return false;
			return true;
		case RG_JS_NOT:
			return same_sub(a->u.not.schema, b->u.not.schema, depth);
		case RG_JS_REF:
			return rg_jd_str_equal(a->u.ref.ref, b->u.ref.ref) && a->u.ref.target == b->u.ref.target;
		case RG_JS_CONDITIONAL:
			return same_sub(a->u.conditional.if_schema, b->u.conditional.if_schema, depth) &&
				same_sub(a->u.conditional.then_schema, b->u.conditional.then_schema, depth) &&
				same_sub(a->u.conditional.else_schema, b->u.conditional.else_schema, depth);
		default:
			return true;
	}
}

/*
 * Structural equality of two schemas (everit's equals(), by which
 * Confluent's LinkedHashSet collapses duplicate subschemas).
 */
bool
rg_jd_same_schema(const rg_js *a, const rg_js *b, int depth)
{
	if (a == b)
		return true;
	rg_check_interrupts();
	if (rg_too_deep(depth) || a->kind != b->kind || !same_common(a, b))
		return false;
	return same_kind_fields(a, b, depth);
}
