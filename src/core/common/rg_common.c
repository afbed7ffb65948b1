/*-------------------------------------------------------------------------
 *
 * rg_common.c
 *	  Error values, arena-backed string lists and text buffers on the core's handlers.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rg_stack_check_fn rg_stack_check_hook = NULL;

/* See rg_common.h */
bool
rg_too_deep(int depth)
{
	if (depth > RG_MAX_RECURSION)
		return true;
	return rg_stack_check_hook != NULL && rg_stack_check_hook();
}

/* See rg_common.h */
void
rg_error_set(rg_error *err, rg_errcode code, const char *fmt,...)
{
	va_list		ap;

	if (err == NULL)
		return;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

/* Reset err to no error (a NULL err is allowed). */
void
rg_error_clear(rg_error *err)
{
	if (err == NULL)
		return;
	err->code = RG_OK;
	err->message[0] = '\0';
}

/* An empty list whose storage comes from arena. */
void
rg_strlist_init(rg_strlist *list, rg_arena *arena)
{
	list->arena = arena;
	list->items = NULL;
	list->n = 0;
	list->cap = 0;
}

/* Grow by doubling; the old array stays in the arena until it dies. */
static bool
strlist_reserve(rg_strlist *list)
{
	char	  **items;
	int			cap;

	if (list->n < list->cap)
		return true;
	cap = list->cap ? list->cap * 2 : 8;
	items = rg_arena_alloc(list->arena, sizeof(char *) * cap);
	if (items == NULL)
		return false;
	if (list->n)
		memcpy(items, list->items, sizeof(char *) * list->n);
	list->items = items;
	list->cap = cap;
	return true;
}

/* See rg_common.h */
bool
rg_strlist_push(rg_strlist *list, const char *s)
{
	char	   *copy;

	if (!strlist_reserve(list))
		return false;
	copy = rg_arena_strdup(list->arena, s);
	if (copy == NULL)
		return false;
	list->items[list->n++] = copy;
	return true;
}

/* Append a printf-formatted string; false on out-of-memory. */
bool
rg_strlist_pushf(rg_strlist *list, const char *fmt,...)
{
	va_list		ap;
	int			n;
	char	   *copy;

	if (!strlist_reserve(list))
		return false;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return false;
	copy = rg_arena_alloc(list->arena, (size_t) n + 1);
	if (copy == NULL)
		return false;
	va_start(ap, fmt);
	vsnprintf(copy, (size_t) n + 1, fmt, ap);
	va_end(ap);
	list->items[list->n++] = copy;
	return true;
}

/* See rg_common.h */
bool
rg_name_set_init(rg_name_set *set, size_t n)
{
	size_t		size = 16;

	while (size < 2 * n)
		size *= 2;
	set->slot = rg_calloc(size, sizeof(const char *));
	set->mask = size - 1;
	return set->slot != NULL;
}

/* See rg_common.h */
bool
rg_name_set_add(rg_name_set *set, const char *name)
{
	size_t		h = 5381;
	const char *p;

	for (p = name; *p; p++)
		h = h * 33 + (unsigned char) *p;
	for (h &= set->mask; set->slot[h] != NULL; h = (h + 1) & set->mask)
		if (strcmp(set->slot[h], name) == 0)
			return false;
	set->slot[h] = name;
	return true;
}

/* Free the set. */
void
rg_name_set_free(rg_name_set *set)
{
	rg_free(set->slot);
	set->slot = NULL;
}

/* An empty buffer (nothing allocated yet). */
void
rg_buf_init(rg_buf *buf)
{
	buf->data = NULL;
	buf->len = 0;
	buf->cap = 0;
	buf->oom = false;
	buf->too_deep = false;
}

/* See rg_common.h */
void
rg_buf_set_too_deep(rg_buf *buf)
{
	buf->oom = true;
	buf->too_deep = true;
}

/* Free the text and leave the buffer empty. */
void
rg_buf_free(rg_buf *buf)
{
	rg_free(buf->data);
	rg_buf_init(buf);
}

/* Append n bytes, keeping the text NUL-terminated; sets oom on failure. */
void
rg_buf_append(rg_buf *buf, const char *s, size_t n)
{
	if (buf->oom)
		return;
	if (buf->len + n + 1 > buf->cap)
	{
		size_t		cap = buf->cap ? buf->cap : 256;
		char	   *data;

		while (cap < buf->len + n + 1)
			cap *= 2;
		data = rg_realloc(buf->data, cap);
		if (data == NULL)
		{
			buf->oom = true;
			return;
		}
		buf->data = data;
		buf->cap = cap;
	}
	memcpy(buf->data + buf->len, s, n);
	buf->len += n;
	buf->data[buf->len] = '\0';
}

/* Append a NUL-terminated string. */
void
rg_buf_puts(rg_buf *buf, const char *s)
{
	rg_buf_append(buf, s, strlen(s));
}

/* Append one character. */
void
rg_buf_putc(rg_buf *buf, char c)
{
	rg_buf_append(buf, &c, 1);
}

/* Append printf-formatted text. */
void
rg_buf_printf(rg_buf *buf, const char *fmt,...)
{
	va_list		ap;
	char		small[256];
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t) n < sizeof(small))
	{
		rg_buf_append(buf, small, (size_t) n);
		return;
	}
	{
		char	   *big = rg_malloc((size_t) n + 1);

		if (big == NULL)
		{
			buf->oom = true;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t) n + 1, fmt, ap);
		va_end(ap);
		rg_buf_append(buf, big, (size_t) n);
		rg_free(big);
	}
}
