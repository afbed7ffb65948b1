/*-------------------------------------------------------------------------
 *
 * invalidation.h
 *	  The shared schema generation counter (bumped when a schema is
 *	  hard-deleted, a config or a mode written) and subject generation counter (bumped when what a
 *	  subject's versions answer changes), for processes that cache schema
 *	  content and answers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef INVALIDATION_H
#define INVALIDATION_H

/* from _PG_init: the shared counter's hooks, while shared_preload_libraries is processed */
extern void registry_init_invalidation(void);

/* 0 when the library was not preloaded (then nobody caches) */
extern uint64 registry_schema_generation(void);
extern uint64 registry_subject_generation(void);

/* the generation a cache's entries belong to (see invalidation.c), 0: do not cache */
extern uint64 registry_cache_generation(bool subjects);

#endif							/* INVALIDATION_H */
