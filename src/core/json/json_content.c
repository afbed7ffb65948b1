/*-------------------------------------------------------------------------
 *
 * json_content.c
 *	  Content ids: one number for every sub-schema of the same content,
 *	  in every schema this process loads.
 *
 * Once a schema is loaded, each node whose sub-schema holds no $ref gets
 * the id of its content: its kind and every field of its kind (the
 * annotations, the kept values by their text and their parsed value, the
 * numbers by value and lexeme, the names), with each child by the child's
 * id.  Two nodes with the same id compare alike with any third, whatever
 * their documents and places in them: the diff of a pair reads nothing
 * but the two sub-schemas (its differences are kept relative to the
 * pair), and without a $ref a sub-schema can reach nothing outside
 * itself.  The location is left out: the diff never reads it.
 *
 * The ids are exact, not hashes: the content is written out as bytes and
 * interned in one table of the process, so equal ids mean equal bytes.
 * The table is bounded (JC_MAX_ENTRIES contents, JC_POOL_BYTES of them,
 * none longer than JC_MAX_BYTES) and emptied when full; ids are never
 * given twice, so an id handed out before still means its content, and
 * content met again after a reset only gets a new id (its pairs are then
 * compared once more).  A node with a $ref below it, or met once the ids
 * ran out, has none (RG_JS_CONTENT_NONE); one of too long a content, or
 * above one, has none but is known to reach no $ref (RG_JS_CONTENT_LONG).
 *
 * The diff (json_diff.c) keys its process-wide set of pairs found
 * compatible by these ids.  Every field a kind's comparison reads must be
 * written here: a field added to rg_js is added to write_node.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"
#include "json_diff_internal.h"

#include <jansson.h>
#include <string.h>

/* the longest content that gets an id */
#define JC_MAX_BYTES 2048
/* contents kept at most (3/4 of the slots) and their bytes, then a reset */
#define JC_SLOTS 8192
#define JC_MAX_ENTRIES (JC_SLOTS / 4 * 3)
#define JC_POOL_BYTES (1024 * 1024)

/* the states of a node's content_id during the pass (see rg_jsonschema.h) */
#define JC_VISITING UINT32_MAX

/* one interned content */
typedef struct jc_slot
{
	uint32_t	hash;
	uint32_t	id;				/* 0: empty */
	uint32_t	offset;			/* in jc_pool */
	uint32_t	len;
} jc_slot;

static jc_slot jc_slots[JC_SLOTS];
static unsigned char jc_pool[JC_POOL_BYTES];
static uint32_t jc_pool_used;
static int	jc_entries;
static uint32_t jc_next_id = 1;
static uint64_t jc_resets;

/* one node's content being written */
typedef struct jc_writer
{
	unsigned char buf[JC_MAX_BYTES];
	size_t		len;
	bool		fails;			/* too long, or a child without an id */
	bool		refs;			/* a $ref at it or below it */
} jc_writer;

/* ----------------------------------------------------------------------
 * Writing a node's content
 * ---------------------------------------------------------------------- */

/* Append n bytes. */
static void
put_bytes(jc_writer *w, const void *data, size_t n)
{
	if (w->fails || n > sizeof(w->buf) - w->len)
	{
		w->fails = true;
		return;
	}
	memcpy(w->buf + w->len, data, n);
	w->len += n;
}

/* Append one byte. */
static void
put_u8(jc_writer *w, unsigned char v)
{
	put_bytes(w, &v, 1);
}

/* Append a 32-bit number. */
static void
put_u32(jc_writer *w, uint32_t v)
{
	put_bytes(w, &v, sizeof(v));
}

/* Append a 64-bit number. */
static void
put_u64(jc_writer *w, uint64_t v)
{
	put_bytes(w, &v, sizeof(v));
}

/* Append a string, NULL (absent) told apart from every string. */
static void
put_str(jc_writer *w, const char *s)
{
	size_t		n;

	if (s == NULL)
	{
		put_u32(w, UINT32_MAX);
		return;
	}
	n = strlen(s);
	if (n >= UINT32_MAX)
	{
		w->fails = true;
		return;
	}
	put_u32(w, (uint32_t) n);
	put_bytes(w, s, n);
}

/* Append a count. */
static void
put_count(jc_writer *w, rg_js_count c)
{
	put_u8(w, c.present);
	if (c.present)
		put_u64(w, (uint64_t) c.value);
}

/* Append a number: its double's bits and its lexeme. */
static void
put_number(jc_writer *w, const rg_js_number *n)
{
	uint64_t	bits;

	put_u8(w, n->present);
	if (!n->present)
		return;
	memcpy(&bits, &n->value, sizeof(bits));
	put_u64(w, bits);
	put_str(w, n->lexeme);
}

/* Append a jansson value exactly (types, numbers by their bits). */
static void
put_json(jc_writer *w, const json_t *j, int depth)
{
	if (j == NULL)
	{
		put_u8(w, 0xFF);
		return;
	}
	if (rg_too_deep(depth))
	{
		w->fails = true;
		return;
	}
	put_u8(w, (unsigned char) json_typeof(j));
	switch (json_typeof(j))
	{
		case JSON_INTEGER:
			put_u64(w, (uint64_t) json_integer_value(j));
			break;
		case JSON_REAL:
			{
				double		d = json_real_value(j);
				uint64_t	bits;

				memcpy(&bits, &d, sizeof(bits));
				put_u64(w, bits);
				break;
			}
		case JSON_STRING:
			put_u64(w, json_string_length(j));
			put_bytes(w, json_string_value(j), json_string_length(j));
			break;
		case JSON_ARRAY:
			{
				size_t		i;

				put_u64(w, json_array_size(j));
				for (i = 0; i < json_array_size(j) && !w->fails; i++)
					put_json(w, json_array_get(j, i), depth + 1);
				break;
			}
		case JSON_OBJECT:
			{
				const char *key;
				json_t	   *v;

				put_u64(w, json_object_size(j));
				json_object_foreach((json_t *) j, key, v)
				{
					put_str(w, key);
					put_json(w, v, depth + 1);
					if (w->fails)
						break;
				}
				break;
			}
		default:
			break;
	}
}

/* Append a kept value (NULL: absent): its text and its parsed value. */
static void
put_value(jc_writer *w, const rg_js_value *v)
{
	put_u8(w, v != NULL);
	if (v == NULL)
		return;
	put_str(w, v->text);
	put_json(w, v->json, 0);
}

/* Append a child by its id (NULL: absent); a child without one fails. */
static void
put_child(jc_writer *w, const rg_js *s)
{
	if (s == NULL)
	{
		put_u32(w, RG_JS_CONTENT_UNSET);
		return;
	}
	if (!rg_js_has_content_id(s->content_id))
	{
		w->fails = true;
		if (!rg_js_without_refs(s->content_id))
			w->refs = true;
	}
	put_u32(w, s->content_id);
}

/* Append a list of members: each name and child. */
static void
put_members(jc_writer *w, const rg_js_member *m, int n)
{
	int			i;

	put_u32(w, (uint32_t) n);
	for (i = 0; i < n && !w->fails; i++)
	{
		put_str(w, m[i].name);
		put_child(w, m[i].schema);
	}
}

/* Append a list of names. */
static void
put_names(jc_writer *w, const char *const *names, int n)
{
	int			i;

	put_u32(w, (uint32_t) n);
	for (i = 0; i < n && !w->fails; i++)
		put_str(w, names[i]);
}

/* Append a list of sub-schemas. */
static void
put_children(jc_writer *w, struct rg_js *const *s, int n)
{
	int			i;

	put_u32(w, (uint32_t) n);
	for (i = 0; i < n && !w->fails; i++)
		put_child(w, s[i]);
}

/* Append a list of kept values. */
static void
put_values(jc_writer *w, const rg_js_value *const *v, int n)
{
	int			i;

	put_u32(w, (uint32_t) n);
	for (i = 0; i < n && !w->fails; i++)
		put_value(w, v[i]);
}

/* The fields of an object node. */
static void
write_object(jc_writer *w, const rg_js *s)
{
	int			i;

	put_u8(w, s->u.object.requires_object);
	put_members(w, s->u.object.properties, s->u.object.n_properties);
	put_names(w, s->u.object.required, s->u.object.n_required);
	put_u8(w, s->u.object.permits_additional);
	put_child(w, s->u.object.additional_schema);
	put_members(w, s->u.object.pattern_properties, s->u.object.n_pattern_properties);
	put_child(w, s->u.object.unevaluated);
	put_child(w, s->u.object.assert_unevaluated);
	put_u32(w, (uint32_t) s->u.object.n_property_dependencies);
	for (i = 0; i < s->u.object.n_property_dependencies && !w->fails; i++)
	{
		put_str(w, s->u.object.property_dependencies[i].name);
		put_names(w, s->u.object.property_dependencies[i].requires,
				  s->u.object.property_dependencies[i].n_requires);
	}
	put_members(w, s->u.object.schema_dependencies, s->u.object.n_schema_dependencies);
	put_child(w, s->u.object.property_names);
	put_count(w, s->u.object.min_properties);
	put_count(w, s->u.object.max_properties);
}

/* The fields of an array node. */
static void
write_array(jc_writer *w, const rg_js *s)
{
	put_u8(w, s->u.array.requires_array);
	put_child(w, s->u.array.all_items);
	put_children(w, s->u.array.item_schemas, s->u.array.n_item_schemas);
	put_u8(w, s->u.array.permits_additional);
	put_child(w, s->u.array.additional_items);
	put_child(w, s->u.array.unevaluated);
	put_child(w, s->u.array.assert_unevaluated);
	put_child(w, s->u.array.contains);
	put_count(w, s->u.array.min_items);
	put_count(w, s->u.array.max_items);
	put_count(w, s->u.array.min_contains);
	put_count(w, s->u.array.max_contains);
	put_u8(w, s->u.array.unique_items);
	put_count(w, s->u.array.assert_min_contains);
	put_count(w, s->u.array.assert_max_contains);
	put_u8(w, s->u.array.additional_applies);
}

/*
 * A field added to rg_js changes its size: then write it below (and visit
 * it in visit_children if it is a sub-schema), and set the size here.
 */
#if SIZE_MAX == UINT64_MAX
_Static_assert(sizeof(rg_js) == 248,
			   "a field added to rg_js: write_node writes every field a comparison reads");
#endif

/* The content of a node whose children have their ids. */
static void
write_node(jc_writer *w, const rg_js *s)
{
	int			i;

	put_u8(w, (unsigned char) s->kind);
	put_str(w, s->id);
	put_str(w, s->title);
	put_str(w, s->description);
	put_value(w, s->default_value);
	put_u32(w, (uint32_t) s->n_unprocessed);
	for (i = 0; i < s->n_unprocessed && !w->fails; i++)
	{
		put_str(w, s->unprocessed_names[i]);
		put_value(w, s->unprocessed_values[i]);
	}
	switch (s->kind)
	{
		case RG_JS_STRING:
			put_count(w, s->u.string.min_length);
			put_count(w, s->u.string.max_length);
			put_str(w, s->u.string.pattern);
			put_str(w, s->u.string.format);
			put_u8(w, s->u.string.requires_string);
			break;
		case RG_JS_NUMBER:
			put_u8(w, s->u.number.requires_number);
			put_u8(w, s->u.number.requires_integer);
			put_number(w, &s->u.number.minimum);
			put_number(w, &s->u.number.maximum);
			put_number(w, &s->u.number.exclusive_minimum);
			put_number(w, &s->u.number.exclusive_maximum);
			put_u8(w, s->u.number.exclusive_minimum_flag);
			put_u8(w, s->u.number.exclusive_maximum_flag);
			put_number(w, &s->u.number.multiple_of);
			break;
		case RG_JS_OBJECT:
			write_object(w, s);
			break;
		case RG_JS_ARRAY:
			write_array(w, s);
			break;
		case RG_JS_ENUM:
			put_values(w, s->u.enumeration.values, s->u.enumeration.n_values);
			break;
		case RG_JS_CONST:
			put_value(w, s->u.constant.value);
			break;
		case RG_JS_COMBINED:
			put_u8(w, (unsigned char) s->u.combined.criterion);
			put_u8(w, s->u.combined.synthetic);
			put_children(w, s->u.combined.subschemas, s->u.combined.n_subschemas);
			break;
		case RG_JS_NOT:
			put_child(w, s->u.not.schema);
			break;
		case RG_JS_CONDITIONAL:
			put_child(w, s->u.conditional.if_schema);
			put_child(w, s->u.conditional.then_schema);
			put_child(w, s->u.conditional.else_schema);
			break;
		case RG_JS_REF:
			/* never written: a $ref reaches outside its sub-schema */
			w->fails = true;
			w->refs = true;
			break;
		case RG_JS_EMPTY:
		case RG_JS_TRUE:
		case RG_JS_FALSE:
		case RG_JS_BOOLEAN:
		case RG_JS_NULL:
			break;
	}
}

/* ----------------------------------------------------------------------
 * The table of contents
 * ---------------------------------------------------------------------- */

/* A spread of n bytes. */
static uint32_t
bytes_hash(const unsigned char *p, size_t n)
{
	uint64_t	h = 0x9E3779B97F4A7C15ULL ^ n;

	while (n >= 8)
	{
		uint64_t	k;

		memcpy(&k, p, 8);
		h = (h ^ k) * 0xC2B2AE3D27D4EB4FULL;
		h ^= h >> 29;
		p += 8;
		n -= 8;
	}
	while (n > 0)
	{
		h = (h ^ *p++) * 0x100000001B3ULL;
		n--;
	}
	h ^= h >> 32;
	return (uint32_t) h;
}

/* Empty the table (the ids handed out stay taken). */
static void
table_reset(void)
{
	memset(jc_slots, 0, sizeof(jc_slots));
	jc_pool_used = 0;
	jc_entries = 0;
	jc_resets++;
}

/* The id of content w, interned if new; RG_JS_CONTENT_NONE past the ids. */
static uint32_t
intern(const jc_writer *w)
{
	uint32_t	hash = bytes_hash(w->buf, w->len);
	uint32_t	i;

	for (i = hash & (JC_SLOTS - 1); jc_slots[i].id != 0; i = (i + 1) & (JC_SLOTS - 1))
		if (jc_slots[i].hash == hash && jc_slots[i].len == w->len &&
			memcmp(jc_pool + jc_slots[i].offset, w->buf, w->len) == 0)
			return jc_slots[i].id;
	if (jc_next_id > RG_JS_CONTENT_MAX)
		return RG_JS_CONTENT_NONE;
	if (jc_entries >= JC_MAX_ENTRIES || w->len > JC_POOL_BYTES - jc_pool_used)
	{
		table_reset();
		for (i = hash & (JC_SLOTS - 1); jc_slots[i].id != 0; i = (i + 1) & (JC_SLOTS - 1))
			;
	}
	memcpy(jc_pool + jc_pool_used, w->buf, w->len);
	jc_slots[i].hash = hash;
	jc_slots[i].id = jc_next_id++;
	jc_slots[i].offset = jc_pool_used;
	jc_slots[i].len = (uint32_t) w->len;
	jc_pool_used += (uint32_t) w->len;
	jc_entries++;
	return jc_slots[i].id;
}

/* ----------------------------------------------------------------------
 * The pass over a loaded schema
 * ---------------------------------------------------------------------- */

static void visit(jc_writer *w, rg_js *s, int depth);

/* Visit each member's schema. */
static void
visit_members(jc_writer *w, rg_js_member *m, int n, int depth)
{
	int			i;

	for (i = 0; i < n; i++)
		visit(w, m[i].schema, depth);
}

/* Visit a list of sub-schemas. */
static void
visit_list(jc_writer *w, rg_js **s, int n, int depth)
{
	int			i;

	for (i = 0; i < n; i++)
		visit(w, s[i], depth);
}

/* Visit every child of s (a $ref's target too). */
static void
visit_children(jc_writer *w, rg_js *s, int depth)
{
	switch (s->kind)
	{
		case RG_JS_OBJECT:
			visit_members(w, s->u.object.properties, s->u.object.n_properties, depth);
			visit(w, s->u.object.additional_schema, depth);
			visit_members(w, s->u.object.pattern_properties,
						  s->u.object.n_pattern_properties, depth);
			visit(w, s->u.object.unevaluated, depth);
			visit(w, s->u.object.assert_unevaluated, depth);
			visit_members(w, s->u.object.schema_dependencies,
						  s->u.object.n_schema_dependencies, depth);
			visit(w, s->u.object.property_names, depth);
			break;
		case RG_JS_ARRAY:
			visit(w, s->u.array.all_items, depth);
			visit_list(w, s->u.array.item_schemas, s->u.array.n_item_schemas, depth);
			visit(w, s->u.array.additional_items, depth);
			visit(w, s->u.array.unevaluated, depth);
			visit(w, s->u.array.assert_unevaluated, depth);
			visit(w, s->u.array.contains, depth);
			break;
		case RG_JS_COMBINED:
			visit_list(w, s->u.combined.subschemas, s->u.combined.n_subschemas, depth);
			break;
		case RG_JS_NOT:
			visit(w, s->u.not.schema, depth);
			break;
		case RG_JS_CONDITIONAL:
			visit(w, s->u.conditional.if_schema, depth);
			visit(w, s->u.conditional.then_schema, depth);
			visit(w, s->u.conditional.else_schema, depth);
			break;
		case RG_JS_REF:
			visit(w, s->u.ref.target, depth);
			break;
		default:
			break;
	}
}

/*
 * Give s and everything it reaches their content ids, children first.  A
 * node met again (a $ref's cycle, a shared node) is left as it is.
 */
static void
visit(jc_writer *w, rg_js *s, int depth)
{
	if (s == NULL || s->content_id != RG_JS_CONTENT_UNSET)
		return;
	if (rg_too_deep(depth))
	{
		s->content_id = RG_JS_CONTENT_NONE;
		return;
	}
	s->content_id = JC_VISITING;
	visit_children(w, s, depth + 1);
	w->len = 0;
	w->fails = false;
	w->refs = false;
	write_node(w, s);
	if (w->refs)
		s->content_id = RG_JS_CONTENT_NONE;
	else if (w->fails)
		s->content_id = RG_JS_CONTENT_LONG;
	else
		s->content_id = intern(w);
}

/* The node a $ref stands for (one level, as the diff follows it). */
static const rg_js *
followed(const rg_js *s)
{
	if (s->kind == RG_JS_REF && s->u.ref.target != NULL)
		return s->u.ref.target;
	return s;
}

/* See json_diff_internal.h */
bool
rg_jd_content_ids(rg_arena *arena, rg_js *root, const struct js_node_link *objects)
{
	jc_writer  *w = rg_malloc_noerror(sizeof(jc_writer));
	const struct js_node_link *l;

	if (w == NULL)
		return false;
	visit(w, root, 0);
	rg_free(w);
	for (l = objects; l != NULL; l = l->next)
	{
		rg_js	   *s = l->node;
		jd_names   *k = (jd_names *) s->u.object.property_index;
		int			i;

		if (s->kind != RG_JS_OBJECT || k == NULL)
			continue;
		k->content_ids = rg_arena_alloc(arena, (size_t) (k->n + 1) * sizeof(uint32_t));
		if (k->content_ids == NULL)
			return false;
		for (i = 0; i < k->n; i++)
			k->content_ids[i] = followed(s->u.object.properties[i].schema)->content_id;
	}
	return true;
}

/* See json_diff_internal.h */
void
rg_jd_content_stats(rg_jd_content_usage *out)
{
	out->entries = jc_entries;
	out->bytes = jc_pool_used;
	out->next_id = jc_next_id;
	out->resets = jc_resets;
}
