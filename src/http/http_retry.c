/*-------------------------------------------------------------------------
 *
 * http_retry.c
 *	  Lock waits of a request: cut short, and tried again later.
 *
 * The worker is single-threaded, so no request may wait long inside it:
 * each attempt of a request may wait LOCK_ATTEMPT_MS for a lock
 * (lock_timeout) and registry.http_statement_timeout in all.  A request
 * that could not get its lock is suspended (libmicrohttpd's
 * suspend/resume) and resumed from the loop after a pause that doubles
 * each time, until registry.http_lock_wait has passed, while other
 * requests are served.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <microhttpd.h>

#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/timeout.h"

#include "http.h"
#include "http_internal.h"

/* how long one attempt of a request may wait for a lock (ms) */
#define LOCK_ATTEMPT_MS 20
/* pause before the first retry of a request that found a lock taken, doubled each time up to the second (ms) */
#define RETRY_FIRST_MS 10
#define RETRY_MAX_MS 250
/* waiting requests tried again per pass of the loop, so reads go on */
#define RETRIES_PER_PASS 4

static dlist_head waiting_requests = DLIST_STATIC_INIT(waiting_requests);

/* the worker's own lock_timeout while an attempt runs with its own; -1: none runs */
static int	worker_lock_timeout = -1;

/*
 * Set the limits of a request's run (an attempt here, a pool worker's
 * whole run): lock waits end after lock_ms, the run after
 * registry.http_statement_timeout.  lock_timeout is the run's until
 * http_run_limits_clear(): its variable is set and put back, not the GUC
 * (set_config_option's GUC_ACTION_LOCAL would make every end of the
 * run's transaction and subtransactions walk all the GUCs).
 */
void
http_run_limits_set(int lock_ms)
{
	if (worker_lock_timeout < 0)
		worker_lock_timeout = LockTimeout;
	LockTimeout = Max(lock_ms, 1);
	if (registry_http_statement_timeout > 0)
		enable_timeout_after(STATEMENT_TIMEOUT, registry_http_statement_timeout);
}

/*
 * The run is over (its transaction ended): its timer goes, and so does a
 * cancel it fired late; lock_timeout is the worker's again.
 */
void
http_run_limits_clear(void)
{
	disable_timeout(STATEMENT_TIMEOUT, false);
	QueryCancelPending = false;
	if (worker_lock_timeout >= 0)
		LockTimeout = worker_lock_timeout;
	worker_lock_timeout = -1;
}

/*
 * Set this attempt's limits: lock waits end after LOCK_ATTEMPT_MS, or
 * what is left of registry.http_lock_wait.
 */
void
http_attempt_begin(HttpRequest *hr)
{
	TimestampTz now = GetCurrentTimestamp();
	int64		left_ms;

	if (hr->lock_deadline == 0)
		hr->lock_deadline = TimestampTzPlusMilliseconds(now, registry_http_lock_wait);
	left_ms = Min((hr->lock_deadline - now) / 1000, LOCK_ATTEMPT_MS);
	http_run_limits_set((int) Max(left_ms, 1));
}

/* A request that found its lock taken: may it wait and try again? */
bool
http_may_retry(HttpRequest *hr, int sqlerrcode)
{
	return sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE &&
		GetCurrentTimestamp() < hr->lock_deadline;
}

/*
 * Suspend a request that could not get its lock; the loop resumes it at
 * retry_at, and libmicrohttpd then calls the access handler again.
 */
void
http_wait_for_retry(struct MHD_Connection *conn, HttpRequest *hr)
{
	int			delay = RETRY_FIRST_MS << Min(hr->retries, 8);

	delay = Min(delay, RETRY_MAX_MS);
	hr->retry_at = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), delay);
	if (hr->retry_at > hr->lock_deadline)
		hr->retry_at = hr->lock_deadline;
	hr->retries++;
	hr->conn = conn;
	hr->waiting = true;
	dlist_push_tail(&waiting_requests, &hr->wait_node);
	MHD_suspend_connection(conn);
}

/* a request that ends is no longer waiting */
void
http_retry_forget(HttpRequest *hr)
{
	if (hr->waiting)
		dlist_delete(&hr->wait_node);
}

/* resume the waiting requests whose retry is due, a few per pass */
void
http_resume_due_requests(TimestampTz now)
{
	dlist_mutable_iter it;
	int			n = 0;

	dlist_foreach_modify(it, &waiting_requests)
	{
		HttpRequest *hr = dlist_container(HttpRequest, wait_node, it.cur);

		if (hr->retry_at > now)
			continue;
		if (n++ >= RETRIES_PER_PASS)
			break;
		dlist_delete(&hr->wait_node);
		hr->waiting = false;
		MHD_resume_connection(hr->conn);
	}
}

/* every waiting request goes on (before the daemon stops) */
void
http_resume_all_requests(void)
{
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &waiting_requests)
	{
		HttpRequest *hr = dlist_container(HttpRequest, wait_node, it.cur);

		dlist_delete(&hr->wait_node);
		hr->waiting = false;
		MHD_resume_connection(hr->conn);
	}
}

/* how long the loop may sleep (at most timeout) before a retry is due */
long
http_retry_wakeup_ms(TimestampTz now, long timeout)
{
	dlist_iter	it;

	dlist_foreach(it, &waiting_requests)
	{
		HttpRequest *hr = dlist_container(HttpRequest, wait_node, it.cur);
		long		ms = (long) ((hr->retry_at - now) / 1000);

		timeout = Min(timeout, Max(ms, 0));
	}
	return timeout;
}
