/*-------------------------------------------------------------------------
 *
 * rg_alloc.h
 *	  The memory and interrupt handlers of the core.
 *
 * Every allocation the core makes, and every one jansson and protobuf-c
 * make for it, goes through one set of handlers.  The defaults are libc's
 * (unit tests, fuzzers, a command-line tool); the PostgreSQL glue sets
 * palloc-backed ones once from _PG_init, so that what the core holds lives
 * in memory contexts and an ERROR anywhere frees it with its context.
 *
 * Lifetimes: plain allocations go to the current place (the glue's
 * CurrentMemoryContext); an allocation "near" a block lives where that
 * block lives (an arena's blocks live with the arena).  A parse brackets
 * its temporary work with rg_scratch_begin/end, so that only what the
 * schema keeps (its arena, the JSON values and descriptors it holds, all
 * allocated near the arena) stays behind.
 *
 * Contract for handlers: alloc and realloc either return the memory, or
 * return NULL, or do not return at all (palloc raises an ERROR on out of
 * memory).  The core checks for NULL everywhere, and holds nothing but
 * handler memory while it calls them, so leaving by a longjmp leaks
 * nothing.  With noerror, alloc only ever returns.  C++ frames must never
 * be unwound by a longjmp: protoc_shim.cpp takes what it hands to C with
 * rg_malloc_noerror.
 *
 * The interrupt hook is called by the core's long loops (compatibility
 * checks over many versions and fields, the Protobuf diff, the walks over
 * large inputs).  The glue sets it to a function that runs
 * CHECK_FOR_INTERRUPTS(), so a cancel or statement_timeout stops a long
 * check with an ERROR.  It is never called from code that C++ calls back
 * into (the shim calls only rg_too_deep and proto_scan.c, which do not
 * check interrupts).
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_ALLOC_H
#define RG_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rg_allocator
{
	/*
	 * size bytes (0 allowed) in the current place, or where near (a live
	 * block from alloc) lives; NULL or no return on out of memory, NULL only
	 * when noerror.
	 */
	void	   *(*alloc) (const void *near, size_t size, bool noerror);
	/* resize ptr (NULL: alloc in the current place) where it lives */
	void	   *(*realloc) (void *ptr, size_t size);
	/* give back ptr (never NULL) */
	void		(*free) (void *ptr);
	/* make a scratch place current; returns what scratch_end restores */
	void	   *(*scratch_begin) (void);
	/* free everything allocated in the scratch place, restore mark */
	void		(*scratch_end) (void *mark);
} rg_allocator;

/*
 * Install handlers (copied), or the libc defaults with NULL.  Also routes
 * jansson through them.  Call once, before the core allocates anything.
 */
extern void rg_set_allocator(const rg_allocator *allocator);

/* size bytes in the current place (near the keeper, see rg_keep_begin) */
extern void *rg_malloc(size_t size);

/* the same, but NULL on out of memory, never a longjmp */
extern void *rg_malloc_noerror(size_t size);

/* size bytes that live as long as owner, a live block from the handlers */
extern void *rg_malloc_near(const void *owner, size_t size);

/* n zeroed elements of size bytes; NULL on overflow or out of memory */
extern void *rg_calloc(size_t n, size_t size);
extern void *rg_realloc(void *ptr, size_t size);
extern void rg_free(void *ptr);

/* Bracket temporary work (see above); returns the mark for rg_scratch_end. */
extern void *rg_scratch_begin(void);
extern void rg_scratch_end(void *mark);

/*
 * Until rg_keep_end, rg_malloc (and so jansson) allocates near keeper,
 * without a longjmp: for copying JSON values a schema keeps.  The window
 * must call nothing that may leave by a longjmp (no interrupt check).
 */
extern void rg_keep_begin(const void *keeper);
extern void rg_keep_end(void);

typedef void (*rg_interrupt_fn) (void);

/* NULL (the default) or the glue's CHECK_FOR_INTERRUPTS() wrapper */
extern rg_interrupt_fn rg_interrupt_hook;

/* Give a pending cancel or timeout its chance (the hook may not return). */
static inline void
rg_check_interrupts(void)
{
	if (rg_interrupt_hook != NULL)
		rg_interrupt_hook();
}

#endif							/* RG_ALLOC_H */
