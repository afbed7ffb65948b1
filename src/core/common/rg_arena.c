/*-------------------------------------------------------------------------
 *
 * rg_arena.c
 *	  Bump allocator used by every parsed schema of the core.
 *
 * Backends keep many parsed schemas, most of them small, so an arena
 * starts with a 1 KB block and doubles the next one up to RG_ARENA_BLOCK
 * (4 KB): a small schema costs about 1 KB, a big one at most the unused
 * tail of its last block over what it uses.  A request bigger than
 * RG_ARENA_CHUNK_LIMIT gets a block of its own, so it neither leaves the
 * current block's free space behind nor forces a bigger block.  Strings
 * are packed (no alignment); everything else is aligned to RG_ARENA_ALIGN.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_arena.h"

#include "rg_alloc.h"

#include <stdlib.h>
#include <string.h>

#define RG_ARENA_FIRST_BLOCK 1024
#define RG_ARENA_BLOCK 4096
#define RG_ARENA_ALIGN 16
/* bigger requests get a block of their own */
#define RG_ARENA_CHUNK_LIMIT 1024

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
	size_t		next_size;		/* payload size of the next normal block */
	size_t		total;			/* bytes of every block, headers included */
};

#define ALIGN_UP(n) (((n) + RG_ARENA_ALIGN - 1) & ~((size_t) RG_ARENA_ALIGN - 1))
#define BLOCK_HEADER ALIGN_UP(sizeof(rg_block))

/* See rg_arena.h */
rg_arena *
rg_arena_create(void)
{
	rg_arena   *arena = rg_calloc(1, sizeof(rg_arena));

	if (arena != NULL)
		arena->next_size = RG_ARENA_FIRST_BLOCK - BLOCK_HEADER;
	return arena;
}

/* See rg_arena.h */
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

		rg_free(b);
		b = next;
	}
	rg_free(arena);
}

/*
 * size bytes at an offset of the current block that is a multiple of
 * align (a power of two, at most RG_ARENA_ALIGN), or from a new block.
 * Large requests get a block of their own so the common small allocations
 * keep filling the current block.  Not zeroed.
 */
static void *
arena_take(rg_arena *arena, size_t size, size_t align)
{
	rg_block   *b = arena->head;
	size_t		off;
	rg_block   *nb;
	size_t		bsize;

	if (b != NULL)
	{
		off = (b->used + align - 1) & ~(align - 1);
		if (off <= b->size && b->size - off >= size)
		{
			b->used = off + size;
			return (char *) b + BLOCK_HEADER + off;
		}
	}
	if (size > RG_ARENA_CHUNK_LIMIT)
	{
		nb = rg_malloc_near(arena, BLOCK_HEADER + size);
		if (nb == NULL)
			return NULL;
		arena->total += BLOCK_HEADER + size;
		nb->used = nb->size = size;
		if (b != NULL)
		{
			/* keep the partly-filled block at the head */
			nb->next = b->next;
			b->next = nb;
		}
		else
		{
			nb->next = NULL;
			arena->head = nb;
		}
		return (char *) nb + BLOCK_HEADER;
	}
	/* block sizes (header included) 1 KB, 2 KB, then RG_ARENA_BLOCK */
	bsize = arena->next_size;
	while (bsize < size)
		bsize = (bsize + BLOCK_HEADER) * 2 - BLOCK_HEADER;
	if (bsize < RG_ARENA_BLOCK - BLOCK_HEADER)
		arena->next_size = (bsize + BLOCK_HEADER) * 2 - BLOCK_HEADER;
	nb = rg_malloc_near(arena, BLOCK_HEADER + bsize);
	if (nb == NULL)
		return NULL;
	arena->total += BLOCK_HEADER + bsize;
	nb->size = bsize;
	nb->used = size;
	nb->next = b;
	arena->head = nb;
	return (char *) nb + BLOCK_HEADER;
}

/* See rg_arena.h */
void *
rg_arena_alloc(rg_arena *arena, size_t size)
{
	size_t		need = ALIGN_UP(size);
	void	   *p;

	if (need == 0)
		need = RG_ARENA_ALIGN;
	p = arena_take(arena, need, RG_ARENA_ALIGN);
	if (p != NULL)
		memset(p, 0, need);
	return p;
}

/* See rg_arena.h */
char *
rg_arena_strndup(rg_arena *arena, const char *s, size_t n)
{
	char	   *d = arena_take(arena, n + 1, 1);

	if (d == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* See rg_arena.h */
char *
rg_arena_strdup(rg_arena *arena, const char *s)
{
	return rg_arena_strndup(arena, s, strlen(s));
}

/* See rg_arena.h */
size_t
rg_arena_bytes(const rg_arena *arena)
{
	return arena->total;
}
