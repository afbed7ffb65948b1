/*-------------------------------------------------------------------------
 *
 * rg_arena.c
 *	  Bump allocator used by every parsed schema of the core.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_arena.h"

#include <stdlib.h>
#include <string.h>

#define RG_ARENA_BLOCK 8192
#define RG_ARENA_ALIGN 16

typedef struct rg_block
{
	struct rg_block *next;
	size_t		used;
	size_t		size;
	/* payload follows, aligned */
} rg_block;

struct rg_arena
{
	rg_block   *head;
};

#define BLOCK_HEADER (((sizeof(rg_block)) + RG_ARENA_ALIGN - 1) & ~((size_t) RG_ARENA_ALIGN - 1))

rg_arena *
rg_arena_create(void)
{
	return calloc(1, sizeof(rg_arena));
}

void
rg_arena_destroy(rg_arena *arena)
{
	rg_block   *b;

	if (arena == NULL)
		return;
	b = arena->head;
	while (b)
	{
		rg_block   *next = b->next;

		free(b);
		b = next;
	}
	free(arena);
}

/*
 * Allocate from the current block, or start a new one big enough for the
 * request.  Large requests get a block of their own so the common small
 * allocations keep filling the current block.
 */
void *
rg_arena_alloc(rg_arena *arena, size_t size)
{
	rg_block   *b = arena->head;
	size_t		need = (size + RG_ARENA_ALIGN - 1) & ~((size_t) RG_ARENA_ALIGN - 1);
	char	   *p;

	if (need == 0)
		need = RG_ARENA_ALIGN;
	if (b == NULL || b->size - b->used < need)
	{
		size_t		bsize = need > RG_ARENA_BLOCK / 2 ? need : RG_ARENA_BLOCK;
		rg_block   *nb = malloc(BLOCK_HEADER + bsize);

		if (nb == NULL)
			return NULL;
		nb->used = 0;
		nb->size = bsize;
		if (b != NULL && need > RG_ARENA_BLOCK / 2)
		{
			/* keep the partly-filled block at the head */
			nb->next = b->next;
			b->next = nb;
			p = (char *) nb + BLOCK_HEADER;
			nb->used = need;
			memset(p, 0, need);
			return p;
		}
		nb->next = b;
		arena->head = nb;
		b = nb;
	}
	p = (char *) b + BLOCK_HEADER + b->used;
	b->used += need;
	memset(p, 0, need);
	return p;
}

char *
rg_arena_strndup(rg_arena *arena, const char *s, size_t n)
{
	char	   *d = rg_arena_alloc(arena, n + 1);

	if (d == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *
rg_arena_strdup(rg_arena *arena, const char *s)
{
	return rg_arena_strndup(arena, s, strlen(s));
}
