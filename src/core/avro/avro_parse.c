/*-------------------------------------------------------------------------
 *
 * avro_parse.c
 *	  Avro schema JSON -> rg_avro_schema, with Avro Java 1.11's
 *	  Schema.Parser semantics as Confluent configures it (name validation
 *	  and default validation on).
 *
 * What is accepted, what is rejected and which name a reference resolves
 * to must be exactly what Confluent's registry does, because a schema we
 * accept and it rejects (or the other way round) is a visible difference
 * to every client.  The rules are the Avro specification's plus the Java
 * implementation's own choices, e.g. comments allowed in the JSON, text
 * after the first JSON value ignored, a union default checked against the
 * first branch only.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"
#include "rg_json_text.h"

#include <ctype.h>
#include <strings.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_BUCKETS 256

/*
 * The model behind rg_schema.model: the public part first, then the JSON
 * values the schema keeps (defaults, properties), held by one array so
 * freeing needs no walk over a possibly cyclic graph (NULL when it keeps
 * none).  Names, docs and symbols are copies in the arena: the parsed
 * JSON document is released as soon as the model is built.
 */
typedef struct rg_avro_model
{
	rg_avro_parsed pub;
	json_t	   *owned;
} rg_avro_model;

typedef struct name_entry
{
	const char *fullname;
	rg_avro_schema *schema;
	struct name_entry *next;
} name_entry;

typedef struct parse_ctx
{
	rg_arena   *arena;
	rg_error   *err;
	json_t	   *owned;
	name_entry *names[NAME_BUCKETS];
	const char *space;			/* namespace of the enclosing named type */
	int			depth;
	bool		in_reference;
	bool		failed;
	/* named types in definition order */
	rg_avro_schema **defined;
	int			n_defined;
	int			cap_defined;
} parse_ctx;

static const char *const primitive_names[] = {
	"null", "boolean", "int", "long", "float", "double", "bytes", "string"
};

static const char *const schema_reserved[] = {
	"doc", "fields", "items", "name", "namespace", "size", "symbols",
	"values", "type", "aliases", NULL
};
static const char *const field_reserved[] = {
	"default", "doc", "name", "order", "type", "aliases", NULL
};

static rg_avro_schema *parse_node(parse_ctx *ctx, json_t *node);
static rg_avro_schema *lookup_named(parse_ctx *ctx, const char *name);

static void fail(parse_ctx *ctx, rg_errcode code, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

/* Record the first error only; later failures are consequences of it. */
static void
fail(parse_ctx *ctx, rg_errcode code, const char *fmt,...)
{
	va_list		ap;

	if (ctx->failed)
		return;
	ctx->failed = true;
	if (ctx->err == NULL)
		return;
	ctx->err->code = code;
	va_start(ap, fmt);
	vsnprintf(ctx->err->message, sizeof(ctx->err->message), fmt, ap);
	va_end(ap);
}

#define FAIL(ctx, ...) fail((ctx), RG_ERR_INVALID_SCHEMA, __VA_ARGS__)
#define OOM(ctx) fail((ctx), RG_ERR_NOMEM, "out of memory")

/*
 * A writer's text for an error message, in the arena (cut at
 * RG_ERROR_MAX: messages are bounded anyway, and the arena must not grow
 * wildly), or what stopped the writer; frees the buffer.
 */
static const char *
error_text(parse_ctx *ctx, rg_buf *buf)
{
	const char *s;

	if (buf->oom)
		s = buf->too_deep ? "(too deeply nested)" : "(out of memory)";
	else
	{
		if (buf->len > RG_ERROR_MAX)
			buf->data[RG_ERROR_MAX] = '\0';
		s = rg_arena_strdup(ctx->arena, buf->data);
		if (s == NULL)
			s = "(out of memory)";
	}
	rg_buf_free(buf);
	return s;
}

/*
 * A JSON node as Jackson's toString() prints it, for error messages
 * (Avro Java quotes the offending node in most of its messages).
 */
static const char *
node_text(parse_ctx *ctx, const json_t *node)
{
	rg_buf		buf;

	rg_buf_init(&buf);
	if (node)
		rg_json_write_value(&buf, node);
	else
		rg_buf_puts(&buf, "null");
	return error_text(ctx, &buf);
}

/* A schema as Schema.toString() prints it, for default errors. */
static const char *
schema_text(parse_ctx *ctx, const rg_avro_schema *schema)
{
	rg_buf		buf;

	rg_buf_init(&buf);
	rg_avro_write(&buf, schema, false);
	return error_text(ctx, &buf);
}

/* Is s one of the NULL-terminated list's strings? */
static bool
in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

/* The primitive type a name stands for, or -1. */
static int
primitive_type(const char *s)
{
	int			i;

	for (i = 0; i < (int) (sizeof(primitive_names) / sizeof(primitive_names[0])); i++)
		if (strcmp(primitive_names[i], s) == 0)
			return i;			/* RG_AVRO_NULL .. RG_AVRO_STRING in order */
	return -1;
}

/*
 * The C string of a JSON string the model keeps as a name, doc or symbol.
 * JSON allows "\u0000" inside strings; a C string cannot hold it, so such
 * a string is refused rather than silently cut short.
 */
static const char *
text_of(parse_ctx *ctx, const json_t *v)
{
	const char *s = json_string_value(v);

	if (s != NULL && strlen(s) != json_string_length(v))
	{
		FAIL(ctx, "Strings containing U+0000 are not supported in names, docs or symbols: %s",
			 node_text(ctx, v));
		return NULL;
	}
	return s;
}

/* getOptionalText: the attribute's text, or NULL if absent or not a string */
static const char *
opt_text(parse_ctx *ctx, const json_t *node, const char *key)
{
	json_t	   *v = json_is_object(node) ? json_object_get(node, key) : NULL;

	return json_is_string(v) ? text_of(ctx, v) : NULL;
}

/*
 * text_of, copied into the arena: the model keeps no pointer into the
 * JSON document, which is released once parsed.
 */
static const char *
dup_text(parse_ctx *ctx, const json_t *v)
{
	const char *s = text_of(ctx, v);
	char	   *d;

	if (s == NULL)
		return NULL;
	d = rg_arena_strndup(ctx->arena, s, json_string_length(v));
	if (d == NULL)
		OOM(ctx);
	return d;
}

/* opt_text, copied into the arena */
static const char *
opt_dup(parse_ctx *ctx, const json_t *node, const char *key)
{
	json_t	   *v = json_is_object(node) ? json_object_get(node, key) : NULL;

	return json_is_string(v) ? dup_text(ctx, v) : NULL;
}

/*
 * Avro's name rule for one simple name: [A-Za-z_][A-Za-z0-9_]*.  Messages
 * are Avro Java's.
 */
static bool
validate_name(parse_ctx *ctx, const char *name)
{
	const char *p;

	if (name == NULL)
	{
		FAIL(ctx, "Null name");
		return false;
	}
	if (*name == '\0')
	{
		FAIL(ctx, "Empty name");
		return false;
	}
	if (!(isalpha((unsigned char) *name) || *name == '_') || (unsigned char) *name >= 0x80)
	{
		FAIL(ctx, "Illegal initial character: %s", name);
		return false;
	}
	for (p = name + 1; *p; p++)
	{
		if ((unsigned char) *p >= 0x80 || !(isalnum((unsigned char) *p) || *p == '_'))
		{
			FAIL(ctx, "Illegal character in: %s", name);
			return false;
		}
	}
	return true;
}

/*
 * Avro Java's Name(name, space): a dotted name carries its own namespace,
 * "" means no namespace, only the simple name is validated (Avro 1.11 does
 * not check namespace components).  Outputs live in the arena.
 */
static bool
make_name(parse_ctx *ctx, const char *name, const char *space,
		  const char **simple, const char **ns, const char **full)
{
	const char *dot = strrchr(name, '.');
	const char *s;
	char	   *sp = NULL;

	if (dot)
	{
		s = dot + 1;
		sp = rg_arena_strndup(ctx->arena, name, dot - name);
		if (sp == NULL)
		{
			OOM(ctx);
			return false;
		}
		space = sp;
	}
	else
		s = name;
	if (!validate_name(ctx, s))
		return false;
	if (space != NULL && *space == '\0')
		space = NULL;
	*simple = rg_arena_strdup(ctx->arena, s);
	*ns = space;
	if (space)
	{
		size_t		n = strlen(space) + 1 + strlen(s) + 1;
		char	   *f = rg_arena_alloc(ctx->arena, n);

		if (f)
			snprintf(f, n, "%s.%s", space, s);
		*full = f;
	}
	else
		*full = *simple;
	if (*simple == NULL || *full == NULL)
	{
		OOM(ctx);
		return false;
	}
	return true;
}

/* djb2 hash of a full name, as a bucket of the name table. */
static unsigned
name_hash(const char *s)
{
	unsigned	h = 5381;

	while (*s)
		h = h * 33 + (unsigned char) *s++;
	return h % NAME_BUCKETS;
}

/* The named type defined under fullname, or NULL. */
static rg_avro_schema *
names_get(parse_ctx *ctx, const char *fullname)
{
	name_entry *e;

	for (e = ctx->names[name_hash(fullname)]; e; e = e->next)
		if (strcmp(e->fullname, fullname) == 0)
			return e->schema;
	return NULL;
}

/*
 * The type a name refers to, as make_name() then names_get() would find
 * it, but without leaving the names in the arena (a name used, not
 * defined, needs no copy).  NULL with ctx->failed set when the simple
 * name is invalid, NULL alone when not defined.
 */
static rg_avro_schema *
find_named(parse_ctx *ctx, const char *name, const char *space)
{
	const char *dot = strrchr(name, '.');
	const char *s = dot ? dot + 1 : name;
	size_t		space_len = 0;
	char		stackbuf[256];
	char	   *full = stackbuf;
	size_t		n;
	rg_avro_schema *r;

	if (dot)
	{
		space = name;
		space_len = dot - name;
	}
	else if (space != NULL)
		space_len = strlen(space);
	if (!validate_name(ctx, s))
		return NULL;
	if (space_len == 0)
		return names_get(ctx, s);
	n = space_len + 1 + strlen(s) + 1;
	if (n > sizeof(stackbuf))
	{
		full = rg_malloc(n);
		if (full == NULL)
		{
			OOM(ctx);
			return NULL;
		}
	}
	memcpy(full, space, space_len);
	full[space_len] = '.';
	memcpy(full + space_len + 1, s, n - space_len - 1);
	r = names_get(ctx, full);
	if (full != stackbuf)
		rg_free(full);
	return r;
}

/* Names.add: a second definition of a full name is an error. */
static bool
names_add(parse_ctx *ctx, rg_avro_schema *schema)
{
	unsigned	h = name_hash(schema->fullname);
	name_entry *e;

	if (names_get(ctx, schema->fullname))
	{
		FAIL(ctx, "Can't redefine: %s", schema->fullname);
		return false;
	}
	e = rg_arena_alloc(ctx->arena, sizeof(name_entry));
	if (e == NULL)
	{
		OOM(ctx);
		return false;
	}
	e->fullname = schema->fullname;
	e->schema = schema;
	e->next = ctx->names[h];
	ctx->names[h] = e;

	if (ctx->n_defined == ctx->cap_defined)
	{
		int			cap = ctx->cap_defined ? ctx->cap_defined * 2 : 16;
		rg_avro_schema **d = rg_arena_alloc(ctx->arena, sizeof(*d) * cap);

		if (d == NULL)
		{
			OOM(ctx);
			return false;
		}
		if (ctx->n_defined)
			memcpy(d, ctx->defined, sizeof(*d) * ctx->n_defined);
		ctx->defined = d;
		ctx->cap_defined = cap;
	}
	ctx->defined[ctx->n_defined++] = schema;
	return true;
}

/* A new, zeroed schema node of a type, in the arena. */
static rg_avro_schema *
new_schema(parse_ctx *ctx, rg_avro_type type)
{
	rg_avro_schema *s = rg_arena_alloc(ctx->arena, sizeof(rg_avro_schema));

	if (s == NULL)
		OOM(ctx);
	else
		s->type = type;
	return s;
}

/*
 * Keep a copy of a JSON value for the schema's lifetime, near its arena
 * (the document itself is temporary).  The array that holds them is made
 * on first use: most schemas keep none or few.  null, true and false are
 * jansson's static singletons: nothing to keep.
 */
static json_t *
keep(parse_ctx *ctx, json_t *value)
{
	json_t	   *copy;

	if (json_is_null(value) || json_is_boolean(value))
		return value;
	rg_keep_begin(ctx->arena);
	if (ctx->owned == NULL)
		ctx->owned = json_array();
	copy = json_deep_copy(value);
	if (ctx->owned == NULL || copy == NULL || json_array_append_new(ctx->owned, copy) != 0)
		copy = NULL;
	rg_keep_end();
	if (copy == NULL)
		OOM(ctx);
	return copy;
}

/*
 * Names.get(): a primitive name gives the primitive; otherwise the
 * name is looked up in the current namespace, then without namespace.
 * The name itself is validated first, as Avro Java's Name constructor
 * does.  NULL without an error set means "not defined".
 */
static rg_avro_schema *
lookup(parse_ctx *ctx, const char *name)
{
	int			prim = primitive_type(name);

	if (prim >= 0)
		return rg_avro_plain((rg_avro_type) prim);
	return lookup_named(ctx, name);
}

/* lookup() of a name that is not a primitive's */
static rg_avro_schema *
lookup_named(parse_ctx *ctx, const char *name)
{
	rg_avro_schema *s = find_named(ctx, name, ctx->space);

	if (ctx->failed)
		return NULL;
	if (s == NULL && strchr(name, '.') == NULL)
		s = names_get(ctx, name);
	return s;
}

/*
 * Custom properties: every attribute not in the reserved list, in input
 * order.
 */
static bool
collect_props(parse_ctx *ctx, json_t *node, const char *const *reserved,
			  bool enum_default_reserved, rg_avro_prop **props, int *n_props)
{
	const char *key;
	json_t	   *v;
	int			n = 0;
	int			i = 0;

	json_object_foreach(node, key, v)
	{
		if (!in_list(reserved, key) &&
			!(enum_default_reserved && strcmp(key, "default") == 0))
			n++;
	}
	*n_props = 0;
	*props = NULL;
	if (n == 0)
		return true;
	*props = rg_arena_alloc(ctx->arena, sizeof(rg_avro_prop) * n);
	if (*props == NULL)
	{
		OOM(ctx);
		return false;
	}
	json_object_foreach(node, key, v)
	{
		if (in_list(reserved, key) ||
			(enum_default_reserved && strcmp(key, "default") == 0))
			continue;
		(*props)[i].key = rg_arena_strdup(ctx->arena, key);
		(*props)[i].value = keep(ctx, v);
		if ((*props)[i].key == NULL || (*props)[i].value == NULL)
		{
			OOM(ctx);
			return false;
		}
		i++;
	}
	*n_props = n;
	return true;
}

/*
 * parseAliases(): "aliases" must be an array of strings; duplicates are
 * dropped (Avro keeps them in a LinkedHashSet).  Returns the strings as
 * written, copied into the arena when copy (else borrowed from node).
 */
static bool
parse_alias_list(parse_ctx *ctx, json_t *node, bool copy,
				 const char ***out, int *n_out)
{
	json_t	   *a = json_object_get(node, "aliases");
	size_t		i;
	int			n = 0;
	const char **list;

	*out = NULL;
	*n_out = 0;
	if (a == NULL)
		return true;
	if (!json_is_array(a))
	{
		FAIL(ctx, "aliases not an array: %s", node_text(ctx, node));
		return false;
	}
	list = rg_arena_alloc(ctx->arena, sizeof(char *) * (json_array_size(a) + 1));
	if (list == NULL)
	{
		OOM(ctx);
		return false;
	}
	for (i = 0; i < json_array_size(a); i++)
	{
		json_t	   *e = json_array_get(a, i);
		int			j;
		bool		dup = false;

		if (!json_is_string(e))
		{
			FAIL(ctx, "alias not a string: %s", node_text(ctx, e));
			return false;
		}
		if (text_of(ctx, e) == NULL)
			return false;
		for (j = 0; j < n; j++)
			if (strcmp(list[j], json_string_value(e)) == 0)
				dup = true;
		if (!dup)
		{
			list[n] = copy ? dup_text(ctx, e) : json_string_value(e);
			if (list[n] == NULL)
				return false;
			n++;
		}
	}
	*out = list;
	*n_out = n;
	return true;
}

/* A named type's aliases, qualified with the type's own namespace. */
static bool
parse_type_aliases(parse_ctx *ctx, json_t *node, rg_avro_schema *s)
{
	const char **raw;
	int			n;
	int			i;

	if (!parse_alias_list(ctx, node, false, &raw, &n))
		return false;
	if (n == 0)
		return true;
	s->aliases = rg_arena_alloc(ctx->arena, sizeof(char *) * n);
	if (s->aliases == NULL)
	{
		OOM(ctx);
		return false;
	}
	for (i = 0; i < n; i++)
	{
		const char *simple;
		const char *ns;
		const char *full;
		int			j;
		bool		dup = false;

		if (!make_name(ctx, raw[i], s->space, &simple, &ns, &full))
			return false;
		for (j = 0; j < s->n_aliases; j++)
			if (strcmp(s->aliases[j], full) == 0)
				dup = true;
		if (!dup)
			s->aliases[s->n_aliases++] = full;
	}
	return true;
}

/*
 * The set of names a record's fields, an enum's symbols or a union's
 * branches have used so far (rg_name_set), for up to n names; false (out
 * of memory reported) on OOM.
 */
static bool
seen_init(parse_ctx *ctx, rg_name_set *set, size_t n)
{
	if (rg_name_set_init(set, n))
		return true;
	OOM(ctx);
	return false;
}

/* A field's name (checked later, as Avro does) and doc (into x). */
static bool
parse_field_name(parse_ctx *ctx, json_t *fnode, rg_avro_field *f,
				 rg_avro_field_extra *x)
{
	json_t	   *name_node = json_is_object(fnode) ? json_object_get(fnode, "name") : NULL;

	if (!json_is_string(name_node))
	{
		FAIL(ctx, "No field name: %s", node_text(ctx, fnode));
		return false;
	}
	f->name = dup_text(ctx, name_node);
	if (f->name == NULL)
		return false;
	x->doc = opt_dup(ctx, fnode, "doc");
	return !ctx->failed;
}

/* A field's type: a name must be defined already, anything else parses. */
static bool
parse_field_type(parse_ctx *ctx, json_t *fnode, rg_avro_field *f)
{
	json_t	   *type_node = json_object_get(fnode, "type");

	if (type_node == NULL)
	{
		FAIL(ctx, "No field type: %s", node_text(ctx, fnode));
		return false;
	}
	if (json_is_string(type_node))
	{
		const char *tn = text_of(ctx, type_node);
		bool		defined;

		/* a primitive name is always defined: no node made twice */
		if (tn == NULL)
			defined = false;
		else if (primitive_type(tn) >= 0)
			defined = true;
		else
			defined = lookup_named(ctx, tn) != NULL;
		if (ctx->failed)
			return false;
		if (!defined)
		{
			FAIL(ctx, "%s is not a defined name. The type of the \"%s\" field must be a defined name or a {\"type\": ...} expression.",
				 node_text(ctx, type_node), f->name);
			return false;
		}
	}
	f->type = parse_node(ctx, type_node);
	return f->type != NULL;
}

/* A field's sort order (into x): ascending unless it says otherwise. */
static bool
parse_field_order(parse_ctx *ctx, json_t *fnode, const rg_avro_field *f,
				  rg_avro_field_extra *x)
{
	json_t	   *order_node = json_object_get(fnode, "order");
	const char *o;

	x->order = RG_AVRO_ORDER_ASCENDING;
	if (order_node == NULL)
		return true;
	o = json_is_string(order_node) ? json_string_value(order_node) : "";
	if (strcasecmp(o, "ascending") == 0)
		x->order = RG_AVRO_ORDER_ASCENDING;
	else if (strcasecmp(o, "descending") == 0)
		x->order = RG_AVRO_ORDER_DESCENDING;
	else if (strcasecmp(o, "ignore") == 0)
		x->order = RG_AVRO_ORDER_IGNORE;
	else
	{
		FAIL(ctx, "Invalid order for field %s: %s", f->name,
			 node_text(ctx, order_node));
		return false;
	}
	return true;
}

/*
 * A float or double field's default written as a string Java's
 * Double.parseDouble reads: *def becomes the number (kept) unless the
 * text is NaN or an infinity, which stays the string.  *converted tells
 * whether the text was a number at all (then it is not validated).
 */
static bool
convert_float_default(parse_ctx *ctx, const rg_avro_field *f, json_t **def,
					  bool *converted, bool *kept)
{
	double		d;
	bool		special;
	json_t	   *r;

	*converted = false;
	*kept = false;
	if (!json_is_string(*def) ||
		(f->type->type != RG_AVRO_FLOAT && f->type->type != RG_AVRO_DOUBLE))
		return true;
	if (text_of(ctx, *def) == NULL)
		return false;
	if (!rg_avro_java_double(json_string_value(*def), &d, &special))
		return true;
	*converted = true;
	if (special)
		return true;
	r = json_real(d);
	*def = r != NULL ? keep(ctx, r) : NULL;
	json_decref(r);
	if (*def == NULL)
	{
		OOM(ctx);
		return false;
	}
	*kept = true;
	return true;
}

/* Is def a valid default for the field's type?  Fails with Avro's words. */
static bool
check_default(parse_ctx *ctx, const rg_avro_field *f, json_t *def)
{
	int			r = rg_avro_default_valid(f->type, def, 0);

	if (r == -2)
	{
		FAIL(ctx, "Invalid default for field %s: nested deeper than %d levels",
			 f->name, RG_MAX_RECURSION);
		return false;
	}
	if (r < 0)
	{
		FAIL(ctx, "Schema fields not set yet");
		return false;
	}
	if (r == 0)
	{
		FAIL(ctx, "Invalid default for field %s: %s not a %s", f->name,
			 node_text(ctx, def), schema_text(ctx, f->type));
		return false;
	}
	return true;
}

/* A field's default, if any: converted, validated, kept with the schema. */
static bool
parse_field_default(parse_ctx *ctx, json_t *fnode, rg_avro_field *f)
{
	json_t	   *def = json_object_get(fnode, "default");
	bool		converted;
	bool		kept;

	if (def == NULL)
		return true;
	if (!convert_float_default(ctx, f, &def, &converted, &kept))
		return false;
	if (!converted && !check_default(ctx, f, def))
		return false;
	if (!kept && (def = keep(ctx, def)) == NULL)
		return false;
	f->default_value = def;
	return true;
}

/*
 * A field's doc and order (x, so far), properties and aliases behind
 * f->extra: the shared empty one when it has none, as most fields.
 */
static bool
set_field_extra(parse_ctx *ctx, json_t *fnode, rg_avro_field *f,
				rg_avro_field_extra *x)
{
	if (!collect_props(ctx, fnode, field_reserved, false, &x->props, &x->n_props) ||
		!parse_alias_list(ctx, fnode, true, &x->aliases, &x->n_aliases))
		return false;
	if (x->doc == NULL && x->n_props == 0 && x->n_aliases == 0 &&
		x->order == RG_AVRO_ORDER_ASCENDING)
	{
		f->extra = &rg_avro_no_extra;
		return true;
	}
	f->extra = rg_arena_alloc(ctx->arena, sizeof(rg_avro_field_extra));
	if (f->extra == NULL)
	{
		OOM(ctx);
		return false;
	}
	*f->extra = *x;
	return true;
}

/* One record field; see Schema.parse. */
static bool
parse_field(parse_ctx *ctx, json_t *fnode, rg_avro_field *f)
{
	rg_avro_field_extra x = {0};

	return parse_field_name(ctx, fnode, f, &x) &&
		parse_field_type(ctx, fnode, f) &&
		parse_field_order(ctx, fnode, f, &x) &&
		validate_name(ctx, f->name) &&
		parse_field_default(ctx, fnode, f) &&
		set_field_extra(ctx, fnode, f, &x);
}

/*
 * node[key], which must be an array (else "<what> has no <key>"): its
 * size in *n and room for as many items of elem_size in the arena.
 */
static json_t *
array_member(parse_ctx *ctx, json_t *node, const char *what, const char *key,
			 size_t elem_size, void **items, size_t *n)
{
	json_t	   *a = json_object_get(node, key);

	if (!json_is_array(a))
	{
		FAIL(ctx, "%s has no %s: %s", what, key, node_text(ctx, node));
		return NULL;
	}
	*n = json_array_size(a);
	*items = rg_arena_alloc(ctx->arena, elem_size * (*n ? *n : 1));
	if (*items == NULL)
	{
		OOM(ctx);
		return NULL;
	}
	return a;
}

/* A record's fields, whose names must be unique. */
static bool
parse_record(parse_ctx *ctx, rg_avro_schema *s, json_t *node)
{
	void	   *items = NULL;
	size_t		n;
	size_t		i;
	json_t	   *fields = array_member(ctx, node, "Record", "fields",
									  sizeof(rg_avro_field), &items, &n);
	rg_avro_field *fs = items;
	rg_name_set seen;

	if (fields == NULL)
		return false;
	for (i = 0; i < n; i++)
		if (!parse_field(ctx, json_array_get(fields, i), &fs[i]))
			return false;
	/* setFields(): field names are unique within a record */
	if (!seen_init(ctx, &seen, n))
		return false;
	for (i = 0; i < n; i++)
		if (!rg_name_set_add(&seen, fs[i].name))
		{
			FAIL(ctx, "Duplicate field %s in record %s", fs[i].name, s->fullname);
			rg_name_set_free(&seen);
			return false;
		}
	rg_name_set_free(&seen);
	s->fields = fs;
	s->n_fields = (int) n;
	return true;
}

/* An enum's symbols (valid, unique names) and its default, if any. */
static bool
parse_enum(parse_ctx *ctx, rg_avro_schema *s, json_t *node)
{
	void	   *items = NULL;
	size_t		n;
	size_t		i;
	json_t	   *syms = array_member(ctx, node, "Enum", "symbols", sizeof(char *),
									&items, &n);
	json_t	   *def;
	rg_name_set seen;

	if (syms == NULL || !seen_init(ctx, &seen, n))
		return false;
	s->symbols = items;
	for (i = 0; i < n; i++)
	{
		json_t	   *e = json_array_get(syms, i);
		const char *sym = json_is_string(e) ? dup_text(ctx, e) : NULL;

		if (ctx->failed || !validate_name(ctx, sym))
			break;
		if (!rg_name_set_add(&seen, sym))
		{
			FAIL(ctx, "Duplicate enum symbol: %s", sym);
			break;
		}
		s->symbols[i] = sym;
	}
	rg_name_set_free(&seen);
	if (i < n)
		return false;
	s->n_symbols = (int) n;

	def = json_object_get(node, "default");
	if (json_is_string(def))
	{
		const char *d = text_of(ctx, def);

		if (d == NULL)
			return false;
		for (i = 0; i < n; i++)
			if (strcmp(s->symbols[i], d) == 0)
				break;
		if (i == n)
		{
			rg_buf		b;

			/* Java prints the symbol list as List.toString() */
			rg_buf_init(&b);
			rg_buf_putc(&b, '[');
			for (i = 0; i < n; i++)
				rg_buf_printf(&b, "%s%s", i ? ", " : "", s->symbols[i]);
			rg_buf_putc(&b, ']');
			FAIL(ctx, "The Enum Default: %s is not in the enum symbol set: %s",
				 d, b.data ? b.data : "[]");
			rg_buf_free(&b);
			return false;
		}
		s->enum_default = s->symbols[i];	/* the same text, in the arena */
	}
	return true;
}

/* A fixed type's size: an int, not negative. */
static bool
parse_fixed(parse_ctx *ctx, rg_avro_schema *s, json_t *node)
{
	json_t	   *size = json_object_get(node, "size");

	if (!json_is_integer(size) ||
		json_integer_value(size) < INT32_MIN || json_integer_value(size) > INT32_MAX)
	{
		FAIL(ctx, "Invalid or no size: %s", node_text(ctx, node));
		return false;
	}
	if (json_integer_value(size) < 0)
	{
		FAIL(ctx, "Invalid fixed size: %d", (int) json_integer_value(size));
		return false;
	}
	s->size = (int) json_integer_value(size);
	return true;
}

/*
 * A schema written as a JSON object: a primitive with attributes, a named
 * type, an array or a map, or {"type":"<name of a defined type>"}.
 */
static rg_avro_schema *
parse_object(parse_ctx *ctx, json_t *node)
{
	json_t	   *type_node = json_object_get(node, "type");
	const char *type;
	const char *saved_space = ctx->space;
	rg_avro_schema *s = NULL;
	int			prim;
	bool		named;
	bool		is_enum;

	if (!json_is_string(type_node))
	{
		FAIL(ctx, "No type: %s", node_text(ctx, node));
		return NULL;
	}
	type = text_of(ctx, type_node);
	if (type == NULL)
		return NULL;
	is_enum = strcmp(type, "enum") == 0;
	named = strcmp(type, "record") == 0 || strcmp(type, "error") == 0 ||
		is_enum || strcmp(type, "fixed") == 0;
	prim = primitive_type(type);

	if (named)
	{
		const char *space = opt_text(ctx, node, "namespace");
		json_t	   *name_node = json_object_get(node, "name");
		rg_avro_type t = strcmp(type, "fixed") == 0 ? RG_AVRO_FIXED :
		is_enum ? RG_AVRO_ENUM : RG_AVRO_RECORD;

		if (space == NULL)
			space = ctx->space;
		if (!json_is_string(name_node))
		{
			FAIL(ctx, "No name in schema: %s", node_text(ctx, node));
			return NULL;
		}
		s = new_schema(ctx, t);
		if (s == NULL)
			return NULL;
		if (ctx->failed || text_of(ctx, name_node) == NULL ||
			!make_name(ctx, json_string_value(name_node), space,
					   &s->name, &s->space, &s->fullname))
			return NULL;
		/* a namespace of its own, borrowed from node so far */
		if (s->space != NULL && s->space == space && space != ctx->space)
		{
			s->space = rg_arena_strdup(ctx->arena, space);
			if (s->space == NULL)
			{
				OOM(ctx);
				return NULL;
			}
		}
		s->doc = opt_dup(ctx, node, "doc");
		if (ctx->failed)
			return NULL;
		s->is_error = strcmp(type, "error") == 0;
		s->is_reference = ctx->in_reference;
		ctx->space = s->space;

		if (t == RG_AVRO_RECORD)
		{
			/* registered first, so fields may refer to the record itself */
			if (!names_add(ctx, s) || !parse_record(ctx, s, node))
				return NULL;
		}
		else if (t == RG_AVRO_ENUM)
		{
			if (!parse_enum(ctx, s, node) || !names_add(ctx, s))
				return NULL;
		}
		else
		{
			if (!parse_fixed(ctx, s, node) || !names_add(ctx, s))
				return NULL;
		}
	}
	else if (prim >= 0)
		s = new_schema(ctx, (rg_avro_type) prim);
	else if (strcmp(type, "array") == 0 || strcmp(type, "map") == 0)
	{
		bool		array = type[0] == 'a';
		json_t	   *inner = json_object_get(node, array ? "items" : "values");

		if (inner == NULL)
		{
			FAIL(ctx, array ? "Array has no items type: %s" : "Map has no values type: %s",
				 node_text(ctx, node));
			return NULL;
		}
		s = new_schema(ctx, array ? RG_AVRO_ARRAY : RG_AVRO_MAP);
		if (s == NULL)
			return NULL;
		s->items = parse_node(ctx, inner);
		if (s->items == NULL)
			return NULL;
	}
	else
	{
		/* {"type":"Name"}: the defined type itself, attributes ignored */
		rg_avro_schema *ref = find_named(ctx, type, ctx->space);

		if (ctx->failed)
			return NULL;
		if (ref == NULL)
			FAIL(ctx, "Type not supported: %s", type);
		return ref;
	}
	if (s == NULL)
		return NULL;

	if (!collect_props(ctx, node, schema_reserved, is_enum, &s->props, &s->n_props))
		return NULL;
	ctx->space = saved_space;
	if (named && !parse_type_aliases(ctx, node, s))
		return NULL;
	return s;
}

/*
 * A union's branches are valid: no union directly inside, no two of the
 * same name.  u is the union (for the message).
 */
static bool
check_union(parse_ctx *ctx, const rg_avro_schema *u)
{
	rg_name_set seen;
	int			i;

	if (!seen_init(ctx, &seen, u->n_branches))
		return false;
	for (i = 0; i < u->n_branches; i++)
	{
		rg_avro_schema *b = u->branches[i];
		const char *bn = b->fullname ? b->fullname : rg_avro_type_name(b->type);

		if (b->type == RG_AVRO_UNION)
		{
			FAIL(ctx, "Nested union: %s", schema_text(ctx, u));
			break;
		}
		if (!rg_name_set_add(&seen, bn))
		{
			FAIL(ctx, "Duplicate in union:%s", bn);
			break;
		}
	}
	rg_name_set_free(&seen);
	return i == u->n_branches;
}

/*
 * A union, parsed branch by branch, then checked; two plain primitives
 * make a shared node (rg_avro_plain_pair), others a node of their own.
 */
static rg_avro_schema *
parse_union(parse_ctx *ctx, json_t *node)
{
	rg_avro_schema *pair[2];
	rg_avro_schema u = {.type = RG_AVRO_UNION};
	rg_avro_schema *s;
	size_t		n = json_array_size(node);
	size_t		i;

	u.branches = n == 2 ? pair :
		rg_arena_alloc(ctx->arena, sizeof(rg_avro_schema *) * (n ? n : 1));
	if (u.branches == NULL)
	{
		OOM(ctx);
		return NULL;
	}
	for (i = 0; i < n; i++)
	{
		u.branches[i] = parse_node(ctx, json_array_get(node, i));
		if (u.branches[i] == NULL)
			return NULL;
	}
	u.n_branches = (int) n;
	if (!check_union(ctx, &u))
		return NULL;
	if (n == 2 && (s = rg_avro_plain_pair(pair[0], pair[1])) != NULL)
		return s;
	if (n == 2)
	{
		u.branches = rg_arena_alloc(ctx->arena, sizeof(pair));
		if (u.branches == NULL)
		{
			OOM(ctx);
			return NULL;
		}
		memcpy(u.branches, pair, sizeof(pair));
	}
	s = new_schema(ctx, RG_AVRO_UNION);
	if (s != NULL)
		*s = u;
	return s;
}

/* Schema.parse(JsonNode, Names): dispatch on the JSON node's kind. */
static rg_avro_schema *
parse_node(parse_ctx *ctx, json_t *node)
{
	rg_avro_schema *s;

	if (ctx->failed)
		return NULL;
	rg_check_interrupts();
	if (++ctx->depth > RG_AVRO_MAX_DEPTH)
	{
		FAIL(ctx, "Schema nesting is deeper than %d levels", RG_AVRO_MAX_DEPTH);
		return NULL;
	}
	if (rg_too_deep(ctx->depth))
	{
		FAIL(ctx, "Schema nesting is too deep for the stack");
		return NULL;
	}
	if (json_is_string(node))
	{
		const char *name = text_of(ctx, node);

		s = name ? lookup(ctx, name) : NULL;
		if (s == NULL && !ctx->failed)
			FAIL(ctx, "Undefined name: %s", node_text(ctx, node));
	}
	else if (json_is_object(node))
		s = parse_object(ctx, node);
	else if (json_is_array(node))
		s = parse_union(ctx, node);
	else
	{
		FAIL(ctx, "Schema not yet supported: %s", node_text(ctx, node));
		s = NULL;
	}
	ctx->depth--;
	return ctx->failed ? NULL : s;
}

/*
 * The first JSON value of text (Jackson's readTree ignores what follows),
 * any kind of value at the top level.
 */
static json_t *
load_json(parse_ctx *ctx, const char *text, size_t len, const char *what)
{
	char	   *copy;
	json_t	   *doc;
	json_error_t jerr;
	size_t		at;

	if (text == NULL)
	{
		FAIL(ctx, "%sNo schema text", what);
		return NULL;
	}
	copy = rg_json_strip_comments(text, len);
	if (copy == NULL)
	{
		OOM(ctx);
		return NULL;
	}
	if (!rg_json_nesting_ok(copy, len, RG_JSON_MAX_NESTING, &at))
	{
		int			line = 1;
		size_t		bol = 0;
		size_t		i;

		for (i = 0; i < at; i++)
			if (copy[i] == '\n')
			{
				line++;
				bol = i + 1;
			}
		rg_free(copy);
		FAIL(ctx, "%sInvalid JSON: nesting deeper than %d levels at line %d, column %d (position %d)",
			 what, RG_JSON_MAX_NESTING, line, (int) (at - bol + 1), (int) (at + 1));
		return NULL;
	}
	doc = json_loadb(copy, len, JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL, &jerr);
	rg_free(copy);
	if (doc == NULL)
		FAIL(ctx, "%sInvalid JSON: %s at line %d, column %d (position %d)",
			 what, jerr.text, jerr.line, jerr.column, jerr.position);
	return doc;
}

/* See rg_avro.h */
void
rg_avro_model_release(void *model)
{
	rg_avro_model *m = model;

	if (m && m->owned)
	{
		json_decref(m->owned);
		m->owned = NULL;
	}
}

/* The stored form of root, in the arena (Schema.toString()); false on failure. */
static bool
set_stored_form(parse_ctx *ctx, rg_schema *schema, const rg_avro_schema *root)
{
	rg_buf		buf;
	bool		too_deep;

	rg_buf_init(&buf);
	rg_avro_write(&buf, root, true);
	too_deep = buf.too_deep;
	if (rg_schema_keep_text(schema, ctx->arena, &buf))
		return true;
	if (too_deep)
		FAIL(ctx, "Schema nesting is too deep for the stack");
	else
		OOM(ctx);
	return false;
}

/*
 * The parse into a new arena (destroyed on failure): references first
 * (their named types join the same name table and are marked
 * is_reference), then the main text; then (after Confluent's normalize
 * when asked) the stored form, unless with_text is false.
 */
static rg_schema *
parse_model(rg_arena *arena, const char *text, size_t len, const rg_reference *refs,
			int n_refs, bool normalize, bool with_text, rg_error *err)
{
	parse_ctx	ctx;
	rg_schema  *schema;
	rg_avro_model *model;
	json_t	   *doc;
	int			i;
	bool		too_deep = false;

	memset(&ctx, 0, sizeof(ctx));
	ctx.err = err;
	ctx.arena = arena;
	schema = rg_arena_alloc(arena, sizeof(rg_schema));
	model = rg_arena_alloc(arena, sizeof(rg_avro_model));
	if (schema == NULL || model == NULL)
	{
		OOM(&ctx);
		goto fail;
	}
	schema->format = &rg_format_avro;
	schema->arena = arena;
	schema->model = model;

	ctx.in_reference = true;
	for (i = 0; i < n_refs; i++)
	{
		char		what[300];

		snprintf(what, sizeof(what), "Reference %s: ",
				 refs[i].name ? refs[i].name : "(unnamed)");
		doc = load_json(&ctx, refs[i].schema, refs[i].schema_len, what);
		if (doc == NULL)
			goto fail;
		ctx.space = NULL;

		/*
		 * The model copies its strings and holds references to just the JSON
		 * values it keeps (defaults, properties): the document goes.
		 */
		parse_node(&ctx, doc);
		json_decref(doc);
		if (ctx.failed)
		{
			/* say which reference failed */
			if (err && err->code == RG_ERR_INVALID_SCHEMA &&
				strncmp(err->message, "Reference ", 10) != 0)
			{
				char		msg[RG_ERROR_MAX];
				size_t		wl = strlen(what);

				memcpy(msg, err->message, sizeof(msg));
				memcpy(err->message, what, wl);
				snprintf(err->message + wl, sizeof(err->message) - wl, "%.*s",
						 (int) (sizeof(msg) - wl - 1), msg);
			}
			goto fail;
		}
	}
	model->pub.ref_types = ctx.defined;
	model->pub.n_ref_types = ctx.n_defined;

	ctx.in_reference = false;
	ctx.space = NULL;
	doc = load_json(&ctx, text, len, "");
	if (doc == NULL)
		goto fail;
	model->pub.root = parse_node(&ctx, doc);
	json_decref(doc);
	if (model->pub.root == NULL)
		goto fail;

	if (normalize && ctx.owned == NULL)
	{
		rg_keep_begin(arena);
		ctx.owned = json_array();
		rg_keep_end();
	}
	if (normalize &&
		(ctx.owned == NULL ||
		 !rg_avro_normalize(arena, model->pub.root, ctx.owned, &too_deep)))
	{
		if (ctx.owned != NULL && too_deep)
			FAIL(&ctx, "Schema nesting is too deep for the stack");
		else
			OOM(&ctx);
		goto fail;
	}

	if (with_text && !set_stored_form(&ctx, schema, model->pub.root))
		goto fail;
	if (ctx.owned != NULL && json_array_size(ctx.owned) == 0)
	{
		json_decref(ctx.owned);
		ctx.owned = NULL;
	}
	model->owned = ctx.owned;
	return schema;

fail:
	if (!ctx.failed)
		OOM(&ctx);
	json_decref(ctx.owned);
	rg_arena_destroy(arena);
	return NULL;
}

/* parse_model with the stored form, as a parse body */
static rg_schema *
parse_into(rg_arena *arena, const char *text, size_t len, const rg_reference *refs,
		   int n_refs, bool normalize, rg_error *err)
{
	return parse_model(arena, text, len, refs, n_refs, normalize, true, err);
}

/* parse_model without the stored form (nor normalize), as a parse body */
static rg_schema *
parse_into_textless(rg_arena *arena, const char *text, size_t len,
					const rg_reference *refs, int n_refs, bool normalize,
					rg_error *err)
{
	return parse_model(arena, text, len, refs, n_refs, false, false, err);
}

/*
 * rg_format_avro's parse: the schema's arena in the current place, the
 * work (JSON documents, the writer's buffers) in scratch.
 */
rg_schema *
rg_avro_parse(const char *text, size_t len, const rg_reference *refs,
			  int n_refs, bool normalize, rg_error *err)
{
	return rg_parse_in_scratch(parse_into, text, len, refs, n_refs, normalize, err);
}

/* rg_format_avro's parse_textless: the same, without the stored form */
rg_schema *
rg_avro_parse_textless(const char *text, size_t len, const rg_reference *refs,
					   int n_refs, rg_error *err)
{
	return rg_parse_in_scratch(parse_into_textless, text, len, refs, n_refs,
							   false, err);
}
