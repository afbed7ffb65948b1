/*-------------------------------------------------------------------------
 *
 * rg_tags.c
 *	  Schema tags: the SchemaTags lists read and written, the merge of a
 *	  request's lists into one change per entity, the tag arithmetic, and
 *	  the entry points that hand a schema to its format's tag code.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_tags.h"

#include <jansson.h>
#include <string.h>

#include "rg_json_text.h"

/* An open-addressing set of strings in an arena (tag sets, entity keys). */
typedef struct str_set
{
	rg_arena   *arena;
	const char **slots;
	int		   *values;			/* a number kept with each key */
	size_t		cap;
	size_t		n;
} str_set;

/* FNV-1a of a string */
static size_t
str_hash(const char *s)
{
	size_t		h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 16777619u;
	return h;
}

/* An empty set with room for about n keys; false on out of memory. */
static bool
set_init(str_set *set, rg_arena *arena, size_t n)
{
	set->arena = arena;
	set->cap = 16;
	while (set->cap < n * 2 + 2)
		set->cap *= 2;
	set->n = 0;
	set->slots = rg_arena_alloc(arena, set->cap * sizeof(char *));
	set->values = rg_arena_alloc(arena, set->cap * sizeof(int));
	return set->slots != NULL && set->values != NULL;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t
set_slot(const str_set *set, const char *key)
{
	size_t		h = str_hash(key) & (set->cap - 1);

	while (set->slots[h] != NULL && strcmp(set->slots[h], key) != 0)
		h = (h + 1) & (set->cap - 1);
	return h;
}

/* The value kept with key, or -1 when key is not in the set. */
static int
set_find(const str_set *set, const char *key)
{
	size_t		h = set_slot(set, key);

	return set->slots[h] ? set->values[h] : -1;
}

/* Add key with value (a key already there keeps its value); false on out of memory. */
static bool
set_add(str_set *set, const char *key, int value)
{
	size_t		h;

	if ((set->n + 1) * 2 > set->cap)
	{
		str_set		bigger;
		size_t		i;

		if (!set_init(&bigger, set->arena, set->cap))
			return false;
		for (i = 0; i < set->cap; i++)
			if (set->slots[i])
			{
				size_t		j = set_slot(&bigger, set->slots[i]);

				bigger.slots[j] = set->slots[i];
				bigger.values[j] = set->values[i];
				bigger.n++;
			}
		*set = bigger;
	}
	h = set_slot(set, key);
	if (set->slots[h] == NULL)
	{
		set->slots[h] = key;
		set->values[h] = value;
		set->n++;
	}
	return true;
}

/* See rg_tags.h */
const char *
rg_tag_entity_type_name(rg_tag_entity_type type)
{
	return type == RG_TAG_RECORD ? "sr_record" : "sr_field";
}

/*
 * A tag as Jackson binds a JSON scalar to a String (numbers as written,
 * booleans as true/false); NULL for anything else.
 */
static const char *
scalar_text(rg_arena *arena, const json_t *v)
{
	return json_is_null(v) ? NULL : rg_json_scalar_text(arena, v);
}

/* Read element i of a SchemaTags list into *st; false with err set. */
static bool
parse_one(rg_arena *arena, const json_t *elem, int i, rg_schema_tags *st,
		  rg_error *err)
{
	const json_t *entity = json_object_get(elem, "schemaEntity");
	const json_t *path = json_object_get(entity, "entityPath");
	const json_t *type = json_object_get(entity, "entityType");
	const json_t *tags = json_object_get(elem, "tags");
	size_t		j;

	if (!json_is_object(elem) || !json_is_object(entity))
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "schema tags %d: no schemaEntity object", i);
		return false;
	}
	if (!json_is_string(path))
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "schema tags %d: entityPath is not a string", i);
		return false;
	}
	if (json_is_string(type) && strcmp(json_string_value(type), "sr_record") == 0)
		st->type = RG_TAG_RECORD;
	else if (json_is_string(type) && strcmp(json_string_value(type), "sr_field") == 0)
		st->type = RG_TAG_FIELD;
	else
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA,
					 "schema tags %d: entityType is not one of the values accepted: [sr_record, sr_field]", i);
		return false;
	}
	if (!json_is_array(tags))
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "schema tags %d: tags is not an array", i);
		return false;
	}
	st->path = rg_arena_strdup(arena, json_string_value(path));
	st->n_tags = (int) json_array_size(tags);
	st->tags = rg_arena_alloc(arena, (json_array_size(tags) + 1) * sizeof(char *));
	if (st->path == NULL || st->tags == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	for (j = 0; j < json_array_size(tags); j++)
	{
		st->tags[j] = scalar_text(arena, json_array_get(tags, j));
		if (st->tags[j] == NULL)
		{
			rg_error_set(err, RG_ERR_INVALID_SCHEMA,
						 "schema tags %d: tag %d is not a string", i, (int) j);
			return false;
		}
	}
	return true;
}

/* See rg_tags.h */
bool
rg_schema_tags_parse(rg_arena *arena, const char *text, size_t len,
					 rg_schema_tags **out, int *n_out, rg_error *err)
{
	json_error_t jerr;
	json_t	   *doc;
	size_t		i;
	bool		ok = true;

	*out = NULL;
	*n_out = 0;
	if (!rg_json_nesting_ok(text, len, RG_JSON_MAX_NESTING, &i))
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "schema tags: nesting too deep");
		return false;
	}
	doc = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
	if (doc == NULL || !json_is_array(doc))
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "schema tags: %s",
					 doc ? "not a JSON array" : jerr.text);
		json_decref(doc);
		return false;
	}
	*out = rg_arena_alloc(arena, (json_array_size(doc) + 1) * sizeof(rg_schema_tags));
	if (*out == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		ok = false;
	}
	for (i = 0; ok && i < json_array_size(doc); i++)
		ok = parse_one(arena, json_array_get(doc, i), (int) i, &(*out)[i], err);
	if (ok)
		*n_out = (int) json_array_size(doc);
	json_decref(doc);
	return ok;
}

/* See rg_tags.h */
void
rg_schema_tags_write(rg_buf *buf, const rg_schema_tags *list, int n)
{
	int			i,
				j;

	rg_buf_putc(buf, '[');
	for (i = 0; i < n; i++)
	{
		if (i > 0)
			rg_buf_putc(buf, ',');
		rg_buf_puts(buf, "{\"schemaEntity\":{\"entityPath\":");
		rg_json_write_string(buf, list[i].path);
		rg_buf_puts(buf, ",\"entityType\":\"");
		rg_buf_puts(buf, rg_tag_entity_type_name(list[i].type));
		rg_buf_puts(buf, "\"}");
		if (list[i].n_tags > 0)
		{
			rg_buf_puts(buf, ",\"tags\":[");
			for (j = 0; j < list[i].n_tags; j++)
			{
				if (j > 0)
					rg_buf_putc(buf, ',');
				rg_json_write_string(buf, list[i].tags[j]);
			}
			rg_buf_putc(buf, ']');
		}
		rg_buf_putc(buf, '}');
	}
	rg_buf_putc(buf, ']');
}

/*
 * SchemaEntity's identity: the type and the path without one leading
 * '.' (getNormalizedPath), as a key string.
 */
static const char *
entity_key(rg_arena *arena, const rg_schema_tags *st)
{
	const char *p = st->path[0] == '.' ? st->path + 1 : st->path;
	size_t		n = strlen(p);
	char	   *key = rg_arena_alloc(arena, n + 3);

	if (key == NULL)
		return NULL;
	key[0] = st->type == RG_TAG_RECORD ? 'R' : 'F';
	key[1] = ':';
	memcpy(key + 2, p, n + 1);
	return key;
}

/* Append the tags of st not yet in set to *list (a set in order). */
static bool
merge_tags(rg_arena *arena, str_set *set, const char ***list, int *n, int *cap,
		   const rg_schema_tags *st)
{
	int			i;

	for (i = 0; i < st->n_tags; i++)
	{
		if (set_find(set, st->tags[i]) >= 0)
			continue;
		if (!set_add(set, st->tags[i], *n))
			return false;
		if (*n == *cap)
		{
			int			newcap = *cap ? *cap * 2 : 4;
			const char **bigger = rg_arena_alloc(arena, newcap * sizeof(char *));

			if (bigger == NULL)
				return false;
			if (*n)
				memcpy(bigger, *list, *n * sizeof(char *));
			*list = bigger;
			*cap = newcap;
		}
		(*list)[(*n)++] = st->tags[i];
	}
	return true;
}

/* per change, while merging: the sets behind its two lists */
typedef struct change_sets
{
	str_set		add;
	str_set		remove;
	int			add_cap;
	int			remove_cap;
} change_sets;

/*
 * Merge one list (add or remove) into the changes: a new entity gets the
 * next change, a repeated one merges its tags (schemaTagsListToMap).
 */
static bool
merge_list(rg_arena *arena, str_set *entities, rg_tag_change *changes,
		   change_sets *sets, int *n_changes, const rg_schema_tags *list,
		   int n, bool adding)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		const char *key = entity_key(arena, &list[i]);
		int			c;
		rg_tag_change *ch;
		change_sets *cs;

		if (key == NULL)
			return false;
		c = set_find(entities, key);
		if (c < 0)
		{
			c = (*n_changes)++;
			changes[c].path = list[i].path;
			changes[c].type = list[i].type;
			if (!set_add(entities, key, c) ||
				!set_init(&sets[c].add, arena, 4) ||
				!set_init(&sets[c].remove, arena, 4))
				return false;
		}
		ch = &changes[c];
		cs = &sets[c];
		if (adding ? !merge_tags(arena, &cs->add, &ch->add, &ch->n_add, &cs->add_cap, &list[i])
			: !merge_tags(arena, &cs->remove, &ch->remove, &ch->n_remove, &cs->remove_cap, &list[i]))
			return false;
	}
	return true;
}

/*
 * The changes of a request: the entities of add in first-seen order, then
 * those only in remove (Confluent's LinkedHashSet of both key sets).
 */
static rg_tag_change *
merge_changes(rg_arena *arena, const rg_schema_tags *add, int n_add,
			  const rg_schema_tags *remove, int n_remove, int *n_changes)
{
	rg_tag_change *changes = rg_arena_alloc(arena, (n_add + n_remove + 1) * sizeof(rg_tag_change));
	change_sets *sets = rg_arena_alloc(arena, (n_add + n_remove + 1) * sizeof(change_sets));
	str_set		entities;

	*n_changes = 0;
	if (changes == NULL || sets == NULL || !set_init(&entities, arena, n_add + n_remove))
		return NULL;
	if (!merge_list(arena, &entities, changes, sets, n_changes, add, n_add, true) ||
		!merge_list(arena, &entities, changes, sets, n_changes, remove, n_remove, false))
		return NULL;
	return changes;
}

/* See rg_tags.h */
const char **
rg_tag_path_split(rg_arena *arena, const char *path, int *n)
{
	size_t		len = strlen(path);
	const char **parts = rg_arena_alloc(arena, (len + 2) * sizeof(char *));
	const char *p = path;
	int			count = 0;

	*n = 0;
	if (parts == NULL)
		return NULL;
	if (strchr(path, '.') == NULL)
	{
		parts[0] = path;
		*n = 1;
		return parts;
	}
	for (;;)
	{
		const char *dot = strchr(p, '.');
		size_t		plen = dot ? (size_t) (dot - p) : strlen(p);

		parts[count] = rg_arena_strndup(arena, p, plen);
		if (parts[count] == NULL)
			return NULL;
		count++;
		if (dot == NULL)
			break;
		p = dot + 1;
	}
	while (count > 0 && parts[count - 1][0] == '\0')
		count--;
	*n = count;
	return parts;
}

/* See rg_tags.h */
const char **
rg_tag_apply(rg_arena *arena, const char *const *cur, int n_cur,
			 const rg_tag_change *change, int *n)
{
	const char **all = rg_arena_alloc(arena, (n_cur + change->n_add + 1) * sizeof(char *));
	str_set		seen;
	str_set		drop;
	int			n_all = 0;
	int			i;

	*n = 0;
	if (all == NULL || !set_init(&seen, arena, n_cur + change->n_add) ||
		!set_init(&drop, arena, change->n_remove))
		return NULL;
	for (i = 0; i < change->n_remove; i++)
		if (!set_add(&drop, change->remove[i], i))
			return NULL;
	for (i = 0; i < n_cur + change->n_add; i++)
	{
		const char *t = i < n_cur ? cur[i] : change->add[i - n_cur];

		if (set_find(&seen, t) >= 0)
			continue;
		if (!set_add(&seen, t, i))
			return NULL;
		if (set_find(&drop, t) < 0)
			all[n_all++] = t;
	}
	*n = n_all;
	return all;
}

/* a copy of n bytes of text on rg_malloc, NUL-terminated */
static char *
copy_text(const char *text, size_t n, size_t *out_len, rg_error *err)
{
	char	   *s = rg_malloc(n + 1);

	if (s == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return NULL;
	}
	memcpy(s, text, n);
	s[n] = '\0';
	if (out_len)
		*out_len = n;
	return s;
}

/* The format's rewrite of the stored form (text, len) with the changes, into out. */
static bool
apply_changes(const rg_schema *schema, rg_arena *arena, const char *text,
			  size_t len, const rg_tag_change *changes, int n_changes,
			  rg_buf *out, rg_error *err)
{
	const rg_format *format = schema->format;

	if (format->apply_tags != NULL)
		return format->apply_tags(schema, arena, text, len, changes, n_changes,
								  out, err);
	rg_error_set(err, RG_ERR_INVALID_SCHEMA, "schema tags are not supported for %s schemas",
				 format->name);
	return false;
}

/* See rg_tags.h */
bool
rg_schema_rewrite_tags(const rg_schema *schema, const rg_schema_tags *add,
					   int n_add, const rg_schema_tags *remove, int n_remove,
					   rg_buf *out, rg_error *err)
{
	rg_arena   *arena = rg_arena_create();
	rg_tag_change *changes = NULL;
	int			n_changes = 0;
	bool		ok = false;
	rg_buf		stored;
	const char *text = NULL;
	size_t		len = 0;

	rg_buf_init(&stored);
	if (arena != NULL)
		changes = merge_changes(arena, add, n_add, remove, n_remove, &n_changes);
	if (changes != NULL)
		text = rg_schema_text(schema, &stored, &len);
	if (changes == NULL || text == NULL)
		rg_error_set(err, stored.too_deep ? RG_ERR_INVALID_SCHEMA : RG_ERR_NOMEM,
					 stored.too_deep ? "schema too deeply nested" : "out of memory");
	else if (n_changes == 0)
	{
		rg_buf_append(out, text, len);
		ok = true;
	}
	else
		ok = apply_changes(schema, arena, text, len, changes, n_changes, out, err);
	rg_buf_free(&stored);
	if (ok && out->oom)
	{
		rg_error_set(err, out->too_deep ? RG_ERR_INVALID_SCHEMA : RG_ERR_NOMEM,
					 out->too_deep ? "schema too deeply nested" : "out of memory");
		ok = false;
	}
	if (arena)
		rg_arena_destroy(arena);
	return ok;
}

/* See rg_tags.h */
char *
rg_schema_with_tags(const rg_format *format, const char *text, size_t len,
					const rg_reference *refs, int n_refs,
					const rg_schema_tags *add, int n_add,
					const rg_schema_tags *remove, int n_remove,
					size_t *out_len, rg_error *err)
{
	rg_schema  *schema;
	rg_schema  *again = NULL;
	rg_buf		out;
	char	   *result = NULL;

	rg_error_clear(err);
	schema = format->parse(text, len, refs, n_refs, false, err);
	if (schema == NULL)
		return NULL;
	rg_buf_init(&out);
	if (rg_schema_rewrite_tags(schema, add, n_add, remove, n_remove, &out, err) &&
		(again = format->parse(out.data, out.len, refs, n_refs, false, err)) != NULL)
		result = copy_text(again->canonical, again->canonical_len, out_len, err);
	rg_schema_free(again);
	rg_schema_free(schema);
	rg_buf_free(&out);
	return result;
}

/* Does entity e have one of the tags in find? */
static bool
entity_matches(const rg_schema_tags *e, const str_set *find)
{
	int			j;

	for (j = 0; j < e->n_tags; j++)
		if (set_find(find, e->tags[j]) >= 0)
			return true;
	return false;
}

/* See rg_tags.h */
bool
rg_schema_tagged_entities(const rg_schema *schema, rg_arena *arena,
						  const char *const *find, int n_find,
						  rg_schema_tags **out, int *n_out, rg_error *err)
{
	rg_schema_tags *all;
	int			n_all;
	int			i;
	str_set		wanted;

	*out = NULL;
	*n_out = 0;

	/*
	 * ParsedSchema's default: no tagged entities (only AvroSchema has its
	 * own)
	 */
	if (schema->format->tagged_entities == NULL)
		return true;
	if (!schema->format->tagged_entities(schema, arena, &all, &n_all, err))
		return false;
	*out = all;
	for (i = 0; i < n_find; i++)
		if (strcmp(find[i], "*") == 0)
			n_find = 0;			/* "*" matches every entity */
	if (!set_init(&wanted, arena, n_find))
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	for (i = 0; i < n_find; i++)
		if (!set_add(&wanted, find[i], i))
		{
			rg_error_set(err, RG_ERR_NOMEM, "out of memory");
			return false;
		}
	if (n_find == 0)
	{
		*n_out = n_all;
		return true;
	}
	for (i = 0; i < n_all; i++)
	{
		rg_check_interrupts();
		if (entity_matches(&all[i], &wanted))
			all[(*n_out)++] = all[i];
	}
	return true;
}
