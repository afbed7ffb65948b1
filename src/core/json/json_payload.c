/*-------------------------------------------------------------------------
 *
 * json_payload.c
 *	  JSON payloads (rg_format_json's encode and decode): a value checked
 *	  against a JSON schema, and written as Confluent's JSON Schema
 *	  serializer writes it after the 5-byte header (the value's UTF-8 JSON
 *	  text, nothing else).
 *
 * The value is read by the loader's own reader (json_syntax.c) in its
 * strict form: JSON's grammar only, the nesting bounded before anything is
 * read, nothing after the value.  It is validated over the loaded schema
 * graph (rg_jsonschema.h), which is everit's object model of the schema,
 * what Confluent's validator runs over for drafts 4 to 7 (2019-09 and
 * 2020-12 as Confluent's translation loads them):
 *	- a node of a kind checks only values of its JSON type, unless it
 *	  requires that type ("type" given);
 *	- $refs are followed as resolved at load time, references to other
 *	  subjects' schemas included;
 *	- "pattern" and "patternProperties" go through the bounded matcher
 *	  (json_match.c); "format" is checked for the formats of drafts 4 to 7
 *	  with a small grammar (json_formats.c), an annotation otherwise;
 *	- unevaluatedProperties and unevaluatedItems see what the other
 *	  keywords of their schema object evaluated, through $refs and the
 *	  branches that matched (an allOf the translation spliced in counts as
 *	  part of the schema object);
 *	- every step counts against a budget and gives interrupts their
 *	  chance, and the walk's depth is bounded (a $ref loop that consumes
 *	  nothing stops with an error), so no schema and value can stall or
 *	  crash the caller.
 * A failure names the path of the value ("$.address.zip"), what is wrong,
 * the keyword and the schema location that refused it.
 *
 * Why not a validator library: Debian's valijson 1.0 knows drafts 3, 4
 * and 7 only (no 2019-09 or 2020-12), needs a C++ adapter for our values,
 * and matches patterns with std::regex, whose recursive backtracking
 * overflows the stack on a long string and takes exponential time on
 * patterns such as "^(a+)+$", with no hook to replace it.  Validating the
 * model the loader already builds keeps one reading of every draft, and
 * Confluent's own (everit's) semantics.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* most steps one validation may take (schema nodes visited, regex work) */
#define JV_MAX_STEPS 50000000L

/* interrupts get their chance every this many steps */
#define JV_INTERRUPT_EVERY 65536

/* the longest value quoted in a message */
#define JV_QUOTE_MAX 60

/* most object nodes the notes look at for one value */
#define JV_NOTE_NODES 32

/* one step of the path from the root value: a member or an item */
typedef struct jv_step
{
	const char *key;			/* NULL for an item */
	size_t		key_len;
	int			index;
} jv_step;

/* a compiled pattern, cached for one validation */
typedef struct jv_pattern
{
	const char *source;
	js_regex   *re;
	struct jv_pattern *next;
} jv_pattern;

#define JV_PATTERN_HASH 64

/* which members (or items) of one value have been evaluated, for unevaluated* */
typedef struct jv_marks
{
	const jx   *of;
	bool	   *marked;
	const struct rg_js *owner;	/* the schema listening */
} jv_marks;

/* the validator's state */
typedef struct jv_ctx
{
	rg_arena   *arena;			/* compiled patterns, scratch */
	rg_error   *err;
	rg_errcode	code;			/* of a value the schema refuses */
	int			quiet;			/* > 0: inside anyOf, not, if, ...: no
								 * messages */
	bool		reported;		/* err holds the first failure */
	bool		hard;			/* a failure no combinator may undo */
	long		budget;
	long		next_interrupt;
	jv_step    *path;
	int			depth;			/* of the path */
	jv_marks   *eval;			/* NULL: no unevaluated* is listening */
	jv_pattern *patterns[JV_PATTERN_HASH];
} jv_ctx;

static bool validate(jv_ctx *ctx, const rg_js *node, const jx *v, int depth);
static bool refuse(jv_ctx *ctx, const rg_js *node, const char *keyword,
				   const char *fmt,...) __attribute__((format(printf, 4, 5)));
static bool give_up(jv_ctx *ctx, rg_errcode code, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));
static bool add_note(jv_ctx *ctx, rg_strlist *notes, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

/* Append the path of the current value ("$.a[3]['x y']") to buf. */
static void
write_path(rg_buf *buf, const jv_ctx *ctx)
{
	int			i;

	rg_buf_putc(buf, '$');
	for (i = 0; i < ctx->depth; i++)
	{
		const jv_step *s = &ctx->path[i];
		size_t		k;
		bool		plain = s->key_len > 0;

		if (s->key == NULL)
		{
			rg_buf_printf(buf, "[%d]", s->index);
			continue;
		}
		for (k = 0; k < s->key_len && plain; k++)
		{
			char		c = s->key[k];

			plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
				c == '$' || (k > 0 && c >= '0' && c <= '9');
		}
		if (plain)
		{
			rg_buf_putc(buf, '.');
			rg_buf_append(buf, s->key, s->key_len);
			continue;
		}
		rg_buf_puts(buf, "[");
		rg_json_write_string_n(buf, s->key, s->key_len);
		rg_buf_puts(buf, "]");
	}
}

/*
 * A failure of the value at the current path: false, with the message
 * "<path>: <what> (<keyword> at <location>)" kept when it is the first one
 * outside quiet checks.
 */
static bool
refuse(jv_ctx *ctx, const rg_js *node, const char *keyword, const char *fmt,...)
{
	rg_buf		buf;
	char		what[RG_ERROR_MAX];
	va_list		ap;

	if (ctx->quiet > 0 || ctx->reported || ctx->hard)
		return false;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	rg_buf_init(&buf);
	write_path(&buf, ctx);
	if (buf.oom)
		rg_error_set(ctx->err, RG_ERR_NOMEM, "out of memory");
	else
		rg_error_set(ctx->err, ctx->code, "%.*s: %s (%s at %s)", (int) buf.len,
					 buf.data, what, keyword, node->location);
	rg_buf_free(&buf);
	ctx->reported = true;
	return false;
}

/* A failure that ends the validation whatever the combinators around it. */
static bool
give_up(jv_ctx *ctx, rg_errcode code, const char *fmt,...)
{
	va_list		ap;
	char		what[RG_ERROR_MAX];

	if (ctx->hard)
		return false;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	rg_error_set(ctx->err, code, "%s", what);
	ctx->hard = true;
	ctx->reported = true;
	return false;
}

/* Count work against the budget; false (given up) when it runs out. */
static bool
spend(jv_ctx *ctx, long steps)
{
	ctx->budget -= steps;
	if (ctx->budget < 0)
		return give_up(ctx, ctx->code,
					   "the value takes more than %ld steps to validate against the schema",
					   JV_MAX_STEPS);
	if (ctx->budget < ctx->next_interrupt)
	{
		ctx->next_interrupt = ctx->budget - JV_INTERRUPT_EVERY;
		rg_check_interrupts();
	}
	return true;
}

/* Go one step down the path (a member when key is not NULL, else an item). */
static void
path_push(jv_ctx *ctx, const char *key, size_t key_len, int index)
{
	jv_step    *s = &ctx->path[ctx->depth++];

	s->key = key;
	s->key_len = key_len;
	s->index = index;
}

/* Are the items of an array unique?  *first and *second name a pair that is not. */
static bool
items_unique(jv_ctx *ctx, const jx *v, int *first, int *second)
{
	size_t		cap = 16;
	int		   *slots;
	uint64_t   *hashes;
	int			i;
	bool		unique = true;

	while (cap < (size_t) v->n * 2)
		cap *= 2;
	slots = rg_arena_alloc(ctx->arena, sizeof(int) * cap);
	hashes = rg_arena_alloc(ctx->arena, sizeof(uint64_t) * (v->n ? v->n : 1));
	if (slots == NULL || hashes == NULL)
		return give_up(ctx, RG_ERR_NOMEM, "out of memory");
	memset(slots, -1, sizeof(int) * cap);
	for (i = 0; i < v->n && unique; i++)
	{
		size_t		at;

		hashes[i] = jv_value_hash(v->items[i], 0);
		if (!spend(ctx, 1))
			return false;
		for (at = hashes[i] & (cap - 1); slots[at] >= 0; at = (at + 1) & (cap - 1))
		{
			if (hashes[slots[at]] == hashes[i] &&
				jv_values_equal(v->items[slots[at]], v->items[i], 0))
			{
				*first = slots[at];
				*second = i;
				unique = false;
				break;
			}
			if (!spend(ctx, 1))
				return false;
		}
		if (unique)
			slots[at] = i;
	}
	return unique;
}

/* A value as a message quotes it: its JSON text, cut short. */
static void
quote_kept(char *out, size_t size, const rg_js_value *value)
{
	size_t		n = strlen(value->text);

	if (n <= JV_QUOTE_MAX)
		snprintf(out, size, "%s", value->text);
	else
		snprintf(out, size, "%.*s...", JV_QUOTE_MAX, value->text);
}

/* The compiled form of a pattern (cached); NULL when given up. */
static js_regex *
pattern_of(jv_ctx *ctx, const rg_js *node, const char *source)
{
	uintptr_t	h = ((uintptr_t) source >> 4) % JV_PATTERN_HASH;
	jv_pattern *p;
	const char *error = NULL;

	for (p = ctx->patterns[h]; p; p = p->next)
		if (p->source == source)
			return p->re;
	if ((p = rg_arena_alloc(ctx->arena, sizeof(jv_pattern))) == NULL)
	{
		give_up(ctx, RG_ERR_NOMEM, "out of memory");
		return NULL;
	}
	p->source = source;
	if ((p->re = js_regex_compile(ctx->arena, source, &error)) == NULL)
	{
		give_up(ctx, ctx->code,
				"the pattern \"%s\" at %s cannot be checked: it uses %s",
				source, node->location, error);
		return NULL;
	}
	p->next = ctx->patterns[h];
	ctx->patterns[h] = p;
	return p->re;
}

/* Does a string match a pattern?  0 no, 1 yes, -1 given up. */
static int
pattern_matches(jv_ctx *ctx, const rg_js *node, const char *source,
				const char *s, size_t len)
{
	js_regex   *re = pattern_of(ctx, node, source);
	int			r;

	if (re == NULL)
		return -1;
	r = js_regex_search(re, s, len, &ctx->budget);
	if (r == -2)
	{
		give_up(ctx, RG_ERR_NOMEM, "out of memory");
		return -1;
	}
	if (r == -1 || !spend(ctx, 1))
	{
		spend(ctx, JV_MAX_STEPS + 1);
		return -1;
	}
	return r;
}

/* The number of code points of a UTF-8 string. */
static size_t
code_points(const char *s, size_t len)
{
	size_t		n = 0;
	size_t		i;

	for (i = 0; i < len; i++)
		if (((unsigned char) s[i] & 0xC0) != 0x80)
			n++;
	return n;
}

/* StringSchema */
static bool
validate_string(jv_ctx *ctx, const rg_js *node, const jx *v)
{
	size_t		n;

	if (v->type != JX_STRING)
		return !node->u.string.requires_string ||
			refuse(ctx, node, "type", "expected string, found %s", jv_value_type(v));
	n = code_points(v->text, v->len);
	if (node->u.string.min_length.present && (int64_t) n < node->u.string.min_length.value)
		return refuse(ctx, node, "minLength", "the string is %zu characters long, shorter than %lld",
					  n, (long long) node->u.string.min_length.value);
	if (node->u.string.max_length.present && (int64_t) n > node->u.string.max_length.value)
		return refuse(ctx, node, "maxLength", "the string is %zu characters long, longer than %lld",
					  n, (long long) node->u.string.max_length.value);
	if (node->u.string.pattern)
	{
		int			m = pattern_matches(ctx, node, node->u.string.pattern, v->text, v->len);

		if (m < 0)
			return false;
		if (m == 0)
			return refuse(ctx, node, "pattern", "the string does not match the pattern \"%s\"",
						  node->u.string.pattern);
	}
	if (node->u.string.format &&
		!js_format_ok(node->u.string.format, v->text, v->len))
		return refuse(ctx, node, "format", "the string is no valid %s", node->u.string.format);
	return true;
}

/* NumberSchema */
static bool
validate_number(jv_ctx *ctx, const rg_js *node, const jx *v)
{
	const rg_js_number *min = &node->u.number.minimum;
	const rg_js_number *max = &node->u.number.maximum;
	const rg_js_number *xmin = &node->u.number.exclusive_minimum;
	const rg_js_number *xmax = &node->u.number.exclusive_maximum;

	if (v->type != JX_INT && v->type != JX_DECIMAL)
		return !node->u.number.requires_number ||
			refuse(ctx, node, "type", "expected %s, found %s",
				   node->u.number.requires_integer ? "integer" : "number", jv_value_type(v));
	if (node->u.number.requires_integer && !jv_number_is_integer(v))
		return refuse(ctx, node, "type", "expected integer, found number %s", v->text);
	if (min->present && !jv_within(v, min, false, node->u.number.exclusive_minimum_flag))
		return refuse(ctx, node, node->u.number.exclusive_minimum_flag ? "exclusiveMinimum" : "minimum",
					  "%s is less than %s%s", v->text,
					  node->u.number.exclusive_minimum_flag ? "or equal to " : "", min->lexeme);
	if (max->present && !jv_within(v, max, true, node->u.number.exclusive_maximum_flag))
		return refuse(ctx, node, node->u.number.exclusive_maximum_flag ? "exclusiveMaximum" : "maximum",
					  "%s is greater than %s%s", v->text,
					  node->u.number.exclusive_maximum_flag ? "or equal to " : "", max->lexeme);
	if (xmin->present && !jv_within(v, xmin, false, true))
		return refuse(ctx, node, "exclusiveMinimum", "%s is less than or equal to %s",
					  v->text, xmin->lexeme);
	if (xmax->present && !jv_within(v, xmax, true, true))
		return refuse(ctx, node, "exclusiveMaximum", "%s is greater than or equal to %s",
					  v->text, xmax->lexeme);
	if (node->u.number.multiple_of.present && !jv_multiple_of(v, &node->u.number.multiple_of))
		return refuse(ctx, node, "multipleOf", "%s is not a multiple of %s", v->text,
					  node->u.number.multiple_of.lexeme);
	return true;
}

/* Record that member or item i of v has been evaluated. */
static void
mark(jv_ctx *ctx, const jx *v, int i)
{
	if (ctx->eval && ctx->eval->of == v)
		ctx->eval->marked[i] = true;
}

/* Validate a value one step down the path. */
static bool
validate_at(jv_ctx *ctx, const rg_js *schema, const jx *v, const char *key,
			size_t key_len, int index, int depth)
{
	bool		ok;
	jv_marks   *saved = ctx->eval;

	ctx->eval = NULL;			/* another value: its own schema objects
								 * listen */
	path_push(ctx, key, key_len, index);
	ok = validate(ctx, schema, v, depth + 1);
	ctx->depth--;
	ctx->eval = saved;
	return ok;
}

/* Is a member name declared by "properties" or matched by "patternProperties"? */
static int
declared(jv_ctx *ctx, const rg_js *node, const jx_member *m, int depth, bool *ok)
{
	int			matched = 0;
	int			i;

	*ok = true;
	for (i = 0; i < node->u.object.n_properties && *ok; i++)
	{
		const rg_js_member *p = &node->u.object.properties[i];

		if (strlen(p->name) == m->key_len && memcmp(p->name, m->key, m->key_len) == 0)
		{
			matched++;
			*ok = validate_at(ctx, p->schema, m->value, m->key, m->key_len, 0, depth);
		}
	}
	if (*ok && !spend(ctx, node->u.object.n_properties))
		*ok = false;
	for (i = 0; i < node->u.object.n_pattern_properties && *ok; i++)
	{
		const rg_js_member *p = &node->u.object.pattern_properties[i];
		int			r = pattern_matches(ctx, node, p->name, m->key, m->key_len);

		if (r < 0)
			*ok = false;
		else if (r > 0)
		{
			matched++;
			*ok = validate_at(ctx, p->schema, m->value, m->key, m->key_len, 0, depth);
		}
	}
	return matched;
}

/* The members of an object: properties, patternProperties, additionalProperties, propertyNames. */
static bool
validate_members(jv_ctx *ctx, const rg_js *node, const jx *v, int depth)
{
	int			i;

	for (i = 0; i < v->n; i++)
	{
		const jx_member *m = &v->members[i];
		bool		ok;
		int			matched = declared(ctx, node, m, depth, &ok);

		if (!ok)
			return false;
		if (matched > 0 || node->u.object.additional_schema)
			mark(ctx, v, i);
		if (matched == 0 && node->u.object.additional_schema &&
			!validate_at(ctx, node->u.object.additional_schema, m->value, m->key,
						 m->key_len, 0, depth))
			return false;
		if (matched == 0 && !node->u.object.additional_schema &&
			!node->u.object.permits_additional)
		{
			path_push(ctx, m->key, m->key_len, 0);
			refuse(ctx, node, "additionalProperties", "the property is not allowed");
			ctx->depth--;
			return false;
		}
		if (node->u.object.property_names)
		{
			jx			name;

			memset(&name, 0, sizeof(name));
			name.type = JX_STRING;
			name.text = m->key;
			name.len = m->key_len;
			if (!validate_at(ctx, node->u.object.property_names, &name, m->key,
							 m->key_len, 0, depth))
				return false;
		}
	}
	return true;
}

/* ObjectSchema */
static bool
validate_object(jv_ctx *ctx, const rg_js *node, const jx *v, int depth)
{
	int			i;
	int			j;

	if (v->type != JX_OBJECT)
		return !node->u.object.requires_object ||
			refuse(ctx, node, "type", "expected object, found %s", jv_value_type(v));
	if (node->u.object.min_properties.present && v->n < node->u.object.min_properties.value)
		return refuse(ctx, node, "minProperties", "the object has %d properties, fewer than %lld",
					  v->n, (long long) node->u.object.min_properties.value);
	if (node->u.object.max_properties.present && v->n > node->u.object.max_properties.value)
		return refuse(ctx, node, "maxProperties", "the object has %d properties, more than %lld",
					  v->n, (long long) node->u.object.max_properties.value);
	for (i = 0; i < node->u.object.n_required; i++)
	{
		const char *name = node->u.object.required[i];

		if (!spend(ctx, v->n / 16 + 1))
			return false;
		if (jv_member(v, name, strlen(name)) == NULL)
			return refuse(ctx, node, "required", "the required property \"%s\" is missing", name);
	}
	if (!validate_members(ctx, node, v, depth))
		return false;
	for (i = 0; i < node->u.object.n_property_dependencies; i++)
	{
		const rg_js_prop_dependency *d = &node->u.object.property_dependencies[i];

		if (jv_member(v, d->name, strlen(d->name)) == NULL)
			continue;
		for (j = 0; j < d->n_requires; j++)
			if (jv_member(v, d->requires[j], strlen(d->requires[j])) == NULL)
				return refuse(ctx, node, "dependencies",
							  "the property \"%s\" requires the property \"%s\", which is missing",
							  d->name, d->requires[j]);
		if (!spend(ctx, d->n_requires + 1))
			return false;
	}
	for (i = 0; i < node->u.object.n_schema_dependencies; i++)
	{
		const rg_js_member *d = &node->u.object.schema_dependencies[i];

		if (jv_member(v, d->name, strlen(d->name)) != NULL &&
			!validate(ctx, d->schema, v, depth + 1))
			return false;
	}
	return true;
}

/* "contains": how many items match, within the bounds. */
static bool
validate_contains(jv_ctx *ctx, const rg_js *node, const jx *v, int depth)
{
	const rg_js_count *min = &node->u.array.assert_min_contains;
	const rg_js_count *max = &node->u.array.assert_max_contains;
	int64_t		need = min->present ? min->value : 1;
	int64_t		found = 0;
	int			i;

	ctx->quiet++;
	for (i = 0; i < v->n && !ctx->hard; i++)
	{
		if (validate_at(ctx, node->u.array.contains, v->items[i], NULL, 0, i, depth))
		{
			found++;
			mark(ctx, v, i);
		}
		if (found >= need && !max->present && !(ctx->eval && ctx->eval->of == v))
			break;
	}
	ctx->quiet--;
	if (ctx->hard)
		return false;
	if (found < need)
		return refuse(ctx, node, need == 1 ? "contains" : "minContains",
					  "%lld items match the schema of contains, fewer than %lld",
					  (long long) found, (long long) need);
	if (max->present && found > max->value)
		return refuse(ctx, node, "maxContains",
					  "%lld items match the schema of contains, more than %lld",
					  (long long) found, (long long) max->value);
	return true;
}

/* ArraySchema */
static bool
validate_array(jv_ctx *ctx, const rg_js *node, const jx *v, int depth)
{
	int			i;
	int			first = 0;
	int			second = 0;
	bool		tuple = node->u.array.item_schemas != NULL || node->u.array.additional_applies;

	if (v->type != JX_ARRAY)
		return !node->u.array.requires_array ||
			refuse(ctx, node, "type", "expected array, found %s", jv_value_type(v));
	if (node->u.array.min_items.present && v->n < node->u.array.min_items.value)
		return refuse(ctx, node, "minItems", "the array has %d items, fewer than %lld",
					  v->n, (long long) node->u.array.min_items.value);
	if (node->u.array.max_items.present && v->n > node->u.array.max_items.value)
		return refuse(ctx, node, "maxItems", "the array has %d items, more than %lld",
					  v->n, (long long) node->u.array.max_items.value);
	if (node->u.array.unique_items && !items_unique(ctx, v, &first, &second))
		return ctx->hard ? false :
			refuse(ctx, node, "uniqueItems", "items %d and %d are equal", first, second);
	for (i = 0; i < v->n; i++)
	{
		const rg_js *schema = NULL;

		if (i < node->u.array.n_item_schemas)
			schema = node->u.array.item_schemas[i];
		else if (node->u.array.all_items)
			schema = node->u.array.all_items;
		else if (tuple && node->u.array.additional_items)
			schema = node->u.array.additional_items;
		else if (tuple && !node->u.array.permits_additional)
		{
			path_push(ctx, NULL, 0, i);
			refuse(ctx, node, node->u.array.additional_applies ? "items" : "additionalItems",
				   "the array allows %d items at most", node->u.array.n_item_schemas);
			ctx->depth--;
			return false;
		}
		if (schema && !validate_at(ctx, schema, v->items[i], NULL, 0, i, depth))
			return false;
		if (schema)
			mark(ctx, v, i);
	}
	if (node->u.array.contains && !validate_contains(ctx, node, v, depth))
		return false;
	return true;
}

/* The type a node requires of every value, NULL if it admits every type. */
static const char *
required_type(const rg_js *node)
{
	switch (node->kind)
	{
		case RG_JS_BOOLEAN:
			return "boolean";
		case RG_JS_NULL:
			return "null";
		case RG_JS_STRING:
			return node->u.string.requires_string ? "string" : NULL;
		case RG_JS_NUMBER:
			if (!node->u.number.requires_number)
				return NULL;
			return node->u.number.requires_integer ? "integer" : "number";
		case RG_JS_OBJECT:
			return node->u.object.requires_object ? "object" : NULL;
		case RG_JS_ARRAY:
			return node->u.array.requires_array ? "array" : NULL;
		default:
			return NULL;
	}
}

/* Does a node's required type (if any) admit the value's JSON type? */
static bool
admits_type(const rg_js *node, const jx *v)
{
	const char *t = required_type(node);

	if (t == NULL)
		return true;
	switch (node->kind)
	{
		case RG_JS_BOOLEAN:
			return v->type == JX_TRUE || v->type == JX_FALSE;
		case RG_JS_NULL:
			return v->type == JX_NULL;
		case RG_JS_STRING:
			return v->type == JX_STRING;
		case RG_JS_NUMBER:
			return v->type == JX_INT || (v->type == JX_DECIMAL &&
										 (!node->u.number.requires_integer || jv_number_is_integer(v)));
		case RG_JS_OBJECT:
			return v->type == JX_OBJECT;
		case RG_JS_ARRAY:
			return v->type == JX_ARRAY;
		default:
			return true;
	}
}

/*
 * anyOf or oneOf matched by no branch: the types when every branch asks
 * for another one ("type": [...]), the one branch of the value's type's
 * own failure, else the criterion's.
 */
static bool
refuse_branches(jv_ctx *ctx, const rg_js *node, const jx *v, const char *keyword, int depth)
{
	int			n = node->u.combined.n_subschemas;
	int			typed = 0;
	int			admitting = -1;
	int			i;

	for (i = 0; i < n; i++)
	{
		const rg_js *b = node->u.combined.subschemas[i];

		if (required_type(b) != NULL)
			typed++;
		if (admits_type(b, v))
			admitting = admitting == -1 ? i : -2;
	}
	if (n > 0 && typed == n && admitting == -1)
	{
		char		types[512] = "";

		for (i = 0; i < n; i++)
		{
			size_t		used = strlen(types);

			snprintf(types + used, sizeof(types) - used, "%s%s",
					 i == 0 ? "" : i + 1 == n ? " or " : ", ",
					 required_type(node->u.combined.subschemas[i]));
		}
		return refuse(ctx, node, "type", "expected %s, found %s", types, jv_value_type(v));
	}
	if (admitting >= 0 && ctx->quiet == 0)
	{
		if (!validate(ctx, node->u.combined.subschemas[admitting], v, depth + 1))
			return false;
	}
	return refuse(ctx, node, keyword, "the value matches none of the %s subschemas", keyword);
}

/* A fresh set of marks for v; false (given up) on out of memory. */
static bool
marks_init(jv_ctx *ctx, jv_marks *m, const jx *v)
{
	m->of = v;
	m->owner = NULL;
	m->marked = rg_calloc(v->n ? v->n : 1, sizeof(bool));
	if (m->marked == NULL)
		return give_up(ctx, RG_ERR_NOMEM, "out of memory");
	return spend(ctx, v->n / 64 + 1);
}

/* Add what one set of marks holds to another (NULL: none). */
static void
marks_merge(jv_marks *into, const jv_marks *from)
{
	int			i;

	if (into == NULL || into->of != from->of)
		return;
	for (i = 0; i < from->of->n; i++)
		if (from->marked[i])
			into->marked[i] = true;
}

/*
 * A sub-schema against the same value, whose evaluations count (keep)
 * only if it matches: anyOf's and oneOf's branches, if, not.
 */
static bool
validate_branch(jv_ctx *ctx, const rg_js *node, const jx *v, int depth, bool keep)
{
	jv_marks   *saved = ctx->eval;
	jv_marks	local;
	bool		ok;

	if (saved == NULL || saved->of != v)
		return validate(ctx, node, v, depth + 1);
	if (!marks_init(ctx, &local, v))
	{
		if (local.marked)
			rg_free(local.marked);
		return false;
	}
	ctx->eval = &local;
	ok = validate(ctx, node, v, depth + 1);
	ctx->eval = saved;
	if (ok && keep)
		marks_merge(saved, &local);
	rg_free(local.marked);
	return ok;
}

/* CombinedSchema: allOf, anyOf, oneOf */
static bool
validate_combined(jv_ctx *ctx, const rg_js *node, const jx *v, int depth)
{
	int			n = node->u.combined.n_subschemas;
	int			passed = 0;
	int			first = -1;
	int			i;

	if (node->u.combined.criterion == RG_JS_ALL_OF)
	{
		for (i = 0; i < n; i++)
			if (!validate(ctx, node->u.combined.subschemas[i], v, depth + 1))
				return false;
		return true;
	}
	ctx->quiet++;
	for (i = 0; i < n && !ctx->hard; i++)
	{
		if (!validate_branch(ctx, node->u.combined.subschemas[i], v, depth, true))
			continue;
		if (++passed == 1)
			first = i;
		/* anyOf: the other branches' evaluations count too when listened to */
		if ((node->u.combined.criterion == RG_JS_ANY_OF &&
			 !(ctx->eval && ctx->eval->of == v)) || passed > 1)
			break;
	}
	ctx->quiet--;
	if (ctx->hard)
		return false;
	if (passed == 0)
		return refuse_branches(ctx, node, v, node->u.combined.criterion == RG_JS_ANY_OF ?
							   "anyOf" : "oneOf", depth);
	if (node->u.combined.criterion == RG_JS_ONE_OF && passed > 1)
		return refuse(ctx, node, "oneOf",
					  "the value matches more than one of the oneOf subschemas (%d and %d)",
					  first, i);
	return true;
}

/*
 * Does a sub-schema accept the value, no message kept?  (*ok false: given
 * up)  Its evaluations count when keep and it does.
 */
static bool
quietly(jv_ctx *ctx, const rg_js *node, const jx *v, int depth, bool keep, bool *ok)
{
	bool		r;

	ctx->quiet++;
	r = validate_branch(ctx, node, v, depth, keep);
	ctx->quiet--;
	*ok = !ctx->hard;
	return r;
}

/* EnumSchema and ConstSchema */
static bool
validate_values(jv_ctx *ctx, const rg_js *node, const jx *v)
{
	char		quoted[JV_QUOTE_MAX + 8];
	int			i;

	if (node->kind == RG_JS_CONST)
	{
		if (jv_equals_kept(v, node->u.constant.value->json, 0))
			return true;
		quote_kept(quoted, sizeof(quoted), node->u.constant.value);
		return refuse(ctx, node, "const", "the value is not %s", quoted);
	}
	for (i = 0; i < node->u.enumeration.n_values; i++)
	{
		if (jv_equals_kept(v, node->u.enumeration.values[i]->json, 0))
			return true;
		if (!spend(ctx, 1))
			return false;
	}
	return refuse(ctx, node, "enum", "the value is none of the enum's %d values",
				  node->u.enumeration.n_values);
}

/* One schema node against one value, by its kind. */
static bool
validate_kind(jv_ctx *ctx, const rg_js *node, const jx *v, int depth)
{
	bool		ok;

	switch (node->kind)
	{
		case RG_JS_EMPTY:
		case RG_JS_TRUE:
			return true;
		case RG_JS_FALSE:
			return refuse(ctx, node, "false", "no value is allowed here");
		case RG_JS_BOOLEAN:
			return v->type == JX_TRUE || v->type == JX_FALSE ||
				refuse(ctx, node, "type", "expected boolean, found %s", jv_value_type(v));
		case RG_JS_NULL:
			return v->type == JX_NULL ||
				refuse(ctx, node, "type", "expected null, found %s", jv_value_type(v));
		case RG_JS_STRING:
			return validate_string(ctx, node, v);
		case RG_JS_NUMBER:
			return validate_number(ctx, node, v);
		case RG_JS_OBJECT:
			return validate_object(ctx, node, v, depth);
		case RG_JS_ARRAY:
			return validate_array(ctx, node, v, depth);
		case RG_JS_ENUM:
		case RG_JS_CONST:
			return validate_values(ctx, node, v);
		case RG_JS_COMBINED:
			return validate_combined(ctx, node, v, depth);
		case RG_JS_NOT:
			if (!quietly(ctx, node->u.not.schema, v, depth, false, &ok))
				return ok;
			return ok && refuse(ctx, node, "not", "the value matches the schema of not");
		case RG_JS_REF:
			return validate(ctx, node->u.ref.target, v, depth + 1);
		case RG_JS_CONDITIONAL:
			if (node->u.conditional.if_schema == NULL)
				return true;
			if (quietly(ctx, node->u.conditional.if_schema, v, depth, true, &ok))
				return node->u.conditional.then_schema == NULL ||
					validate(ctx, node->u.conditional.then_schema, v, depth + 1);
			if (!ok)
				return false;
			return node->u.conditional.else_schema == NULL ||
				validate(ctx, node->u.conditional.else_schema, v, depth + 1);
	}
	return true;
}

/* The unevaluated* schema a node has for a value of v's type, NULL if none. */
static const rg_js *
unevaluated_of(const rg_js *node, const jx *v)
{
	if (node->kind == RG_JS_OBJECT && v->type == JX_OBJECT)
		return node->u.object.assert_unevaluated;
	if (node->kind == RG_JS_ARRAY && v->type == JX_ARRAY)
		return node->u.array.assert_unevaluated;
	return NULL;
}

/* Does a node (or a member of an allOf) have an unevaluated* for v? */
static bool
listens(const rg_js *node, const jx *v)
{
	int			i;

	if (v->type != JX_OBJECT && v->type != JX_ARRAY)
		return false;
	if (unevaluated_of(node, v))
		return true;
	if (node->kind != RG_JS_COMBINED || node->u.combined.criterion != RG_JS_ALL_OF)
		return false;
	for (i = 0; i < node->u.combined.n_subschemas; i++)
		if (unevaluated_of(node->u.combined.subschemas[i], v))
			return true;
	return false;
}

/* One unevaluated* schema against the members or items nothing evaluated. */
static bool
check_unevaluated(jv_ctx *ctx, const rg_js *schema, const jx *v, jv_marks *marks,
				  int depth)
{
	int			i;

	for (i = 0; i < v->n; i++)
	{
		bool		ok;

		if (marks->marked[i])
			continue;
		if (v->type == JX_OBJECT)
			ok = validate_at(ctx, schema, v->members[i].value, v->members[i].key,
							 v->members[i].key_len, 0, depth);
		else
			ok = validate_at(ctx, schema, v->items[i], NULL, 0, i, depth);
		if (!ok)
			return false;
		marks->marked[i] = true;
	}
	return true;
}

/*
 * A schema object with unevaluatedProperties or unevaluatedItems: its
 * keywords first, listened to, then the unevaluated* schemas over what
 * they left; what it evaluated counts for an enclosing listener.
 */
static bool
validate_listening(jv_ctx *ctx, const rg_js *node, const jx *v, int depth)
{
	jv_marks   *saved = ctx->eval;
	jv_marks	local;
	bool		ok;
	int			i;

	if (!marks_init(ctx, &local, v))
	{
		if (local.marked)
			rg_free(local.marked);
		return false;
	}
	local.owner = node;
	ctx->eval = &local;
	ok = validate_kind(ctx, node, v, depth);
	if (ok && unevaluated_of(node, v))
		ok = check_unevaluated(ctx, unevaluated_of(node, v), v, &local, depth);
	for (i = 0; ok && node->kind == RG_JS_COMBINED && i < node->u.combined.n_subschemas; i++)
	{
		const rg_js *u = unevaluated_of(node->u.combined.subschemas[i], v);

		if (u)
			ok = check_unevaluated(ctx, u, v, &local, depth);
	}
	ctx->eval = saved;
	if (ok)
		marks_merge(saved, &local);
	rg_free(local.marked);
	return ok;
}

/*
 * Is node a member of the allOf listening to v, which checks the member's
 * unevaluated* itself once every member has run?
 */
static bool
deferred(const jv_ctx *ctx, const rg_js *node, const jx *v)
{
	const rg_js *owner = ctx->eval ? ctx->eval->owner : NULL;
	int			i;

	if (owner == NULL || ctx->eval->of != v || owner->kind != RG_JS_COMBINED ||
		unevaluated_of(node, v) == NULL)
		return false;
	for (i = 0; i < owner->u.combined.n_subschemas; i++)
		if (owner->u.combined.subschemas[i] == node)
			return true;
	return false;
}

/* One schema node against one value. */
static bool
validate(jv_ctx *ctx, const rg_js *node, const jx *v, int depth)
{
	if (ctx->hard)
		return false;
	if (rg_too_deep(depth))
		return give_up(ctx, ctx->code,
					   "%s: the value and the schema nest too deeply to validate (a $ref loop?)",
					   node->location);
	if (!spend(ctx, 1))
		return false;
	if (listens(node, v) && !deferred(ctx, node, v))
		return validate_listening(ctx, node, v, depth);
	return validate_kind(ctx, node, v, depth);
}

/* The value as compact JSON text, numbers as written; false when too deep. */
static bool
write_value(rg_buf *out, const jx *v, int depth)
{
	int			i;

	if (rg_too_deep(depth))
	{
		rg_buf_set_too_deep(out);
		return false;
	}
	switch (v->type)
	{
		case JX_NULL:
			rg_buf_puts(out, "null");
			break;
		case JX_TRUE:
			rg_buf_puts(out, "true");
			break;
		case JX_FALSE:
			rg_buf_puts(out, "false");
			break;
		case JX_INT:
		case JX_DECIMAL:
		case JX_SPECIAL:
			rg_buf_append(out, v->text, strlen(v->text));
			break;
		case JX_STRING:
			rg_json_write_string_n(out, v->text, v->len);
			break;
		case JX_ARRAY:
			rg_buf_putc(out, '[');
			for (i = 0; i < v->n; i++)
			{
				if (i > 0)
					rg_buf_putc(out, ',');
				if (!write_value(out, v->items[i], depth + 1))
					return false;
			}
			rg_buf_putc(out, ']');
			break;
		case JX_OBJECT:
			rg_buf_putc(out, '{');
			for (i = 0; i < v->n; i++)
			{
				if (i > 0)
					rg_buf_putc(out, ',');
				rg_json_write_string_n(out, v->members[i].key, v->members[i].key_len);
				rg_buf_putc(out, ':');
				if (!write_value(out, v->members[i].value, depth + 1))
					return false;
			}
			rg_buf_putc(out, '}');
			break;
	}
	return !out->oom;
}

/* the object nodes that apply to a value as such: through $refs and allOf */
typedef struct note_nodes
{
	const rg_js *items[JV_NOTE_NODES];
	int			n;
} note_nodes;

/* Collect the object nodes of a schema (not those of anyOf, oneOf, not, if). */
static void
collect_objects(const rg_js *node, note_nodes *out, int depth)
{
	int			i;

	if (rg_too_deep(depth) || out->n >= JV_NOTE_NODES)
		return;
	if (node->kind == RG_JS_REF)
		collect_objects(node->u.ref.target, out, depth + 1);
	else if (node->kind == RG_JS_OBJECT)
	{
		for (i = 0; i < out->n; i++)
			if (out->items[i] == node)
				return;
		out->items[out->n++] = node;
	}
	else if (node->kind == RG_JS_COMBINED && node->u.combined.criterion == RG_JS_ALL_OF)
		for (i = 0; i < node->u.combined.n_subschemas; i++)
			collect_objects(node->u.combined.subschemas[i], out, depth + 1);
}

/* The default a property's schema declares (through $refs), NULL if none. */
static const rg_js_value *
default_of(const rg_js *node, int depth)
{
	while (node && depth++ < 64)
	{
		if (node->default_value)
			return node->default_value;
		node = node->kind == RG_JS_REF ? node->u.ref.target : NULL;
	}
	return NULL;
}

/* Append one note for the current path: "<path>: <what>". */
static bool
add_note(jv_ctx *ctx, rg_strlist *notes, const char *fmt,...)
{
	rg_buf		buf;
	char		what[512];
	va_list		ap;
	bool		ok;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	rg_buf_init(&buf);
	write_path(&buf, ctx);
	ok = !buf.oom && rg_strlist_pushf(notes, "%.*s: %s", (int) buf.len, buf.data, what);
	rg_buf_free(&buf);
	return ok;
}

/* Is a member name declared by one of the nodes (properties or patternProperties)? */
static bool
declared_by(jv_ctx *ctx, const note_nodes *objects, const jx_member *m,
			const rg_js **schema, bool *open)
{
	int			i;
	int			k;

	*schema = NULL;
	*open = true;
	for (i = 0; i < objects->n; i++)
	{
		const rg_js *o = objects->items[i];

		if (o->u.object.additional_schema || !o->u.object.permits_additional)
			*open = false;
		for (k = 0; k < o->u.object.n_properties; k++)
			if (strlen(o->u.object.properties[k].name) == m->key_len &&
				memcmp(o->u.object.properties[k].name, m->key, m->key_len) == 0)
			{
				*schema = o->u.object.properties[k].schema;
				return true;
			}
		for (k = 0; k < o->u.object.n_pattern_properties; k++)
			if (pattern_matches(ctx, o, o->u.object.pattern_properties[k].name,
								m->key, m->key_len) > 0)
				return true;
	}
	return false;
}

/*
 * The notes of registry.check_data on a value the reader accepted: its
 * properties with a default that the data lacks (decoding fills in
 * nothing), and members the reader does not declare although it leaves
 * them open (kept as they are, unchecked); down the declared properties.
 */
static bool
collect_notes(jv_ctx *ctx, const rg_js *schema, const jx *v, rg_strlist *notes, int depth)
{
	note_nodes	found;
	int			i;
	int			k;

	if (v->type != JX_OBJECT || rg_too_deep(depth) || ctx->depth >= JS_MAX_NESTING)
		return true;
	found.n = 0;
	collect_objects(schema, &found, 0);
	for (i = 0; i < found.n; i++)
		for (k = 0; k < found.items[i]->u.object.n_properties; k++)
		{
			const rg_js_member *p = &found.items[i]->u.object.properties[k];
			const rg_js_value *d = default_of(p->schema, 0);
			char		quoted[JV_QUOTE_MAX + 8];
			bool		ok;

			if (d == NULL || jv_member(v, p->name, strlen(p->name)) != NULL)
				continue;
			quote_kept(quoted, sizeof(quoted), d);
			path_push(ctx, p->name, strlen(p->name), 0);
			ok = add_note(ctx, notes, "missing from the data; the reader's default %s is not filled in",
						  quoted);
			ctx->depth--;
			if (!ok)
				return false;
		}
	for (i = 0; i < v->n && !ctx->hard; i++)
	{
		const jx_member *m = &v->members[i];
		const rg_js *sub;
		bool		open;
		bool		ok = true;

		path_push(ctx, m->key, m->key_len, 0);
		if (!declared_by(ctx, &found, m, &sub, &open))
		{
			if (open && found.n > 0)
				ok = add_note(ctx, notes, "not declared by the reader, kept unchecked");
		}
		else if (sub)
			ok = collect_notes(ctx, sub, m->value, notes, depth + 1);
		ctx->depth--;
		if (!ok)
			return false;
	}
	return true;
}

/* Start a validation; false on out of memory. */
static bool
ctx_init(jv_ctx *ctx, rg_arena *arena, rg_error *err, rg_errcode code)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->arena = arena;
	ctx->err = err;
	ctx->code = code;
	ctx->budget = JV_MAX_STEPS;
	ctx->next_interrupt = JV_MAX_STEPS - JV_INTERRUPT_EVERY;
	ctx->path = rg_arena_alloc(arena, sizeof(jv_step) * (JS_MAX_NESTING + 2));
	if (ctx->path == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	return true;
}

/* Validate v against a schema; false with err set (code for a refused value). */
static bool
check_value(jv_ctx *ctx, const rg_schema *schema, const jx *v)
{
	const rg_js_parsed *model = rg_json_model(schema);

	if (model == NULL)
	{
		rg_error_set(ctx->err, RG_ERR_INTERNAL, "not a JSON schema");
		return false;
	}
	if (validate(ctx, model->root, v, 0))
		return true;
	if (!ctx->reported)
		rg_error_set(ctx->err, ctx->code, "$: the value does not match the schema");
	return false;
}

/* Append v's text to out; false with err set. */
static bool
output(const jx *v, rg_buf *out, rg_error *err)
{
	if (write_value(out, v, 0))
		return true;
	if (out->too_deep)
		rg_error_set(err, RG_ERR_INVALID_VALUE, "the value nests too deeply to be written");
	else
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	return false;
}

/* See rg_jsonschema.h */
bool
rg_json_encode(const rg_schema *schema, const char *message, const char *json,
			   size_t json_len, rg_buf *out, rg_error *err)
{
	rg_arena   *arena = rg_arena_create();
	jv_ctx		ctx;
	jx		   *v;
	bool		ok = false;

	if (arena == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	if ((v = jx_parse_payload(arena, json, json_len, err)) == NULL)
	{
		if (err && err->code == RG_ERR_INVALID_SCHEMA)
			err->code = RG_ERR_INVALID_VALUE;
	}
	else if (ctx_init(&ctx, arena, err, RG_ERR_INVALID_VALUE) &&
			 check_value(&ctx, schema, v))
		ok = output(v, out, err);
	rg_arena_destroy(arena);
	return ok;
}

/* See rg_jsonschema.h */
bool
rg_json_decode(const rg_schema *writer, const rg_schema *reader,
			   const uint8_t *data, size_t len, rg_buf *out, rg_strlist *notes,
			   rg_error *err)
{
	rg_arena   *arena = rg_arena_create();
	jv_ctx		ctx;
	jx		   *v;
	bool		ok = false;

	if (arena == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	if ((v = jx_parse_payload(arena, (const char *) data, len, err)) == NULL)
	{
		if (err && err->code == RG_ERR_INVALID_SCHEMA)
			err->code = RG_ERR_INVALID_PAYLOAD;
	}
	else if (ctx_init(&ctx, arena, err, reader ? RG_ERR_INVALID_VALUE : RG_ERR_INVALID_PAYLOAD) &&
			 check_value(&ctx, reader ? reader : writer, v))
	{
		ok = true;
		if (notes && reader)
		{
			ok = collect_notes(&ctx, rg_json_model(reader)->root, v, notes, 0);
			if (!ok && !ctx.hard)
				rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		}
		ok = ok && output(v, out, err);
	}
	rg_arena_destroy(arena);
	return ok;
}
