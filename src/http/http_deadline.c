/*-------------------------------------------------------------------------
 *
 * http_deadline.c
 *	  The worker's connections: the deadline of a request still arriving
 *	  (registry.http_request_timeout, 408), and which are closed first when
 *	  the worker runs out of connection slots.
 *
 * A slow sender must not hold a connection slot (and body memory)
 * forever, yet libmicrohttpd's own timeout only counts idle time.  So
 * every connection is tracked from accept to close with where it is in
 * its request, and a sweep from the worker's loop answers 408 to a
 * request whose head or body is still arriving after
 * registry.http_request_timeout; an idle connection is left to
 * libmicrohttpd's idle timeout.  A new connection is not idle: its first
 * request, and over HTTPS the handshake before it, must arrive within
 * registry.http_request_timeout of the accept, so that connections that
 * send nothing, or stall their handshake, cannot hold every slot.
 *
 * The connections are kept in the order they were last active in: moved
 * to the end when a request begins to arrive and when one ends.  A worker
 * at its connection limit with connections waiting to be accepted closes
 * the first of them that are not being answered (idle keep-alive
 * connections, and those that have not sent a whole request), as nginx
 * does when it runs out of connections, so that connections that send
 * nothing cannot keep new clients waiting (http_listen.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "http.h"
#include "http_internal.h"
#include "http_tls.h"
#include "rest.h"

/* how often connections are checked against registry.http_request_timeout (ms) */
#define SWEEP_MS 250

static dlist_head open_connections = DLIST_STATIC_INIT(open_connections);

/* when the connections were last checked */
static TimestampTz last_sweep = 0;

/* the connection's own state, kept by http_connection_notify() */
HttpConn *
http_conn_state(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci;

	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? (HttpConn *) ci->socket_context : NULL;
}

/* from now on the connection's request counts against the request timeout */
void
http_conn_receiving(HttpConn *hc)
{
	if (hc && hc->phase == CONN_IDLE)
	{
		hc->phase = CONN_RECEIVING;
		hc->request_start = GetCurrentTimestamp();
		/* the most recently active: the last to be closed for room */
		dlist_move_tail(&open_connections, &hc->node);
	}
}

/* the request is received (or refused): no deadline while it is answered */
void
http_conn_answering(HttpConn *hc)
{
	if (hc)
		hc->phase = CONN_ANSWERING;
}

/* the connection's request ended: it is idle from now */
void
http_conn_idle(HttpConn *hc)
{
	if (hc && !hc->closing)
	{
		hc->phase = CONN_IDLE;
		hc->idle_since = GetCurrentTimestamp();
		dlist_move_tail(&open_connections, &hc->node);
	}
}

/* libmicrohttpd's connection start and end: keep an HttpConn for each */
void
http_connection_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
					   enum MHD_ConnectionNotificationCode code)
{
	HttpConn   *hc = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED)
	{
		const union MHD_ConnectionInfo *ci;

		hc = calloc(1, sizeof(HttpConn));
		if (hc == NULL)
			return;				/* then this connection has no deadline */
		ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		hc->fd = ci ? ci->connect_fd : -1;
		/* its first request (and TLS handshake) counts from the accept */
		hc->phase = CONN_RECEIVING;
		hc->request_start = GetCurrentTimestamp();
		hc->idle_since = hc->request_start;
		dlist_push_tail(&open_connections, &hc->node);
		*socket_context = hc;
	}
	else if (hc != NULL)
	{
		dlist_delete(&hc->node);
		free(hc);
		*socket_context = NULL;
	}
}

/* libmicrohttpd has the request line: the request is arriving */
void *
http_request_line_received(void *cls, const char *uri, struct MHD_Connection *conn)
{
	http_conn_receiving(http_conn_state(conn));
	return NULL;
}

/*
 * Has a byte arrived on an idle connection since its last request ended?
 * (libmicrohttpd reports a request only once its request line is whole.)
 */
static bool
data_arrived_since_idle(HttpConn *hc, TimestampTz now)
{
#ifdef TCP_INFO
	struct tcp_info ti;
	socklen_t	len = sizeof(ti);
	long		idle_ms = (long) ((now - hc->idle_since) / 1000);

	if (hc->fd < 0 || getsockopt(hc->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
		return false;
	/* ms since the last data; 20 ms of slack for the kernel's clock */
	return (long) ti.tcpi_last_data_recv + 20 < idle_ms;
#else
	return false;
#endif
}

/*
 * Past registry.http_request_timeout the head or body of a request is
 * still arriving: answer 408 on the socket itself (libmicrohttpd has not
 * written anything for this request yet) and shut it, which makes
 * libmicrohttpd close the connection.  Over HTTPS the socket carries TLS
 * records, so there it is only shut.
 */
static void
answer_timeout(HttpConn *hc)
{
	static const char body[] = "{\"error_code\":408,\"message\":\"Request timed out\"}";
	char		buf[512];
	int			n;

	n = snprintf(buf, sizeof(buf),
				 "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
				 "Content-Type: %s\r\nContent-Length: %d\r\n\r\n%s",
				 REST_CONTENT_TYPE, (int) strlen(body), body);
	if (!http_tls_serving())
		(void) send(hc->fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void) shutdown(hc->fd, SHUT_RDWR);
	hc->phase = CONN_ANSWERING;
	hc->closing = true;
}

/* hold every request still arriving to registry.http_request_timeout */
static void
expire_slow_requests(TimestampTz now)
{
	dlist_iter	it;

	dlist_foreach(it, &open_connections)
	{
		HttpConn   *hc = dlist_container(HttpConn, node, it.cur);

		if (hc->phase == CONN_IDLE && data_arrived_since_idle(hc, now))
		{
			hc->phase = CONN_RECEIVING;
			hc->request_start = now;
		}
		if (hc->phase == CONN_RECEIVING && hc->fd >= 0 &&
			TimestampDifferenceExceeds(hc->request_start, now,
									   registry_http_request_timeout * 1000))
			answer_timeout(hc);
	}
}

/*
 * May the connection be closed to make room: not being answered nor
 * closing, and last active (accepted, or its request begun or ended)
 * before the time given?
 */
static bool
evictable(HttpConn *hc, TimestampTz before)
{
	TimestampTz active = (hc->phase == CONN_IDLE) ? hc->idle_since : hc->request_start;

	return hc->phase != CONN_ANSWERING && hc->fd >= 0 && !hc->closing &&
		active < before;
}

/*
 * Make room for new connections: close up to n of the connections least
 * recently active that are not being answered (idle, or still sending
 * their request) and were last active before the time given, by shutting
 * their sockets; libmicrohttpd closes them in its next run.  Returns how
 * many were closed.
 */
int
http_conn_evict(int n, TimestampTz before)
{
	dlist_iter	it;
	int			closed = 0;

	dlist_foreach(it, &open_connections)
	{
		HttpConn   *hc = dlist_container(HttpConn, node, it.cur);

		if (closed >= n)
			break;
		if (!evictable(hc, before))
			continue;
		(void) shutdown(hc->fd, SHUT_RDWR);
		/* closing: neither closed again nor answered 408 */
		hc->phase = CONN_ANSWERING;
		hc->closing = true;
		closed++;
	}
	return closed;
}

/* Could http_conn_evict() close a connection last active before then? */
bool
http_conn_evictable(TimestampTz before)
{
	dlist_iter	it;

	dlist_foreach(it, &open_connections)
	{
		HttpConn   *hc = dlist_container(HttpConn, node, it.cur);

		if (evictable(hc, before))
			return true;
	}
	return false;
}

/* from the loop: check the connections, every SWEEP_MS */
void
http_deadline_sweep(TimestampTz now)
{
	if (TimestampDifferenceExceeds(last_sweep, now, SWEEP_MS))
	{
		expire_slow_requests(now);
		last_sweep = now;
	}
}

/* how long the loop may sleep (at most timeout) before the next sweep */
long
http_deadline_wakeup_ms(long timeout)
{
	if (!dlist_is_empty(&open_connections))
		timeout = Min(timeout, SWEEP_MS);
	return timeout;
}
