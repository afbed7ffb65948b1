/*-------------------------------------------------------------------------
 *
 * audit.h
 *	  The audit trail (registry.audit): every write to the registry's
 *	  tables, the HTTP requester of the REST writes, the REST writes that
 *	  failed, and the retention of the rows.
 *
 *-------------------------------------------------------------------------
 */
#ifndef AUDIT_H
#define AUDIT_H

#include "rest.h"

/* registry.audit_retention, in minutes (-1: rows are kept forever) */
extern int	registry_audit_retention;

/* registry.audit_notify: announce each audited change on registry_changes */
extern bool registry_audit_notify;

/* at load: the settings of the audit trail */
extern void registry_init_audit(void);

/*
 * The REST request now served, for the audit rows its writes make: the
 * role it runs as, its Basic user (NULL: anonymous) and its peer.  Set by
 * the HTTP worker around the request's transaction, and cleared after it;
 * no SQL can set it.
 */
extern void registry_audit_request_begin(Oid role, const char *http_user, const char *peer);
extern void registry_audit_request_end(void);

/*
 * A REST write that failed (its transaction rolled back, or it was refused
 * before it ran): recorded in a transaction of its own, with the Confluent
 * error code as the result.  Outside any transaction; on a primary only.
 */
extern void registry_audit_rest_failure(const RestRequest *req, Oid role,
										const char *http_user, const char *peer,
										int error_code);

/*
 * The HTTP worker's retention sweep: at a bounded pace, deletes the rows
 * older than registry.audit_retention.  Outside any transaction.
 */
extern void registry_audit_sweep(TimestampTz now);

/* a piece of the HTTP worker's work that runs in a transaction of its own */
typedef void (*AuditStep) (void *arg);

/*
 * Run step in a transaction of its own, with a snapshot and a short
 * lock_timeout, outside any transaction (the HTTP worker): an error is
 * logged and the worker goes on.
 */
extern void registry_audit_run_step(AuditStep step, void *arg);

#endif							/* AUDIT_H */
