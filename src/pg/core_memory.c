/*-------------------------------------------------------------------------
 *
 * core_memory.c
 *	  The core's handlers in the extension: everything src/core allocates
 *	  (jansson's and protobuf-c's memory included) is palloc'd, so an ERROR
 *	  anywhere frees it with its memory context, and the core's long loops
 *	  honour cancel and statement_timeout.  Set once from _PG_init, as
 *	  PostGIS sets liblwgeom's handlers.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/memutils.h"

#include "rg_alloc.h"
#include "rg_common.h"
#include "schemas.h"

/*
 * The core's allocation handler: palloc in the current memory context, or
 * in near's (a chunk of ours); with noerror NULL rather than an ERROR.
 */
static void *
core_alloc(const void *near, size_t size, bool noerror)
{
	MemoryContext cxt = near != NULL ? GetMemoryChunkContext((void *) near)
	: CurrentMemoryContext;

	return MemoryContextAllocExtended(cxt, size,
									  MCXT_ALLOC_HUGE | (noerror ? MCXT_ALLOC_NO_OOM : 0));
}

/* The core's realloc: repalloc, where the chunk lives. */
static void *
core_realloc(void *ptr, size_t size)
{
	return repalloc_huge(ptr, size);
}

/* The core's free: pfree. */
static void
core_free(void *ptr)
{
	pfree(ptr);
}

/* The core's scratch: a child of the current context, made current. */
static void *
core_scratch_begin(void)
{
	return MemoryContextSwitchTo(AllocSetContextCreate(CurrentMemoryContext,
													   "registry scratch",
													   0, 64 * 1024,
													   ALLOCSET_DEFAULT_MAXSIZE));
}

/* The end of the core's scratch: the context goes, mark is current again. */
static void
core_scratch_end(void *mark)
{
	MemoryContextDelete(MemoryContextSwitchTo((MemoryContext) mark));
}

/* The core's interrupt hook: a cancel or statement_timeout raises here. */
static void
core_check_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

/*
 * Back the core (and jansson and protobuf-c through it) with palloc, so
 * that everything a parsed schema or a check holds lives in a memory
 * context and an ERROR anywhere frees it with its context; and let its
 * long loops honour cancel and statement_timeout.  Called from _PG_init.
 */
void
registry_core_init(void)
{
	static const rg_allocator handlers = {
		.alloc = core_alloc,
		.realloc = core_realloc,
		.free = core_free,
		.scratch_begin = core_scratch_begin,
		.scratch_end = core_scratch_end,
	};

	rg_set_allocator(&handlers);
	rg_interrupt_hook = core_check_interrupts;
}
