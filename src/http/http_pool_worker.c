/*-------------------------------------------------------------------------
 *
 * http_pool_worker.c
 *	  The pool workers: background workers that run the long requests the
 *	  HTTP workers hand them (http_pool.c), one at a time each.
 *
 * A pool worker connects as the HTTP workers do (registry.http_worker_role,
 * to registry.database), joins the pool in shared memory and waits on its
 * latch.  For each job it attaches the job's segment, runs the request in
 * one transaction as the request's role, its writes (none: the pool runs
 * reads) audited with the request's user and peer, and sends the answer
 * through the segment's queue, streaming it when it is larger than the
 * queue; a listing's long answer goes in pieces while it is made
 * (rest.h's sink), each waiting for room in the queue, which the HTTP
 * worker empties as its client reads, until the statement timeout.  A
 * lock is waited for here up to registry.http_lock_wait (no other
 * request waits behind this one), the whole request up to
 * registry.http_statement_timeout; an error outside the route's own
 * handling is answered as the HTTP worker answers it (403, or 500 with
 * 50001 or 50002), its text in the server log.  SIGTERM ends the worker
 * (its request is canceled, and answered 50001 by the HTTP worker), SIGINT
 * cancels the request (50002), SIGHUP reloads the settings.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_mq.h"
#include "tcop/tcopprot.h"
#include "utils/backend_status.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timeout.h"

#include "audit.h"
#include "http.h"
#include "http_internal.h"
#include "rest.h"

PGDLLEXPORT void registry_http_pool_main(Datum main_arg);

/* this worker's place in the pool */
static int	pool_slot = 0;

/* the job taken from the queue and not yet attached to as its sender */
static dsm_handle taken_job = DSM_HANDLE_INVALID;

/* a job's request, read from its segment */
typedef struct PoolRequest
{
	RestRequest req;
	Oid			role;
	const char *user;
	const char *peer;
} PoolRequest;

/*
 * A job taken but not yet attached to, at exit: attach as its sender and
 * detach at once, so that its HTTP worker sees the queue detached and
 * answers the request (50001) instead of waiting for a sender that never
 * comes.
 */
static void
release_taken_job(void)
{
	dsm_handle	handle = taken_job;
	dsm_segment *seg;
	HttpPoolJobHeader *jh;
	shm_mq	   *mq;

	taken_job = DSM_HANDLE_INVALID;
	if (handle == DSM_HANDLE_INVALID)
		return;
	seg = dsm_find_mapping(handle);
	if (seg == NULL)
		seg = dsm_attach(handle);
	if (seg == NULL)
		return;					/* the request went away */
	jh = dsm_segment_address(seg);
	mq = (shm_mq *) ((char *) jh + jh->mq_offset);
	if (shm_mq_get_sender(mq) == NULL)
		shm_mq_set_sender(mq, MyProc);
	shm_mq_detach(shm_mq_attach(mq, seg, NULL));
}

/* at exit: a job taken and not started is let go, and out of the pool */
static void
leave_pool(int code, Datum arg)
{
	release_taken_job();
	http_pool_worker_leave(pool_slot);
}

/* read a job's request from its segment (the strings stay there) */
static void
read_request(const HttpPoolJobHeader *head, PoolRequest *pr)
{
	const char *p = (const char *) head + MAXALIGN(sizeof(HttpPoolJobHeader));
	size_t		len;

	memset(pr, 0, sizeof(*pr));
	pr->role = head->role;
	pr->req.method = http_pool_get_field(&p, &len);
	pr->req.path = http_pool_get_field(&p, &len);
	pr->req.query = http_pool_get_field(&p, &len);
	pr->req.content_type = http_pool_get_field(&p, &len);
	pr->req.accept = http_pool_get_field(&p, &len);
	pr->req.body = http_pool_get_field(&p, &pr->req.body_len);
	pr->user = http_pool_get_field(&p, &len);
	pr->peer = http_pool_get_field(&p, &len);
}

/* the answer of a job on its way: its queue, and whether its head went */
typedef struct PoolStream
{
	shm_mq_handle *mqh;
	bool		started;		/* the head and a first piece went */
	bool		gone;			/* the request went away meanwhile */
	bool		partial;		/* a message begun and not finished: no other
								 * can follow it in the queue */
	TimestampTz deadline;		/* the client must have taken it by then; 0:
								 * no limit */
} PoolStream;

/*
 * Send a message of n parts, waiting for room in the queue (the HTTP
 * worker takes from it as its client reads) until the deadline; false
 * when the request went away or the deadline passed.  interruptible: a
 * cancel or the statement timeout may end the wait with an ERROR (inside
 * the request's transaction); else only a shutdown ends it.
 */
static bool
send_bounded(PoolStream *ps, shm_mq_iovec *iov, int n, bool interruptible)
{
	ps->partial = true;
	for (;;)
	{
		shm_mq_result r = shm_mq_sendv(ps->mqh, iov, n, true, true);
		long		wait = -1;

		ps->gone = r == SHM_MQ_DETACHED;
		if (r != SHM_MQ_WOULD_BLOCK)
		{
			ps->partial = r != SHM_MQ_SUCCESS;
			return r == SHM_MQ_SUCCESS;
		}
		if (ps->deadline != 0)
		{
			TimestampTz now = GetCurrentTimestamp();

			if (now >= ps->deadline)
				return false;
			wait = TimestampDifferenceMilliseconds(now, ps->deadline);
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | (wait >= 0 ? WL_TIMEOUT : 0) |
						 WL_EXIT_ON_PM_DEATH, wait, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		if (interruptible)
			CHECK_FOR_INTERRUPTS();
		else if (ProcDiePending)
			return false;
	}
}

/*
 * The route's sink (rest.h): a piece of a long answer to the HTTP worker,
 * the first with the answer's head.  An ERROR when it cannot go (the
 * request went away, or its client has not taken the answer by the
 * deadline): the route ends, and the answer is broken off.
 */
static void
send_piece(void *arg, const RestResponse *resp, const char *data, size_t len)
{
	PoolStream *ps = arg;
	HttpPoolAnswerHead head;
	int32		kind = HTTP_POOL_PIECE;
	shm_mq_iovec iov[2];

	if (!ps->started)
	{
		memset(&head, 0, sizeof(head));
		head.status = resp->status;
		head.route = resp->route;
		head.more = 1;
		strlcpy(head.content_type, resp->content_type, sizeof(head.content_type));
		iov[0].data = (const char *) &head;
		iov[0].len = sizeof(head);
	}
	else
	{
		iov[0].data = (const char *) &kind;
		iov[0].len = sizeof(kind);
	}
	iov[1].data = data;
	iov[1].len = len;
	if (!send_bounded(ps, iov, 2, true))
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("registry REST answer was not taken: the request went away or its client read too slowly")));
	ps->started = true;
}

/*
 * Run the request in one transaction as its role: head and body are the
 * answer (body in the current memory context; with pieces sent to the
 * sink already, its last piece); an error outside the route's handling is
 * logged and answered by its Confluent code.
 */
static void
run_request(const PoolRequest *pr, HttpPoolAnswerHead *head, StringInfo body,
			const RestSink *sink, const PoolStream *ps)
{
	MemoryContext cxt = CurrentMemoryContext;
	TimestampTz start = GetCurrentTimestamp();
	HttpRoleSave save;
	RestResponse resp;
	volatile int sqlerrcode = 0;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	http_auth_become(pr->role, &save);
	registry_audit_request_begin(pr->role, pr->user, pr->peer);
	pgstat_report_activity(STATE_RUNNING, psprintf("%s %s", pr->req.method, pr->req.path));
	PG_TRY();
	{
		http_run_limits_set(registry_http_lock_wait);
		PushActiveSnapshot(GetTransactionSnapshot());
		registry_rest_set_sink(sink);
		registry_rest(&pr->req, &resp);
		registry_rest_set_sink(NULL);
		PopActiveSnapshot();
		/* the answer must survive the commit */
		MemoryContextSwitchTo(cxt);
		head->status = resp.status;
		head->route = resp.route;
		strlcpy(head->content_type, resp.content_type, sizeof(head->content_type));
		appendBinaryStringInfo(body, resp.body, resp.body_len);
		sqlerrcode = resp.sqlerrcode;
		CommitTransactionCommand();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		registry_rest_set_sink(NULL);
		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		sqlerrcode = edata->sqlerrcode;
		resetStringInfo(body);
		head->failure = http_failure_code(sqlerrcode, &head->status);
	}
	PG_END_TRY();
	http_run_limits_clear();
	registry_audit_request_end();
	http_auth_restore(&save);
	/* (a request that went away while its answer was sent timed out not) */
	if ((sqlerrcode == ERRCODE_QUERY_CANCELED && !ps->gone) ||
		sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
		http_log_timeout(start, 1, sqlerrcode);
	pgstat_report_stat(false);
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * Run the job of a segment and send its answer; nothing when the request
 * went away (its segment is gone, or its HTTP worker detached).
 */
static void
run_job(dsm_handle handle)
{
	dsm_segment *seg = dsm_attach(handle);
	HttpPoolJobHeader *jh;
	shm_mq	   *mq;
	shm_mq_handle *mqh;
	PoolRequest pr;
	HttpPoolAnswerHead head;
	StringInfoData body;
	shm_mq_iovec iov[2];
	PoolStream	ps;
	RestSink	sink;
	int32		last = HTTP_POOL_LAST;

	if (seg == NULL)
	{
		taken_job = DSM_HANDLE_INVALID;
		return;
	}
	dsm_pin_mapping(seg);
	jh = dsm_segment_address(seg);
	mq = (shm_mq *) ((char *) jh + jh->mq_offset);
	shm_mq_set_sender(mq, MyProc);
	mqh = shm_mq_attach(mq, seg, NULL);
	taken_job = DSM_HANDLE_INVALID;
	read_request(jh, &pr);
	memset(&head, 0, sizeof(head));
	initStringInfo(&body);
	ps.mqh = mqh;
	ps.started = false;
	ps.gone = false;
	ps.partial = false;
	ps.deadline = registry_http_statement_timeout > 0 ?
		TimestampTzPlusMilliseconds(GetCurrentTimestamp(), registry_http_statement_timeout) : 0;
	sink.send = send_piece;
	sink.arg = &ps;
	run_request(&pr, &head, &body, &sink, &ps);
	if (ps.partial)
	{
		/* a piece broke off: the HTTP worker sees the queue detached (50001) */
	}
	else if (!ps.started)
	{
		iov[0].data = (const char *) &head;
		iov[0].len = sizeof(head);
		iov[1].data = body.data;
		iov[1].len = body.len;

		/*
		 * outside the transaction: a cancel must not end the worker, and the
		 * answer, done, waits for the HTTP worker as long as it takes (the
		 * request's deadline is for its work)
		 */
		ps.deadline = 0;
		(void) send_bounded(&ps, iov, 2, false);
	}
	else if (head.status == 200 && head.failure == 0)
	{
		/* the last piece; an answer that broke off ends without it */
		iov[0].data = (const char *) &last;
		iov[0].len = sizeof(last);
		iov[1].data = body.data;
		iov[1].len = body.len;
		(void) send_bounded(&ps, iov, 2, false);
	}
	shm_mq_detach(mqh);
	dsm_detach(seg);
}

/*
 * The pool worker: connect, join the pool, run the jobs queued for it
 * until SIGTERM (or a reload setting registry.http_port to 0); exit 1, to
 * be started again as the HTTP workers are.
 */
void
registry_http_pool_main(Datum main_arg)
{
	MemoryContext job_cxt;
	dsm_handle	handle;

	pool_slot = DatumGetInt32(main_arg);
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	pqsignal(SIGINT, StatementCancelHandler);
	BackgroundWorkerUnblockSignals();

	http_wait_for_port();
	http_worker_connect();
	registry_rest_session_init();
	pgstat_report_appname("registry http pool");
	job_cxt = AllocSetContextCreate(TopMemoryContext, "registry pool request",
									ALLOCSET_DEFAULT_SIZES);
	before_shmem_exit(leave_pool, (Datum) 0);
	http_pool_worker_join(pool_slot);

	for (;;)
	{
		ResetLatch(MyLatch);
		/* between jobs there is nothing to cancel: a cancel must not end it */
		QueryCancelPending = false;
		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			if (registry_http_port == 0)
				proc_exit(1);	/* as the HTTP workers leave the database */
		}
		handle = http_pool_take(pool_slot);
		if (handle != DSM_HANDLE_INVALID)
		{
			taken_job = handle;
			MemoryContextSwitchTo(job_cxt);
			run_job(handle);
			MemoryContextSwitchTo(TopMemoryContext);
			MemoryContextReset(job_cxt);
			continue;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH, -1L,
						 PG_WAIT_EXTENSION);
	}
}
