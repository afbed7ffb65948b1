/*-------------------------------------------------------------------------
 *
 * http_listen.c
 *	  The REST API's listening socket, one for all the workers, and which
 *	  worker accepts a connection: the one holding the fewest.
 *
 * A worker serves its connections one request at a time, so a worker
 * holding three keep-alive connections while another holds one leaves
 * half the workers idle for most of the load.  Separate sockets sharing
 * the port (SO_REUSEPORT) let the kernel place each connection by a hash
 * of its addresses, blind to load.  So the postmaster binds one socket
 * when it creates shared memory, and every worker inherits it.  It
 * listens only while a worker serves it: the first worker to serve calls
 * listen(), the last to stop shuts it down, so a cluster without a serving
 * worker refuses connections instead of leaving them waiting.
 *
 * A worker accepts from the socket itself and hands the connection to
 * libmicrohttpd (MHD_add_connection) while no other serving worker holds
 * fewer connections than it does.  Otherwise it leaves the socket alone
 * until a worker's count changes (which wakes the workers leaving
 * connections to others, to decide again) or DEFER_MS passes, and then
 * takes one connection still waiting, if any: the worker holding fewer may
 * be busy with a long request.  A worker at its connection limit, with no
 * other holding fewer, makes room as nginx does: for each connection it
 * accepts over the limit, it closes its connection least recently active
 * that is not being answered (an idle keep-alive connection, or one that
 * has not sent a whole request; http_deadline.c); libmicrohttpd's own
 * limit is HTTP_ACCEPT_BATCH higher, for the ones taken before those they
 * replace are closed.  Only while every one of
 * its connections is being answered does it leave the socket alone, until
 * one closes or its request ends.
 *
 * The socket is bound to the address and port in force at server start,
 * without SO_REUSEPORT: a second cluster configured with the same port
 * (a standby made by pg_basebackup -R inherits it) cannot bind or listen
 * there, and its workers say so (http_listen_claim_own) instead of taking
 * a share of the first cluster's connections.
 * After a reload moves them, each worker listens on its own socket, as
 * libmicrohttpd does by itself, with SO_REUSEPORT; the first worker to do
 * so on an address makes sure no other process holds it (a probe bound
 * without SO_REUSEPORT), and the others join while one of this cluster's
 * workers holds it (a worker at its limit then closes idle
 * connections for those waiting in its own socket's queue,
 * http_listen_own_socket_room), until they are moved back or the server
 * restarts; the first address and port stay bound (not listening) until
 * then.  Every process the postmaster starts holds the descriptor
 * (close-on-exec, so no program they run does); only the workers use it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

#include "http.h"
#include "http_internal.h"
#include "shared_memory.h"

/* a slot whose worker does not serve the shared socket */
#define NOT_SERVING PG_UINT32_MAX
/* how long a worker holding more leaves new connections to the others */
#define DEFER_MS 5
/* how long a worker that could not accept (no descriptor left) waits */
#define FAILURE_DEFER_MS 100

#define LISTEN_TRANCHE "registry http listen"

/* shared: who serves the socket, and how many connections each holds */
typedef struct HttpListenShared
{
	LWLock	   *lock;			/* over serving and the socket's listening */
	int			serving;
	pg_atomic_uint32 load[HTTP_MAX_WORKERS];
	pg_atomic_uint32 yielding[HTTP_MAX_WORKERS];	/* leaving it to others */
	Latch	   *latch[HTTP_MAX_WORKERS];
	/* the address this cluster's workers listen on by their own sockets */
	struct sockaddr_storage own_addr;
	int			own_count;		/* how many of them do */
} HttpListenShared;

/* what one accept gave */
typedef enum AcceptResult
{
	ACCEPT_TAKEN,
	ACCEPT_NONE,				/* nothing waiting */
	ACCEPT_FAILED				/* out of descriptors or the like */
} AcceptResult;

static HttpListenShared *listen_shared = NULL;

/* bound by the postmaster, inherited by its children */
static int	shared_fd = -1;
static struct sockaddr_storage shared_addr;

/* this worker: its slot while it serves the shared socket, else -1 */
static int	my_slot = -1;
static uint32 my_load = 0;
static TimestampTz defer_until = 0;
static bool yielding = false;	/* the deferral leaves connections to others */
static bool full = false;		/* at the limit, every connection answered */
static uint32 full_limit = 0;
static bool leave_registered = false;
static TimestampTz accept_failure_logged = 0;
static bool room_made = false;	/* on its own socket: closed some for others */
static bool own_claimed = false;	/* counted in own_count */
static bool own_exit_registered = false;
static int	conflict_logged_port = -1;	/* the port last said to be taken */

/* the length of addr's family's socket address */
static socklen_t
address_length(const struct sockaddr_storage *addr)
{
	return addr->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
		sizeof(struct sockaddr_in);
}

/* registry.http_listen_addresses: 'localhost', '*', or one IP address */
bool
http_resolve_listen_address(const char *spec, int port, struct sockaddr_storage *out)
{
	struct addrinfo hints;
	struct addrinfo *res = NULL;
	char		portstr[16];
	const char *host = spec;

	if (spec == NULL || spec[0] == '\0' || strcmp(spec, "*") == 0)
		host = NULL;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if (host && strcmp(host, "localhost") == 0)
	{
		host = "127.0.0.1";
		hints.ai_family = AF_INET;
	}
	if (host == NULL)
		hints.ai_family = AF_INET;
	snprintf(portstr, sizeof(portstr), "%d", port);
	if (getaddrinfo(host, portstr, &hints, &res) != 0 || res == NULL)
		return false;
	memset(out, 0, sizeof(*out));
	memcpy(out, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return true;
}

/*
 * Make a socket for addr, bound with SO_REUSEADDR but never SO_REUSEPORT,
 * so that no other process can share the port; -1 if not.
 */
static int
bind_socket(const struct sockaddr_storage *addr)
{
	int			one = 1;
	int			fd;

	fd = socket(addr->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
		(addr->ss_family == AF_INET6 &&
		 setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)) != 0) ||
		bind(fd, (const struct sockaddr *) addr, address_length(addr)) != 0)
	{
		int			save_errno = errno;

		close(fd);
		errno = save_errno;
		return -1;
	}
	return fd;
}

/*
 * In the postmaster: bind the shared socket for the address and port in
 * force, or (after a crash, the socket kept) make it stop listening until
 * a worker serves it again.
 */
static void
prepare_shared_socket(void)
{
	struct sockaddr_storage addr;

	if (shared_fd >= 0)
	{
		int			listening = 0;
		socklen_t	len = sizeof(listening);

		if (getsockopt(shared_fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) == 0 &&
			listening)
			(void) shutdown(shared_fd, SHUT_RDWR);
		return;
	}
	if (registry_http_port == 0 ||
		!http_resolve_listen_address(registry_http_listen_addresses, registry_http_port, &addr))
		return;					/* no workers, or they say why */
	shared_fd = bind_socket(&addr);
	if (shared_fd < 0 && errno == EADDRINUSE)
	{
		ereport(WARNING,
				(errcode_for_socket_access(),
				 errmsg("registry REST API port %d on %s is in use: another server listens there",
						registry_http_port, registry_http_listen_addresses),
				 errdetail("This server's HTTP workers do not serve that port while the other server holds it."),
				 errhint("Give each cluster on one host its own registry.http_port (a standby made by pg_basebackup -R inherits the primary's).")));
		return;
	}
	if (shared_fd < 0)
	{
		ereport(LOG,
				(errcode_for_socket_access(),
				 errmsg("could not bind the registry REST API's socket on %s:%d: %m",
						registry_http_listen_addresses, registry_http_port),
				 errdetail("Each HTTP worker listens on its own socket instead.")));
		return;
	}
	shared_addr = addr;
}

/* The shared slots' size. */
static Size
listen_shared_size(void)
{
	return sizeof(HttpListenShared);
}

/* Make the shared slots: none serving, no socket of this cluster's yet. */
static void
listen_shared_init(void *mem)
{
	HttpListenShared *s = mem;

	s->lock = &(GetNamedLWLockTranche(LISTEN_TRANCHE))->lock;
	s->serving = 0;
	for (int i = 0; i < HTTP_MAX_WORKERS; i++)
	{
		pg_atomic_init_u32(&s->load[i], NOT_SERVING);
		pg_atomic_init_u32(&s->yielding[i], 0);
		s->latch[i] = NULL;
	}
	memset(&s->own_addr, 0, sizeof(s->own_addr));
	s->own_count = 0;
}

/* Attached: in the postmaster, the shared socket is made. */
static void
listen_shared_attached(void)
{
	if (!IsUnderPostmaster && IsPostmasterEnvironment)
		prepare_shared_socket();
}

/* At server start: the shared slots, their lock and the shared socket. */
void
http_listen_init(void)
{
	RegistryShmem piece = {"registry http listen", listen_shared_size, listen_shared_init,
	listen_shared_attached, LISTEN_TRANCHE, 1, (void **) &listen_shared};

	registry_shmem_add(&piece);
}

/* Are a and b the same address and port? */
static bool
same_address(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
	{
		const struct sockaddr_in *x = (const struct sockaddr_in *) a;
		const struct sockaddr_in *y = (const struct sockaddr_in *) b;

		return x->sin_port == y->sin_port &&
			x->sin_addr.s_addr == y->sin_addr.s_addr;
	}
	if (a->ss_family == AF_INET6)
	{
		const struct sockaddr_in6 *x = (const struct sockaddr_in6 *) a;
		const struct sockaddr_in6 *y = (const struct sockaddr_in6 *) b;

		return x->sin6_port == y->sin6_port &&
			x->sin6_scope_id == y->sin6_scope_id &&
			memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr)) == 0;
	}
	return false;
}

/* At the worker's exit: it no longer serves the socket. */
static void
leave_at_exit(int code, Datum arg)
{
	http_listen_leave();
}

/*
 * Serve the shared socket as worker slot, if it is bound to addr: it
 * listens from now on.  Returns its descriptor, or -1: the worker then
 * listens on its own socket.
 */
int
http_listen_join(int slot, const struct sockaddr_storage *addr)
{
	if (shared_fd < 0 || listen_shared == NULL || slot < 0 || slot >= HTTP_MAX_WORKERS)
		return -1;
	if (!same_address(addr, &shared_addr))
	{
		ereport(LOG,
				(errmsg("registry REST API worker listens on its own socket"),
				 errdetail("The address or port changed since the server started; until it restarts, the kernel places each connection on a worker.")));
		return -1;
	}
	LWLockAcquire(listen_shared->lock, LW_EXCLUSIVE);
	if (listen(shared_fd, SOMAXCONN) != 0)
	{
		int			save_errno = errno;

		LWLockRelease(listen_shared->lock);
		errno = save_errno;
		/* another server listens there: http_listen_claim_own says so */
		if (errno == EADDRINUSE)
			return -1;
		ereport(LOG,
				(errcode_for_socket_access(),
				 errmsg("could not listen on the registry REST API's shared socket: %m"),
				 errdetail("The worker listens on its own socket.")));
		return -1;
	}
	listen_shared->serving++;
	listen_shared->latch[slot] = MyLatch;
	pg_atomic_write_u32(&listen_shared->yielding[slot], 0);
	pg_atomic_write_u32(&listen_shared->load[slot], 0);
	LWLockRelease(listen_shared->lock);
	my_slot = slot;
	my_load = 0;
	defer_until = 0;
	yielding = false;
	full = false;
	if (!leave_registered)
		before_shmem_exit(leave_at_exit, (Datum) 0);
	leave_registered = true;
	return shared_fd;
}

/* At the worker's exit: it no longer listens on its own socket. */
static void
release_own_at_exit(int code, Datum arg)
{
	http_listen_release_own();
}

/*
 * May this worker listen on its own socket on addr (SO_REUSEPORT)?  Yes
 * while another of this cluster's workers does, or when no other process
 * holds the address: a socket bound there without SO_REUSEPORT (the probe)
 * fails with EADDRINUSE while any socket listens there or shares it.  No:
 * another server listens there; a WARNING says so, once for a port.
 * (Between the probe and libmicrohttpd's bind another cluster's worker
 * could probe as well; that window is microseconds long, at a reload.)
 */
bool
http_listen_claim_own(const struct sockaddr_storage *addr, int port)
{
	bool		ours;

	if (listen_shared == NULL)
		return true;
	LWLockAcquire(listen_shared->lock, LW_EXCLUSIVE);
	ours = listen_shared->own_count > 0 && same_address(addr, &listen_shared->own_addr);
	if (!ours)
	{
		int			probe = bind_socket(addr);

		if (probe < 0 && errno == EADDRINUSE)
		{
			LWLockRelease(listen_shared->lock);
			if (conflict_logged_port != port)
				ereport(WARNING,
						(errcode_for_socket_access(),
						 errmsg("registry REST API port %d on %s is in use: another server listens there",
								port, registry_http_listen_addresses),
						 errdetail("This server's HTTP workers do not serve that port while the other server holds it; they try again every few seconds."),
						 errhint("Give each cluster on one host its own registry.http_port (a standby made by pg_basebackup -R inherits the primary's).")));
			conflict_logged_port = port;
			return false;
		}
		if (probe >= 0)
			close(probe);
		/* another failure: libmicrohttpd's own bind says what it is */
		listen_shared->own_addr = *addr;
		listen_shared->own_count = 0;
	}
	listen_shared->own_count++;
	LWLockRelease(listen_shared->lock);
	own_claimed = true;
	conflict_logged_port = -1;
	if (!own_exit_registered)
		before_shmem_exit(release_own_at_exit, (Datum) 0);
	own_exit_registered = true;
	return true;
}

/* The worker no longer listens on its own socket. */
void
http_listen_release_own(void)
{
	if (!own_claimed)
		return;
	LWLockAcquire(listen_shared->lock, LW_EXCLUSIVE);
	if (listen_shared->own_count > 0)
		listen_shared->own_count--;
	LWLockRelease(listen_shared->lock);
	own_claimed = false;
}

/* Wake the workers leaving new connections to others. */
static void
wake_yielding_workers(void)
{
	int			i;

	for (i = 0; i < HTTP_MAX_WORKERS; i++)
		if (i != my_slot && pg_atomic_read_u32(&listen_shared->yielding[i]) != 0 &&
			listen_shared->latch[i] != NULL)
			SetLatch(listen_shared->latch[i]);
}

/* The worker stops serving the shared socket; the last one shuts it. */
void
http_listen_leave(void)
{
	if (my_slot < 0)
		return;
	LWLockAcquire(listen_shared->lock, LW_EXCLUSIVE);
	pg_atomic_write_u32(&listen_shared->yielding[my_slot], 0);
	pg_atomic_write_u32(&listen_shared->load[my_slot], NOT_SERVING);
	if (--listen_shared->serving == 0)
		(void) shutdown(shared_fd, SHUT_RDWR);
	LWLockRelease(listen_shared->lock);
	/* those leaving connections to this worker decide again */
	pg_memory_barrier();
	wake_yielding_workers();
	my_slot = -1;
	defer_until = 0;
	yielding = false;
	full = false;
}

/* the connections daemon holds */
static uint32
connections_held(struct MHD_Daemon *daemon)
{
	const union MHD_DaemonInfo *info;

	info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
	return info ? info->num_connections : 0;
}

/*
 * Publish how many connections this worker holds, when that changed, and
 * wake those who left connections to others: who should take them may
 * have changed.
 */
void
http_listen_note_load(struct MHD_Daemon *daemon)
{
	uint32		held;

	if (my_slot < 0)
		return;
	held = connections_held(daemon);
	if (held != my_load)
	{
		pg_atomic_write_u32(&listen_shared->load[my_slot], held);
		/* the new load is seen, or the yielding flag read below is */
		pg_memory_barrier();
		wake_yielding_workers();
		/* yielding with fewer now: decide again at once */
		if (yielding && held < my_load)
			SetLatch(MyLatch);
	}
	my_load = held;
	/* full: room again once a connection closed or may be closed */
	if (full && (held < full_limit || http_conn_evictable(GetCurrentTimestamp())))
		full = false;
}

/* Does another serving worker hold fewer connections than held? */
static bool
another_holds_fewer(uint32 held)
{
	int			i;

	for (i = 0; i < HTTP_MAX_WORKERS; i++)
		if (i != my_slot && pg_atomic_read_u32(&listen_shared->load[i]) < held)
			return true;
	return false;
}

/* Accept one waiting connection and give it to daemon. */
static AcceptResult
accept_one(struct MHD_Daemon *daemon)
{
	struct sockaddr_storage peer;
	socklen_t	len;
	int			fd;

	do
	{
		len = sizeof(peer);
		fd = accept4(shared_fd, (struct sockaddr *) &peer, &len,
					 SOCK_NONBLOCK | SOCK_CLOEXEC);
	} while (fd < 0 && (errno == EINTR || errno == ECONNABORTED));
	if (fd < 0)
		return (errno == EAGAIN || errno == EWOULDBLOCK) ? ACCEPT_NONE : ACCEPT_FAILED;
	/* if the daemon cannot take it, it closes it and logs why */
	(void) MHD_add_connection(daemon, fd, (struct sockaddr *) &peer, len);
	http_listen_note_load(daemon);
	return ACCEPT_TAKEN;
}

/* LOG a failed accept (no descriptor left, say): once a minute at most. */
static void
note_accept_failure(TimestampTz now)
{
	if (accept_failure_logged != 0 &&
		!TimestampDifferenceExceeds(accept_failure_logged, now, 60 * 1000))
		return;
	ereport(LOG,
			(errcode_for_socket_access(),
			 errmsg("registry REST API worker could not accept a connection: %m"),
			 errdetail("It tries again in a few milliseconds.")));
	accept_failure_logged = now;
}

/*
 * Leave new connections to a worker holding fewer, until a worker's count
 * changes (it wakes this one) or DEFER_MS passes.  Whether
 * another still holds fewer is asked again after the flag is up: either
 * that worker's new load is seen here, or it sees the flag.
 */
static bool
yield_to_others(uint32 held, TimestampTz now)
{
	pg_atomic_write_u32(&listen_shared->yielding[my_slot], 1);
	pg_memory_barrier();
	if (!another_holds_fewer(held))
	{
		pg_atomic_write_u32(&listen_shared->yielding[my_slot], 0);
		return false;
	}
	yielding = true;
	defer_until = now + DEFER_MS * 1000;
	return true;
}

/* The deferral is over (or cut short). */
static void
end_deferral(void)
{
	if (yielding)
		pg_atomic_write_u32(&listen_shared->yielding[my_slot], 0);
	yielding = false;
	defer_until = 0;
}

/*
 * At the connection limit: may a connection be taken in place of one of
 * the worker's own?  Only while one of them, active before this pass, is
 * neither being answered nor already closing, and while fewer than HTTP_ACCEPT_BATCH taken so are
 * still waiting for libmicrohttpd to close the ones they replace.  With
 * every connection being answered, the socket is left alone until one
 * closes or its request ends (http_listen_note_load).
 */
static bool
may_replace(uint32 held, unsigned int limit, TimestampTz now)
{
	if (held >= limit + HTTP_ACCEPT_BATCH)
		return false;			/* the next pass, once those are closed */
	/* not one accepted in this pass: it has not had a chance to send */
	if (http_conn_evictable(now))
		return true;
	full = true;
	full_limit = limit;
	return false;
}

/*
 * Take the connections waiting on the shared socket that this worker
 * should: while no other serving worker holds fewer.  Else leave them to
 * the others (yield_to_others); once DEFER_MS has passed, take one still
 * waiting whatever the others hold.  At the limit, each connection taken
 * closes the worker's connection least recently active that is not being
 * answered (may_replace).  readable says the socket had a connection
 * waiting when the worker woke.
 */
void
http_listen_serve(struct MHD_Daemon *daemon, unsigned int limit,
				  TimestampTz now, bool readable)
{
	bool		overdue = false;
	int			i;

	if (my_slot < 0 || full)
		return;
	if (defer_until != 0)
	{
		bool		expired = !http_listen_deferring(now);

		/* woken while yielding: go on yielding while another holds fewer */
		if (!expired && (!yielding || another_holds_fewer(connections_held(daemon))))
			return;
		overdue = expired;
		end_deferral();
	}
	else if (!readable)
		return;
	for (i = 0; i < HTTP_ACCEPT_BATCH; i++)
	{
		uint32		held = connections_held(daemon);
		AcceptResult result;

		if (!overdue && another_holds_fewer(held) && yield_to_others(held, now))
			return;
		if (held >= limit && !may_replace(held, limit, now))
			return;
		result = accept_one(daemon);
		if (result == ACCEPT_NONE)
			return;
		/* over the limit: the connection least recently active makes room */
		if (result == ACCEPT_TAKEN && held >= limit)
			(void) http_conn_evict(1, now);
		if (result == ACCEPT_FAILED)
		{
			note_accept_failure(now);
			defer_until = now + FAILURE_DEFER_MS * 1000;
			return;
		}
		overdue = false;
	}
}

/*
 * On the worker's own socket (after a reload moved the address or port),
 * libmicrohttpd accepts by itself and stops at its limit (limit +
 * HTTP_ACCEPT_BATCH): with connections waiting in that socket's queue
 * (its length is TCP_INFO's tcpi_unacked for a listening socket), close
 * as many of the connections least recently active that are not being
 * answered, at most HTTP_ACCEPT_BATCH.  libmicrohttpd closes them in its
 * next run and accepts in their place in the one after (its listening
 * socket goes back in its epoll set once it is below its limit): the latch
 * makes both come at once.
 */
void
http_listen_own_socket_room(struct MHD_Daemon *daemon, unsigned int limit,
							TimestampTz now)
{
	const union MHD_DaemonInfo *info;
	struct tcp_info ti;
	socklen_t	len = sizeof(ti);

	if (my_slot >= 0)
		return;
	info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
	if (info == NULL || info->listen_fd < 0 ||
		getsockopt(info->listen_fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
		ti.tcpi_unacked == 0)
	{
		room_made = false;
		return;
	}
	if (connections_held(daemon) >= limit + HTTP_ACCEPT_BATCH)
	{
		room_made = http_conn_evict(Min((int) ti.tcpi_unacked, HTTP_ACCEPT_BATCH), now) > 0;
		if (!room_made)
			return;				/* every connection answered: wait for one */
	}
	else if (room_made)
		room_made = false;		/* closed now: the next run accepts */
	else
		return;
	SetLatch(MyLatch);
}

/*
 * Is the shared socket left to the other workers now?  (A deferral longer
 * than any the worker sets means the clock was set back: it is over.)
 */
bool
http_listen_deferring(TimestampTz now)
{
	if (my_slot < 0)
		return false;
	if (full)
		return true;
	if (defer_until != 0 && defer_until - now > FAILURE_DEFER_MS * 1000)
		defer_until = now;		/* no longer than it set: the clock went back */
	return defer_until != 0 && now < defer_until;
}

/* how long the loop may sleep: at most until the deferral ends */
long
http_listen_wakeup_ms(TimestampTz now, long timeout)
{
	long		ms;

	if (my_slot < 0 || defer_until == 0 || full)
		return timeout;
	ms = (long) ((defer_until - now + 999) / 1000);
	return Max(Min(ms, timeout), 0);
}
