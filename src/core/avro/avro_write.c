/*-------------------------------------------------------------------------
 *
 * avro_write.c
 *	  The stored form of an Avro schema: Avro Java 1.11's
 *	  Schema.toString(referencedSchemas, false), byte for byte, and
 *	  Confluent's normalize=true as a transform of the model before it.
 *
 * Confluent stores this text and hashes it to decide whether two
 * registrations are the same schema, so every byte counts.  Avro Java
 * writes with Jackson: compact JSON; strings escape only '"', '\\' and
 * control characters (\b \t \n \f \r short forms, the rest as \u00XX with
 * upper-case hex), non-ASCII stays raw UTF-8; integers print as written;
 * reals print as Java's Double.toString().
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"
#include "rg_json_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A set of schema pointers (named types already written), open
 * addressing on rg_malloc; identity is what Avro's Names map amounts to
 * within one parse.
 */
typedef struct ptr_set
{
	const void **slots;
	size_t		cap;
	size_t		n;
	bool		oom;
} ptr_set;

/* Hash a pointer to a slot of a table of cap (a power of two) slots. */
static size_t
ptr_hash(const void *p, size_t cap)
{
	uintptr_t	v = (uintptr_t) p;

	v ^= v >> 17;
	v *= (uintptr_t) 0x9E3779B97F4A7C15ULL;
	return (size_t) (v >> 7) & (cap - 1);
}

/* Is p in the set? */
static bool
ptr_set_has(const ptr_set *set, const void *p)
{
	size_t		i;

	if (set->cap == 0)
		return false;
	for (i = ptr_hash(p, set->cap); set->slots[i]; i = (i + 1) & (set->cap - 1))
		if (set->slots[i] == p)
			return true;
	return false;
}

/* Add p to the set, growing it to stay at most half full (oom on failure). */
static void
ptr_set_add(ptr_set *set, const void *p)
{
	size_t		i;

	if (set->oom || ptr_set_has(set, p))
		return;
	if ((set->n + 1) * 2 > set->cap)
	{
		size_t		cap = set->cap ? set->cap * 2 : 64;
		const void **slots = rg_calloc(cap, sizeof(void *));
		size_t		k;

		if (slots == NULL)
		{
			set->oom = true;
			return;
		}
		for (k = 0; k < set->cap; k++)
			if (set->slots[k])
			{
				for (i = ptr_hash(set->slots[k], cap); slots[i]; i = (i + 1) & (cap - 1))
					;
				slots[i] = set->slots[k];
			}
		rg_free(set->slots);
		set->slots = slots;
		set->cap = cap;
	}
	for (i = ptr_hash(p, set->cap); set->slots[i]; i = (i + 1) & (set->cap - 1))
		;
	set->slots[i] = p;
	set->n++;
}

typedef struct write_ctx
{
	rg_buf	   *buf;
	bool		refs_as_names;
	const char *space;			/* Names.space(): the enclosing namespace */
	ptr_set		seen;
	int			depth;			/* of write_schema calls */
} write_ctx;

static void write_schema(write_ctx *w, const rg_avro_schema *s);

/* Are two namespaces (NULL for none) the same? */
static bool
same_space(const char *a, const char *b)
{
	return a == NULL ? b == NULL : (b != NULL && strcmp(a, b) == 0);
}

/* ,"key":"value" */
static void
write_str_field(write_ctx *w, const char *key, const char *value)
{
	rg_buf_putc(w->buf, ',');
	rg_json_write_string(w->buf, key);
	rg_buf_putc(w->buf, ':');
	rg_json_write_string(w->buf, value);
}

/* The extra properties, in order, as ,"key":value. */
static void
write_props(write_ctx *w, const rg_avro_prop *props, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		rg_buf_putc(w->buf, ',');
		rg_json_write_string(w->buf, props[i].key);
		rg_buf_putc(w->buf, ':');
		rg_json_write_value(w->buf, props[i].value);
	}
}

/*
 * Name.getQualified(defaultSpace): the simple name when the name has no
 * namespace or lives in defaultSpace, else the full name.  (A name without
 * namespace inside a namespace thus comes out unqualified: Avro's own
 * behaviour, kept.)
 */
static const char *
qualified(const char *full, const char *default_space)
{
	const char *dot = strrchr(full, '.');

	if (dot == NULL)
		return full;
	if (default_space != NULL && strlen(default_space) == (size_t) (dot - full) &&
		strncmp(full, default_space, dot - full) == 0)
		return dot + 1;
	return full;
}

/* "name", and "namespace" when it differs from the enclosing one */
static void
write_name(write_ctx *w, const rg_avro_schema *s)
{
	write_str_field(w, "name", s->name);
	if (s->space != NULL)
	{
		if (!same_space(s->space, w->space))
			write_str_field(w, "namespace", s->space);
	}
	else if (w->space != NULL)
		write_str_field(w, "namespace", "");
}

/* The aliases of a named type, when it has any. */
static void
write_aliases(write_ctx *w, const rg_avro_schema *s)
{
	int			i;

	if (s->n_aliases == 0)
		return;
	rg_buf_puts(w->buf, ",\"aliases\":[");
	for (i = 0; i < s->n_aliases; i++)
	{
		if (i)
			rg_buf_putc(w->buf, ',');
		rg_json_write_string(w->buf, qualified(s->aliases[i], s->space));
	}
	rg_buf_putc(w->buf, ']');
}

/* One record field: name, type, doc, default, order, aliases, properties. */
static void
write_field(write_ctx *w, const rg_avro_field *f)
{
	int			i;

	rg_buf_puts(w->buf, "{\"name\":");
	rg_json_write_string(w->buf, f->name);
	rg_buf_puts(w->buf, ",\"type\":");
	write_schema(w, f->type);
	if (f->extra->doc)
		write_str_field(w, "doc", f->extra->doc);
	if (f->default_value)
	{
		rg_buf_puts(w->buf, ",\"default\":");
		rg_json_write_value(w->buf, f->default_value);
	}
	if (f->extra->order == RG_AVRO_ORDER_DESCENDING)
		write_str_field(w, "order", "descending");
	else if (f->extra->order == RG_AVRO_ORDER_IGNORE)
		write_str_field(w, "order", "ignore");
	if (f->extra->n_aliases > 0)
	{
		rg_buf_puts(w->buf, ",\"aliases\":[");
		for (i = 0; i < f->extra->n_aliases; i++)
		{
			if (i)
				rg_buf_putc(w->buf, ',');
			rg_json_write_string(w->buf, f->extra->aliases[i]);
		}
		rg_buf_putc(w->buf, ']');
	}
	write_props(w, f->extra->props, f->extra->n_props);
	rg_buf_putc(w->buf, '}');
}

/*
 * A named type: its name when it was written before (or comes from a
 * reference), else its definition.  Key order is Avro Java's.
 */
static void
write_named(write_ctx *w, const rg_avro_schema *s)
{
	const char *saved = w->space;
	int			i;

	if (ptr_set_has(&w->seen, s) || (w->refs_as_names && s->is_reference))
	{
		rg_json_write_string(w->buf, qualified(s->fullname, w->space));
		return;
	}
	ptr_set_add(&w->seen, s);
	if (w->seen.oom)
		w->buf->oom = true;

	rg_buf_puts(w->buf, "{\"type\":");
	rg_json_write_string(w->buf, s->type == RG_AVRO_RECORD ?
						 (s->is_error ? "error" : "record") :
						 rg_avro_type_name(s->type));
	write_name(w, s);
	switch (s->type)
	{
		case RG_AVRO_RECORD:
			w->space = s->space;
			if (s->doc)
				write_str_field(w, "doc", s->doc);
			/* fields are unset only while the record is being parsed */
			if (s->fields)
			{
				rg_buf_puts(w->buf, ",\"fields\":[");
				for (i = 0; i < s->n_fields; i++)
				{
					if (i)
						rg_buf_putc(w->buf, ',');
					write_field(w, &s->fields[i]);
				}
				rg_buf_putc(w->buf, ']');
			}
			break;
		case RG_AVRO_ENUM:
			if (s->doc)
				write_str_field(w, "doc", s->doc);
			rg_buf_puts(w->buf, ",\"symbols\":[");
			for (i = 0; i < s->n_symbols; i++)
			{
				if (i)
					rg_buf_putc(w->buf, ',');
				rg_json_write_string(w->buf, s->symbols[i]);
			}
			rg_buf_putc(w->buf, ']');
			if (s->enum_default)
				write_str_field(w, "default", s->enum_default);
			break;
		default:				/* fixed */
			if (s->doc)
				write_str_field(w, "doc", s->doc);
			rg_buf_printf(w->buf, ",\"size\":%d", s->size);
			break;
	}
	write_props(w, s->props, s->n_props);
	write_aliases(w, s);
	rg_buf_putc(w->buf, '}');
	w->space = saved;
}

/* One schema node: a primitive name, a named type or a complex type. */
static void
write_schema(write_ctx *w, const rg_avro_schema *s)
{
	int			i;

	if (w->buf->oom)
		return;
	rg_check_interrupts();
	if (rg_too_deep(w->depth))
	{
		rg_buf_set_too_deep(w->buf);
		return;
	}
	w->depth++;
	switch (s->type)
	{
		case RG_AVRO_RECORD:
		case RG_AVRO_ENUM:
		case RG_AVRO_FIXED:
			write_named(w, s);
			break;
		case RG_AVRO_ARRAY:
		case RG_AVRO_MAP:
			rg_buf_puts(w->buf, s->type == RG_AVRO_ARRAY ?
						"{\"type\":\"array\",\"items\":" :
						"{\"type\":\"map\",\"values\":");
			write_schema(w, s->items);
			write_props(w, s->props, s->n_props);
			rg_buf_putc(w->buf, '}');
			break;
		case RG_AVRO_UNION:
			rg_buf_putc(w->buf, '[');
			for (i = 0; i < s->n_branches; i++)
			{
				if (i)
					rg_buf_putc(w->buf, ',');
				write_schema(w, s->branches[i]);
			}
			rg_buf_putc(w->buf, ']');
			break;
		default:
			if (s->n_props == 0)
				rg_json_write_string(w->buf, rg_avro_type_name(s->type));
			else
			{
				rg_buf_puts(w->buf, "{\"type\":");
				rg_json_write_string(w->buf, rg_avro_type_name(s->type));
				write_props(w, s->props, s->n_props);
				rg_buf_putc(w->buf, '}');
			}
			break;
	}
	w->depth--;
}

/* See rg_avro.h */
void
rg_avro_write(rg_buf *buf, const rg_avro_schema *schema, bool refs_as_names)
{
	write_ctx	w;

	memset(&w, 0, sizeof(w));
	w.buf = buf;
	w.refs_as_names = refs_as_names;
	write_schema(&w, schema);
	if (w.seen.oom)
		buf->oom = true;
	rg_free(w.seen.slots);
}

/* See rg_avro_api.h: the stored form is Schema.toString() of the root */
void
rg_avro_write_text(const rg_schema *schema, rg_buf *out)
{
	const rg_avro_parsed *parsed = schema->model;

	rg_avro_write(out, parsed->root, true);
}

/*
 * See rg_avro_api.h: Schema.toString() without the referenced schemas
 * given, so each named type of a reference is written in full where it is
 * first used (Confluent's format=resolved)
 */
void
rg_avro_write_resolved(const rg_schema *schema, rg_buf *out)
{
	const rg_avro_parsed *parsed = schema->model;

	rg_avro_write(out, parsed->root, false);
}

/*
 * ---- normalize=true ----
 *
 * Confluent normalizes by writing the schema in its own variant of the
 * Parsing Canonical Form (full names, every semantic attribute kept, some
 * sorted) and parsing that text again.  The visible effects, applied here
 * to the model directly:
 *	- properties sorted by key; for a primitive or fixed with a logical type
 *	  Avro recognizes, logicalType (and a decimal's precision, and scale when
 *	  it is not 0) come first;
 *	- aliases of named types and fields sorted, duplicates dropped;
 *	- an empty doc of a named type dropped (a field's empty doc stays);
 *	- a named type without namespace nested in one with a namespace moves
 *	  into it (its full name is written without dots, then re-read there);
 *	- field defaults go through Avro's JSON -> datum -> JSON conversion:
 *	  numbers take the field type (1 -> 1.0 for double, float precision for
 *	  float), bytes/fixed strings lose characters beyond Latin-1.
 */

typedef struct norm_ctx
{
	rg_arena   *arena;
	json_t	   *owned;
	ptr_set		seen;
	bool		oom;			/* out of memory, or too deep to walk */
	bool		too_deep;		/* rg_too_deep stopped the walk */
	int			depth;			/* of norm_schema calls */
} norm_ctx;

/* qsort order of strings: strcmp. */
static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* qsort order of properties: by key. */
static int
cmp_prop(const void *a, const void *b)
{
	return strcmp(((const rg_avro_prop *) a)->key, ((const rg_avro_prop *) b)->key);
}

/* Sort a list of strings in place and drop duplicates. */
static void
sort_unique(const char **list, int *n)
{
	int			i;
	int			k = 0;

	if (*n < 2)
		return;
	qsort(list, *n, sizeof(char *), cmp_str);
	for (i = 0; i < *n; i++)
		if (k == 0 || strcmp(list[k - 1], list[i]) != 0)
			list[k++] = list[i];
	*n = k;
}

/* The value of a schema's property key, or NULL. */
static const json_t *
prop_get(const rg_avro_schema *s, const char *key)
{
	int			i;

	for (i = 0; i < s->n_props; i++)
		if (strcmp(s->props[i].key, key) == 0)
			return s->props[i].value;
	return NULL;
}

/* A property that is an integer, in *out; false when absent or not one. */
static bool
int_prop(const rg_avro_schema *s, const char *key, long long *out)
{
	const json_t *v = prop_get(s, key);

	if (!json_is_integer(v) || json_integer_value(v) < INT32_MIN ||
		json_integer_value(v) > INT32_MAX)
		return false;
	*out = json_integer_value(v);
	return true;
}

/*
 * The logical type Avro 1.11 recognizes on s (LogicalTypes.fromSchema-
 * IgnoreInvalid), or NULL.
 */
static const char *
valid_logical_type(const rg_avro_schema *s)
{
	const json_t *lt = prop_get(s, "logicalType");
	const char *name;

	if (!json_is_string(lt))
		return NULL;
	name = json_string_value(lt);
	if (strcmp(name, "decimal") == 0)
	{
		long long	precision;
		long long	scale = 0;

		if (s->type != RG_AVRO_BYTES && s->type != RG_AVRO_FIXED)
			return NULL;
		if (!int_prop(s, "precision", &precision) || precision <= 0)
			return NULL;
		if (prop_get(s, "scale") && !int_prop(s, "scale", &scale))
			return NULL;
		if (scale < 0 || scale > precision)
			return NULL;
		if (s->type == RG_AVRO_FIXED &&
			precision > (long long) floor((8.0 * s->size - 1) * log10(2.0)))
			return NULL;
		return name;
	}
	if (strcmp(name, "uuid") == 0)
		return s->type == RG_AVRO_STRING ? name : NULL;
	if (strcmp(name, "date") == 0 || strcmp(name, "time-millis") == 0)
		return s->type == RG_AVRO_INT ? name : NULL;
	if (strcmp(name, "time-micros") == 0 ||
		strcmp(name, "timestamp-millis") == 0 ||
		strcmp(name, "timestamp-micros") == 0 ||
		strcmp(name, "local-timestamp-millis") == 0 ||
		strcmp(name, "local-timestamp-micros") == 0)
		return s->type == RG_AVRO_LONG ? name : NULL;
	return NULL;
}

/*
 * Sorted properties, with the logical-type ones first when the schema's
 * logical type is recognized (Confluent writes them first and again in
 * the sorted list; on re-reading the first position wins).
 */
static void
norm_props(rg_avro_prop *props, int n, const rg_avro_schema *logical_of)
{
	const char *lt = logical_of ? valid_logical_type(logical_of) : NULL;
	const char *front[3];
	int			n_front = 0;
	int			placed = 0;
	int			i;
	int			j;

	if (n == 0)
		return;
	qsort(props, n, sizeof(rg_avro_prop), cmp_prop);
	if (lt == NULL)
		return;
	front[n_front++] = "logicalType";
	if (strcmp(lt, "decimal") == 0)
	{
		long long	scale = 0;

		front[n_front++] = "precision";
		if (int_prop(logical_of, "scale", &scale) && scale != 0)
			front[n_front++] = "scale";
	}
	for (j = 0; j < n_front; j++)
	{
		for (i = placed; i < n; i++)
			if (strcmp(props[i].key, front[j]) == 0)
			{
				rg_avro_prop p = props[i];

				memmove(&props[placed + 1], &props[placed],
						sizeof(rg_avro_prop) * (i - placed));
				props[placed++] = p;
				break;
			}
	}
}

/* Java's Float.toString() digits for (float) d, read back as a double. */
static double
float_round(double d)
{
	float		f = (float) d;
	char		tmp[40];
	int			prec;

	if (isnan(f) || isinf(f) || f == 0)
		return (double) f;
	for (prec = 1; prec < 9; prec++)
	{
		snprintf(tmp, sizeof(tmp), "%.*e", prec, (double) f);
		if ((float) strtod(tmp, NULL) == f)
			break;
	}
	return strtod(tmp, NULL);
}

/*
 * A float default rounded as Java's float would hold it.  A value beyond
 * float range would become infinite, which JSON cannot carry: the default
 * is kept as written rather than failing the whole parse.
 */
static json_t *
float_default(double d, const json_t *orig)
{
	double		r = float_round(d);

	if (!isfinite(r))
		return json_incref((json_t *) orig);
	return json_real(r);
}

/* A Latin-1 round trip: code points above U+00FF become '?'. */
static json_t *
latin1_string(const json_t *v)
{
	size_t		len = json_string_length(v);
	char	   *out = rg_malloc(len + 1);
	size_t		o = 0;
	const unsigned char *p = (const unsigned char *) json_string_value(v);
	const unsigned char *end = p + len;
	json_t	   *r;

	if (out == NULL)
		return NULL;
	while (p < end)
	{
		int			n = *p < 0x80 ? 1 : *p < 0xE0 ? 2 : *p < 0xF0 ? 3 : 4;
		unsigned	cp = n == 1 ? *p : n == 2 ? (unsigned) (*p & 0x1F) : 0;

		if (n == 2 && p + 1 < end)
			cp = (cp << 6) | (p[1] & 0x3F);
		if (n == 1 || (n == 2 && cp <= 0xFF))
		{
			memcpy(out + o, p, n);
			o += n;
		}
		else
			out[o++] = '?';
		while (n-- > 0 && p < end)
			p++;
	}
	out[o] = '\0';
	r = json_stringn(out, o);
	rg_free(out);
	return r;
}

/*
 * Avro's JacksonUtils.toObject(default, schema) followed by Confluent's
 * genJson: a new JSON value (new reference).
 */
static json_t *
norm_default(norm_ctx *n, const json_t *v, const rg_avro_schema *s, int depth)
{
	if (rg_too_deep(depth))
	{
		n->too_deep = true;
		return NULL;
	}
	if (s && s->type == RG_AVRO_UNION)
		s = s->n_branches ? s->branches[0] : NULL;
	switch (json_typeof(v))
	{
		case JSON_INTEGER:
			if (s && s->type == RG_AVRO_DOUBLE)
				return json_real((double) json_integer_value(v));
			if (s && s->type == RG_AVRO_FLOAT)
				return float_default((double) json_integer_value(v), v);
			return json_incref((json_t *) v);
		case JSON_REAL:
			if (s && s->type == RG_AVRO_FLOAT)
				return float_default(json_real_value(v), v);
			return json_incref((json_t *) v);
		case JSON_STRING:
			if (s && (s->type == RG_AVRO_BYTES || s->type == RG_AVRO_FIXED))
				return latin1_string(v);
			return json_incref((json_t *) v);
		case JSON_ARRAY:
			{
				json_t	   *a = json_array();
				size_t		i;

				for (i = 0; a && i < json_array_size(v); i++)
				{
					const rg_avro_schema *is = s && s->type == RG_AVRO_ARRAY ? s->items : NULL;

					if (json_array_append_new(a, norm_default(n, json_array_get(v, i), is, depth + 1)) != 0)
					{
						json_decref(a);
						return NULL;
					}
				}
				return a;
			}
		case JSON_OBJECT:
			{
				json_t	   *o = rg_json_new_object();
				const char *key;
				json_t	   *e;

				json_object_foreach((json_t *) v, key, e)
				{
					const rg_avro_schema *es = NULL;
					int			i;

					if (s && s->type == RG_AVRO_MAP)
						es = s->items;
					else if (s && s->type == RG_AVRO_RECORD)
						for (i = 0; i < s->n_fields; i++)
							if (strcmp(s->fields[i].name, key) == 0)
								es = s->fields[i].type;
					if (o == NULL || json_object_set_new(o, key, norm_default(n, e, es, depth + 1)) != 0)
					{
						json_decref(o);
						return NULL;
					}
				}
				return o;
			}
		default:
			return json_incref((json_t *) v);
	}
}

static void norm_schema(norm_ctx *n, rg_avro_schema *s, const char *space);

/* Move a namespace-less named type into the enclosing namespace. */
static void
norm_rehome(norm_ctx *n, rg_avro_schema *s, const char *space)
{
	int			i;
	size_t		len;
	char	   *full;

	if (s->space != NULL || space == NULL)
		return;
	len = strlen(space) + strlen(s->name) + 2;
	full = rg_arena_alloc(n->arena, len);
	if (full == NULL)
	{
		n->oom = true;
		return;
	}
	snprintf(full, len, "%s.%s", space, s->name);
	s->space = space;
	s->fullname = full;
	for (i = 0; i < s->n_aliases; i++)
	{
		char	   *a;

		if (strchr(s->aliases[i], '.'))
			continue;
		len = strlen(space) + strlen(s->aliases[i]) + 2;
		a = rg_arena_alloc(n->arena, len);
		if (a == NULL)
		{
			n->oom = true;
			return;
		}
		snprintf(a, len, "%s.%s", space, s->aliases[i]);
		s->aliases[i] = a;
	}
}

/* Normalize one field: its type, aliases, properties and default. */
static void
norm_field(norm_ctx *n, rg_avro_field *f, const char *space)
{
	norm_schema(n, f->type, space);
	/* (no-ops on the shared empty extra: nothing to sort) */
	sort_unique(f->extra->aliases, &f->extra->n_aliases);
	norm_props(f->extra->props, f->extra->n_props, NULL);
	if (f->default_value)
	{
		json_t	   *d;
		bool		ok;

		/* the new default lives with the schema (see rg_keep_begin) */
		rg_keep_begin(n->arena);
		d = norm_default(n, f->default_value, f->type, 0);
		ok = d != NULL && json_array_append_new(n->owned, d) == 0;
		rg_keep_end();
		if (!ok)
		{
			n->oom = true;
			return;
		}
		f->default_value = d;
	}
}

/* Normalize one schema node and what it holds, each named type once. */
static void
norm_schema(norm_ctx *n, rg_avro_schema *s, const char *space)
{
	int			i;

	if (n->oom)
		return;
	if (rg_too_deep(n->depth))
	{
		n->oom = true;
		n->too_deep = true;
		return;
	}
	n->depth++;
	switch (s->type)
	{
		case RG_AVRO_RECORD:
		case RG_AVRO_ENUM:
		case RG_AVRO_FIXED:
			if (s->is_reference || ptr_set_has(&n->seen, s))
			{
				n->depth--;
				return;
			}
			ptr_set_add(&n->seen, s);
			sort_unique(s->aliases, &s->n_aliases);
			norm_rehome(n, s, space);
			if (s->doc && s->doc[0] == '\0')
				s->doc = NULL;
			norm_props(s->props, s->n_props, s->type == RG_AVRO_FIXED ? s : NULL);
			for (i = 0; i < s->n_fields; i++)
				norm_field(n, &s->fields[i], s->space);
			break;
		case RG_AVRO_ARRAY:
		case RG_AVRO_MAP:
			norm_schema(n, s->items, space);
			norm_props(s->props, s->n_props, NULL);
			break;
		case RG_AVRO_UNION:
			for (i = 0; i < s->n_branches; i++)
				norm_schema(n, s->branches[i], space);
			break;
		default:
			norm_props(s->props, s->n_props, s);
			break;
	}
	n->depth--;
	if (n->seen.oom)
		n->oom = true;
}

/* See rg_avro.h */
bool
rg_avro_normalize(rg_arena *arena, rg_avro_schema *root, json_t *owned,
				  bool *too_deep)
{
	norm_ctx	n;

	memset(&n, 0, sizeof(n));
	n.arena = arena;
	n.owned = owned;
	norm_schema(&n, root, NULL);
	rg_free(n.seen.slots);
	*too_deep = n.too_deep;
	return !n.oom && !n.too_deep;
}
