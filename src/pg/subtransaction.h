/*-------------------------------------------------------------------------
 *
 * subtransaction.h
 *	  Run a piece of work in a subtransaction of its own, its ERROR
 *	  returned instead of thrown (subtransaction.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SUBTRANSACTION_H
#define SUBTRANSACTION_H

extern ErrorData *registry_call_in_subtransaction(void (*fn) (void *), void *arg);

#endif							/* SUBTRANSACTION_H */
