/*-------------------------------------------------------------------------
 *
 * rg_fields.c
 *	  The list of a schema's fields that each format's fields slot fills.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_fields.h"
#include "rg_alloc.h"

#include <stdio.h>
#include <string.h>

/* See rg_fields.h */
void
rg_field_list_init(rg_field_list *list, rg_arena *arena)
{
	memset(list, 0, sizeof(*list));
	list->arena = arena;
}

/* s copied into the arena (NULL stays NULL); marks the list failed on out of memory */
static const char *
keep(rg_field_list *list, const char *s)
{
	char	   *copy;

	if (s == NULL)
		return NULL;
	copy = rg_arena_strdup(list->arena, s);
	if (copy == NULL)
		list->failed = true;
	return copy;
}

/* See rg_fields.h */
bool
rg_field_list_add(rg_field_list *list, const rg_field_info *f)
{
	rg_field_info *to;
	int			i;

	if (list->failed || list->truncated)
		return false;
	if (list->n == RG_MAX_FIELDS)
	{
		list->truncated = true;
		return false;
	}
	if (list->n == list->cap)
	{
		int			cap = list->cap ? list->cap * 2 : 32;
		rg_field_info *items = rg_realloc(list->items, sizeof(*items) * cap);

		if (items == NULL)
		{
			list->failed = true;
			return false;
		}
		list->items = items;
		list->cap = cap;
	}
	to = &list->items[list->n];
	to->path = keep(list, f->path);
	to->name = keep(list, f->name);
	to->record = keep(list, f->record);
	to->type = keep(list, f->type);
	to->doc = keep(list, f->doc);
	to->default_json = keep(list, f->default_json);
	to->logical_type = keep(list, f->logical_type);
	to->n_tags = 0;
	to->tags = f->n_tags > 0 ? rg_arena_alloc(list->arena, sizeof(char *) * f->n_tags) : NULL;
	if (f->n_tags > 0 && to->tags == NULL)
		list->failed = true;
	for (i = 0; to->tags != NULL && i < f->n_tags; i++)
		to->tags[to->n_tags++] = keep(list, f->tags[i]);
	if (list->failed)
		return false;
	list->n++;
	return true;
}

/* See rg_fields.h */
const char *
rg_field_path(rg_field_list *list, const char *path, const char *name)
{
	size_t		len = strlen(path) + strlen(name) + 2;
	char	   *s = rg_arena_alloc(list->arena, len);

	if (s == NULL)
	{
		list->failed = true;
		return NULL;
	}
	if (path[0])
		snprintf(s, len, "%s.%s", path, name);
	else
		snprintf(s, len, "%s", name);
	return s;
}

/* See rg_fields.h */
void
rg_field_list_free(rg_field_list *list)
{
	rg_free(list->items);
	list->items = NULL;
	list->n = list->cap = 0;
}
