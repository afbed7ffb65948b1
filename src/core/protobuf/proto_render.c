/*-------------------------------------------------------------------------
 *
 * proto_render.c
 *	  The stored form of a PROTOBUF schema: deterministic .proto text.
 *
 * Rendered from the parse of the main file (type names as written,
 * options as written, since the parser leaves them uninterpreted) so that
 * the same schema in another layout (whitespace, comments, where a oneof
 * sits among the fields, the order of field options) gives the same text,
 * and the text re-parses to itself.  With normalize, Confluent's
 * normalize=true facts apply on top: type names fully qualified (taken
 * from the linked file, walked in parallel: both have the same
 * declarations in the same order), imports and options sorted, fields by
 * number, oneofs by first number, enum constants by (number, name),
 * reserved ranges sorted.  Message order is kept either way: message
 * indexes on the wire depend on it.
 *
 * The look follows the one Confluent stores (Wire's printer): two-space
 * indent, sections of a body separated by a blank line, maps as
 * map<K, V>, synthetic map-entry messages hidden.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef Google__Protobuf__FileDescriptorProto FileProto;
typedef Google__Protobuf__DescriptorProto MsgProto;
typedef Google__Protobuf__FieldDescriptorProto FieldProto;
typedef Google__Protobuf__EnumDescriptorProto EnumProto;
typedef Google__Protobuf__EnumValueDescriptorProto EnumValueProto;
typedef Google__Protobuf__UninterpretedOption UOption;

#define PROTO_MAX_FIELD_END 536870912	/* kMaxNumber + 1: "to max" */

typedef struct render_ctx
{
	rg_buf		out;
	bool		normalize;
	bool		proto3;
	bool		too_deep;		/* rg_too_deep stopped the walk */
} render_ctx;

/* a list of strings on rg_malloc, for sorting rendered pieces */
typedef struct strvec
{
	char	  **items;
	size_t		n;
	size_t		cap;
	bool		oom;
} strvec;

/* Append s (taken over; freed on failure, oom set). */
static void
strvec_push(strvec *v, char *s)
{
	if (s == NULL)
	{
		v->oom = true;
		return;
	}
	if (v->n == v->cap)
	{
		size_t		cap = v->cap ? v->cap * 2 : 8;
		char	  **items = rg_realloc(v->items, cap * sizeof(char *));

		if (items == NULL)
		{
			rg_free(s);
			v->oom = true;
			return;
		}
		v->items = items;
		v->cap = cap;
	}
	v->items[v->n++] = s;
}

/* Free a list and its strings. */
static void
strvec_free(strvec *v)
{
	size_t		i;

	for (i = 0; i < v->n; i++)
		rg_free(v->items[i]);
	rg_free(v->items);
}

/* qsort order of strings: strcmp. */
static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* rg_buf's contents as a string from rg_malloc (NULL on out of memory) */
static char *
buf_take(rg_buf *b)
{
	char	   *s;

	if (b->oom)
	{
		rg_buf_free(b);
		return NULL;
	}
	s = rg_malloc(b->len + 1);
	if (s != NULL)
	{
		if (b->len)
			memcpy(s, b->data, b->len);
		s[b->len] = '\0';
	}
	rg_buf_free(b);
	return s;
}

/* Two spaces per level. */
static void
indent(render_ctx *ctx, int depth)
{
	int			i;

	for (i = 0; i < depth; i++)
		rg_buf_puts(&ctx->out, "  ");
}

/* See proto_internal.h */
void
rg_proto_put_quoted(rg_buf *b, const unsigned char *s, size_t n)
{
	size_t		i;

	rg_buf_putc(b, '"');
	for (i = 0; i < n; i++)
	{
		unsigned char c = s[i];

		switch (c)
		{
			case '"':
				rg_buf_puts(b, "\\\"");
				break;
			case '\\':
				rg_buf_puts(b, "\\\\");
				break;
			case '\n':
				rg_buf_puts(b, "\\n");
				break;
			case '\r':
				rg_buf_puts(b, "\\r");
				break;
			case '\t':
				rg_buf_puts(b, "\\t");
				break;
			default:
				if (c < 0x20 || c == 0x7f)
					rg_buf_printf(b, "\\%03o", c);
				else
					rg_buf_putc(b, (char) c);
		}
	}
	rg_buf_putc(b, '"');
}

/* The shortest %g that reads back as the same double, always a float token */
static void
put_double(rg_buf *b, double d)
{
	char		tmp[64];
	int			prec;

	if (d != d)
	{
		rg_buf_puts(b, "nan");
		return;
	}
	if (d > DBL_MAX || d < -DBL_MAX)
	{
		rg_buf_puts(b, d > 0 ? "inf" : "-inf");
		return;
	}
	for (prec = 15; prec <= 17; prec++)
	{
		snprintf(tmp, sizeof(tmp), "%.*g", prec, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	rg_buf_puts(b, tmp);
	if (strpbrk(tmp, ".eEn") == NULL)
		rg_buf_puts(b, ".0");
}

/*
 * The parser keeps an aggregate option value as its tokens joined by
 * spaces; drop the space before ':' ',' ';' and inside brackets (outside
 * string literals) so the common case reads naturally.  Idempotent: the
 * re-parse yields the same tokens.
 */
static void
put_aggregate(rg_buf *b, const char *v)
{
	const char *p;
	char		quote = 0;

	rg_buf_puts(b, "{ ");
	for (p = v; *p; p++)
	{
		if (quote)
		{
			rg_buf_putc(b, *p);
			if (*p == '\\' && p[1])
				rg_buf_putc(b, *++p);
			else if (*p == quote)
				quote = 0;
			continue;
		}
		if (*p == '"' || *p == '\'')
			quote = *p;
		if (*p == ' ' && (p[1] == ':' || p[1] == ',' || p[1] == ';'))
			continue;
		rg_buf_putc(b, *p);
	}
	rg_buf_puts(b, " }");
}

/* See proto_internal.h */
void
rg_proto_put_option_value(rg_buf *b, const UOption *o)
{
	if (o->identifier_value)
		rg_buf_puts(b, o->identifier_value);
	else if (o->has_positive_int_value)
		rg_buf_printf(b, "%llu", (unsigned long long) o->positive_int_value);
	else if (o->has_negative_int_value)
		rg_buf_printf(b, "%lld", (long long) o->negative_int_value);
	else if (o->has_double_value)
		put_double(b, o->double_value);
	else if (o->has_string_value)
		rg_proto_put_quoted(b, o->string_value.data, o->string_value.len);
	else if (o->aggregate_value)
		put_aggregate(b, o->aggregate_value);
	else
		rg_buf_puts(b, "{ }");
}

/* "name = value" of one option as written */
static char *
option_text(const UOption *o)
{
	rg_buf		b;
	size_t		i;

	rg_buf_init(&b);
	for (i = 0; i < o->n_name; i++)
	{
		const char *part = o->name[i]->name_part ? o->name[i]->name_part : "";

		if (i > 0)
			rg_buf_putc(&b, '.');
		if (o->name[i]->is_extension)
			rg_buf_printf(&b, "(%s)", part);
		else
			rg_buf_puts(&b, part);
	}
	rg_buf_puts(&b, " = ");
	rg_proto_put_option_value(&b, o);
	return buf_take(&b);
}

/*
 * The options of a declaration as "name = value" strings, in declared
 * order or sorted when normalizing; extra (already rendered, e.g. a
 * field's default) come first.
 */
static void
collect_options(render_ctx *ctx, UOption *const *opts, size_t n, strvec *v)
{
	size_t		i;

	for (i = 0; i < n; i++)
		strvec_push(v, option_text(opts[i]));
	if (ctx->normalize && v->n > 1)
		qsort(v->items, v->n, sizeof(char *), cmp_str);
	if (v->oom)
		ctx->out.oom = true;
}

/* "option x = y;" lines */
static bool
put_option_lines(render_ctx *ctx, UOption *const *opts, size_t n, int depth)
{
	strvec		v = {0};
	size_t		i;

	collect_options(ctx, opts, n, &v);
	for (i = 0; i < v.n; i++)
	{
		indent(ctx, depth);
		rg_buf_printf(&ctx->out, "option %s;\n", v.items[i]);
	}
	strvec_free(&v);
	return n > 0;
}

/* " [a = b, c = d]" after a field, an enum value or an extension range */
static void
put_bracket_options(render_ctx *ctx, strvec *v)
{
	size_t		i;

	if (v->n == 0)
		return;
	rg_buf_puts(&ctx->out, " [");
	for (i = 0; i < v->n; i++)
	{
		if (i > 0)
			rg_buf_puts(&ctx->out, ", ");
		rg_buf_puts(&ctx->out, v->items[i]);
	}
	rg_buf_putc(&ctx->out, ']');
}

/* The .proto name of a scalar type (see proto_internal.h). */
const char *
rg_proto_scalar_name(Google__Protobuf__FieldDescriptorProto__Type t)
{
	switch (t)
	{
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_DOUBLE:
			return "double";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_FLOAT:
			return "float";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_INT64:
			return "int64";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_UINT64:
			return "uint64";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_INT32:
			return "int32";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_FIXED64:
			return "fixed64";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_FIXED32:
			return "fixed32";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_BOOL:
			return "bool";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_STRING:
			return "string";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_BYTES:
			return "bytes";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_UINT32:
			return "uint32";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_SFIXED32:
			return "sfixed32";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_SFIXED64:
			return "sfixed64";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_SINT32:
			return "sint32";
		case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_SINT64:
			return "sint64";
		default:
			return NULL;
	}
}

/*
 * The type of a field as text: a scalar keyword, or the type name as
 * written (linked, fully qualified, when normalizing).
 */
static const char *
type_text(render_ctx *ctx, const FieldProto *raw, const FieldProto *linked)
{
	const char *s = NULL;

	if (raw->has_type)
		s = rg_proto_scalar_name(raw->type);
	if (s != NULL)
		return s;
	if (ctx->normalize && linked != NULL && linked->type_name)
		return linked->type_name;
	return raw->type_name ? raw->type_name : "";
}

/* The last component of a dotted name */
static const char *
last_component(const char *name)
{
	const char *dot = name ? strrchr(name, '.') : NULL;

	return dot ? dot + 1 : (name ? name : "");
}

/* Is a message a map's synthetic entry type? */
static bool
is_map_entry(const MsgProto *m)
{
	return m->options != NULL && m->options->has_map_entry &&
		m->options->map_entry;
}

/* The nested message a field's type names (map entry or group body) */
static int
find_nested(const MsgProto *parent, const char *type_name)
{
	const char *want = last_component(type_name);
	size_t		i;

	if (parent == NULL)
		return -1;
	for (i = 0; i < parent->n_nested_type; i++)
		if (parent->nested_type[i]->name &&
			strcmp(parent->nested_type[i]->name, want) == 0)
			return (int) i;
	return -1;
}

/* Is a field a proto2 group? */
static bool
is_group(const FieldProto *f)
{
	return f->has_type &&
		f->type == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_GROUP;
}

/* See proto_internal.h */
bool
rg_proto_is_declared_message(const MsgProto *parent, const FileProto *file,
							 const MsgProto *msg)
{
	FieldProto *const *fields;
	size_t		n,
				i;
	int			pass;

	if (is_map_entry(msg))
		return false;
	for (pass = 0; pass < 2; pass++)
	{
		if (parent != NULL)
		{
			fields = pass == 0 ? parent->field : parent->extension;
			n = pass == 0 ? parent->n_field : parent->n_extension;
		}
		else
		{
			if (pass == 0)
				continue;
			fields = file->extension;
			n = file->n_extension;
		}
		for (i = 0; i < n; i++)
			if (is_group(fields[i]) && msg->name &&
				strcmp(last_component(fields[i]->type_name), msg->name) == 0)
				return false;
	}
	return true;
}

static void render_message(render_ctx *ctx, const FileProto *rawfile,
						   const MsgProto *raw, const MsgProto *linked,
						   int depth);
static void render_message_body(render_ctx *ctx, const FileProto *rawfile,
								const MsgProto *raw, const MsgProto *linked,
								int depth);

/* [default = x] as written, from the parse */
static char *
default_text(const FieldProto *f)
{
	rg_buf		b;

	rg_buf_init(&b);
	rg_buf_puts(&b, "default = ");
	if (f->has_type &&
		f->type == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_STRING)
		rg_proto_put_quoted(&b, (const unsigned char *) f->default_value,
							strlen(f->default_value));
	else if (f->has_type &&
			 f->type == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_BYTES)
		rg_buf_printf(&b, "\"%s\"", f->default_value);	/* kept C-escaped */
	else
		rg_buf_puts(&b, f->default_value);
	return buf_take(&b);
}

/*
 * One field (or extension) line; parent is the message whose nested
 * types hold a map entry or group body the field refers to.
 */
static void
render_field(render_ctx *ctx, const FileProto *rawfile,
			 const MsgProto *raw_parent, const MsgProto *linked_parent,
			 const FieldProto *raw, const FieldProto *linked,
			 bool in_oneof, int depth)
{
	strvec		opts = {0};
	int			nested = -1;
	const MsgProto *entry = NULL;
	const MsgProto *lentry = NULL;

	if (!raw->has_type && raw->type_name)
	{
		nested = find_nested(raw_parent, raw->type_name);
		if (nested >= 0 && is_map_entry(raw_parent->nested_type[nested]) &&
			raw->has_label &&
			raw->label == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REPEATED)
		{
			entry = raw_parent->nested_type[nested];
			if (linked_parent && (size_t) nested < linked_parent->n_nested_type)
				lentry = linked_parent->nested_type[nested];
		}
	}

	if (raw->default_value)
		strvec_push(&opts, default_text(raw));
	if (raw->json_name)
	{
		rg_buf		b;

		rg_buf_init(&b);
		rg_buf_puts(&b, "json_name = ");
		rg_proto_put_quoted(&b, (const unsigned char *) raw->json_name,
							strlen(raw->json_name));
		strvec_push(&opts, buf_take(&b));
	}
	if (raw->options)
	{
		strvec		more = {0};
		size_t		i;

		collect_options(ctx, raw->options->uninterpreted_option,
						raw->options->n_uninterpreted_option, &more);
		for (i = 0; i < more.n; i++)
		{
			strvec_push(&opts, more.items[i]);
			more.items[i] = NULL;
		}
		strvec_free(&more);
	}
	if (ctx->normalize && opts.n > 1)
		qsort(opts.items, opts.n, sizeof(char *), cmp_str);
	if (opts.oom)
		ctx->out.oom = true;

	indent(ctx, depth);
	if (entry != NULL && entry->n_field >= 2)
	{
		const FieldProto *k = entry->field[0];
		const FieldProto *v = entry->field[1];
		const FieldProto *lk = lentry && lentry->n_field >= 2 ? lentry->field[0] : NULL;
		const FieldProto *lv = lentry && lentry->n_field >= 2 ? lentry->field[1] : NULL;

		rg_buf_printf(&ctx->out, "map<%s, %s> %s = %d",
					  type_text(ctx, k, lk), type_text(ctx, v, lv),
					  raw->name ? raw->name : "", raw->number);
		put_bracket_options(ctx, &opts);
		rg_buf_puts(&ctx->out, ";\n");
		strvec_free(&opts);
		return;
	}

	/* the label: Wire's (and protoc's) spelling for the syntax */
	if (!in_oneof && raw->has_label)
	{
		switch (raw->label)
		{
			case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REPEATED:
				rg_buf_puts(&ctx->out, "repeated ");
				break;
			case GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REQUIRED:
				rg_buf_puts(&ctx->out, "required ");
				break;
			default:
				if (!ctx->proto3 || raw->proto3_optional)
					rg_buf_puts(&ctx->out, "optional ");
				break;
		}
	}

	if (is_group(raw))
	{
		const MsgProto *body = NULL;
		const MsgProto *lbody = NULL;
		int			i;

		if (raw_parent != NULL)
		{
			i = find_nested(raw_parent, raw->type_name);
			if (i >= 0)
			{
				body = raw_parent->nested_type[i];
				if (linked_parent && (size_t) i < linked_parent->n_nested_type)
					lbody = linked_parent->nested_type[i];
			}
		}
		rg_buf_printf(&ctx->out, "group %s = %d", last_component(raw->type_name),
					  raw->number);
		put_bracket_options(ctx, &opts);
		rg_buf_puts(&ctx->out, " {");
		if (body != NULL)
			render_message_body(ctx, rawfile, body, lbody, depth + 1);
		indent(ctx, depth);
		rg_buf_puts(&ctx->out, "}\n");
		strvec_free(&opts);
		return;
	}

	rg_buf_printf(&ctx->out, "%s %s = %d", type_text(ctx, raw, linked),
				  raw->name ? raw->name : "", raw->number);
	put_bracket_options(ctx, &opts);
	rg_buf_puts(&ctx->out, ";\n");
	strvec_free(&opts);
}

/* An index permutation sorted by a key, for the normalized orders */
typedef struct sort_item
{
	long long	key1;
	const char *key2;
	size_t		index;
} sort_item;

/* qsort order of sort items: key1, then key2. */
static int
cmp_item(const void *a, const void *b)
{
	const sort_item *x = a;
	const sort_item *y = b;
	int			c;

	if (x->key1 != y->key1)
		return x->key1 < y->key1 ? -1 : 1;
	c = strcmp(x->key2 ? x->key2 : "", y->key2 ? y->key2 : "");
	if (c != 0)
		return c;
	return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

/* extensions: by extendee, then number */
static int
cmp_extension(const void *a, const void *b)
{
	const sort_item *x = a;
	const sort_item *y = b;
	int			c = strcmp(x->key2 ? x->key2 : "", y->key2 ? y->key2 : "");

	if (c != 0)
		return c;
	return cmp_item(a, b);
}

/* n zeroed sort items (oom set on failure). */
static sort_item *
new_items(render_ctx *ctx, size_t n)
{
	sort_item  *items = rg_calloc(n ? n : 1, sizeof(sort_item));

	if (items == NULL)
		ctx->out.oom = true;
	return items;
}

/* "reserved 1, 5 to 9, 100 to max;" and "reserved "a", "b";" */
static bool
render_reserved(render_ctx *ctx, long long *starts, long long *ends, size_t n,
				char *const *names, size_t n_names, long long maxval, int depth)
{
	size_t		i;

	if (n > 0)
	{
		indent(ctx, depth);
		rg_buf_puts(&ctx->out, "reserved ");
		for (i = 0; i < n; i++)
		{
			if (i > 0)
				rg_buf_puts(&ctx->out, ", ");
			if (starts[i] == ends[i])
				rg_buf_printf(&ctx->out, "%lld", starts[i]);
			else if (ends[i] >= maxval)
				rg_buf_printf(&ctx->out, "%lld to max", starts[i]);
			else
				rg_buf_printf(&ctx->out, "%lld to %lld", starts[i], ends[i]);
		}
		rg_buf_puts(&ctx->out, ";\n");
	}
	if (n_names > 0)
	{
		char	  **sorted = rg_malloc(n_names * sizeof(char *));

		if (sorted == NULL)
		{
			ctx->out.oom = true;
			return true;
		}
		memcpy(sorted, names, n_names * sizeof(char *));
		if (ctx->normalize)
			qsort(sorted, n_names, sizeof(char *), cmp_str);
		indent(ctx, depth);
		rg_buf_puts(&ctx->out, "reserved ");
		for (i = 0; i < n_names; i++)
		{
			if (i > 0)
				rg_buf_puts(&ctx->out, ", ");
			rg_proto_put_quoted(&ctx->out, (const unsigned char *) sorted[i],
								strlen(sorted[i]));
		}
		rg_buf_puts(&ctx->out, ";\n");
		rg_free(sorted);
	}
	return n > 0 || n_names > 0;
}

/* Sort parallel (start, end) arrays by start when normalizing */
static void
sort_ranges(render_ctx *ctx, long long *starts, long long *ends, size_t n)
{
	size_t		i,
				j;

	if (!ctx->normalize)
		return;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && (starts[j - 1] > starts[j] ||
							  (starts[j - 1] == starts[j] && ends[j - 1] > ends[j])); j--)
		{
			long long	t = starts[j];

			starts[j] = starts[j - 1];
			starts[j - 1] = t;
			t = ends[j];
			ends[j] = ends[j - 1];
			ends[j - 1] = t;
		}
}

/* a reserved range's bounds, end inclusive, from a message or an enum */
typedef void (*range_at_fn) (const void *owner, size_t i, long long *start,
							 long long *end);

/* A message's reserved range i: its end is exclusive in the descriptor. */
static void
message_range_at(const void *owner, size_t i, long long *start, long long *end)
{
	const MsgProto *m = owner;

	*start = m->reserved_range[i]->start;
	*end = (long long) m->reserved_range[i]->end - 1;
}

/* An enum's reserved range i: its end is inclusive already. */
static void
enum_range_at(const void *owner, size_t i, long long *start, long long *end)
{
	const EnumProto *e = owner;

	*start = e->reserved_range[i]->start;
	*end = e->reserved_range[i]->end;
}

/*
 * The reserved section of a message or an enum (nothing when it reserves
 * nothing): a newline, then the ranges (sorted when normalizing) and the
 * names.
 */
static void
render_reserved_section(render_ctx *ctx, const void *owner, size_t n,
						range_at_fn range_at, char *const *names, size_t n_names,
						long long maxval, int depth)
{
	long long  *starts;
	long long  *ends;
	size_t		i;

	if (n == 0 && n_names == 0)
		return;
	starts = rg_calloc(n + 1, sizeof(long long));
	ends = rg_calloc(n + 1, sizeof(long long));
	if (starts == NULL || ends == NULL)
	{
		ctx->out.oom = true;
		rg_free(starts);
		rg_free(ends);
		return;
	}
	for (i = 0; i < n; i++)
		range_at(owner, i, &starts[i], &ends[i]);
	sort_ranges(ctx, starts, ends, n);
	rg_buf_putc(&ctx->out, '\n');
	render_reserved(ctx, starts, ends, n, names, n_names, maxval, depth);
	rg_free(starts);
	rg_free(ends);
}

/* "enum E { ... }": reserved, options, values (by number when normalizing) */
static void
render_enum(render_ctx *ctx, const EnumProto *e, int depth)
{
	sort_item  *items;
	size_t		i;
	bool		any = false;

	indent(ctx, depth);
	rg_buf_printf(&ctx->out, "enum %s {", e->name ? e->name : "");

	items = new_items(ctx, e->n_value);
	if (items == NULL)
		return;
	render_reserved_section(ctx, e, e->n_reserved_range, enum_range_at,
							e->reserved_name, e->n_reserved_name, INT32_MAX, depth + 1);

	if ((e->options && e->options->n_uninterpreted_option > 0) || e->n_value > 0)
	{
		rg_buf_putc(&ctx->out, '\n');
		any = true;
	}
	if (e->options)
		put_option_lines(ctx, e->options->uninterpreted_option,
						 e->options->n_uninterpreted_option, depth + 1);
	for (i = 0; i < e->n_value; i++)
	{
		items[i].key1 = e->value[i]->number;
		items[i].key2 = e->value[i]->name;
		items[i].index = i;
	}
	if (ctx->normalize)
		qsort(items, e->n_value, sizeof(sort_item), cmp_item);
	for (i = 0; i < e->n_value; i++)
	{
		const EnumValueProto *v = e->value[items[i].index];
		strvec		opts = {0};

		if (v->options)
			collect_options(ctx, v->options->uninterpreted_option,
							v->options->n_uninterpreted_option, &opts);
		indent(ctx, depth + 1);
		rg_buf_printf(&ctx->out, "%s = %d", v->name ? v->name : "", v->number);
		put_bracket_options(ctx, &opts);
		rg_buf_puts(&ctx->out, ";\n");
		strvec_free(&opts);
	}
	rg_free(items);
	if (e->n_reserved_range > 0 || e->n_reserved_name > 0 || any)
		indent(ctx, depth);
	rg_buf_puts(&ctx->out, "}\n");
}

/*
 * Extensions (fields of "extend X { }" blocks) in one scope: consecutive
 * extensions of the same extendee share a block; normalized, they are
 * sorted by (extendee, number) first.
 */
static void
render_extends(render_ctx *ctx, const FileProto *rawfile,
			   const MsgProto *raw_parent, const MsgProto *linked_parent,
			   FieldProto *const *raw, FieldProto *const *linked, size_t n,
			   size_t n_linked, int depth, bool blank_each)
{
	sort_item  *items;
	size_t		i;
	const char *open = NULL;

	if (n == 0)
		return;
	items = new_items(ctx, n);
	if (items == NULL)
		return;
	for (i = 0; i < n; i++)
	{
		const FieldProto *l = i < n_linked ? linked[i] : NULL;

		items[i].key1 = 0;
		items[i].key2 = ctx->normalize && l && l->extendee ? l->extendee : raw[i]->extendee;
		items[i].index = i;
	}
	if (ctx->normalize)
	{
		for (i = 0; i < n; i++)
			items[i].key1 = raw[i]->number;
		qsort(items, n, sizeof(sort_item), cmp_extension);
	}
	for (i = 0; i < n; i++)
	{
		size_t		k = items[i].index;
		const char *ext = items[i].key2 ? items[i].key2 : "";

		if (open == NULL || strcmp(open, ext) != 0)
		{
			if (open != NULL)
			{
				indent(ctx, depth);
				rg_buf_puts(&ctx->out, "}\n");
			}
			if (blank_each)
				rg_buf_putc(&ctx->out, '\n');
			indent(ctx, depth);
			rg_buf_printf(&ctx->out, "extend %s {\n", ext);
			open = ext;
		}
		render_field(ctx, rawfile, raw_parent, linked_parent, raw[k],
					 k < n_linked ? linked[k] : NULL, false, depth + 1);
	}
	indent(ctx, depth);
	rg_buf_puts(&ctx->out, "}\n");
	rg_free(items);
}

/* The message's options, one per line. */
static void
render_message_options(render_ctx *ctx, const MsgProto *raw, int depth)
{
	if (raw->options && raw->options->n_uninterpreted_option > 0)
	{
		rg_buf_putc(&ctx->out, '\n');
		put_option_lines(ctx, raw->options->uninterpreted_option,
						 raw->options->n_uninterpreted_option, depth);
	}
}

/* The fields outside real oneofs, by number when normalizing. */
static void
render_plain_fields(render_ctx *ctx, const FileProto *rawfile,
					const MsgProto *raw, const MsgProto *linked, int depth)
{
	sort_item  *items = new_items(ctx, raw->n_field);
	size_t		i;
	size_t		j = 0;

	if (items == NULL)
		return;
	for (i = 0; i < raw->n_field; i++)
	{
		const FieldProto *f = raw->field[i];

		if (f->has_oneof_index && !f->proto3_optional)
			continue;
		items[j].key1 = f->number;
		items[j].key2 = NULL;
		items[j].index = i;
		j++;
	}
	if (ctx->normalize)
		qsort(items, j, sizeof(sort_item), cmp_item);
	if (j > 0)
		rg_buf_putc(&ctx->out, '\n');
	for (i = 0; i < j; i++)
	{
		size_t		k = items[i].index;

		render_field(ctx, rawfile, raw, linked, raw->field[k],
					 linked && k < linked->n_field ? linked->field[k] : NULL,
					 false, depth);
	}
	rg_free(items);
}

/* "oneof o { ... }": its options, then its fields (by number when normalizing). */
static void
render_oneof(render_ctx *ctx, const FileProto *rawfile, const MsgProto *raw,
			 const MsgProto *linked, size_t o_index, int depth)
{
	const Google__Protobuf__OneofDescriptorProto *o = raw->oneof_decl[o_index];
	sort_item  *members = new_items(ctx, raw->n_field);
	bool		section = false;
	size_t		m = 0;
	size_t		f;

	if (members == NULL)
		return;
	indent(ctx, depth);
	rg_buf_printf(&ctx->out, "oneof %s {", o->name ? o->name : "");
	if (o->options && o->options->n_uninterpreted_option > 0)
	{
		rg_buf_putc(&ctx->out, '\n');
		put_option_lines(ctx, o->options->uninterpreted_option,
						 o->options->n_uninterpreted_option, depth + 1);
		section = true;
	}
	for (f = 0; f < raw->n_field; f++)
		if (raw->field[f]->has_oneof_index &&
			raw->field[f]->oneof_index == (int32_t) o_index)
		{
			members[m].key1 = raw->field[f]->number;
			members[m].index = f;
			m++;
		}
	if (ctx->normalize)
		qsort(members, m, sizeof(sort_item), cmp_item);
	if (m > 0)
	{
		rg_buf_putc(&ctx->out, '\n');
		section = true;
	}
	for (f = 0; f < m; f++)
	{
		size_t		k = members[f].index;

		render_field(ctx, rawfile, raw, linked, raw->field[k],
					 linked && k < linked->n_field ? linked->field[k] : NULL,
					 true, depth + 1);
	}
	if (section)
		indent(ctx, depth);
	rg_buf_puts(&ctx->out, "}\n");
	rg_free(members);
}

/*
 * The real oneofs (not proto3 optional's synthetic ones), by first field
 * number when normalizing.
 */
static void
render_oneofs(render_ctx *ctx, const FileProto *rawfile, const MsgProto *raw,
			  const MsgProto *linked, int depth)
{
	sort_item  *items = new_items(ctx, raw->n_oneof_decl);
	size_t		n_real = 0;
	size_t		i;

	if (items == NULL)
		return;
	for (i = 0; i < raw->n_oneof_decl; i++)
	{
		long long	first = -1;
		bool		synthetic = false;
		size_t		f;

		for (f = 0; f < raw->n_field; f++)
			if (raw->field[f]->has_oneof_index &&
				raw->field[f]->oneof_index == (int32_t) i)
			{
				if (raw->field[f]->proto3_optional)
					synthetic = true;
				if (first < 0 || raw->field[f]->number < first)
					first = raw->field[f]->number;
			}
		if (synthetic)
			continue;
		items[n_real].key1 = first;
		items[n_real].key2 = NULL;
		items[n_real].index = i;
		n_real++;
	}
	if (ctx->normalize)
		qsort(items, n_real, sizeof(sort_item), cmp_item);
	if (n_real > 0)
		rg_buf_putc(&ctx->out, '\n');
	for (i = 0; i < n_real && !ctx->out.oom; i++)
		render_oneof(ctx, rawfile, raw, linked, items[i].index, depth);
	rg_free(items);
}

/* "extensions 100 to max;" lines, by start when normalizing. */
static void
render_extension_ranges(render_ctx *ctx, const MsgProto *raw, int depth)
{
	sort_item  *items;
	size_t		i;

	if (raw->n_extension_range == 0)
		return;
	items = new_items(ctx, raw->n_extension_range);
	if (items == NULL)
		return;
	rg_buf_putc(&ctx->out, '\n');
	for (i = 0; i < raw->n_extension_range; i++)
	{
		items[i].key1 = raw->extension_range[i]->start;
		items[i].key2 = NULL;
		items[i].index = i;
	}
	if (ctx->normalize)
		qsort(items, raw->n_extension_range, sizeof(sort_item), cmp_item);
	for (i = 0; i < raw->n_extension_range; i++)
	{
		const Google__Protobuf__DescriptorProto__ExtensionRange *r =
		raw->extension_range[items[i].index];
		strvec		opts = {0};

		indent(ctx, depth);
		if (r->end - 1 == r->start)
			rg_buf_printf(&ctx->out, "extensions %d", r->start);
		else if (r->end >= PROTO_MAX_FIELD_END)
			rg_buf_printf(&ctx->out, "extensions %d to max", r->start);
		else
			rg_buf_printf(&ctx->out, "extensions %d to %d", r->start, r->end - 1);
		if (r->options)
			collect_options(ctx, r->options->uninterpreted_option,
							r->options->n_uninterpreted_option, &opts);
		put_bracket_options(ctx, &opts);
		strvec_free(&opts);
		rg_buf_puts(&ctx->out, ";\n");
	}
	rg_free(items);
}

/* Nested types: the declared messages in order, then the enums. */
static void
render_nested_types(render_ctx *ctx, const FileProto *rawfile, const MsgProto *raw,
					const MsgProto *linked, int depth)
{
	bool		section = false;
	size_t		i;

	for (i = 0; i < raw->n_nested_type; i++)
	{
		if (!rg_proto_is_declared_message(raw, rawfile, raw->nested_type[i]))
			continue;
		if (!section)
			rg_buf_putc(&ctx->out, '\n');
		section = true;
		render_message(ctx, rawfile, raw->nested_type[i],
					   linked && i < linked->n_nested_type ? linked->nested_type[i] : NULL,
					   depth);
	}
	for (i = 0; i < raw->n_enum_type; i++)
	{
		if (!section)
			rg_buf_putc(&ctx->out, '\n');
		section = true;
		render_enum(ctx, raw->enum_type[i], depth);
	}
}

/* The extends declared inside the message. */
static void
render_message_extends(render_ctx *ctx, const FileProto *rawfile,
					   const MsgProto *raw, const MsgProto *linked, int depth)
{
	if (raw->n_extension == 0)
		return;
	rg_buf_putc(&ctx->out, '\n');
	render_extends(ctx, rawfile, raw, linked, raw->extension,
				   linked ? linked->extension : NULL, raw->n_extension,
				   linked ? linked->n_extension : 0, depth, false);
}

/*
 * The body of a message after its "{": sections (reserved, options,
 * fields, oneofs, extension ranges, nested types, extends), each
 * preceded by a newline, so a blank line separates them; then the
 * closing brace's indent is the caller's.
 */
static void
render_message_body(render_ctx *ctx, const FileProto *rawfile,
					const MsgProto *raw, const MsgProto *linked, int depth)
{
	/* depth is the indent, one level per nested message, group or extend */
	if (rg_too_deep(depth))
	{
		ctx->too_deep = true;
		ctx->out.oom = true;
		return;
	}
	rg_check_interrupts();
	render_reserved_section(ctx, raw, raw->n_reserved_range, message_range_at,
							raw->reserved_name, raw->n_reserved_name,
							PROTO_MAX_FIELD_END - 1, depth);
	render_message_options(ctx, raw, depth);
	render_plain_fields(ctx, rawfile, raw, linked, depth);
	render_oneofs(ctx, rawfile, raw, linked, depth);
	render_extension_ranges(ctx, raw, depth);
	if (ctx->out.oom)
		return;
	render_nested_types(ctx, rawfile, raw, linked, depth);
	render_message_extends(ctx, rawfile, raw, linked, depth);
}

/* Does a message declare nothing at all (rendered "{}")? */
static bool
message_is_empty(const MsgProto *m)
{
	return m->n_reserved_range == 0 && m->n_reserved_name == 0 &&
		(m->options == NULL || m->options->n_uninterpreted_option == 0) &&
		m->n_field == 0 && m->n_oneof_decl == 0 && m->n_extension_range == 0 &&
		m->n_nested_type == 0 && m->n_enum_type == 0 && m->n_extension == 0;
}

/* "message M { ... }". */
static void
render_message(render_ctx *ctx, const FileProto *rawfile, const MsgProto *raw,
			   const MsgProto *linked, int depth)
{
	indent(ctx, depth);
	rg_buf_printf(&ctx->out, "message %s {", raw->name ? raw->name : "");
	if (message_is_empty(raw))
	{
		rg_buf_puts(&ctx->out, "}\n");
		return;
	}
	render_message_body(ctx, rawfile, raw, linked, depth + 1);
	indent(ctx, depth);
	rg_buf_puts(&ctx->out, "}\n");
}

/* "service S { rpc ... }", its options and methods. */
static void
render_service(render_ctx *ctx, const Google__Protobuf__ServiceDescriptorProto *raw,
			   const Google__Protobuf__ServiceDescriptorProto *linked)
{
	size_t		i;

	rg_buf_printf(&ctx->out, "service %s {", raw->name ? raw->name : "");
	if (raw->options && raw->options->n_uninterpreted_option > 0)
	{
		rg_buf_putc(&ctx->out, '\n');
		put_option_lines(ctx, raw->options->uninterpreted_option,
						 raw->options->n_uninterpreted_option, 1);
	}
	if (raw->n_method > 0)
		rg_buf_putc(&ctx->out, '\n');
	for (i = 0; i < raw->n_method; i++)
	{
		const Google__Protobuf__MethodDescriptorProto *m = raw->method[i];
		const Google__Protobuf__MethodDescriptorProto *lm =
		linked && i < linked->n_method ? linked->method[i] : NULL;
		const char *in = ctx->normalize && lm && lm->input_type ? lm->input_type : m->input_type;
		const char *out = ctx->normalize && lm && lm->output_type ? lm->output_type : m->output_type;

		indent(ctx, 1);
		rg_buf_printf(&ctx->out, "rpc %s (%s%s) returns (%s%s)",
					  m->name ? m->name : "",
					  m->client_streaming ? "stream " : "", in ? in : "",
					  m->server_streaming ? "stream " : "", out ? out : "");
		if (m->options && m->options->n_uninterpreted_option > 0)
		{
			rg_buf_puts(&ctx->out, " {\n");
			put_option_lines(ctx, m->options->uninterpreted_option,
							 m->options->n_uninterpreted_option, 2);
			indent(ctx, 1);
			rg_buf_puts(&ctx->out, "}\n");
		}
		else
			rg_buf_puts(&ctx->out, ";\n");
	}
	rg_buf_puts(&ctx->out, "}\n");
}

/* import lines; sorted when normalizing (plain, then public, then weak) */
static void
render_imports(render_ctx *ctx, const FileProto *raw)
{
	strvec		v = {0};
	size_t		i,
				j;

	for (i = 0; i < raw->n_dependency; i++)
	{
		const char *kind = "";
		rg_buf		b;

		for (j = 0; j < raw->n_public_dependency; j++)
			if (raw->public_dependency[j] == (int32_t) i)
				kind = "public ";
		for (j = 0; j < raw->n_weak_dependency; j++)
			if (raw->weak_dependency[j] == (int32_t) i)
				kind = "weak ";
		rg_buf_init(&b);
		rg_buf_printf(&b, "import %s", kind);
		rg_proto_put_quoted(&b, (const unsigned char *) raw->dependency[i],
							strlen(raw->dependency[i]));
		rg_buf_puts(&b, ";\n");
		strvec_push(&v, buf_take(&b));
	}
	if (ctx->normalize && v.n > 1)
		qsort(v.items, v.n, sizeof(char *), cmp_str);
	if (v.n > 0)
		rg_buf_putc(&ctx->out, '\n');
	for (i = 0; i < v.n; i++)
		rg_buf_puts(&ctx->out, v.items[i]);
	if (v.oom)
		ctx->out.oom = true;
	strvec_free(&v);
}

/* See proto_internal.h */
char *
rg_proto_render(const FileProto *raw, const FileProto *linked, bool normalize,
				size_t *len, rg_error *err)
{
	render_ctx	ctx;
	size_t		i;
	char	   *s;

	memset(&ctx, 0, sizeof(ctx));
	rg_buf_init(&ctx.out);
	ctx.normalize = normalize;
	ctx.proto3 = raw->syntax && strcmp(raw->syntax, "proto3") == 0;

	if (raw->syntax && raw->syntax[0])
		rg_buf_printf(&ctx.out, "syntax = \"%s\";\n", raw->syntax);
	if (raw->package && raw->package[0])
		rg_buf_printf(&ctx.out, "package %s;\n", raw->package);
	render_imports(&ctx, raw);
	if (raw->options && raw->options->n_uninterpreted_option > 0)
	{
		rg_buf_putc(&ctx.out, '\n');
		put_option_lines(&ctx, raw->options->uninterpreted_option,
						 raw->options->n_uninterpreted_option, 0);
	}
	for (i = 0; i < raw->n_message_type; i++)
	{
		if (!rg_proto_is_declared_message(NULL, raw, raw->message_type[i]))
			continue;
		rg_buf_putc(&ctx.out, '\n');
		render_message(&ctx, raw, raw->message_type[i],
					   linked && i < linked->n_message_type ? linked->message_type[i] : NULL,
					   0);
	}
	for (i = 0; i < raw->n_enum_type; i++)
	{
		rg_buf_putc(&ctx.out, '\n');
		render_enum(&ctx, raw->enum_type[i], 0);
	}
	if (raw->n_extension > 0)
	{
		/*
		 * A group in a file-level extend has its body among the top-level
		 * messages: render_field finds it there through a pseudo parent.
		 */
		MsgProto	pseudo = GOOGLE__PROTOBUF__DESCRIPTOR_PROTO__INIT;
		MsgProto	lpseudo = GOOGLE__PROTOBUF__DESCRIPTOR_PROTO__INIT;

		pseudo.n_nested_type = raw->n_message_type;
		pseudo.nested_type = raw->message_type;
		if (linked)
		{
			lpseudo.n_nested_type = linked->n_message_type;
			lpseudo.nested_type = linked->message_type;
		}
		render_extends(&ctx, raw, &pseudo, linked ? &lpseudo : NULL,
					   raw->extension, linked ? linked->extension : NULL,
					   raw->n_extension, linked ? linked->n_extension : 0, 0, true);
	}
	for (i = 0; i < raw->n_service; i++)
	{
		rg_buf_putc(&ctx.out, '\n');
		render_service(&ctx, raw->service[i],
					   linked && i < linked->n_service ? linked->service[i] : NULL);
	}

	if (ctx.out.oom)
	{
		rg_buf_free(&ctx.out);
		if (ctx.too_deep)
			rg_error_set(err, RG_ERR_INVALID_SCHEMA, RG_PROTO_TOO_DEEP);
		else
			rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return NULL;
	}
	*len = ctx.out.len;
	s = buf_take(&ctx.out);
	if (s == NULL)
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	return s;
}
