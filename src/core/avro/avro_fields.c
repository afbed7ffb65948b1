/*-------------------------------------------------------------------------
 *
 * avro_fields.c
 *	  The fields of an Avro schema: those at its top level, for
 *	  Confluent's confluent:reserved check (AvroSchema.hasTopLevelField),
 *	  and every field it declares, for the field index (rg_fields.h).
 *
 * Only a record at the root has top-level fields: its own fields, matched
 * by name as Avro Java's Schema.getField matches them (aliases do not
 * count).  A root that names a record defined by a reference is that
 * record.  Any other root (a union, an array, a primitive) has none.
 *
 * Every field: from the root through records, arrays and maps ("[]") and
 * unions, each record once on the way down (a recursive record stops).
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"
#include "rg_fields.h"
#include "rg_json_text.h"

#include <stdio.h>
#include <string.h>

/* See rg_avro_api.h */
bool
rg_avro_has_top_level_field(const rg_schema *schema, const char *name)
{
	const rg_avro_parsed *parsed = schema->model;
	const rg_avro_schema *root = parsed != NULL ? parsed->root : NULL;
	int			i;

	if (root == NULL || root->type != RG_AVRO_RECORD)
		return false;
	for (i = 0; i < root->n_fields; i++)
		if (strcmp(root->fields[i].name, name) == 0)
			return true;
	return false;
}

/* See rg_avro.h */
const char *
rg_avro_string_prop(const rg_avro_schema *s, const char *key)
{
	int			i;

	for (i = 0; i < s->n_props; i++)
		if (strcmp(s->props[i].key, key) == 0)
			return json_is_string(s->props[i].value) ?
				json_string_value(s->props[i].value) : NULL;
	return NULL;
}

/* rg_avro_type_text into buf, depth levels down */
static void
type_text(const rg_avro_schema *s, char *buf, size_t size, int depth)
{
	const char *logical;
	size_t		used;
	int			i;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (rg_too_deep(depth))
		return;
	switch (s->type)
	{
		case RG_AVRO_RECORD:
		case RG_AVRO_ENUM:
		case RG_AVRO_FIXED:
			snprintf(buf, size, "%s", s->fullname);
			break;
		case RG_AVRO_ARRAY:
		case RG_AVRO_MAP:
			snprintf(buf, size, "%s<", s->type == RG_AVRO_ARRAY ? "array" : "map");
			used = strlen(buf);
			type_text(s->items, buf + used, size - used, depth + 1);
			used = strlen(buf);
			snprintf(buf + used, size - used, ">");
			break;
		case RG_AVRO_UNION:
			snprintf(buf, size, "[");
			for (i = 0; i < s->n_branches; i++)
			{
				used = strlen(buf);
				if (i > 0)
					snprintf(buf + used, size - used, ", ");
				used = strlen(buf);
				type_text(s->branches[i], buf + used, size - used, depth + 1);
			}
			used = strlen(buf);
			snprintf(buf + used, size - used, "]");
			break;
		default:
			logical = rg_avro_string_prop(s, "logicalType");
			if (logical)
				snprintf(buf, size, "%s (%s)", rg_avro_type_name(s->type), logical);
			else
				snprintf(buf, size, "%s", rg_avro_type_name(s->type));
			break;
	}
}

/* See rg_avro.h */
void
rg_avro_type_text(const rg_avro_schema *s, char *buf, size_t size)
{
	type_text(s, buf, size, 0);
}

/* the records a walk is inside, so that a recursive record is not walked again */
typedef struct field_walk
{
	rg_field_list *out;
	const rg_avro_schema *stack[RG_AVRO_MAX_DEPTH];
	int			depth;
} field_walk;

/* The logical type of a field's type: its own, or its one non-null branch's. */
static const char *
field_logical_type(const rg_avro_schema *t)
{
	int			i;

	if (t->type == RG_AVRO_UNION)
	{
		const rg_avro_schema *only = NULL;

		for (i = 0; i < t->n_branches; i++)
			if (t->branches[i]->type != RG_AVRO_NULL)
			{
				if (only != NULL)
					return NULL;
				only = t->branches[i];
			}
		t = only;
	}
	return t != NULL ? rg_avro_string_prop(t, "logicalType") : NULL;
}

/* The strings of a field's "confluent:tags" array, in arena; *n of them. */
static const char **
field_tags(const rg_avro_field *f, rg_arena *arena, int *n)
{
	const char **tags;
	int			i;
	size_t		j;

	*n = 0;
	for (i = 0; i < f->extra->n_props; i++)
	{
		const json_t *v = f->extra->props[i].value;

		if (strcmp(f->extra->props[i].key, "confluent:tags") != 0 || !json_is_array(v))
			continue;
		tags = rg_arena_alloc(arena, sizeof(char *) * (json_array_size(v) + 1));
		if (tags == NULL)
			return NULL;
		for (j = 0; j < json_array_size(v); j++)
			if (json_is_string(json_array_get(v, j)))
				tags[(*n)++] = json_string_value(json_array_get(v, j));
		return tags;
	}
	return NULL;
}

/* A field's default as JSON text in arena, or NULL. */
static const char *
default_text(const rg_avro_field *f, rg_arena *arena)
{
	rg_buf		buf;
	char	   *text;

	if (f->default_value == NULL)
		return NULL;
	rg_buf_init(&buf);
	rg_json_write_value(&buf, f->default_value);
	text = buf.oom || buf.data == NULL ? NULL : rg_arena_strdup(arena, buf.data);
	rg_buf_free(&buf);
	return text;
}

static void walk_type(field_walk *w, const rg_avro_schema *t, const char *path);

/* Add one field of record r under path, then what its type declares. */
static void
walk_field(field_walk *w, const rg_avro_schema *r, const rg_avro_field *f, const char *path)
{
	rg_field_info info = {0};
	char		type[1024];

	info.path = rg_field_path(w->out, path, f->name);
	if (info.path == NULL)
		return;
	rg_avro_type_text(f->type, type, sizeof(type));
	info.name = f->name;
	info.record = r->fullname;
	info.type = type;
	info.doc = f->extra->doc;
	info.default_json = default_text(f, w->out->arena);
	info.logical_type = field_logical_type(f->type);
	info.tags = field_tags(f, w->out->arena, &info.n_tags);
	if (!rg_field_list_add(w->out, &info))
		return;
	walk_type(w, f->type, info.path);
}

/* The fields a type declares, under path: a record's, and through arrays, maps and unions. */
static void
walk_type(field_walk *w, const rg_avro_schema *t, const char *path)
{
	const char *items;
	int			i;

	if (w->out->failed || w->out->truncated)
		return;
	switch (t->type)
	{
		case RG_AVRO_RECORD:
			for (i = 0; i < w->depth; i++)
				if (w->stack[i] == t)
					return;
			if (w->depth == RG_AVRO_MAX_DEPTH || rg_too_deep(w->depth))
				return;
			w->stack[w->depth++] = t;
			for (i = 0; i < t->n_fields; i++)
				walk_field(w, t, &t->fields[i], path);
			w->depth--;
			break;
		case RG_AVRO_ARRAY:
		case RG_AVRO_MAP:
			items = rg_arena_alloc(w->out->arena, strlen(path) + 3);
			if (items == NULL)
			{
				w->out->failed = true;
				return;
			}
			snprintf((char *) items, strlen(path) + 3, "%s[]", path);
			walk_type(w, t->items, items);
			break;
		case RG_AVRO_UNION:
			for (i = 0; i < t->n_branches; i++)
				walk_type(w, t->branches[i], path);
			break;
		default:
			break;
	}
}

/* See rg_avro_api.h */
bool
rg_avro_fields(const rg_schema *schema, rg_field_list *out)
{
	const rg_avro_parsed *parsed = schema->model;
	field_walk *w;

	if (parsed == NULL || parsed->root == NULL)
		return true;
	w = rg_malloc(sizeof(field_walk));
	if (w == NULL)
		return false;
	w->out = out;
	w->depth = 0;
	walk_type(w, parsed->root, "");
	rg_free(w);
	return !out->failed;
}
