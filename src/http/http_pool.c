/*-------------------------------------------------------------------------
 *
 * http_pool.c
 *	  Long requests handed to the pool: an HTTP worker never runs a
 *	  listing or a compatibility check itself, so that no request on its
 *	  connections waits behind one.
 *
 * An HTTP worker serves its connections one request at a time, in its one
 * backend.  The requests whose cost grows with the registry (the listings,
 * the compatibility checks: http_pool_wanted) are run by the pool workers
 * instead (http_pool_worker.c: registry.http_pool_workers background
 * workers connected to the same database as the same role), one process
 * each, no thread anywhere.  The HTTP worker writes the request into a
 * dynamic shared memory segment of its own, with a shm_mq for the answer
 * (the HTTP worker receives, the pool worker sends), puts the segment's
 * handle in a queue in shared memory, wakes an idle pool worker, suspends
 * the request in libmicrohttpd and goes on serving its other connections.
 * Its loop reads the answer as it arrives (the pool worker's writes set its
 * latch) and resumes the request with it.
 *
 * Nothing outlives the request: the segment goes when both sides have
 * detached, the HTTP worker when the request ends (a pool worker whose
 * send then fails goes on to the next job; a job still queued whose
 * segment is gone is skipped).  libmicrohttpd does not watch a suspended
 * connection, so a client that leaves does not end its request before the
 * answer comes.  A pool worker that exits in the middle of a job, or
 * between taking it and starting it (http_pool_worker.c), detaches on its
 * way out, and the request is answered 50001.  With no pool worker running
 * (registry.http_pool_workers = 0, or none has started yet), the HTTP
 * worker runs the request itself, as before; with the queue full, or no
 * segment to be had, it answers 503.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <microhttpd.h>

#include "lib/ilist.h"
#include "miscadmin.h"
#include "storage/dsm.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_mq.h"
#include "storage/spin.h"
#include "utils/memutils.h"

#include "http.h"
#include "http_internal.h"
#include "rest.h"
#include "shared_memory.h"

/* jobs queued for the pool at most, over all HTTP workers */
#define POOL_QUEUE_SIZE 1024
/* the answer's ring in the job's segment: larger answers stream through it */
#define POOL_MQ_SIZE (256 * 1024)

/* one pool worker, as the HTTP workers see it */
typedef struct PoolWorkerSlot
{
	pid_t		pid;			/* 0 while it does not run */
	Latch	   *latch;
	bool		idle;			/* waiting on its latch for a job */
} PoolWorkerSlot;

/* the pool in shared memory: the queued jobs and the pool workers */
typedef struct PoolShared
{
	slock_t		mutex;
	uint32		head;			/* the next job to take */
	uint32		count;			/* jobs queued */
	dsm_handle	queue[POOL_QUEUE_SIZE];
	PoolWorkerSlot workers[HTTP_MAX_WORKERS];
} PoolShared;

/*
 * the pieces of an answer that comes in pieces taken from the queue at
 * most (the pool worker waits for room beyond them)
 */
#define POOL_PIECES_HELD (1024 * 1024)

/* a piece of an answer, taken from the queue, not yet all sent */
typedef struct PoolPiece
{
	dlist_node	node;
	Size		len;
	Size		sent;
	char		data[FLEXIBLE_ARRAY_MEMBER];
} PoolPiece;

/* a request's job, in the HTTP worker that handed it off */
struct HttpPoolJob
{
	dlist_node	node;			/* in jobs until answered; in pieces_jobs
								 * while its answer's pieces come */
	MemoryContext cxt;
	HttpRequest *hr;			/* its request, suspended */
	dsm_segment *seg;
	shm_mq_handle *mqh;
	bool		done;
	HttpPoolAnswer answer;		/* in cxt */
	/* an answer in pieces: those taken, their bytes, how it ended */
	dlist_head	pieces;
	Size		held;
	bool		last;			/* the last piece came */
	bool		broken;			/* the queue ended before it */
	bool		waiting;		/* suspended until a piece comes */
};

static PoolShared *pool = NULL;

/* this HTTP worker's jobs waiting for their answers */
static dlist_head jobs = DLIST_STATIC_INIT(jobs);

/* its jobs whose answers are coming in pieces */
static dlist_head pieces_jobs = DLIST_STATIC_INIT(pieces_jobs);

/* the routes the pool runs: their cost grows with the registry */
static const struct
{
	const char *method;
	const char *pattern;
}			pool_routes[] = {
	{"GET", "schemas"},
	{"GET", "schemas/ids/*/subjects"},
	{"GET", "schemas/ids/*/versions"},
	{"GET", "subjects"},
	{"GET", "subjects/*/versions"},
	{"GET", "subjects/*/versions/*/referencedby"},
	{"GET", "contexts"},
	{"GET", "metrics"},
	{"POST", "compatibility/subjects/*/versions"},
	{"POST", "compatibility/subjects/*/versions/*"},
};

/* their indexes, looked up once (-2: not yet) */
static int	pool_route_index[
							 lengthof(pool_routes)] =
{
	-2
};

/* The pool's shared memory size. */
static Size
pool_shared_size(void)
{
	return sizeof(PoolShared);
}

/* The pool's shared memory, made: no job, no worker. */
static void
pool_shared_init(void *mem)
{
	PoolShared *p = mem;

	memset(p, 0, sizeof(PoolShared));
	SpinLockInit(&p->mutex);
}

/* At server start: the pool's shared memory. */
void
http_pool_init(void)
{
	RegistryShmem piece = {"registry http pool", pool_shared_size, pool_shared_init,
	NULL, NULL, 0, (void **) &pool};

	registry_shmem_add(&piece);
}

/* Should the pool run this request (its route's cost grows with the registry)? */
bool
http_pool_wanted(const RestRequest *req)
{
	int			route;
	int			i;

	if (registry_http_pool_workers == 0 || pool == NULL)
		return false;
	/* the pool's routes read, and only the checks are POSTed */
	if (strcmp(req->method, "GET") != 0 &&
		(strcmp(req->method, "POST") != 0 || strstr(req->path, "compatibility") == NULL))
		return false;
	if (pool_route_index[0] == -2)
		for (i = 0; i < lengthof(pool_routes); i++)
			pool_route_index[i] = registry_rest_route_index(pool_routes[i].method,
															pool_routes[i].pattern);
	route = registry_rest_route_of(req);
	if (route < 0)
		return false;
	for (i = 0; i < lengthof(pool_routes); i++)
		if (pool_route_index[i] == route)
			return true;
	return false;
}

/* the bytes a string takes in a job's request: its length, its text, a NUL */
static Size
field_size(const char *s, size_t len)
{
	return sizeof(int32) + (s ? len + 1 : 0);
}

/* append a string (NULL: none) to a job's request at *p */
static void
put_field(char **p, const char *s, size_t len)
{
	int32		n = s ? (int32) len : -1;

	memcpy(*p, &n, sizeof(n));
	*p += sizeof(n);
	if (s == NULL)
		return;
	memcpy(*p, s, len);
	(*p)[len] = '\0';
	*p += len + 1;
}

/* a string of a job's request at *p (NULL: none), its length in *len */
const char *
http_pool_get_field(const char **p, size_t *len)
{
	int32		n;
	const char *s;

	memcpy(&n, *p, sizeof(n));
	*p += sizeof(n);
	if (n < 0)
	{
		*len = 0;
		return NULL;
	}
	s = *p;
	*p += n + 1;
	*len = (size_t) n;
	return s;
}

/* the length of a string, 0 for none */
static size_t
str_len(const char *s)
{
	return s ? strlen(s) : 0;
}

/*
 * A job's segment: its header, the request (the strings of req, then the
 * HTTP user and the peer), and the answer's queue with this worker as its
 * receiver.  NULL when no segment can be had.
 */
static dsm_segment *
make_segment(const RestRequest *req, Oid role, const char *user, const char *peer)
{
	Size		request_size;
	Size		mq_offset;
	dsm_segment *seg;
	HttpPoolJobHeader *head;
	char	   *p;
	shm_mq	   *mq;

	request_size = field_size(req->method, str_len(req->method)) +
		field_size(req->path, str_len(req->path)) +
		field_size(req->query, str_len(req->query)) +
		field_size(req->content_type, str_len(req->content_type)) +
		field_size(req->accept, str_len(req->accept)) +
		field_size(req->body, req->body_len) +
		field_size(user, str_len(user)) +
		field_size(peer, str_len(peer));
	mq_offset = MAXALIGN(MAXALIGN(sizeof(HttpPoolJobHeader)) + request_size);
	seg = dsm_create(mq_offset + POOL_MQ_SIZE, DSM_CREATE_NULL_IF_MAXSEGMENTS);
	if (seg == NULL)
		return NULL;
	dsm_pin_mapping(seg);
	head = dsm_segment_address(seg);
	head->role = role;
	head->mq_offset = mq_offset;
	p = (char *) head + MAXALIGN(sizeof(HttpPoolJobHeader));
	put_field(&p, req->method, str_len(req->method));
	put_field(&p, req->path, str_len(req->path));
	put_field(&p, req->query, str_len(req->query));
	put_field(&p, req->content_type, str_len(req->content_type));
	put_field(&p, req->accept, str_len(req->accept));
	put_field(&p, req->body, req->body_len);
	put_field(&p, user, str_len(user));
	put_field(&p, peer, str_len(peer));
	mq = shm_mq_create((char *) head + mq_offset, POOL_MQ_SIZE);
	shm_mq_set_receiver(mq, MyProc);
	return seg;
}

/*
 * Queue a segment for the pool and wake an idle pool worker.  False when
 * no pool worker runs (*full false) or the queue is full (*full true).
 */
static bool
enqueue(dsm_handle handle, bool *full)
{
	Latch	   *wake = NULL;
	bool		running = false;
	int			i;

	*full = false;
	SpinLockAcquire(&pool->mutex);
	for (i = 0; i < HTTP_MAX_WORKERS; i++)
		if (pool->workers[i].pid != 0)
			running = true;
	if (running && pool->count < POOL_QUEUE_SIZE)
	{
		pool->queue[(pool->head + pool->count) % POOL_QUEUE_SIZE] = handle;
		pool->count++;
		for (i = 0; i < HTTP_MAX_WORKERS && wake == NULL; i++)
			if (pool->workers[i].pid != 0 && pool->workers[i].idle)
			{
				pool->workers[i].idle = false;
				wake = pool->workers[i].latch;
			}
	}
	else
		*full = running;
	SpinLockRelease(&pool->mutex);
	if (wake)
		SetLatch(wake);
	return running && !*full;
}

/*
 * Run step(arg) where no error may unwind (inside libmicrohttpd, or the
 * worker's loop, which would end with all the worker's connections): an
 * error is logged and false returned.
 */
static bool
pool_guarded(void (*step) (void *arg), void *arg)
{
	MemoryContext cxt = CurrentMemoryContext;
	volatile bool ok = true;

	PG_TRY();
	{
		step(arg);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

/* the segment goes (the pool worker's side, if still attached, sees it) */
static void
release_segment(HttpPoolJob *job)
{
	if (job->mqh)
		shm_mq_detach(job->mqh);
	job->mqh = NULL;
	if (job->seg)
		dsm_detach(job->seg);
	job->seg = NULL;
}

/*
 * A job for the request over segment seg, its queue attached, in memory
 * context cxt (its own).
 */
static HttpPoolJob *
new_job(MemoryContext cxt, HttpRequest *hr, Oid role, dsm_segment *seg)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(cxt);
	HttpPoolJob *job = palloc0(sizeof(HttpPoolJob));
	HttpPoolJobHeader *head = dsm_segment_address(seg);

	job->cxt = cxt;
	job->hr = hr;
	job->answer.role = role;
	job->seg = seg;
	job->mqh = shm_mq_attach((shm_mq *) ((char *) head + head->mq_offset), seg, NULL);
	MemoryContextSwitchTo(oldcxt);
	return job;
}

/* what make_job() makes a job of, and what it has made so far */
typedef struct PoolJobMaking
{
	HttpRequest *hr;
	const RestRequest *req;
	Oid			role;
	const char *user;
	const char *peer;
	MemoryContext cxt;
	dsm_segment *seg;
	HttpPoolJob *job;
} PoolJobMaking;

/* The job's memory, its segment (none: *job stays NULL), then the job. */
static void
make_job(void *arg)
{
	PoolJobMaking *m = arg;

	m->cxt = AllocSetContextCreate(TopMemoryContext, "registry pool job",
								   ALLOCSET_SMALL_SIZES);
	m->seg = make_segment(m->req, m->role, m->user, m->peer);
	if (m->seg != NULL)
		m->job = new_job(m->cxt, m->hr, m->role, m->seg);
}

/*
 * The segment and job of a request, made under pool_guarded(): NULL when
 * either cannot be had, /dev/shm full or memory out (logged).  (A
 * dsm_create() that fails so leaves its small descriptor behind, in
 * PostgreSQL 15: some 100 bytes per refusal while /dev/shm stays full.)
 */
static HttpPoolJob *
make_job_safely(HttpRequest *hr, const RestRequest *req, Oid role, const char *user,
				const char *peer)
{
	PoolJobMaking m = {hr, req, role, user, peer, NULL, NULL, NULL};

	if (!pool_guarded(make_job, &m))
	{
		if (m.seg != NULL)
			dsm_detach(m.seg);
		m.job = NULL;
	}
	if (m.job == NULL && m.cxt != NULL)
		MemoryContextDelete(m.cxt);
	return m.job;
}

/*
 * Hand a request to the pool, to run as role (user and peer for its
 * audit).  HTTP_POOL_STARTED: hr->pool_job is set and the caller suspends
 * the request; HTTP_POOL_NONE: no pool worker runs, the caller serves it;
 * HTTP_POOL_FULL: the pool cannot take it now (503), for want of a queue
 * slot or of a segment.
 */
HttpPoolStart
http_pool_start(HttpRequest *hr, const RestRequest *req, Oid role, const char *user,
				const char *peer)
{
	HttpPoolJob *job = make_job_safely(hr, req, role, user, peer);
	bool		full;

	if (job == NULL)
		return HTTP_POOL_FULL;
	if (!enqueue(dsm_segment_handle(job->seg), &full))
	{
		release_segment(job);
		MemoryContextDelete(job->cxt);
		return full ? HTTP_POOL_FULL : HTTP_POOL_NONE;
	}
	dlist_push_tail(&jobs, &job->node);
	hr->pool_job = job;
	return HTTP_POOL_STARTED;
}

/*
 * the job is answered: its request goes on, libmicrohttpd calls it again
 * (the answer's body stays in the segment until the request is forgotten)
 */
static void
finish(HttpPoolJob *job)
{
	job->done = true;
	dlist_delete(&job->node);
	job->node.next = job->node.prev = NULL;
	MHD_resume_connection(job->hr->conn);
}

/* a job answered without its pool worker: 500, Confluent's 50001 */
static void
fail(HttpPoolJob *job)
{
	job->answer.status = 500;
	job->answer.error_code = 50001;
	job->answer.route = -1;
}

/*
 * Keep a piece of an answer (copied: the queue's memory is reused); out
 * of memory, the answer breaks off.
 */
static void
hold_piece(HttpPoolJob *job, const char *data, Size len)
{
	PoolPiece  *piece = MemoryContextAllocExtended(job->cxt, offsetof(PoolPiece, data) + len,
												   MCXT_ALLOC_NO_OOM);

	if (piece == NULL)
	{
		job->broken = true;
		return;
	}
	piece->len = len;
	piece->sent = 0;
	memcpy(piece->data, data, len);
	dlist_push_tail(&job->pieces, &piece->node);
	job->held += len;
}

/*
 * Take the pieces of an answer that have come, while fewer than
 * POOL_PIECES_HELD bytes are held; the end, or the queue's end before it
 * (a broken answer), is noted.
 */
static void
take_pieces(void *arg)
{
	HttpPoolJob *job = arg;

	while (!job->last && !job->broken && job->held < POOL_PIECES_HELD)
	{
		Size		len;
		void	   *data;
		int32		kind;
		shm_mq_result r = shm_mq_receive(job->mqh, &len, &data, true);

		if (r == SHM_MQ_WOULD_BLOCK)
			return;
		if (r != SHM_MQ_SUCCESS || len < sizeof(kind))
		{
			job->broken = true;
			return;
		}
		memcpy(&kind, data, sizeof(kind));
		if (len > sizeof(kind))
			hold_piece(job, (const char *) data + sizeof(kind), len - sizeof(kind));
		job->last = kind == HTTP_POOL_LAST;
	}
}

/* take_pieces() under pool_guarded(): an error breaks the answer off */
static void
take_pieces_safely(HttpPoolJob *job)
{
	if (!pool_guarded(take_pieces, job))
		job->broken = true;
}

/*
 * libmicrohttpd's reader of an answer in pieces (the callback of its
 * response): what is held, the next pieces taken as room allows; with
 * none yet, the request is suspended until one comes (http_pool_run()
 * resumes it).
 */
ssize_t
http_pool_read_piece(void *cls, uint64_t pos, char *buf, size_t max)
{
	HttpRequest *hr = cls;
	HttpPoolJob *job = hr->pool_job;
	size_t		n = 0;

	if (job == NULL)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	take_pieces_safely(job);
	while (n < max)
	{
		PoolPiece  *piece;
		Size		take;

		if (dlist_is_empty(&job->pieces))
		{
			take_pieces_safely(job);
			if (dlist_is_empty(&job->pieces))
				break;
		}
		piece = dlist_head_element(PoolPiece, node, &job->pieces);
		take = Min(max - n, piece->len - piece->sent);
		memcpy(buf + n, piece->data + piece->sent, take);
		piece->sent += take;
		n += take;
		if (piece->sent == piece->len)
		{
			dlist_delete(&piece->node);
			job->held -= piece->len;
			pfree(piece);
		}
	}
	if (n > 0)
		return (ssize_t) n;
	if (job->last)
		return MHD_CONTENT_READER_END_OF_STREAM;
	if (job->broken)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	job->waiting = true;
	MHD_suspend_connection(hr->conn);
	return 0;
}

/* read the answer of a job, as far as it has arrived */
static void
receive(void *arg)
{
	HttpPoolJob *job = arg;
	Size		len;
	void	   *data;
	shm_mq_result r;
	MemoryContext oldcxt = MemoryContextSwitchTo(job->cxt);

	r = shm_mq_receive(job->mqh, &len, &data, true);
	if (r == SHM_MQ_SUCCESS && len >= sizeof(HttpPoolAnswerHead))
	{
		HttpPoolAnswerHead head;

		memcpy(&head, data, sizeof(head));
		head.content_type[sizeof(head.content_type) - 1] = '\0';
		job->answer.status = head.status;
		job->answer.route = head.route;
		job->answer.error_code = head.failure;
		job->answer.content_type = pstrdup(head.content_type);
		job->answer.pieces = head.more != 0;
		if (job->answer.pieces)
		{
			/* the first piece; the rest follow as the client reads */
			dlist_init(&job->pieces);
			if (len > sizeof(head))
				hold_piece(job, (const char *) data + sizeof(head), len - sizeof(head));
			MemoryContextSwitchTo(oldcxt);
			job->done = true;
			dlist_delete(&job->node);
			dlist_push_tail(&pieces_jobs, &job->node);
			MHD_resume_connection(job->hr->conn);
			return;
		}
		/* valid until the queue is read again or detached: at the forget */
		job->answer.len = len - sizeof(head);
		job->answer.body = (const char *) data + sizeof(head);
	}
	else if (r != SHM_MQ_WOULD_BLOCK)
	{
		ereport(LOG,
				(errmsg("registry REST request lost its pool worker before it was answered"),
				 errhidestmt(true)));
		fail(job);
	}
	MemoryContextSwitchTo(oldcxt);
	if (r != SHM_MQ_WOULD_BLOCK)
		finish(job);
}

/* receive() under pool_guarded(): an error fails the job, 50001 */
static void
receive_safely(HttpPoolJob *job)
{
	if (!pool_guarded(receive, job))
	{
		fail(job);
		finish(job);
	}
}

/*
 * From the loop: read what the pool workers have sent, resume the
 * answered, and the requests that wait for a piece once one has come (or
 * their answer ended)
 */
void
http_pool_run(void)
{
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &jobs)
		receive_safely(dlist_container(HttpPoolJob, node, it.cur));
	dlist_foreach_modify(it, &pieces_jobs)
	{
		HttpPoolJob *job = dlist_container(HttpPoolJob, node, it.cur);

		take_pieces_safely(job);
		if (job->waiting &&
			(!dlist_is_empty(&job->pieces) || job->last || job->broken))
		{
			job->waiting = false;
			MHD_resume_connection(job->hr->conn);
		}
	}
}

/* Suspend the request handed to the pool; its answer resumes it. */
void
http_pool_suspend(struct MHD_Connection *conn, HttpRequest *hr)
{
	hr->conn = conn;
	MHD_suspend_connection(conn);
}

/* The answer of the request's job, NULL while it runs. */
const HttpPoolAnswer *
http_pool_answer(HttpRequest *hr)
{
	if (hr->pool_job == NULL || !hr->pool_job->done)
		return NULL;
	return &hr->pool_job->answer;
}

/* The request ended (answered, or its connection closed): its job goes. */
void
http_pool_forget(HttpRequest *hr)
{
	HttpPoolJob *job = hr->pool_job;

	if (job == NULL)
		return;
	if (job->node.next != NULL)
		dlist_delete(&job->node);
	release_segment(job);
	hr->pool_job = NULL;
	MemoryContextDelete(job->cxt);
}

/* Before the daemon stops: every job still running fails and is resumed. */
void
http_pool_resume_all(void)
{
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &jobs)
	{
		HttpPoolJob *job = dlist_container(HttpPoolJob, node, it.cur);

		fail(job);
		finish(job);
	}
	/* an answer coming in pieces breaks off */
	dlist_foreach_modify(it, &pieces_jobs)
	{
		HttpPoolJob *job = dlist_container(HttpPoolJob, node, it.cur);

		job->broken = true;
		if (job->waiting)
		{
			job->waiting = false;
			MHD_resume_connection(job->hr->conn);
		}
	}
}

/* A pool worker starts: it is in the pool (slot: its number), idle. */
void
http_pool_worker_join(int slot)
{
	SpinLockAcquire(&pool->mutex);
	pool->workers[slot].pid = MyProcPid;
	pool->workers[slot].latch = MyLatch;
	pool->workers[slot].idle = false;
	SpinLockRelease(&pool->mutex);
}

/* A pool worker exits: no longer in the pool. */
void
http_pool_worker_leave(int slot)
{
	if (pool == NULL)
		return;
	SpinLockAcquire(&pool->mutex);
	if (pool->workers[slot].pid == MyProcPid)
	{
		pool->workers[slot].pid = 0;
		pool->workers[slot].latch = NULL;
		pool->workers[slot].idle = false;
	}
	SpinLockRelease(&pool->mutex);
}

/*
 * A pool worker takes the oldest queued job; DSM_HANDLE_INVALID when none
 * is queued, the worker then marked idle (to be woken by the next one).
 */
dsm_handle
http_pool_take(int slot)
{
	dsm_handle	handle = DSM_HANDLE_INVALID;

	SpinLockAcquire(&pool->mutex);
	if (pool->count > 0)
	{
		handle = pool->queue[pool->head];
		pool->head = (pool->head + 1) % POOL_QUEUE_SIZE;
		pool->count--;
	}
	pool->workers[slot].idle = (handle == DSM_HANDLE_INVALID);
	SpinLockRelease(&pool->mutex);
	return handle;
}
