/*
 * bench/mhd_trivial.c: the reference server of bench/http_get.sh.
 *
 * libmicrohttpd in the registry's HTTP worker mode: MHD_USE_EPOLL, no
 * thread of MHD's own, one process, an external loop that waits on MHD's
 * epoll descriptor (epoll_wait, like WaitLatchOrSocket) and calls
 * MHD_run().  Every request gets the same ~1 KB JSON body (the shape of
 * GET /schemas/ids/{id}), copied into a new response each time as the
 * registry does.  As WaitLatchOrSocket does, the loop waits on an epoll
 * set of its own that holds MHD's epoll descriptor (waiting on MHD's
 * descriptor directly would consume its edge-triggered events).  The
 * keep-alive pitfall of libmicrohttpd 0.9.75 is
 * avoided: the first access-handler call only returns MHD_YES, the
 * response is queued on the second call.
 *
 *   cc -O2 -o mhd_trivial bench/mhd_trivial.c -lmicrohttpd
 *   ./mhd_trivial PORT [BODY_BYTES]     (127.0.0.1, runs until SIGTERM)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <microhttpd.h>

static volatile sig_atomic_t stop = 0;
static char *body;
static size_t body_len;

static void
on_term(int sig)
{
	(void) sig;
	stop = 1;
}

static enum MHD_Result
handler(void *cls, struct MHD_Connection *conn, const char *url,
		const char *method, const char *version, const char *upload_data,
		size_t *upload_data_size, void **con_cls)
{
	static int	marker;
	struct MHD_Response *r;
	enum MHD_Result ret;

	(void) cls;
	(void) url;
	(void) method;
	(void) version;
	(void) upload_data;
	if (*con_cls == NULL)
	{
		*con_cls = &marker;		/* first call: headers only, answer later */
		return MHD_YES;
	}
	if (*upload_data_size > 0)
	{
		*upload_data_size = 0;
		return MHD_YES;
	}
	r = MHD_create_response_from_buffer(body_len, body, MHD_RESPMEM_MUST_COPY);
	if (r == NULL)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
							"application/vnd.schemaregistry.v1+json");
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/*
 * a JSON body of exactly n bytes (n >= 200) shaped like the registry's
 * {"schema":"{\"type\":\"record\",...}"}, padded with a doc string
 */
static void
make_body(size_t n)
{
	static const char head[] = "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"Order\\\",\\\"doc\\\":\\\"";
	static const char tail[] = "\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\"}]}\"}";
	size_t		fixed = strlen(head) + strlen(tail);

	if (n < fixed + 1)
		n = fixed + 1;
	body = malloc(n + 1);
	strcpy(body, head);
	memset(body + strlen(head), 'd', n - fixed);
	strcpy(body + strlen(head) + (n - fixed), tail);
	body_len = n;
}

int
main(int argc, char **argv)
{
	struct MHD_Daemon *d;
	struct sockaddr_in addr;
	const union MHD_DaemonInfo *info;
	struct epoll_event ev;
	int			port;
	int			outer;

	if (argc < 2)
	{
		fprintf(stderr, "usage: %s PORT [BODY_BYTES]\n", argv[0]);
		return 2;
	}
	port = atoi(argv[1]);
	make_body(argc > 2 ? (size_t) atoi(argv[2]) : 1100);
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	signal(SIGPIPE, SIG_IGN);

	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_port = htons((uint16_t) port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	d = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_ERROR_LOG, (uint16_t) port, NULL, NULL,
						 handler, NULL,
						 MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &addr,
						 MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int) 1,
						 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) 60,
						 MHD_OPTION_CONNECTION_LIMIT, (unsigned int) 1000,
						 MHD_OPTION_END);
	if (d == NULL)
	{
		fprintf(stderr, "mhd_trivial: could not listen on 127.0.0.1:%d\n", port);
		return 1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
	outer = epoll_create1(EPOLL_CLOEXEC);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN;
	ev.data.fd = info->epoll_fd;
	if (outer < 0 || epoll_ctl(outer, EPOLL_CTL_ADD, info->epoll_fd, &ev) != 0)
	{
		perror("mhd_trivial: epoll");
		return 1;
	}
	fprintf(stderr, "mhd_trivial: listening on 127.0.0.1:%d, body %zu bytes\n", port, body_len);
	while (!stop)
	{
		MHD_UNSIGNED_LONG_LONG to;
		int			timeout = 1000;

		if (MHD_get_timeout(d, &to) == MHD_YES && to < 1000)
			timeout = (int) to;
		if (epoll_wait(outer, &ev, 1, timeout) < 0 && errno != EINTR)
			break;
		MHD_run(d);
	}
	MHD_stop_daemon(d);
	return 0;
}
