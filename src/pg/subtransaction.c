/*-------------------------------------------------------------------------
 *
 * subtransaction.c
 *	  Run a piece of work in a subtransaction, as a PL/pgSQL exception
 *	  block does: a REST route (rest.c), and each resource of an
 *	  associations batch (association_service.c), so that a failure undoes
 *	  only its own writes and becomes an answer.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "subtransaction.h"

/*
 * Call fn(arg) in a subtransaction: on an ERROR the subtransaction is
 * rolled back and the error returned (in the caller's memory context)
 * instead of thrown.  NULL when fn succeeded.
 */
ErrorData *
registry_call_in_subtransaction(void (*fn) (void *), void *arg)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	ErrorData  *edata = NULL;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcxt);
	PG_TRY();
	{
		fn(arg);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
	}
	PG_END_TRY();
	return edata;
}
