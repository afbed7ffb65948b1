/*
 * bench/auth_flood.c: another client's latency while a flood of wrong
 * passwords hits the REST API (built and run by bench/auth_flood.sh).
 *
 * The probe: one keep-alive connection from 127.0.0.1 sending GET PATH
 * with the right credentials every PROBE_GAP_US, each answer timed.  The
 * flood (FLOOD_CONNS > 0): FLOOD_CONNS keep-alive connections sending GET
 * PATH with wrong credentials, FLOOD_RATE requests a second in all (each
 * waits for its answer, so a slow server gets fewer); their source
 * addresses are 127.0.1.1, 127.0.1.2, ... FLOOD_ADDRS of them: with 1,
 * one peer (127.0.1.1); with more, a connection moves to the next address
 * after every 5 requests, as a flood from many hosts would.
 * Prints
 *   RESULT <probe answers> <probe p50 ms> <probe p99 ms> <probe non-200>
 *          <flood answers> <401> <429> <other> <flood socket errors>
 *
 * Usage: auth_flood PORT SECONDS PATH PROBE_AUTH FLOOD_AUTH FLOOD_CONNS
 *                   FLOOD_RATE FLOOD_ADDRS
 * (AUTH: the base64 of user:password)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PROBE_GAP_US 2000
#define MAX_SAMPLES 200000

static int	port;
static double seconds;
static const char *path;
static const char *probe_auth;
static const char *flood_auth;
static int	flood_conns;
static double flood_rate;
static int	flood_addrs;
static double t_end;
static atomic_int next_addr;

static double *samples;
static int	nsamples;
static int	probe_non200;
static atomic_int flood_total;
static atomic_int flood_401;
static atomic_int flood_429;
static atomic_int flood_other;
static atomic_int flood_errors;

/* seconds on the monotonic clock */
static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a connection to 127.0.0.1:port from the source address from (host order) */
static int
connect_from(uint32_t from)
{
	struct sockaddr_in src = {0};
	struct sockaddr_in dst = {0};
	int			one = 1;
	int			fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	src.sin_family = AF_INET;
	src.sin_addr.s_addr = htonl(from);
	dst.sin_family = AF_INET;
	dst.sin_port = htons(port);
	dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *) &src, sizeof(src)) < 0 ||
		connect(fd, (struct sockaddr *) &dst, sizeof(dst)) < 0)
	{
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Send one GET with these credentials and read the answer; its status,
 * or -1 on a socket error.  *closing: the server closes after it.
 */
static int
request(int fd, const char *auth, int *closing)
{
	char		req[1024];
	char		buf[16384];
	int			len = snprintf(req, sizeof(req),
							   "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic %s\r\n\r\n",
							   path, auth);
	size_t		have = 0;
	char	   *head_end = NULL;
	long		content_length = 0;
	int			status;
	char	   *cl;

	if (write(fd, req, len) != len)
		return -1;
	while (head_end == NULL)
	{
		ssize_t		n = read(fd, buf + have, sizeof(buf) - 1 - have);

		if (n <= 0)
			return -1;
		have += n;
		buf[have] = '\0';
		head_end = strstr(buf, "\r\n\r\n");
		if (head_end == NULL && have >= sizeof(buf) - 1)
			return -1;
	}
	if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1)
		return -1;
	cl = strcasestr(buf, "\r\nContent-Length:");
	if (cl && cl < head_end)
		content_length = strtol(cl + 17, NULL, 10);
	*closing = (strcasestr(buf, "\r\nConnection: close") != NULL);
	{
		size_t		body_have = have - (size_t) (head_end + 4 - buf);

		while ((long) body_have < content_length)
		{
			ssize_t		n = read(fd, buf, sizeof(buf));

			if (n <= 0)
				return -1;
			body_have += n;
		}
	}
	return status;
}

/* the probe: timed requests with the right credentials */
static void *
probe(void *arg)
{
	int			fd = connect_from(INADDR_LOOPBACK);
	int			closing = 0;

	while (fd >= 0 && now_s() < t_end && nsamples < MAX_SAMPLES)
	{
		double		t0 = now_s();
		int			status = request(fd, probe_auth, &closing);
		double		t1 = now_s();

		if (status < 0 || closing)
		{
			close(fd);
			fd = connect_from(INADDR_LOOPBACK);
			if (status < 0)
			{
				probe_non200++;
				continue;
			}
		}
		samples[nsamples++] = (t1 - t0) * 1000.0;
		if (status != 200)
			probe_non200++;
		usleep(PROBE_GAP_US);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* the next flood source address: 127.0.1.1 .. 127.0.1.250, 127.0.2.1 .. */
static uint32_t
flood_source(void)
{
	int			k = atomic_fetch_add(&next_addr, 1) % flood_addrs;

	return (127u << 24) | ((uint32_t) (1 + k / 250) << 8) | (uint32_t) (1 + k % 250);
}

/* one flood connection: wrong credentials at its share of the rate */
static void *
flood(void *arg)
{
	double		gap = flood_conns / flood_rate;
	double		next = now_s();
	int			fd = connect_from(flood_source());
	int			sent_here = 0;

	while (now_s() < t_end)
	{
		int			closing = 0;
		int			status;
		double		t = now_s();

		if (t < next)
			usleep((useconds_t) ((next - t) * 1e6));
		next += gap;
		if (fd < 0 || (flood_addrs > 1 && sent_here >= 5))
		{
			if (fd >= 0)
				close(fd);
			fd = connect_from(flood_source());
			sent_here = 0;
			if (fd < 0)
			{
				atomic_fetch_add(&flood_errors, 1);
				continue;
			}
		}
		status = request(fd, flood_auth, &closing);
		sent_here++;
		if (status < 0 || closing)
		{
			close(fd);
			fd = -1;
		}
		if (status < 0)
		{
			atomic_fetch_add(&flood_errors, 1);
			continue;
		}
		atomic_fetch_add(&flood_total, 1);
		if (status == 401)
			atomic_fetch_add(&flood_401, 1);
		else if (status == 429)
			atomic_fetch_add(&flood_429, 1);
		else
			atomic_fetch_add(&flood_other, 1);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* qsort's comparison of doubles */
static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	pthread_t	probe_thread;
	pthread_t  *flood_threads;
	int			i;

	if (argc != 9)
	{
		fprintf(stderr, "usage: auth_flood PORT SECONDS PATH PROBE_AUTH FLOOD_AUTH FLOOD_CONNS FLOOD_RATE FLOOD_ADDRS\n");
		return 2;
	}
	port = atoi(argv[1]);
	seconds = atof(argv[2]);
	path = argv[3];
	probe_auth = argv[4];
	flood_auth = argv[5];
	flood_conns = atoi(argv[6]);
	flood_rate = atof(argv[7]);
	flood_addrs = atoi(argv[8]) > 0 ? atoi(argv[8]) : 1;
	samples = malloc(sizeof(double) * MAX_SAMPLES);
	flood_threads = calloc(flood_conns > 0 ? flood_conns : 1, sizeof(pthread_t));
	t_end = now_s() + seconds;
	for (i = 0; i < flood_conns; i++)
		pthread_create(&flood_threads[i], NULL, flood, NULL);
	pthread_create(&probe_thread, NULL, probe, NULL);
	pthread_join(probe_thread, NULL);
	for (i = 0; i < flood_conns; i++)
		pthread_join(flood_threads[i], NULL);
	if (nsamples == 0)
	{
		printf("RESULT 0 0 0 %d %d %d %d %d %d\n", probe_non200, flood_total,
			   flood_401, flood_429, flood_other, flood_errors);
		return 1;
	}
	qsort(samples, nsamples, sizeof(double), cmp_double);
	printf("RESULT %d %.2f %.2f %d %d %d %d %d %d\n", nsamples,
		   samples[nsamples / 2], samples[(int) (nsamples * 0.99)], probe_non200,
		   (int) flood_total, (int) flood_401, (int) flood_429, (int) flood_other,
		   (int) flood_errors);
	return 0;
}
