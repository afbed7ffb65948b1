/*
 * bench/http_load.c: the subject reads of bench/lookup_scale.sh over HTTP,
 * from a client as lean as pgbench (built and run by that script).
 *
 * THREADS threads (as pgbench -j), CONNECTIONS keep-alive connections in
 * all spread over them, each thread serving its connections with epoll:
 * a connection sends its next request as soon as its answer is read, for
 * WARMUP seconds not counted and then SECONDS counted.  Each request is
 * the one bench/http_lib.sh's wrk_lua_subject_reads builds in Lua, written
 * here by one snprintf into the connection's buffer: for a random subject
 * i in [0, SUBJECTS) and a random one of its versions r in 0..9, k = 10 i
 * + r,
 *   latest-nc  GET /subjects/s<i>/versions/latest?nc=<thread>x<count>
 *   lookup-nc  POST /subjects/s<i>?nc=<thread>x<count> with the body
 *              {"schema":"<bench.schema_text(k), JSON-escaped>"}
 *   relook-nc  the same with a blank after every ',' and ':' of the text
 *              (it is parsed: the bytes are not the stored ones)
 * (Content-Type application/vnd.schemaregistry.v1+json); <count> numbers
 * the thread's requests, so that no answer comes from a cache.  TEXTFILE
 * holds bench.schema_text's text with "@K@" where k goes.
 *
 * With "check", every answer must be a 200 of the version asked for: its
 * subject, its version (r + 1; 10 for latest) and its text's k; a wrong
 * one is printed and the exit status is 1.
 *
 * Prints (as wrk's done() in bench/lookup_scale.sh did)
 *   RESULT <answers> <microseconds> <p50 us> <non-2xx answers> <socket errors>
 *   LATENCY <p50 us> <p90 us> <p99 us> <max us>
 *   CHECK <answers checked> <wrong answers>     (with "check")
 * counting the answers read in the counted seconds; a request still
 * waiting at the end for more than 2 s counts as a socket error (a
 * timeout, as wrk counts one).
 *
 * Usage: http_load PORT THREADS CONNECTIONS SECONDS WARMUP SUBJECTS
 *                  latest-nc|lookup-nc|relook-nc TEXTFILE [check]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <time.h>

#include "http_wire.h"

/* latencies are counted per microsecond up to this, and above it as one */
#define HIST_US 100000
/* a connection's room for an answer */
#define RESP_CAP 65536
/* a request still waiting after this at the end is a timeout */
#define TIMEOUT_NS 2000000000ULL

typedef enum LoadMode
{
	MODE_LATEST,
	MODE_LOOKUP,
	MODE_RELOOK
} LoadMode;

/* one keep-alive connection and the request it has out */
typedef struct LoadConn
{
	int			fd;				/* -1 once it could not be opened */
	char	   *req;			/* the request being sent */
	int			req_len;
	int			req_sent;		/* how much of it is written */
	char	   *resp;			/* the answer read so far */
	size_t		have;
	uint64_t	sent_at;		/* when the request went (ns) */
	uint32_t	subject;		/* what it asked: subject i, text k */
	uint64_t	k;
} LoadConn;

/* one thread: its connections, its random numbers and its counts */
typedef struct LoadThread
{
	int			tid;			/* 1, 2, ...: the nc's first number */
	int			nconn;
	LoadConn   *conns;
	uint64_t	rng;
	uint64_t	count;			/* requests built: the nc's second number */
	int			counting;		/* past the warm-up */
	uint64_t	answers;
	uint64_t	non2xx;
	uint64_t	sockerr;
	uint64_t	checked;
	uint64_t	wrong;
	uint64_t	max_us;
	uint32_t   *hist;			/* answers per latency in us, HIST_US + 1 */
	pthread_t	thread;
} LoadThread;

static int	port;
static uint32_t subjects;
static LoadMode mode;
static int	check;
static uint64_t warm_end;		/* when counting starts (ns) */
static uint64_t run_end;		/* when the run stops (ns) */
static char *body_pre;			/* the body before k and after it */
static char *body_post;
static int	body_fixed;			/* their lengths together */
static size_t req_cap;

/* nanoseconds on the monotonic clock */
static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* the thread's next random number (xorshift64*) */
static uint32_t
next_random(LoadThread *t)
{
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return (uint32_t) ((t->rng * 0x2545F4914F6CDD1DULL) >> 32);
}

/* a random number in [0, n) */
static uint32_t
random_below(LoadThread *t, uint32_t n)
{
	return (uint32_t) (((uint64_t) next_random(t) * n) >> 32);
}

/* how many decimal digits k has */
static int
digits(uint64_t k)
{
	int			n = 1;

	while (k >= 10)
	{
		k /= 10;
		n++;
	}
	return n;
}

/*
 * text[0 .. len) as the inside of a JSON string, spaced (a blank after
 * each ',' and ':') when spaced: a new string.  The text is the bench's
 * own: a control character in it is refused.
 */
static char *
json_inside(const char *text, size_t len, int spaced)
{
	char	   *out = malloc(2 * len + 1);
	char	   *o = out;

	for (size_t i = 0; i < len; i++)
	{
		char		c = text[i];

		if ((unsigned char) c < 0x20)
		{
			fprintf(stderr, "http_load: a control character in the text\n");
			exit(2);
		}
		if (c == '"' || c == '\\')
			*o++ = '\\';
		*o++ = c;
		if (spaced && (c == ',' || c == ':'))
			*o++ = ' ';
	}
	*o = '\0';
	return out;
}

/*
 * body_pre and body_post from the text in path ("@K@" where k goes):
 * {"schema":"<pre> and <post>"} of the mode's form of the text.
 */
static void
load_bodies(const char *path)
{
	char		text[4096];
	FILE	   *f = fopen(path, "rb");
	size_t		n;
	char	   *at;
	char	   *pre;
	char	   *post;

	if (f == NULL)
	{
		perror(path);
		exit(2);
	}
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	while (n > 0 && text[n - 1] == '\n')
		n--;
	text[n] = '\0';
	if ((at = strstr(text, "@K@")) == NULL)
	{
		fprintf(stderr, "http_load: no @K@ in %s\n", path);
		exit(2);
	}
	pre = json_inside(text, at - text, mode == MODE_RELOOK);
	post = json_inside(at + 3, strlen(at + 3), mode == MODE_RELOOK);
	body_pre = malloc(strlen(pre) + 16);
	body_post = malloc(strlen(post) + 16);
	sprintf(body_pre, "{\"schema\":\"%s", pre);
	sprintf(body_post, "%s\"}", post);
	body_fixed = strlen(body_pre) + strlen(body_post);
	req_cap = body_fixed + 512;
	free(pre);
	free(post);
}

/* Build the connection's next request (a random subject and version). */
static void
build_request(LoadThread *t, LoadConn *c)
{
	uint32_t	i = random_below(t, subjects);
	uint32_t	r = random_below(t, 10);
	uint64_t	k = 10 * (uint64_t) i + r;

	t->count++;
	c->subject = i;
	c->k = mode == MODE_LATEST ? 10 * (uint64_t) i + 9 : k;
	if (mode == MODE_LATEST)
		c->req_len = snprintf(c->req, req_cap,
							  "GET /subjects/s%u/versions/latest?nc=%dx%llu HTTP/1.1\r\n"
							  "Host: 127.0.0.1:%d\r\n\r\n",
							  i, t->tid, (unsigned long long) t->count, port);
	else
		c->req_len = snprintf(c->req, req_cap,
							  "POST /subjects/s%u?nc=%dx%llu HTTP/1.1\r\n"
							  "Host: 127.0.0.1:%d\r\n"
							  "Content-Type: application/vnd.schemaregistry.v1+json\r\n"
							  "Content-Length: %d\r\n\r\n%s%llu%s",
							  i, t->tid, (unsigned long long) t->count, port,
							  body_fixed + digits(k), body_pre,
							  (unsigned long long) k, body_post);
	c->req_sent = 0;
	c->have = 0;
}

/*
 * Write what is left of the connection's request; 0 when it is all
 * written or the socket is full (then epoll says when to go on), -1 on an
 * error.
 */
static int
send_rest(int ep, LoadConn *c)
{
	while (c->req_sent < c->req_len)
	{
		ssize_t		w = send(c->fd, c->req + c->req_sent, c->req_len - c->req_sent,
							 MSG_NOSIGNAL);

		if (w < 0 && errno == EAGAIN)
		{
			struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT,.data.ptr = c};

			return epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
		}
		if (w <= 0)
			return -1;
		c->req_sent += w;
	}
	return 0;
}

/* Build and send the connection's next request; 0 or -1. */
static int
send_next(LoadThread *t, int ep, LoadConn *c)
{
	build_request(t, c);
	c->sent_at = now_ns();
	return send_rest(ep, c);
}

/*
 * Open (or open again) the connection, non-blocking and watched by ep,
 * and send its first request; a connection that cannot be opened counts
 * one socket error and stays closed.  (Socket errors of the warm-up are
 * forgotten when counting starts.)
 */
static void
open_conn(LoadThread *t, int ep, LoadConn *c)
{
	struct epoll_event ev = {.events = EPOLLIN,.data.ptr = c};

	if (c->fd >= 0)
		close(c->fd);
	c->fd = bench_connect_local(port);
	if (c->fd < 0 ||
		fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK) != 0 ||
		epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) != 0 ||
		send_next(t, ep, c) != 0)
	{
		t->sockerr++;
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
	}
}

/* Whether body[0 .. len) holds what the request c asked for. */
static int
right_answer(const LoadConn *c, const char *body, size_t len)
{
	char		want[64];
	int			n;
	const char *v;

	n = snprintf(want, sizeof(want), "\"subject\":\"s%u\"", c->subject);
	if (memmem(body, len, want, n) == NULL)
		return 0;
	n = snprintf(want, sizeof(want), "\"version\":%u",
				 mode == MODE_LATEST ? 10 : (unsigned) (c->k % 10) + 1);
	v = memmem(body, len, want, n);
	if (v == NULL || (v[n] != ',' && v[n] != '}'))
		return 0;
	/* the text's namespace, escaped in the answer's "schema" string */
	n = snprintf(want, sizeof(want), "bench.n%llu\\\"", (unsigned long long) c->k);
	return memmem(body, len, want, n) != NULL;
}

/* Count the answer of c, whole in c->resp, read at now. */
static void
count_answer(LoadThread *t, const LoadConn *c, int status, long head, uint64_t now)
{
	uint64_t	us = (now - c->sent_at) / 1000;

	if (!t->counting)
		return;
	t->answers++;
	if (status < 200 || status > 299)
		t->non2xx++;
	t->hist[us < HIST_US ? us : HIST_US]++;
	if (us > t->max_us)
		t->max_us = us;
	if (check)
	{
		t->checked++;
		if (status != 200 || !right_answer(c, c->resp + head, c->have - head))
		{
			if (t->wrong++ == 0)
				fprintf(stderr, "http_load: a wrong answer to %.*s:\n%s\n",
						(int) (strchr(c->req, '\r') - c->req), c->req, c->resp);
		}
	}
}

/*
 * Read what the connection has for us; once its answer is whole, count it
 * and send the next request.  An error, a close or an answer that is not
 * one counts a socket error, and the connection is opened again (as it is
 * after an answer with "Connection: close").
 */
static void
on_readable(LoadThread *t, int ep, LoadConn *c)
{
	for (;;)
	{
		ssize_t		r = recv(c->fd, c->resp + c->have, RESP_CAP - 1 - c->have, 0);
		BenchHttpHead h;
		long		head;

		if (r < 0 && errno == EAGAIN)
			return;
		if (r <= 0)
			break;
		c->have += r;
		c->resp[c->have] = '\0';
		head = bench_response_head(c->resp, c->have, &h);
		if (head == 0 && c->have < RESP_CAP - 1)
			continue;
		if (head <= 0 || h.content_length < 0 ||
			head + h.content_length >= RESP_CAP ||
			c->have > (size_t) (head + h.content_length))
			break;
		if (c->have < (size_t) (head + h.content_length))
			continue;
		count_answer(t, c, h.status, head, now_ns());
		if (h.closing)
		{
			open_conn(t, ep, c);
			return;
		}
		if (send_next(t, ep, c) != 0)
			break;
		return;
	}
	t->sockerr++;
	open_conn(t, ep, c);
}

/* One thread: its connections served until the run ends. */
static void *
load_thread(void *arg)
{
	LoadThread *t = arg;
	int			ep = epoll_create1(0);
	struct epoll_event ev[64];

	if (ep < 0)
	{
		perror("epoll_create1");
		exit(2);
	}
	t->counting = warm_end <= now_ns();
	for (int j = 0; j < t->nconn; j++)
		open_conn(t, ep, &t->conns[j]);
	for (;;)
	{
		int			n = epoll_wait(ep, ev, 64, 50);
		uint64_t	now = now_ns();

		if (now >= run_end)
			break;
		if (!t->counting && now >= warm_end)
		{
			t->counting = 1;
			t->sockerr = 0;
		}
		for (int e = 0; e < n; e++)
		{
			LoadConn   *c = ev[e].data.ptr;

			if (c->req_sent < c->req_len && (ev[e].events & EPOLLOUT))
			{
				struct epoll_event in = {.events = EPOLLIN,.data.ptr = c};

				if (send_rest(ep, c) != 0)
				{
					t->sockerr++;
					open_conn(t, ep, c);
				}
				else if (c->req_sent == c->req_len)
					epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &in);
				continue;
			}
			on_readable(t, ep, c);
		}
	}
	/* the requests still out: a timeout each if they waited too long */
	for (int j = 0; j < t->nconn; j++)
		if (t->conns[j].fd >= 0)
		{
			if (t->conns[j].sent_at + TIMEOUT_NS < run_end)
				t->sockerr++;
			close(t->conns[j].fd);
		}
	close(ep);
	return NULL;
}

/* The least latency (us) at or under which fraction p of the answers are. */
static uint64_t
percentile(const uint64_t *hist, uint64_t total, double p)
{
	uint64_t	want = (uint64_t) (p * total + 0.999999);
	uint64_t	seen = 0;

	for (uint64_t us = 0; us <= HIST_US; us++)
		if ((seen += hist[us]) >= want && want > 0)
			return us;
	return 0;
}

int
main(int argc, char **argv)
{
	int			threads;
	int			connections;
	double		seconds;
	double		warmup;
	LoadThread *t;
	uint64_t   *hist;
	uint64_t	answers = 0,
				non2xx = 0,
				sockerr = 0,
				checked = 0,
				wrong = 0,
				max_us = 0;
	uint64_t	start;

	if (argc < 9 || argc > 10 || (argc == 10 && strcmp(argv[9], "check") != 0))
	{
		fprintf(stderr, "usage: http_load PORT THREADS CONNECTIONS SECONDS WARMUP SUBJECTS "
				"latest-nc|lookup-nc|relook-nc TEXTFILE [check]\n");
		return 2;
	}
	port = atoi(argv[1]);
	threads = atoi(argv[2]);
	connections = atoi(argv[3]);
	seconds = atof(argv[4]);
	warmup = atof(argv[5]);
	subjects = (uint32_t) strtoul(argv[6], NULL, 10);
	if (strcmp(argv[7], "latest-nc") == 0)
		mode = MODE_LATEST;
	else if (strcmp(argv[7], "lookup-nc") == 0)
		mode = MODE_LOOKUP;
	else if (strcmp(argv[7], "relook-nc") == 0)
		mode = MODE_RELOOK;
	else
	{
		fprintf(stderr, "http_load: unknown mode %s\n", argv[7]);
		return 2;
	}
	check = argc == 10;
	if (threads < 1 || connections < threads || seconds <= 0 || warmup < 0 || subjects < 1)
	{
		fprintf(stderr, "http_load: need THREADS >= 1, CONNECTIONS >= THREADS, SECONDS > 0, SUBJECTS >= 1\n");
		return 2;
	}
	load_bodies(argv[8]);

	t = calloc(threads, sizeof(LoadThread));
	for (int j = 0; j < threads; j++)
	{
		t[j].tid = j + 1;
		t[j].nconn = connections / threads + (j < connections % threads);
		t[j].conns = calloc(t[j].nconn, sizeof(LoadConn));
		for (int c = 0; c < t[j].nconn; c++)
		{
			t[j].conns[c].fd = -1;
			t[j].conns[c].req = malloc(req_cap);
			t[j].conns[c].resp = malloc(RESP_CAP);
		}
		t[j].hist = calloc(HIST_US + 1, sizeof(uint32_t));
		/* seeded as the Lua was (thread number and time), mixed */
		t[j].rng = ((uint64_t) t[j].tid * 7919 + (uint64_t) time(NULL)) *
			0x9E3779B97F4A7C15ULL | 1;
	}
	start = now_ns();
	warm_end = start + (uint64_t) (warmup * 1e9);
	run_end = warm_end + (uint64_t) (seconds * 1e9);
	for (int j = 0; j < threads; j++)
		pthread_create(&t[j].thread, NULL, load_thread, &t[j]);
	hist = calloc(HIST_US + 1, sizeof(uint64_t));
	for (int j = 0; j < threads; j++)
	{
		pthread_join(t[j].thread, NULL);
		answers += t[j].answers;
		non2xx += t[j].non2xx;
		sockerr += t[j].sockerr;
		checked += t[j].checked;
		wrong += t[j].wrong;
		if (t[j].max_us > max_us)
			max_us = t[j].max_us;
		for (int us = 0; us <= HIST_US; us++)
			hist[us] += t[j].hist[us];
	}
	printf("RESULT %llu %llu %.1f %llu %llu\n", (unsigned long long) answers,
		   (unsigned long long) ((run_end - warm_end) / 1000),
		   (double) percentile(hist, answers, 0.50),
		   (unsigned long long) non2xx, (unsigned long long) sockerr);
	printf("LATENCY %llu %llu %llu %llu\n",
		   (unsigned long long) percentile(hist, answers, 0.50),
		   (unsigned long long) percentile(hist, answers, 0.90),
		   (unsigned long long) percentile(hist, answers, 0.99),
		   (unsigned long long) max_us);
	if (check)
		printf("CHECK %llu %llu\n", (unsigned long long) checked,
			   (unsigned long long) wrong);
	return check && (wrong > 0 || checked == 0) ? 1 : 0;
}
