/*-------------------------------------------------------------------------
 *
 * avro_tags.c
 *	  Schema tags of an Avro schema, as Confluent's AvroSchema handles them:
 *	  - the rewrite (copy(tagsToAdd, tagsToRemove)) works on the JSON of the
 *		stored form: each entity found by AvroSchemaUtils.findMatchingEntity's
 *		breadth-first search (a record by namespace and simple name, the
 *		namespace inherited down the JSON as Avro writes it; a field in its
 *		record's "fields"), its "confluent:tags" array replaced in place,
 *		appended to the object when new, removed when empty;
 *	  - inlineTaggedEntities() walks the parsed model: each record once (by
 *		full name), its tags, then each field's tags and type.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_tags.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "rg_avro.h"

#define TAGS_PROP "confluent:tags"

/* Jackson's asText() of a value as tags are read: "" for a container. */
static const char *
as_text(rg_arena *arena, const json_t *v)
{
	if (json_is_object(v) || json_is_array(v))
		return "";
	return rg_json_scalar_text(arena, v);
}

/* a JSON value queued by the search, with the namespace in force there */
typedef struct bfs_item
{
	json_t	   *node;
	const char *space;			/* NULL: none */
} bfs_item;

/* the search's queue */
typedef struct bfs_queue
{
	bfs_item   *items;
	size_t		head;
	size_t		n;
	size_t		cap;
} bfs_queue;

/* Queue node (JsonNodeWithNS: its own "namespace" or the parent's). */
static bool
enqueue(bfs_queue *q, json_t *node, const char *parent_space)
{
	json_t	   *ns;

	if (node == NULL)
		return true;
	if (q->n == q->cap)
	{
		size_t		cap = q->cap ? q->cap * 2 : 64;
		bfs_item   *bigger = rg_realloc(q->items, cap * sizeof(bfs_item));

		if (bigger == NULL)
			return false;
		q->items = bigger;
		q->cap = cap;
	}
	ns = json_is_object(node) ? json_object_get(node, "namespace") : NULL;
	q->items[q->n].node = node;
	q->items[q->n].space = ns ? (json_is_string(ns) ? json_string_value(ns) : "") : parent_space;
	q->n++;
	return true;
}

/* Queue every element of a container (an object's values, an array's items). */
static bool
enqueue_elements(bfs_queue *q, json_t *node, const char *space)
{
	size_t		i;
	const char *key;
	json_t	   *v;

	if (json_is_array(node))
	{
		for (i = 0; i < json_array_size(node); i++)
			if (!enqueue(q, json_array_get(node, i), space))
				return false;
	}
	else if (json_is_object(node))
	{
		json_object_foreach(node, key, v)
			if (!enqueue(q, v, space))
			return false;
	}
	return true;
}

/* the parts of an entity path the search matches */
typedef struct entity_ref
{
	const char *space;			/* "" matches any namespace */
	const char *record;
	const char *field;			/* NULL for a record */
} entity_ref;

/* jackson's get(key).asText() of an object member, "" when absent */
static const char *
member_text(rg_arena *arena, json_t *obj, const char *key)
{
	json_t	   *v = json_object_get(obj, key);

	return v ? as_text(arena, v) : "";
}

/*
 * Visit one record node of the search: the entity itself, the field of
 * it, or (another record) its fields queued.  *found is set on a match.
 */
static bool
visit_record(rg_arena *arena, bfs_queue *q, const bfs_item *cur,
			 const entity_ref *ref, json_t **found)
{
	json_t	   *fields = json_object_get(cur->node, "fields");
	const char *name = member_text(arena, cur->node, "name");
	size_t		i;

	if (name && strcmp(name, ref->record) == 0 &&
		(ref->space[0] == '\0' || (cur->space && strcmp(ref->space, cur->space) == 0)))
	{
		if (ref->field == NULL)
		{
			*found = cur->node;
			return true;
		}
		for (i = 0; i < json_array_size(fields); i++)
		{
			json_t	   *f = json_array_get(fields, i);
			const char *fname = json_is_object(f) ? member_text(arena, f, "name") : "";

			if (fname && strcmp(fname, ref->field) == 0)
			{
				*found = f;
				return true;
			}
		}
		return true;
	}
	return enqueue_elements(q, fields, cur->space);
}

/*
 * AvroSchemaUtils.findMatchingEntity over the JSON document: NULL with
 * err set when the path names nothing.
 */
static json_t *
find_entity(rg_arena *arena, json_t *doc, const rg_tag_change *change, rg_error *err)
{
	int			n;
	const char **ids = rg_tag_path_split(arena, change->path, &n);
	int			keep = change->type == RG_TAG_RECORD ? 1 : 2;
	entity_ref	ref;
	bfs_queue	q = {0};
	json_t	   *found = NULL;
	bool		ok;
	rg_buf		space;
	int			i;

	if (ids == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return NULL;
	}
	if (n < keep)
	{
		/* Arrays.copyOfRange(identifiers, 0, n - keep) */
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "0 > %d", n - keep);
		return NULL;
	}
	rg_buf_init(&space);
	for (i = 0; i < n - keep; i++)
	{
		if (i > 0)
			rg_buf_putc(&space, '.');
		rg_buf_puts(&space, ids[i]);
	}
	rg_buf_putc(&space, '\0');
	ref.space = space.oom ? NULL : rg_arena_strdup(arena, space.data);
	rg_buf_free(&space);
	ref.record = ids[n - keep];
	ref.field = keep == 2 ? ids[n - 1] : NULL;
	ok = ref.space != NULL && enqueue(&q, doc, NULL);
	while (ok && found == NULL && q.head < q.n)
	{
		bfs_item	cur = q.items[q.head++];
		json_t	   *type = json_is_object(cur.node) ? json_object_get(cur.node, "type") : NULL;
		const char *tname;

		if ((q.head & 1023) == 0)
			rg_check_interrupts();
		if (type == NULL)
		{
			ok = enqueue_elements(&q, cur.node, cur.space);
			continue;
		}
		tname = as_text(arena, type);
		if (tname == NULL)
			ok = false;
		else if (strcmp(tname, "record") == 0)
			ok = visit_record(arena, &q, &cur, &ref, &found);
		else if (strcmp(tname, "array") == 0)
			ok = enqueue(&q, json_object_get(cur.node, "items"), cur.space);
		else if (strcmp(tname, "map") == 0)
			ok = enqueue(&q, json_object_get(cur.node, "values"), cur.space);
		else
			ok = enqueue(&q, type, cur.space);
	}
	rg_free(q.items);
	if (!ok)
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	else if (found == NULL)
		rg_error_set(err, RG_ERR_INVALID_SCHEMA,
					 "No matching path '%s' found in the schema", change->path);
	return ok ? found : NULL;
}

/* Set node's tags to the change applied to the tags it has. */
static bool
change_entity(rg_arena *arena, json_t *node, const rg_tag_change *change, rg_error *err)
{
	json_t	   *cur = json_object_get(node, TAGS_PROP);
	const char **have = NULL;
	const char **tags;
	json_t	   *arr;
	int			n_have = 0;
	int			n;
	size_t		i;

	if (cur != NULL && !json_is_array(cur))
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "%s of '%s' is not an array",
					 TAGS_PROP, change->path);
		return false;
	}
	if (cur != NULL)
	{
		have = rg_arena_alloc(arena, (json_array_size(cur) + 1) * sizeof(char *));
		if (have == NULL)
			goto oom;
		for (i = 0; i < json_array_size(cur); i++)
			if ((have[n_have++] = as_text(arena, json_array_get(cur, i))) == NULL)
				goto oom;
	}
	tags = rg_tag_apply(arena, have, n_have, change, &n);
	if (tags == NULL)
		goto oom;
	if (n == 0)
	{
		json_object_del(node, TAGS_PROP);
		return true;
	}
	arr = json_array();
	if (arr == NULL)
		goto oom;
	for (i = 0; i < (size_t) n; i++)
		if (json_array_append_new(arr, json_string(tags[i])) != 0)
		{
			json_decref(arr);
			goto oom;
		}
	if (json_object_set_new(node, TAGS_PROP, arr) == 0)
		return true;
oom:
	rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	return false;
}

/* See rg_tags.h */
bool
rg_avro_apply_tags(const rg_schema *schema, rg_arena *arena,
				   const char *canonical, size_t len,
				   const rg_tag_change *changes, int n_changes, rg_buf *out,
				   rg_error *err)
{
	json_error_t jerr;
	json_t	   *doc = json_loadb(canonical, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	bool		ok = doc != NULL;
	int			i;

	if (doc == NULL)
		rg_error_set(err, RG_ERR_INTERNAL, "stored form does not load: %s", jerr.text);
	for (i = 0; ok && i < n_changes; i++)
	{
		json_t	   *node;

		rg_check_interrupts();
		node = find_entity(arena, doc, &changes[i], err);

		ok = node != NULL && change_entity(arena, node, &changes[i], err);
	}
	if (ok)
		rg_json_write_value(out, doc);
	json_decref(doc);
	return ok;
}

/* the entities found so far, and the records already walked */
typedef struct entity_walk
{
	rg_arena   *arena;
	rg_schema_tags *list;
	int			n;
	int			cap;
	const void **visited;		/* records walked: a set of addresses */
	int			n_visited;
	int			visited_cap;
} entity_walk;

static bool drop_repeated_tags(rg_arena *arena, const char **tags, int *n);

/*
 * getInlineTags: the tags of a "confluent:tags" property that is an
 * array (each element's toString(), duplicates dropped), else none.
 */
static bool
prop_tags(entity_walk *w, const rg_avro_prop *props, int n_props,
		  const char ***tags, int *n_tags)
{
	int			i;
	size_t		j;

	*tags = NULL;
	*n_tags = 0;
	for (i = 0; i < n_props; i++)
	{
		const json_t *v = props[i].value;

		if (strcmp(props[i].key, TAGS_PROP) != 0 || !json_is_array(v))
			continue;
		*tags = rg_arena_alloc(w->arena, (json_array_size(v) + 1) * sizeof(char *));
		if (*tags == NULL)
			return false;
		for (j = 0; j < json_array_size(v); j++)
		{
			const json_t *e = json_array_get(v, j);
			const char *t;

			if (json_is_object(e) || json_is_array(e) || json_is_null(e))
				continue;
			t = as_text(w->arena, e);
			if (t == NULL)
				return false;
			(*tags)[(*n_tags)++] = t;
		}
	}
	return drop_repeated_tags(w->arena, *tags, n_tags);
}

/* A tag and where it stands in its list, for drop_repeated_tags. */
typedef struct placed_tag
{
	const char *tag;
	int			at;
} placed_tag;

/* qsort order of placed tags: by text, then by place. */
static int
cmp_placed(const void *a, const void *b)
{
	const placed_tag *x = a;
	const placed_tag *y = b;
	int			c = strcmp(x->tag, y->tag);

	return c != 0 ? c : (x->at > y->at) - (x->at < y->at);
}

/*
 * Keep each tag's first occurrence, in order (a Java LinkedHashSet of
 * them), in n log n: the list sorted by text marks the later repeats.
 */
static bool
drop_repeated_tags(rg_arena *arena, const char **tags, int *n)
{
	placed_tag *sorted;
	bool	   *repeat;
	int			i,
				kept = 0;

	if (*n < 2)
		return true;
	sorted = rg_arena_alloc(arena, *n * sizeof(placed_tag));
	repeat = rg_arena_alloc(arena, *n * sizeof(bool));
	if (sorted == NULL || repeat == NULL)
		return false;
	for (i = 0; i < *n; i++)
	{
		sorted[i].tag = tags[i];
		sorted[i].at = i;
		repeat[i] = false;
	}
	qsort(sorted, *n, sizeof(placed_tag), cmp_placed);
	for (i = 1; i < *n; i++)
		if (strcmp(sorted[i].tag, sorted[i - 1].tag) == 0)
			repeat[sorted[i].at] = true;
	for (i = 0; i < *n; i++)
		if (!repeat[i])
			tags[kept++] = tags[i];
	*n = kept;
	return true;
}

/* Add an entity with its tags when it has any. */
static bool
add_entity(entity_walk *w, const char *path, rg_tag_entity_type type,
		   const rg_avro_prop *props, int n_props)
{
	const char **tags;
	int			n_tags;

	if (!prop_tags(w, props, n_props, &tags, &n_tags))
		return false;
	if (n_tags == 0)
		return true;
	if (w->n == w->cap)
	{
		int			cap = w->cap ? w->cap * 2 : 8;
		rg_schema_tags *bigger = rg_arena_alloc(w->arena, cap * sizeof(rg_schema_tags));

		if (bigger == NULL)
			return false;
		if (w->n)
			memcpy(bigger, w->list, w->n * sizeof(rg_schema_tags));
		w->list = bigger;
		w->cap = cap;
	}
	w->list[w->n].path = path;
	w->list[w->n].type = type;
	w->list[w->n].tags = tags;
	w->list[w->n].n_tags = n_tags;
	w->n++;
	return true;
}

/*
 * Was the record walked already (by full name, as Confluent's visited set;
 * each named type is one rg_avro_schema, so its address stands for the
 * name)?  If not, it is marked as walked now.
 */
static bool
seen_record(entity_walk *w, const rg_avro_schema *s, bool *oom)
{
	size_t		h;

	if ((size_t) (w->n_visited + 1) * 2 > (size_t) w->visited_cap)
	{
		int			cap = w->visited_cap ? w->visited_cap * 2 : 64;
		const void **bigger = rg_arena_alloc(w->arena, cap * sizeof(void *));
		int			i;

		if (bigger == NULL)
		{
			*oom = true;
			return true;
		}
		for (i = 0; i < w->visited_cap; i++)
			if (w->visited[i])
			{
				h = ((uintptr_t) w->visited[i] >> 4) &(size_t) (cap - 1);
				while (bigger[h])
					h = (h + 1) & (size_t) (cap - 1);
				bigger[h] = w->visited[i];
			}
		w->visited = bigger;
		w->visited_cap = cap;
	}
	h = ((uintptr_t) s >> 4) & (size_t) (w->visited_cap - 1);
	while (w->visited[h] && w->visited[h] != s)
		h = (h + 1) & (size_t) (w->visited_cap - 1);
	if (w->visited[h])
		return true;
	w->visited[h] = s;
	w->n_visited++;
	return false;
}

/* getInlineTaggedEntitiesRecursively; false on out of memory or too deep */
static bool
walk_entities(entity_walk *w, const rg_avro_schema *s, int depth)
{
	int			i;
	bool		oom = false;

	if (rg_too_deep(depth))
		return false;
	switch (s->type)
	{
		case RG_AVRO_UNION:
			for (i = 0; i < s->n_branches; i++)
				if (!walk_entities(w, s->branches[i], depth + 1))
					return false;
			return true;
		case RG_AVRO_ARRAY:
		case RG_AVRO_MAP:
			return walk_entities(w, s->items, depth + 1);
		case RG_AVRO_RECORD:
			if (seen_record(w, s, &oom))
				return !oom;
			if (!add_entity(w, s->fullname, RG_TAG_RECORD, s->props, s->n_props))
				return false;
			for (i = 0; i < s->n_fields; i++)
			{
				const rg_avro_field *f = &s->fields[i];
				size_t		n = strlen(s->fullname) + strlen(f->name) + 2;
				char	   *path = rg_arena_alloc(w->arena, n);

				if (path == NULL)
					return false;
				snprintf(path, n, "%s.%s", s->fullname, f->name);
				if (!add_entity(w, path, RG_TAG_FIELD, f->extra->props, f->extra->n_props) ||
					!walk_entities(w, f->type, depth + 1))
					return false;
			}
			return true;
		default:
			return true;
	}
}

/* See rg_tags.h */
bool
rg_avro_tagged_entities(const rg_schema *schema, rg_arena *arena,
						rg_schema_tags **out, int *n_out, rg_error *err)
{
	const rg_avro_parsed *parsed = schema->model;
	entity_walk w = {arena};

	if (!walk_entities(&w, parsed->root, 0))
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory or schema too deeply nested");
		return false;
	}
	*out = w.list;
	*n_out = w.n;
	return true;
}
