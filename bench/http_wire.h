/*
 * bench/http_wire.h: the HTTP/1.1 pieces the bench's C load clients share
 * (bench/burst_client.c, bench/http_load.c): a keep-alive connection to the
 * registry on the loopback interface, and the head of a response read so
 * far.  Included by each client, built on its own by its script.
 */
#ifndef BENCH_HTTP_WIRE_H
#define BENCH_HTTP_WIRE_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* the longest response head read before it counts as no response */
#define BENCH_HEAD_MAX 8192

/* what a response's head says */
typedef struct BenchHttpHead
{
	int			status;			/* the status code */
	long		content_length; /* the body's length; -1 without one */
	int			closing;		/* "Connection: close": the server closes
								 * after it */
} BenchHttpHead;

/*
 * A connection to 127.0.0.1:port with Nagle off and a 30 s receive
 * timeout (a stuck server ends a blocking client's run with a socket
 * error), or -1.
 */
static int
bench_connect_local(int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET,.sin_port = htons(port)};
	struct timeval tv = {.tv_sec = 30};
	int			fd = socket(AF_INET, SOCK_STREAM, 0);
	int			one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *) &a, sizeof(a)) != 0)
	{
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/*
 * The head of the response in buf[0 .. have) (NUL-terminated at have):
 * 0 while it is not all there, -1 if it is not a response (or longer than
 * BENCH_HEAD_MAX), else its length through the blank line, with *h filled.
 */
static long
bench_response_head(const char *buf, size_t have, BenchHttpHead *h)
{
	const char *end = memmem(buf, have, "\r\n\r\n", 4);
	const char *line;

	if (end == NULL)
		return have > BENCH_HEAD_MAX ? -1 : 0;
	if (sscanf(buf, "HTTP/1.%*d %d", &h->status) != 1)
		return -1;
	h->content_length = -1;
	h->closing = 0;
	/* each header line, up to the blank line at end + 2 */
	for (line = strstr(buf, "\r\n") + 2; line < end + 2; line = strstr(line, "\r\n") + 2)
	{
		if (strncasecmp(line, "content-length:", 15) == 0)
			h->content_length = strtol(line + 15, NULL, 10);
		else if (strncasecmp(line, "connection: close", 17) == 0)
			h->closing = 1;
	}
	return end + 4 - buf;
}

#endif							/* BENCH_HTTP_WIRE_H */
