/*-------------------------------------------------------------------------
 *
 * rg_arena.h
 *	  A bump allocator for the pure-C core.
 *
 * Everything a parsed schema owns lives in one arena, so freeing a schema
 * is one call and an error path never leaks: the caller (the PostgreSQL
 * glue, a unit test, the fuzzer) destroys the arena when it is done.  The
 * arena and its blocks come from the core's memory handlers (rg_alloc.h),
 * each block near the arena itself: the PostgreSQL glue backs them with
 * palloc, so an arena lives in one memory context and dies with it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_ARENA_H
#define RG_ARENA_H

#include <stddef.h>

typedef struct rg_arena rg_arena;

/* Create an empty arena; NULL when out of memory. */
extern rg_arena *rg_arena_create(void);

/* Free every block the arena handed out, then the arena itself. */
extern void rg_arena_destroy(rg_arena *arena);

/* Aligned, zeroed memory that lives as long as the arena; NULL on OOM. */
extern void *rg_arena_alloc(rg_arena *arena, size_t size);

/* How many bytes the arena has taken from the memory handlers so far. */
extern size_t rg_arena_bytes(const rg_arena *arena);

/* Copy a NUL-terminated string (or n bytes plus a NUL) into the arena. */
extern char *rg_arena_strdup(rg_arena *arena, const char *s);
extern char *rg_arena_strndup(rg_arena *arena, const char *s, size_t n);

#endif							/* RG_ARENA_H */
