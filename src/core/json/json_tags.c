/*-------------------------------------------------------------------------
 *
 * json_tags.c
 *	  Schema tags of a JSON Schema, as Confluent's JsonSchema rewrites them
 *	  (copy(tagsToAdd, tagsToRemove)): each entity found by
 *	  JsonSchemaUtils.findMatchingEntity's walk of its path over the
 *	  document, its "confluent:tags" array replaced in place, appended when
 *	  new, removed when empty; the document then written as its stored form.
 *
 * The path is a list of steps: "object" then a property name (or
 * "definitions" / "$defs" then a definition name; a name with dots takes
 * as many parts as it needs to be a member), "array" (the items),
 * "anyof" / "allof" / "oneof" then a sub-schema index, "allof.N.
 * conditional.then" style steps for if/then/else, "not".  An sr_record
 * path ends at an "object".
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <string.h>

#include "rg_tags.h"

#define TAGS_KEY "confluent:tags"

/* the parts of a path: Java's split("\\.") with where each part starts */
typedef struct path_parts
{
	const char *path;
	const char **part;
	size_t	   *start;			/* offset of each part in path */
	int			n;
	size_t		end;			/* end of the last part kept */
	int			next;			/* the queue's head (poll / peek) */
} path_parts;

/* Split path as String.split("\\.") does: trailing empty parts dropped. */
static bool
split_parts(rg_arena *arena, const char *path, path_parts *pp)
{
	size_t		len = strlen(path);
	size_t		at = 0;
	int			n = 0;

	pp->path = path;
	pp->next = 0;
	pp->part = rg_arena_alloc(arena, (len + 2) * sizeof(char *));
	pp->start = rg_arena_alloc(arena, (len + 2) * sizeof(size_t));
	if (pp->part == NULL || pp->start == NULL)
		return false;
	for (;;)
	{
		const char *dot = strchr(path + at, '.');
		size_t		plen = dot ? (size_t) (dot - (path + at)) : strlen(path + at);

		pp->start[n] = at;
		pp->part[n] = rg_arena_strndup(arena, path + at, plen);
		if (pp->part[n] == NULL)
			return false;
		n++;
		if (dot == NULL)
			break;
		at += plen + 1;
	}
	if (n > 1)
		while (n > 0 && pp->part[n - 1][0] == '\0')
			n--;
	pp->n = n;
	pp->end = n > 0 ? pp->start[n - 1] + strlen(pp->part[n - 1]) : 0;
	return true;
}

/* LinkedList.poll(): the next part, NULL when none are left */
static const char *
poll(path_parts *pp)
{
	return pp->next < pp->n ? pp->part[pp->next++] : NULL;
}

/* LinkedList.peek() */
static const char *
peek(const path_parts *pp)
{
	return pp->next < pp->n ? pp->part[pp->next] : NULL;
}

/*
 * findNodeFromNameBuilder: the member of obj named by the fewest next
 * parts joined with '.' (one pass over the members: such a name is a
 * prefix of the rest of the path ending where a part ends), those parts
 * consumed; NULL (every part consumed) when no member is.
 */
static jx  *
member_by_parts(const jx *obj, path_parts *pp)
{
	const char *rest;
	size_t		rest_len;
	const jx_member *best = NULL;
	int			i;

	if (pp->next >= pp->n || obj == NULL)
		return NULL;
	rest = pp->path + pp->start[pp->next];
	rest_len = pp->end - pp->start[pp->next];
	if (obj->type == JX_OBJECT)
		for (i = 0; i < obj->n; i++)
		{
			const jx_member *m = &obj->members[i];

			if (m->key_len <= rest_len && memcmp(m->key, rest, m->key_len) == 0 &&
				(m->key_len == rest_len || rest[m->key_len] == '.') &&
				(best == NULL || m->key_len < best->key_len))
				best = m;
		}
	if (best == NULL)
	{
		pp->next = pp->n;
		return NULL;
	}
	/* consume the parts the name spans */
	{
		size_t		name_end = (size_t) (rest - pp->path) + best->key_len;

		while (pp->next < pp->n && pp->start[pp->next] <= name_end)
			pp->next++;
	}
	return best->value;
}

/*
 * findSubSchemasFromIndex: sub-schema N of a composition.  Confluent first
 * sorts them with its JsonSchemaComparator, which this code does not
 * reproduce: only a composition of one sub-schema (where order cannot
 * matter) is followed.
 */
static jx  *
sub_schema(const jx *node, const char *keyword, path_parts *pp, bool *unsupported)
{
	const jx   *list = jx_get(node, keyword);
	const char *index = poll(pp);

	if (index == NULL || list == NULL || list->type != JX_ARRAY)
		return NULL;
	if (list->n > 1)
	{
		*unsupported = true;
		return NULL;
	}
	return strcmp(index, "0") == 0 && list->n == 1 ? list->items[0] : NULL;
}

/* findNodeHelper, as a loop: the node the path names, or NULL. */
static jx  *
find_node(jx *node, rg_tag_entity_type type, path_parts *pp, bool *unsupported)
{
	for (;;)
	{
		const char *step = poll(pp);
		const char *word;
		jx		   *result;

		if (step == NULL || node == NULL)
			return NULL;
		if (strcmp(step, "object") == 0)
		{
			if (type == RG_TAG_RECORD && peek(pp) == NULL)
				return node;
			word = peek(pp);
			if (word == NULL)
				return NULL;
			if (strcmp(word, "definitions") == 0 || strcmp(word, "$defs") == 0)
			{
				poll(pp);
				result = member_by_parts(jx_get(node, word), pp);
			}
			else
				result = member_by_parts(jx_get(node, "properties"), pp);
			if (result == NULL || peek(pp) == NULL)
				return result;
			node = result;
		}
		else if (strcmp(step, "array") == 0)
			node = jx_get(node, "items");
		else if (strcmp(step, "anyof") == 0)
		{
			if (jx_get(node, "anyOf") != NULL)
				node = sub_schema(node, "anyOf", pp, unsupported);
			else
				poll(pp);		/* "type": ["null", "object"] */
		}
		else if (strcmp(step, "allof") == 0)
		{
			if (jx_get(node, "allOf") != NULL)
				node = sub_schema(node, "allOf", pp, unsupported);
			else
			{
				poll(pp);
				word = peek(pp);
				if (word != NULL && strcmp(word, "conditional") == 0)
				{
					const char *branch;

					poll(pp);
					branch = poll(pp);
					node = branch ? jx_get(node, branch) : NULL;
				}
			}
		}
		else if (strcmp(step, "oneof") == 0)
			node = sub_schema(node, "oneOf", pp, unsupported);
		else if (strcmp(step, "not") == 0)
			node = jx_get(node, "not");
		else
			return NULL;
	}
}

/* Jackson's asText() of a tag as it is read: "" for a container. */
static const char *
tag_text(rg_arena *arena, const jx *v)
{
	rg_buf		buf;
	char	   *s;

	switch (v->type)
	{
		case JX_STRING:
		case JX_SPECIAL:
			return v->text;
		case JX_TRUE:
			return "true";
		case JX_FALSE:
			return "false";
		case JX_NULL:
			return "null";
		case JX_INT:
		case JX_DECIMAL:
			rg_buf_init(&buf);
			jx_render_number(&buf, v);
			s = buf.oom ? NULL : rg_arena_strndup(arena, buf.data, buf.len);
			rg_buf_free(&buf);
			return s;
		default:
			return "";
	}
}

/* A new JSON string value in arena. */
static jx  *
new_string(rg_arena *arena, const char *s)
{
	jx		   *v = rg_arena_alloc(arena, sizeof(jx));

	if (v == NULL)
		return NULL;
	v->type = JX_STRING;
	v->text = s;
	v->len = strlen(s);
	return v;
}

/* ObjectNode.replace / remove of the tags member of obj */
static bool
set_tags(rg_arena *arena, jx *obj, jx *tags)
{
	size_t		klen = strlen(TAGS_KEY);
	int			i;
	jx_member  *members;

	for (i = 0; i < obj->n; i++)
		if (obj->members[i].key_len == klen && memcmp(obj->members[i].key, TAGS_KEY, klen) == 0)
			break;
	if (i < obj->n && tags != NULL)
	{
		obj->members[i].value = tags;
		return true;
	}
	if (i < obj->n)
	{
		memmove(&obj->members[i], &obj->members[i + 1], (obj->n - i - 1) * sizeof(jx_member));
		obj->n--;
		return true;
	}
	if (tags == NULL)
		return true;
	members = rg_arena_alloc(arena, (obj->n + 1) * sizeof(jx_member));
	if (members == NULL)
		return false;
	if (obj->n)
		memcpy(members, obj->members, obj->n * sizeof(jx_member));
	members[obj->n].key = TAGS_KEY;
	members[obj->n].key_len = klen;
	members[obj->n].value = tags;
	obj->members = members;
	obj->n++;
	return true;
}

/* Set node's tags to the change applied to the tags it has. */
static bool
change_entity(rg_arena *arena, jx *node, const rg_tag_change *change, rg_error *err)
{
	const jx   *cur = jx_get(node, TAGS_KEY);
	const char **have = NULL;
	const char **tags;
	jx		   *arr = NULL;
	int			n_have = 0;
	int			n;
	int			i;

	if (cur != NULL && cur->type != JX_ARRAY)
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "%s of '%s' is not an array",
					 TAGS_KEY, change->path);
		return false;
	}
	if (cur != NULL)
	{
		have = rg_arena_alloc(arena, (cur->n + 1) * sizeof(char *));
		if (have == NULL)
			goto oom;
		for (i = 0; i < cur->n; i++)
			if ((have[n_have++] = tag_text(arena, cur->items[i])) == NULL)
				goto oom;
	}
	tags = rg_tag_apply(arena, have, n_have, change, &n);
	if (tags == NULL)
		goto oom;
	if (n > 0)
	{
		arr = rg_arena_alloc(arena, sizeof(jx));
		if (arr == NULL || (arr->items = rg_arena_alloc(arena, n * sizeof(jx *))) == NULL)
			goto oom;
		arr->type = JX_ARRAY;
		arr->n = n;
		for (i = 0; i < n; i++)
			if ((arr->items[i] = new_string(arena, tags[i])) == NULL)
				goto oom;
	}
	if (set_tags(arena, node, arr))
		return true;
oom:
	rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	return false;
}

/* The object an entity's path names; NULL with err set. */
static jx  *
find_entity(rg_arena *arena, jx *root, const rg_tag_change *change, rg_error *err)
{
	path_parts	pp;
	bool		unsupported = false;
	jx		   *node;

	if (!split_parts(arena, change->path, &pp))
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return NULL;
	}
	node = find_node(root, change->type, &pp, &unsupported);
	if (unsupported)
		rg_error_set(err, RG_ERR_INVALID_SCHEMA,
					 "tags under anyOf, allOf or oneOf of more than one schema are not supported ('%s')",
					 change->path);
	else if (node == NULL)
		rg_error_set(err, RG_ERR_INVALID_SCHEMA,
					 "No matching path '%s' found in the schema", change->path);
	else if (node->type != JX_OBJECT)
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA,
					 "path '%s' names a schema that is not an object", change->path);
		node = NULL;
	}
	return unsupported ? NULL : node;
}

/* See rg_tags.h */
bool
rg_json_apply_tags(const rg_schema *schema, rg_arena *arena,
				   const char *canonical, size_t len,
				   const rg_tag_change *changes, int n_changes, rg_buf *out,
				   rg_error *err)
{
	jx		   *root = jx_parse(arena, canonical, len, err);
	int			i;

	if (root == NULL)
		return false;
	for (i = 0; i < n_changes; i++)
	{
		jx		   *node;

		rg_check_interrupts();
		node = find_entity(arena, root, &changes[i], err);

		if (node == NULL || !change_entity(arena, node, &changes[i], err))
			return false;
	}
	if (!jx_render(out, root, false))
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory or schema too deeply nested");
		return false;
	}
	return true;
}
