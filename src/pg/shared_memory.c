/*-------------------------------------------------------------------------
 *
 * shared_memory.c
 *	  The registry's pieces of shared memory (the cache generations, the
 *	  metrics, the HTTP workers' connection flag and listening slots), asked
 *	  for and attached by one pair of hooks.
 *
 * Each subsystem describes its piece (shared_memory.h) from its _PG_init step;
 * the first description installs the hooks, which only a library preloaded
 * by shared_preload_libraries may do.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

#include "shared_memory.h"

#define MAX_PIECES 8

static RegistryShmem pieces[MAX_PIECES];
static int	n_pieces = 0;
static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* Ask for every piece's memory and locks. */
static void
registry_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	for (int i = 0; i < n_pieces; i++)
	{
		RequestAddinShmemSpace(MAXALIGN(pieces[i].size()));
		if (pieces[i].tranche != NULL)
			RequestNamedLWLockTranche(pieces[i].tranche, pieces[i].tranche_locks);
	}
}

/* Find or make every piece; then let each act on it. */
static void
registry_shmem_startup(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	for (int i = 0; i < n_pieces; i++)
	{
		bool		found;

		*pieces[i].ptr = ShmemInitStruct(pieces[i].name, pieces[i].size(), &found);
		if (!found)
			pieces[i].init(*pieces[i].ptr);
	}
	LWLockRelease(AddinShmemInitLock);
	for (int i = 0; i < n_pieces; i++)
		if (pieces[i].attached != NULL)
			pieces[i].attached();
}

/* Add a piece (a preloaded library only; otherwise the piece never exists). */
void
registry_shmem_add(const RegistryShmem *piece)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	if (n_pieces == MAX_PIECES)
		elog(ERROR, "too many registry shared memory pieces");
	if (n_pieces == 0)
	{
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = registry_shmem_request;
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = registry_shmem_startup;
	}
	pieces[n_pieces++] = *piece;
}
