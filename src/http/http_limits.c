/*-------------------------------------------------------------------------
 *
 * http_limits.c
 *	  How many connections a worker may hold: the open file limit shared
 *	  between them and PostgreSQL's file cache.
 *
 * Each connection is a descriptor, and so is each file PostgreSQL's file
 * cache (fd.c) keeps open; a worker out of descriptors could neither
 * accept nor read its catalog.  So the worker raises its soft open file
 * limit, splits what is left between the file cache and libmicrohttpd's
 * connection limit (all of it by default, registry.http_max_connections
 * = 0; at most that setting otherwise), and LOGs when the daemon is full.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <dirent.h>
#include <limits.h>
#include <sys/resource.h>

#include <microhttpd.h>

#include "storage/fd.h"

#include "http.h"
#include "http_internal.h"

/*
 * Descriptors kept out of the connection budget: fd.c's reserve
 * (NUM_RESERVED_FDS, 10) plus the listening socket, libmicrohttpd's epoll
 * and wake-up descriptors, this worker's two wait event sets, and on a
 * standby the forwards' epoll descriptor and connections to the primary
 * (HTTP_FORWARDS_MAX).
 */
#define RESERVED_FDS (16 + 1 + HTTP_FORWARDS_MAX)
/*
 * the most connections the open file limit alone gives a worker: each may
 * hold libmicrohttpd's 32 KB buffer pool, so this bounds what silent
 * connections can make a worker reserve (about 320 MB); past it the oldest
 * idle ones are closed for new ones
 */
#define AUTO_CONNECTIONS_MAX 10000
/* the fewest descriptors PostgreSQL's file cache keeps in a worker */
#define PG_MIN_FDS 64

/* descriptors open when the worker started, and fd.c's budget then */
static int	base_open_fds = 0;
static int	postmaster_max_safe_fds = 0;

/* when the full daemon was last LOGged */
static TimestampTz connection_limit_logged = 0;

/* descriptors this process has open (Linux: /proc/self/fd) */
static int
count_open_fds(void)
{
	DIR		   *dir = opendir("/proc/self/fd");
	struct dirent *de;
	int			n = 0;

	if (dir == NULL)
		return 64;				/* a guess where there is no /proc */
	while ((de = readdir(dir)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(dir);
	return n - 1;				/* not the directory's own */
}

/* at the worker's start: the descriptors it has, and fd.c's budget */
void
http_limits_remember_base(void)
{
	base_open_fds = count_open_fds();
	postmaster_max_safe_fds = max_safe_fds;
}

/*
 * How many connections the daemon may hold.  The soft open file limit is
 * raised to the hard one; of the descriptors left, PostgreSQL's file cache
 * keeps what the postmaster allowed it (max_safe_fds, from
 * max_files_per_process) where there is room, else a quarter and at least
 * PG_MIN_FDS (fd.c then closes files least recently used first to stay
 * within it), and the connections get the rest, up to
 * registry.http_max_connections when it is set (not 0).
 */
unsigned int
http_size_connection_limit(long *fd_limit)
{
	struct rlimit rl;
	long		free_fds;
	long		pg_fds;
	long		limit;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
	{
		*fd_limit = -1;
		return (unsigned int) (registry_http_max_connections > 0 ?
							   Min(registry_http_max_connections, 100) : 100);
	}
	if (rl.rlim_cur < rl.rlim_max)
	{
		struct rlimit raised = rl;

		raised.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			rl.rlim_cur = rl.rlim_max;
	}
	*fd_limit = (long) Min(rl.rlim_cur, (rlim_t) INT_MAX);
	/* a worker at its limit may hold HTTP_ACCEPT_BATCH more a moment */
	free_fds = *fd_limit - base_open_fds - RESERVED_FDS - HTTP_ACCEPT_BATCH;
	pg_fds = Min(postmaster_max_safe_fds, Max(PG_MIN_FDS, free_fds / 4));
	limit = Min(free_fds - pg_fds, AUTO_CONNECTIONS_MAX);
	if (registry_http_max_connections > 0)
		limit = Min(limit, registry_http_max_connections);
	max_safe_fds = (int) pg_fds;
	return (unsigned int) Max(limit, 1);
}

/*
 * LOG when the daemon is full (it stops accepting until a slot frees):
 * once, and again only after a minute.
 */
void
http_note_connection_limit(struct MHD_Daemon *daemon, unsigned int limit,
						   TimestampTz now)
{
	const union MHD_DaemonInfo *info;

	info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
	if (info == NULL || info->num_connections < limit)
		return;
	if (connection_limit_logged != 0 &&
		!TimestampDifferenceExceeds(connection_limit_logged, now, 60 * 1000))
		return;
	ereport(LOG,
			(errmsg("registry REST API worker reached its limit of %u connections",
					limit),
			 errdetail("The connections idle longest, or still sending their request, are closed to make room for new ones; while every connection is being answered, new ones wait."),
			 errhint("Raise the open file limit (ulimit -n) of the server, or registry.http_max_connections.")));
	connection_limit_logged = now;
}

/* a new daemon: its first time full is LOGged again */
void
http_connection_limit_note_reset(void)
{
	connection_limit_logged = 0;
}
