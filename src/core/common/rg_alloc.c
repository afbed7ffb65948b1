/*-------------------------------------------------------------------------
 *
 * rg_alloc.c
 *	  The core's memory handlers (libc by default) and interrupt hook.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_alloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* libc's malloc: one place and one lifetime, so near does not matter */
static void *
libc_alloc(const void *near, size_t size, bool noerror)
{
	return malloc(size ? size : 1);
}

/* libc's realloc for a size the handlers may see as 0 */
static void *
libc_realloc(void *ptr, size_t size)
{
	return realloc(ptr, size ? size : 1);
}

static const rg_allocator libc_allocator = {
	.alloc = libc_alloc,
	.realloc = libc_realloc,
	.free = free,
};

static rg_allocator handlers = {
	.alloc = libc_alloc,
	.realloc = libc_realloc,
	.free = free,
};

/* where rg_malloc allocates inside a keep window (NULL: outside one) */
static const void *keeper = NULL;

rg_interrupt_fn rg_interrupt_hook = NULL;

/* See rg_alloc.h */
void
rg_set_allocator(const rg_allocator *allocator)
{
	handlers = allocator != NULL ? *allocator : libc_allocator;
	json_set_alloc_funcs(rg_malloc, rg_free);
}

/* See rg_alloc.h */
void *
rg_malloc(size_t size)
{
	return handlers.alloc(keeper, size, keeper != NULL);
}

/* See rg_alloc.h */
void *
rg_malloc_noerror(size_t size)
{
	return handlers.alloc(keeper, size, true);
}

/* See rg_alloc.h */
void *
rg_malloc_near(const void *owner, size_t size)
{
	return handlers.alloc(owner, size, keeper != NULL);
}

/* See rg_alloc.h */
void *
rg_calloc(size_t n, size_t size)
{
	void	   *p;

	if (size != 0 && n > (size_t) -1 / size)
		return NULL;
	p = rg_malloc(n * size);
	if (p != NULL)
		memset(p, 0, n * size);
	return p;
}

/* See rg_alloc.h */
void *
rg_realloc(void *ptr, size_t size)
{
	if (ptr == NULL)
		return rg_malloc(size);
	return handlers.realloc(ptr, size);
}

/* See rg_alloc.h */
void
rg_free(void *ptr)
{
	if (ptr != NULL)
		handlers.free(ptr);
}


/* See rg_alloc.h */
void *
rg_scratch_begin(void)
{
	return handlers.scratch_begin != NULL ? handlers.scratch_begin() : NULL;
}

/* See rg_alloc.h */
void
rg_scratch_end(void *mark)
{
	if (handlers.scratch_end != NULL)
		handlers.scratch_end(mark);
}

/* See rg_alloc.h */
void
rg_keep_begin(const void *keep_near)
{
	keeper = keep_near;
}

/* See rg_alloc.h */
void
rg_keep_end(void)
{
	keeper = NULL;
}
