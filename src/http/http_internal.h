/*-------------------------------------------------------------------------
 *
 * http_internal.h
 *	  What the files of the HTTP worker share: the per-connection and
 *	  per-request state, and the functions one file offers the others.
 *
 * The worker is split by concept: the daemon and its loop
 * (http_worker.c), the request transport (http_request.c), framing
 * checks (http_framing.c), request bodies (http_body.c), the connections,
 * their deadlines and which are closed for room (http_deadline.c), lock-wait retries (http_retry.c), the
 * connection limit (http_limits.c), the shared listening socket
 * (http_listen.c), who a request runs as (http_auth.c), the pg_hba.conf
 * rules (http_hba.c), failed logins' allowance (http_throttle.c),
 * the workers' own connection (http_connect.c) and, on a standby, writes
 * forwarded to the primary (http_forward.c).  Nothing here is used outside
 * src/http.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HTTP_INTERNAL_H
#define HTTP_INTERNAL_H

#include <microhttpd.h>

#include "access/xlogdefs.h"
#include "lib/ilist.h"
#include "utils/timestamp.h"

#include "rest.h"

/* where a connection is in its current request */
typedef enum ConnPhase
{
	CONN_IDLE,					/* between requests */
	CONN_RECEIVING,				/* the head or the body is arriving */
	CONN_ANSWERING				/* received whole: being served or answered */
} ConnPhase;

/* one client connection, on malloc, from accept to close */
typedef struct HttpConn
{
	dlist_node	node;			/* in open_connections */
	int			fd;
	ConnPhase	phase;
	bool		closing;		/* its socket is shut: libmicrohttpd closes it */
	TimestampTz idle_since;		/* when its last request ended */
	TimestampTz request_start;	/* when the current request began arriving */
} HttpConn;

/* one in-flight request: the body is gathered here, on malloc */
typedef struct HttpRequest
{
	HttpConn   *hc;
	struct MHD_Connection *conn;
	char	   *body;
	size_t		len;
	size_t		cap;
	size_t		declared;		/* Content-Length, if there was one */
	size_t		reserved;		/* bytes of body_memory_used it holds */
	bool		too_large;
	bool		over_memory;
	/* waiting for a lock: suspended until retry_at */
	bool		waiting;
	dlist_node	wait_node;		/* in waiting_requests */
	TimestampTz lock_deadline;	/* 0 until its first attempt */
	TimestampTz retry_at;
	int			retries;
	TimestampTz answer_start;	/* when it was first served, 0 before */
	/* on a standby, its write forwarded to the primary (http_forward.c) */
	struct HttpForward *forward;
	/* a long request, run by a pool worker (http_pool.c) */
	struct HttpPoolJob *pool_job;
} HttpRequest;

/* the peer's address as text, for the log (http_auth.c) */
extern const char *http_peer_text(struct MHD_Connection *conn);

/* why a request is refused before it is served (http_auth.c) */
typedef struct HttpRefusal
{
	int			status;			/* 401, 403 (or 500) */
	int			error_code;
	const char *message;
	bool		challenge;		/* send WWW-Authenticate: Basic */
} HttpRefusal;

/* the worker's own role while a request runs as another */
typedef struct HttpRoleSave
{
	Oid			userid;
	int			sec_context;
} HttpRoleSave;

/* http_auth.c: who a request runs as */
typedef bool (*HttpAuthThen) (Oid role, void *arg);
extern bool http_auth_identify(struct MHD_Connection *conn, Oid *role,
							   HttpRefusal *refusal, HttpAuthThen then,
							   void *then_arg);
extern void http_auth_become(Oid role, HttpRoleSave *save);
extern void http_auth_restore(const HttpRoleSave *save);
extern void http_auth_log_mode(void);
extern char *http_auth_basic_user(struct MHD_Connection *conn);

/* http_hba.c: the pg_hba.conf line that applies to a request */
typedef struct HttpHbaMatch
{
	bool		loaded;			/* the rules could be read */
	int			line;			/* its line number; 0 when none matched */
	int			method;			/* its UserAuth; uaImplicitReject for none */
	bool		client_cert;	/* it asks for a client certificate */
	bool		hostname;		/* it names a host instead of an address */
} HttpHbaMatch;

struct sockaddr;
extern void http_hba_reload(void);
extern void http_hba_match(const struct sockaddr *peer, bool tls,
						   const char *role_name, Oid role, HttpHbaMatch *match);
extern const char *http_hba_refusal(const HttpHbaMatch *match);

/* http_throttle.c: how many failed password checks a worker pays for */
extern bool http_throttle_allows(const struct sockaddr *peer, const char *peer_name);
extern void http_throttle_failed(const struct sockaddr *peer);

/* http_connect.c: the workers' own connection */
extern void http_connect_init(void);
extern void http_worker_connect(void);

/* http_request.c: the request transport */
extern void http_request_init(void);
extern size_t http_keep_escaped(void *cls, struct MHD_Connection *c, char *s);
extern enum MHD_Result http_access_handler(void *cls, struct MHD_Connection *conn,
										   const char *url, const char *method,
										   const char *version, const char *upload_data,
										   size_t *upload_data_size, void **con_cls);
extern void http_request_completed(void *cls, struct MHD_Connection *conn,
								   void **con_cls,
								   enum MHD_RequestTerminationCode toe);
extern enum MHD_Result http_answer_error(struct MHD_Connection *conn, HttpConn *hc,
										 int status, int error_code,
										 const char *message, bool close);

/* http_framing.c: request-smuggling guards */
extern const char *http_framing_error(struct MHD_Connection *conn, const char *url,
									  const char *version, int *status);

/* http_body.c: request bodies and the worker's body memory */
extern enum MHD_Result http_body_check_declared(struct MHD_Connection *conn,
												HttpRequest *hr);
extern bool http_body_append(HttpRequest *hr, const char *data, size_t n);
extern enum MHD_Result http_body_refuse_dropped(struct MHD_Connection *conn,
												HttpRequest *hr);
extern void http_body_release(HttpRequest *hr);

/* http_deadline.c: the connections and registry.http_request_timeout */
extern void http_connection_notify(void *cls, struct MHD_Connection *conn,
								   void **socket_context,
								   enum MHD_ConnectionNotificationCode code);
extern void *http_request_line_received(void *cls, const char *uri,
										struct MHD_Connection *conn);
extern HttpConn *http_conn_state(struct MHD_Connection *conn);
extern void http_conn_receiving(HttpConn *hc);
extern void http_conn_answering(HttpConn *hc);
extern void http_conn_idle(HttpConn *hc);
extern int	http_conn_evict(int n, TimestampTz before);
extern bool http_conn_evictable(TimestampTz before);
extern void http_deadline_sweep(TimestampTz now);
extern long http_deadline_wakeup_ms(long timeout);

/* http_retry.c: lock waits, cut short and tried again */
extern void http_run_limits_set(int lock_ms);
extern void http_run_limits_clear(void);
extern void http_attempt_begin(HttpRequest *hr);
extern bool http_may_retry(HttpRequest *hr, int sqlerrcode);
extern void http_wait_for_retry(struct MHD_Connection *conn, HttpRequest *hr);
extern void http_retry_forget(HttpRequest *hr);
extern void http_resume_due_requests(TimestampTz now);
extern void http_resume_all_requests(void);
extern long http_retry_wakeup_ms(TimestampTz now, long timeout);

/* http_limits.c: descriptors and the connection limit */
extern void http_limits_remember_base(void);
extern unsigned int http_size_connection_limit(long *fd_limit);
extern void http_note_connection_limit(struct MHD_Daemon *daemon,
									   unsigned int limit, TimestampTz now);
extern void http_connection_limit_note_reset(void);

/* http_listen.c: the shared listening socket and who accepts */
#define HTTP_MAX_WORKERS 64		/* registry.http_workers' maximum */
/*
 * connections taken from the shared socket per wake-up, so that open ones
 * are served meanwhile; a worker at its limit may hold this many more
 * while those they replace close
 */
#define HTTP_ACCEPT_BATCH 8
struct sockaddr_storage;
extern bool http_resolve_listen_address(const char *spec, int port,
										struct sockaddr_storage *out);
extern void http_listen_init(void);
extern int	http_listen_join(int slot, const struct sockaddr_storage *addr);
extern void http_listen_leave(void);
extern bool http_listen_claim_own(const struct sockaddr_storage *addr, int port);
extern void http_listen_release_own(void);
extern void http_listen_note_load(struct MHD_Daemon *daemon);
extern void http_listen_serve(struct MHD_Daemon *daemon, unsigned int limit,
							  TimestampTz now, bool readable);
extern void http_listen_own_socket_room(struct MHD_Daemon *daemon, unsigned int limit,
										TimestampTz now);
extern bool http_listen_deferring(TimestampTz now);
extern long http_listen_wakeup_ms(TimestampTz now, long timeout);

/* http_forward.c: on a standby, writes run on the primary */
#define HTTP_FORWARDS_MAX 8		/* a worker's connections to the primary */
typedef struct HttpForwardAnswer
{
	int			status;
	char	   *body;
	size_t		len;
	int			route;			/* the request's route index, -1 if none */
} HttpForwardAnswer;

typedef struct HttpForward HttpForward;

extern void http_forward_init(void);
extern int	http_forward_wait_fd(void);
extern bool http_forward_wanted(int sqlerrcode);
extern char *http_forward_role_name(Oid roleid);
extern bool http_forward_start(HttpRequest *hr, const RestRequest *req,
							   const char *role, int route,
							   HttpForwardAnswer *answer);
extern void http_forward_suspend(struct MHD_Connection *conn, HttpRequest *hr);
extern const HttpForwardAnswer *http_forward_answer(HttpRequest *hr);
extern void http_forward_forget(HttpRequest *hr);
extern void http_forward_run(TimestampTz now);
extern long http_forward_wakeup_ms(TimestampTz now, long timeout);
extern void http_forward_resume_all(void);
extern void http_forward_failed(const RestRequest *req, int route,
								HttpForwardAnswer *answer);

/* http_pool.c, http_pool_worker.c: long requests run by the pool workers */
typedef struct HttpPoolJob HttpPoolJob;

/* what handing a request to the pool gave */
typedef enum HttpPoolStart
{
	HTTP_POOL_STARTED,			/* the pool runs it: suspend the request */
	HTTP_POOL_NONE,				/* no pool worker runs: serve it here */
	HTTP_POOL_FULL				/* the pool cannot take it now: 503 */
} HttpPoolStart;

/* the head of a job's segment; the request and the answer's queue follow */
typedef struct HttpPoolJobHeader
{
	Oid			role;			/* the request runs as this role */
	Size		mq_offset;		/* where the answer's queue is */
} HttpPoolJobHeader;

/*
 * the head of a pool worker's answer; the body follows, whole, or with
 * more its first piece: then each message is a piece (an int32
 * HttpPoolPiece and its bytes) until HTTP_POOL_LAST; a queue detached
 * before it is an answer broken off
 */
typedef struct HttpPoolAnswerHead
{
	int32		status;
	int32		route;			/* the route's index, -1 if none */
	int32		failure;		/* failed outside the route: Confluent's code */
	int32		more;			/* pieces follow */
	char		content_type[128];
} HttpPoolAnswerHead;

typedef enum HttpPoolPiece
{
	HTTP_POOL_PIECE = 1,		/* more follow */
	HTTP_POOL_LAST = 2			/* the answer's last piece */
} HttpPoolPiece;

/* a pool worker's answer, as the HTTP worker received it */
typedef struct HttpPoolAnswer
{
	int			status;
	int			route;
	int			error_code;		/* non-zero: answer Confluent's error */
	Oid			role;
	const char *content_type;
	const char *body;			/* in the job's segment */
	size_t		len;
	bool		pieces;			/* the body comes in pieces: read them with
								 * http_pool_read_piece() */
} HttpPoolAnswer;

extern void http_pool_init(void);
extern bool http_pool_wanted(const RestRequest *req);
extern HttpPoolStart http_pool_start(HttpRequest *hr, const RestRequest *req, Oid role,
									 const char *user, const char *peer);
extern void http_pool_suspend(struct MHD_Connection *conn, HttpRequest *hr);
extern const HttpPoolAnswer *http_pool_answer(HttpRequest *hr);
extern void http_pool_forget(HttpRequest *hr);
extern ssize_t http_pool_read_piece(void *cls, uint64_t pos, char *buf, size_t max);
extern void http_pool_run(void);
extern void http_pool_resume_all(void);
extern const char *http_pool_get_field(const char **p, size_t *len);
extern void http_pool_worker_join(int slot);
extern void http_pool_worker_leave(int slot);
extern uint32 http_pool_take(int slot);

/* http_request.c: how a request that failed outside its route is answered */
extern int	http_failure_code(int sqlerrcode, int32 *status);
extern const char *http_failure_message(int error_code);
extern void http_log_timeout(TimestampTz start, int attempts, int sqlerrcode);

/* http_worker.c: a worker started with registry.http_port = 0 waits */
extern void http_wait_for_port(void);

#endif							/* HTTP_INTERNAL_H */
