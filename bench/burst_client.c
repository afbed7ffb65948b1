/*
 * bench/burst_client.c: a fixed number of schema registrations over HTTP,
 * from CLIENTS threads with one keep-alive connection each, timed from the
 * first request to the last answer (built and run by bench/register_burst.sh).
 *
 * MODE quota: each client sends REQUESTS / CLIENTS requests, one after the
 * other, as pgbench -t does (client i's j-th request is k = j * CLIENTS +
 * i), so the run ends when the slowest connection is done.  MODE pool: the
 * clients take the next k from a shared counter, so every client is busy
 * until the last request, as under pgbench -T or wrk -d.  Request k posts
 * PRE <tag>_<k> POST to /subjects/<prefix><k % subjects>/versions, so every
 * request registers a new schema and subjects fill evenly.  A client stops
 * at its first socket error (none is expected).  Prints
 *   RESULT <200 answers> <seconds> <other answers> <socket errors>
 *
 * Usage: burst_client PORT CLIENTS REQUESTS SUBJECTS PREFIX TAG PREFILE POSTFILE quota|pool
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "http_wire.h"

static int	port;
static int	clients;
static int	per_client;
static int	requests;
static int	pool;				/* the shared counter instead of quotas */
static atomic_int next_request;
static int	subjects;
static const char *prefix;
static const char *tag;
static char *pre;
static char *post;
static atomic_int ok200;
static atomic_int non200;
static atomic_int sockerr;

/* The whole of a small file, NUL-terminated, without a final newline. */
static char *
slurp(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	long		n;
	char	   *buf;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0)
	{
		perror(path);
		exit(2);
	}
	rewind(f);
	buf = malloc(n + 1);
	if (buf == NULL || fread(buf, 1, n, f) != (size_t) n)
		exit(2);
	fclose(f);
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return buf;
}

/* Write all of buf; 0 on success. */
static int
write_all(int fd, const char *buf, size_t n)
{
	while (n > 0)
	{
		ssize_t		w = send(fd, buf, n, MSG_NOSIGNAL);

		if (w <= 0)
			return -1;
		buf += w;
		n -= w;
	}
	return 0;
}

/* Read more of a response into buf (NUL-terminated after *have); 0 on success. */
static int
recv_more(int fd, char *buf, size_t *have, size_t cap)
{
	ssize_t		r;

	if (*have + 1 >= cap)
		return -1;
	r = recv(fd, buf + *have, cap - 1 - *have, 0);
	if (r <= 0)
		return -1;
	*have += r;
	buf[*have] = '\0';
	return 0;
}

/* Read one HTTP response (Content-Length framed); its status, or -1. */
static int
read_response(int fd, char *buf, size_t cap)
{
	size_t		have = 0;
	long		head;
	BenchHttpHead h;

	buf[0] = '\0';
	while ((head = bench_response_head(buf, have, &h)) == 0)
		if (recv_more(fd, buf, &have, cap) != 0)
			return -1;
	if (head < 0 || h.content_length < 0)
		return -1;
	while (have < (size_t) (head + h.content_length))
		if (recv_more(fd, buf, &have, cap) != 0)
			return -1;
	return h.status;
}

/* One client (arg: its number i): its REQUESTS / CLIENTS requests. */
static void *
client(void *arg)
{
	int			i = (int) (intptr_t) arg;
	size_t		cap = strlen(pre) + strlen(post) + 1024;
	char	   *req = malloc(cap);
	char	   *body = malloc(cap);
	char		resp[65536];
	int			fd = bench_connect_local(port);

	if (fd < 0)
	{
		atomic_fetch_add(&sockerr, 1);
		return NULL;
	}
	for (int j = 0;; j++)
	{
		int			k = pool ? atomic_fetch_add(&next_request, 1) : j * clients + i;
		int			blen;
		int			hlen;
		int			status;

		if (pool ? k >= requests : j >= per_client)
			break;
		blen = snprintf(body, cap, "%s%s_%d%s", pre, tag, k, post);
		hlen = snprintf(req, cap, "POST /subjects/%s%d/versions HTTP/1.1\r\n"
						"Host: 127.0.0.1\r\n"
						"Content-Type: application/vnd.schemaregistry.v1+json\r\n"
						"Content-Length: %d\r\n\r\n", prefix, k % subjects, blen);
		if (write_all(fd, req, hlen) != 0 || write_all(fd, body, blen) != 0 ||
			(status = read_response(fd, resp, sizeof(resp))) < 0)
		{
			atomic_fetch_add(&sockerr, 1);
			break;
		}
		atomic_fetch_add(status == 200 ? &ok200 : &non200, 1);
	}
	close(fd);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t  *t;
	struct timespec a,
				b;

	if (argc != 10 || (strcmp(argv[9], "quota") != 0 && strcmp(argv[9], "pool") != 0))
	{
		fprintf(stderr, "usage: burst_client PORT CLIENTS REQUESTS SUBJECTS PREFIX TAG PREFILE POSTFILE quota|pool\n");
		return 2;
	}
	pool = strcmp(argv[9], "pool") == 0;
	port = atoi(argv[1]);
	clients = atoi(argv[2]);
	requests = atoi(argv[3]);
	subjects = atoi(argv[4]);
	if (clients < 1 || requests % clients != 0 || subjects < 1)
	{
		fprintf(stderr, "burst_client: REQUESTS must be a multiple of CLIENTS\n");
		return 2;
	}
	per_client = requests / clients;
	prefix = argv[5];
	tag = argv[6];
	pre = slurp(argv[7]);
	post = slurp(argv[8]);
	t = calloc(clients, sizeof(pthread_t));
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < clients; i++)
		pthread_create(&t[i], NULL, client, (void *) (intptr_t) i);
	for (int i = 0; i < clients; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("RESULT %d %.6f %d %d\n", atomic_load(&ok200),
		   (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
		   atomic_load(&non200), atomic_load(&sockerr));
	return 0;
}
