/*-------------------------------------------------------------------------
 *
 * shared_memory.h
 *	  The registry's pieces of shared memory, asked for and attached in one
 *	  place (shared_memory.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef REGISTRY_SHARED_MEMORY_H
#define REGISTRY_SHARED_MEMORY_H

/*
 * A piece of shared memory: its name, its size, how to fill it when it is
 * made (under AddinShmemInitLock), and what to do once attached (outside
 * the lock; NULL: nothing).  tranche names a named LWLock tranche of
 * tranche_locks locks to ask for too (NULL: none).  *ptr is set to the
 * piece in every process.
 */
typedef struct RegistryShmem
{
	const char *name;
	Size		(*size) (void);
	void		(*init) (void *mem);
	void		(*attached) (void);
	const char *tranche;
	int			tranche_locks;
	void	  **ptr;
} RegistryShmem;

extern void registry_shmem_add(const RegistryShmem *piece);

#endif							/* REGISTRY_SHARED_MEMORY_H */
