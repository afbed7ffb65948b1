/*-------------------------------------------------------------------------
 *
 * invalidation.h
 *	  The shared schema generation counter (bumped when a schema is
 *	  hard-deleted), for processes that cache schema content.
 *
 *-------------------------------------------------------------------------
 */
#ifndef INVALIDATION_H
#define INVALIDATION_H

/* from _PG_init: the shared counter's hooks, while shared_preload_libraries is processed */
extern void registry_init_invalidation(void);

/* 0 when the library was not preloaded (then nobody caches) */
extern uint64 registry_schema_generation(void);

#endif							/* INVALIDATION_H */
