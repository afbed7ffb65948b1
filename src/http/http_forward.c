/*-------------------------------------------------------------------------
 *
 * http_forward.c
 *	  On a streaming standby: a write is run on the primary, and answered
 *	  once the standby has replayed it.
 *
 * A request that tried to write on a standby failed with
 * ERRCODE_READ_ONLY_SQL_TRANSACTION, and nothing of it remains.  It is then
 * sent whole to the primary as registry.rest() over libpq, in one
 * transaction run as the role the standby's request ran as, and the
 * primary's status and body are the answer.  Before answering, the worker
 * waits until its own replay has reached the primary's WAL position after
 * that commit, so the client's next read on this standby sees the write.
 *
 * The worker never waits for the primary: a forward is a state machine
 * (connect, begin as the role, registry.rest(), commit, replay) driven
 * from the worker's loop, its libpq socket in an epoll set that is itself
 * in the worker's wait event set, while its HTTP connection is suspended
 * in libmicrohttpd (as a lock wait is, http_retry.c) and resumed with the
 * answer.  Several forwards run at once, each on its own connection to
 * the primary: up to HTTP_FORWARDS_MAX per worker, those beyond wait for
 * one to end.  Connections are kept for the next forwards (a few idle
 * ones), and made again when broken or registry.primary_conninfo
 * changed.  Everything up to the commit's answer is bounded by
 * registry.forward_timeout, and the replay wait by
 * registry.forward_replay_wait.  A primary that cannot be reached, or
 * fails, gives Confluent's forwarding error for the route (50003), its
 * reason in the server log only.  The forward connects only to a server
 * that accepts writes (target_session_attrs=read-write unless the string
 * says otherwise): a standby, be it a cascading standby's upstream or
 * this one, is refused at connect.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <microhttpd.h>

#include "libpq-fe.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xlogrecovery.h"
#include "lib/ilist.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "confluent_messages.h"
#include "http.h"
#include "http_internal.h"
#include "rest.h"

/* the first and the longest pause between two looks at the replay position (ms) */
#define REPLAY_POLL_FIRST_MS 1
#define REPLAY_POLL_MAX_MS 10
/* idle connections to the primary kept for the next forwards */
#define IDLE_KEPT 2
/* socket events handled per pass of the loop */
#define EVENTS_PER_PASS 16

/* what a route answers when its write cannot be forwarded */
typedef struct ForwardFailure
{
	const char *method;
	const char *pattern;		/* as in the route table */
	ConfluentWording unreachable;	/* the primary did not answer */
	ConfluentWording unknown;	/* no primary is known */
} ForwardFailure;

/* Confluent's words per resource (confluent_messages.c has them and their codes) */
static const ForwardFailure failures[] = {
	{"POST", "subjects/*/versions", CW_FORWARD_REGISTER, CW_LEADER_UNKNOWN},
	{"POST", "subjects/*/versions/*/tags", CW_FORWARD_REGISTER, CW_LEADER_UNKNOWN},
	{"DELETE", "subjects/*/versions/*", CW_FORWARD_DELETE_VERSION, CW_LEADER_UNKNOWN},
	/* a delete of a subject wraps every failure in its own message */
	{"DELETE", "subjects/*", CW_DELETE_SUBJECT_FAILED, CW_DELETE_SUBJECT_FAILED},
	{"PUT", "config", CW_FORWARD_UPDATE_CONFIG, CW_UNKNOWN_UPDATE_CONFIG},
	{"PUT", "config/*", CW_FORWARD_UPDATE_CONFIG, CW_UNKNOWN_UPDATE_CONFIG},
	{"DELETE", "config", CW_FORWARD_DELETE_CONFIG, CW_UNKNOWN_DELETE_CONFIG},
	{"DELETE", "config/*", CW_FORWARD_DELETE_CONFIG, CW_UNKNOWN_DELETE_CONFIG},
	{"PUT", "mode", CW_FORWARD_UPDATE_MODE, CW_UNKNOWN_UPDATE_MODE},
	{"PUT", "mode/*", CW_FORWARD_UPDATE_MODE, CW_UNKNOWN_UPDATE_MODE},
	{"DELETE", "mode", CW_FORWARD_DELETE_MODE, CW_UNKNOWN_DELETE_MODE},
	{"DELETE", "mode/*", CW_FORWARD_DELETE_MODE, CW_UNKNOWN_DELETE_MODE},
};

/* any other route that wrote */
static const ForwardFailure other_failure = {
	NULL, NULL, CW_FORWARD_OTHER, CW_LEADER_UNKNOWN
};

/* where a forward is */
typedef enum ForwardStep
{
	FWD_QUEUED,					/* waiting for a connection to the primary */
	FWD_CONNECTING,				/* PQconnectPoll() */
	FWD_BEGIN,					/* BEGIN as the role, its time limit */
	FWD_REST,					/* registry.rest() */
	FWD_COMMIT,					/* COMMIT; the WAL insert position */
	FWD_REPLAY,					/* this standby's replay catching up */
	FWD_DONE					/* answered: the connection is resumed */
} ForwardStep;

/* one write being forwarded, in its own memory context */
struct HttpForward
{
	dlist_node	node;			/* in forwards */
	MemoryContext cxt;
	HttpRequest *hr;			/* its request, suspended */
	RestRequest req;			/* a copy, in cxt */
	char	   *role;
	int			route;
	TimestampTz deadline;		/* registry.forward_timeout from its start */
	ForwardStep step;
	PGconn	   *pg;				/* its connection to the primary, if any */
	char	   *conninfo;		/* what pg was made from (malloc) */
	bool		reused;			/* pg was kept from an earlier forward */
	int			sock;			/* the socket in the epoll set, else -1 */
	PGresult   *results[3];		/* of the statement in flight */
	int			nresults;
	bool		results_ok;
	XLogRecPtr	lsn;			/* the primary's, after the commit */
	TimestampTz replay_deadline;
	TimestampTz next_poll;
	long		pause;
	HttpForwardAnswer answer;	/* in cxt */
};

/* an idle connection to the primary, kept for the next forward */
typedef struct IdleConn
{
	PGconn	   *pg;
	char	   *conninfo;		/* malloc */
} IdleConn;

/* the forwards of this worker, oldest first */
static dlist_head forwards = DLIST_STATIC_INIT(forwards);

/* connections to the primary: idle ones, and how many forwards hold one */
static IdleConn idle_conns[IDLE_KEPT];
static int	n_idle = 0;
static int	n_busy = 0;

/* the epoll set of the forwards' sockets, in the worker's wait event set */
static int	forward_epoll = -1;

/*
 * Should this request's answer come from the primary?  Only on a standby,
 * for a request that tried to write.
 */
bool
http_forward_wanted(int sqlerrcode)
{
	return sqlerrcode == ERRCODE_READ_ONLY_SQL_TRANSACTION && RecoveryInProgress();
}

/*
 * The name of a role, in the current memory context, NULL if it is gone;
 * outside a transaction one is begun for the catalog lookup.
 */
char *
http_forward_role_name(Oid roleid)
{
	MemoryContext cxt = CurrentMemoryContext;
	bool		own_xact = !IsTransactionState();
	char	   *name;

	if (own_xact)
		StartTransactionCommand();
	name = GetUserNameFromId(roleid, true);
	if (name)
		name = MemoryContextStrdup(cxt, name);
	if (own_xact)
		CommitTransactionCommand();
	MemoryContextSwitchTo(cxt);
	return name;
}

/* the connection string in force: the setting, else the standby's own */
static const char *
effective_conninfo(bool *own)
{
	const char *s;

	*own = false;
	if (registry_primary_conninfo != NULL && registry_primary_conninfo[0] != '\0')
		return registry_primary_conninfo;
	*own = true;
	s = GetConfigOption("primary_conninfo", true, false);
	return s ? s : "";
}

/* log why a forward failed (the client is told only Confluent's words) */
static void
log_failure(const char *what, PGconn *conn)
{
	char	   *reason = conn ? pchomp(PQerrorMessage(conn)) : pstrdup("");

	ereport(LOG,
			(errcode(ERRCODE_CONNECTION_FAILURE),
			 errmsg("registry could not forward a write to the primary: %s", what),
			 reason[0] ? errdetail_internal("%s", reason) : 0));
}

/*
 * The keywords and values of a connection: those of the connection string,
 * the registry's database when it names none, and target_session_attrs
 * read-write when it names none, so that a forward never runs on a standby
 * (a cascading standby's upstream, or this standby itself) and a string
 * listing several hosts reaches the one that accepts writes; when the
 * string is the standby's own, its application_name (the walreceiver's) is
 * not taken.
 */
static bool
connection_parameters(const char *conninfo, bool own, const char ***keywords,
					  const char ***values)
{
	char	   *err = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &err);
	PQconninfoOption *o;
	int			n = 0;
	bool		has_dbname = false;
	bool		has_target = false;

	if (opts == NULL)
	{
		ereport(LOG,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("registry could not forward a write to the primary: invalid connection string"),
				 err ? errdetail_internal("%s", pchomp(err)) : 0));
		if (err)
			PQfreemem(err);
		return false;
	}
	for (o = opts; o->keyword; o++)
		n++;
	*keywords = palloc0(sizeof(char *) * (n + 4));
	*values = palloc0(sizeof(char *) * (n + 4));
	n = 0;
	for (o = opts; o->keyword; o++)
	{
		if (o->val == NULL || o->val[0] == '\0')
			continue;
		if (own && strcmp(o->keyword, "application_name") == 0)
			continue;
		if (strcmp(o->keyword, "dbname") == 0)
			has_dbname = true;
		if (strcmp(o->keyword, "target_session_attrs") == 0)
			has_target = true;
		(*keywords)[n] = pstrdup(o->keyword);
		(*values)[n] = pstrdup(o->val);
		n++;
	}
	PQconninfoFree(opts);
	if (!has_dbname)
	{
		(*keywords)[n] = "dbname";
		(*values)[n] = registry_database;
		n++;
	}
	if (!has_target)
	{
		(*keywords)[n] = "target_session_attrs";
		(*values)[n] = "read-write";
		n++;
	}
	(*keywords)[n] = "fallback_application_name";
	(*values)[n] = "registry forward";
	return true;
}


/*
 * The end of the last record before an insert position: where the insert
 * position sits just past a page header, the record before it ended at the
 * page's start (replay reports record ends).
 */
static XLogRecPtr
last_record_end(XLogRecPtr insert)
{
	if (XLogSegmentOffset(insert, wal_segment_size) == SizeOfXLogLongPHD)
		return insert - SizeOfXLogLongPHD;
	if (insert % XLOG_BLCKSZ == SizeOfXLogShortPHD)
		return insert - SizeOfXLogShortPHD;
	return insert;
}


/* the failure answers of a route (its index, -1 when unknown) */
static const ForwardFailure *
route_failure(int route)
{
	int			i;

	if (route < 0)
		return &other_failure;
	for (i = 0; i < lengthof(failures); i++)
		if (registry_rest_route_index(failures[i].method, failures[i].pattern) == route)
			return &failures[i];
	return &other_failure;
}

/* percent-decode a path segment (a subject, for Confluent's message) */
static char *
decode_segment(const char *s, size_t len)
{
	StringInfoData out;
	size_t		i;

	initStringInfo(&out);
	for (i = 0; i < len; i++)
	{
		if (s[i] == '%' && i + 2 < len && isxdigit((unsigned char) s[i + 1]) &&
			isxdigit((unsigned char) s[i + 2]))
		{
			char		hex[3] = {s[i + 1], s[i + 2], '\0'};

			appendStringInfoChar(&out, (char) strtol(hex, NULL, 16));
			i += 2;
		}
		else
			appendStringInfoChar(&out, s[i]);
	}
	return out.data;
}

/* the subject a /subjects/{subject}... path names, decoded, or "" */
static char *
path_subject(const char *path)
{
	const char *p = path;
	size_t		len;

	while (*p == '/')
		p++;
	if (strncmp(p, "subjects/", 9) != 0)
		return pstrdup("");
	p += 9;
	len = strcspn(p, "/");
	return decode_segment(p, len);
}

/* Confluent's error answer of a write that could not be forwarded */
static void
failure_answer(const RestRequest *req, int route, bool unknown, HttpForwardAnswer *answer)
{
	const ForwardFailure *f = route_failure(route);
	ConfluentWording w = unknown ? f->unknown : f->unreachable;
	const char *msg = (w == CW_DELETE_SUBJECT_FAILED) ?
	confluent_text(w, path_subject(req->path)) : confluent_fixed_text(w);
	StringInfoData out;

	initStringInfo(&out);
	appendStringInfo(&out, "{\"error_code\":%d,\"message\":", confluent_error_code(w));
	escape_json(&out, msg);
	appendStringInfoChar(&out, '}');
	answer->status = 500;
	answer->body = out.data;
	answer->len = out.len;
}


/*
 * The answer to a write that could not be forwarded (the reason was
 * logged): Confluent's forwarding error for the route.
 */
void
http_forward_failed(const RestRequest *req, int route, HttpForwardAnswer *answer)
{
	failure_answer(req, route, false, answer);
}

/* at the worker's start: the epoll set the forwards' sockets go in */
void
http_forward_init(void)
{
	forward_epoll = epoll_create1(EPOLL_CLOEXEC);
	if (forward_epoll < 0)
		ereport(ERROR,
				(errcode_for_socket_access(),
				 errmsg("could not create an epoll set for forwarded writes: %m")));
}

/* the descriptor the worker's wait event set waits on for the forwards */
int
http_forward_wait_fd(void)
{
	return forward_epoll;
}

/*
 * Wait for events (EPOLLIN, EPOLLOUT) on the forward's socket, which
 * libpq may have replaced (a connection string listing several hosts).
 */
static void
watch_socket(HttpForward *f, uint32 events)
{
	struct epoll_event ev;
	int			sock = PQsocket(f->pg);

	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.ptr = f;

	/*
	 * A socket libpq replaced (the next host of a list) was closed by it,
	 * which took it out of the set; its number may already be another
	 * forward's new socket, which a EPOLL_CTL_DEL here would take out.
	 */
	f->sock = -1;
	if (sock < 0)
		return;
	/* the same number may be a new socket: not in the set, ENOENT */
	if (epoll_ctl(forward_epoll, EPOLL_CTL_MOD, sock, &ev) != 0 &&
		epoll_ctl(forward_epoll, EPOLL_CTL_ADD, sock, &ev) != 0)
		return;					/* then the forward times out */
	f->sock = sock;
}

/* no more events of the forward's socket */
static void
unwatch_socket(HttpForward *f)
{
	if (f->sock >= 0)
		(void) epoll_ctl(forward_epoll, EPOLL_CTL_DEL, f->sock, NULL);
	f->sock = -1;
}

/* free the connection string of a connection */
static void
free_conninfo(char **conninfo)
{
	if (*conninfo)
		free(*conninfo);
	*conninfo = NULL;
}

static void begin_failed(HttpForward *f);

/* the forward lets its connection go: closed (its state unknown) or kept */
static void
release_connection(HttpForward *f, bool keep)
{
	if (f->pg == NULL)
		return;
	unwatch_socket(f);
	if (keep && n_idle < IDLE_KEPT && PQstatus(f->pg) == CONNECTION_OK &&
		PQtransactionStatus(f->pg) == PQTRANS_IDLE)
	{
		idle_conns[n_idle].pg = f->pg;
		idle_conns[n_idle].conninfo = f->conninfo;
		n_idle++;
		f->conninfo = NULL;
	}
	else
	{
		PQfinish(f->pg);
		free_conninfo(&f->conninfo);
	}
	f->pg = NULL;
	n_busy--;
}

/* close an idle connection (its slot is filled with the last one) */
static void
close_idle(int i)
{
	PQfinish(idle_conns[i].pg);
	free_conninfo(&idle_conns[i].conninfo);
	idle_conns[i] = idle_conns[--n_idle];
}

/* clear the results of the statement in flight */
static void
clear_results(HttpForward *f)
{
	int			i;

	for (i = 0; i < f->nresults; i++)
		PQclear(f->results[i]);
	f->nresults = 0;
	f->results_ok = true;
}

/* the forward is answered with Confluent's forwarding error for its route */
static void
fail(HttpForward *f, const char *what)
{
	log_failure(what, f->pg);
	clear_results(f);
	/* its state is unknown: the next forward connects anew */
	release_connection(f, false);
	failure_answer(&f->req, f->route, false, &f->answer);
	f->step = FWD_DONE;
}

/*
 * Start connecting to the primary without blocking; false (the forward
 * failed) if libpq would not even start.
 */
static bool
start_connecting(HttpForward *f, const char *conninfo, bool own)
{
	const char **keywords;
	const char **values;

	if (!connection_parameters(conninfo, own, &keywords, &values))
	{
		failure_answer(&f->req, f->route, false, &f->answer);
		f->step = FWD_DONE;
		return false;
	}
	f->pg = PQconnectStartParams(keywords, values, false);
	f->reused = false;
	if (f->pg == NULL)
	{
		fail(f, "could not start a connection");
		return false;
	}
	n_busy++;
	f->conninfo = strdup(conninfo);
	if (f->conninfo == NULL || PQstatus(f->pg) == CONNECTION_BAD)
	{
		fail(f, "could not start a connection");
		return false;
	}
	f->step = FWD_CONNECTING;
	/* as if PQconnectPoll() had answered PGRES_POLLING_WRITING */
	watch_socket(f, EPOLLOUT);
	return true;
}

/* send the statement of the forward's step; false if it could not be */
static bool
send_step(HttpForward *f)
{
	clear_results(f);
	if (f->step == FWD_BEGIN)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), f->deadline);
		char	   *sql = psprintf("BEGIN; SET LOCAL ROLE %s; SET LOCAL statement_timeout = %ld",
								   quote_identifier(f->role), Max(left, 1));

		return PQsendQuery(f->pg, sql) == 1;
	}
	if (f->step == FWD_REST)
	{
		const char *values[6];

		values[0] = f->req.method;
		values[1] = f->req.path;
		values[2] = f->req.query;
		values[3] = f->req.body ? pnstrdup(f->req.body, f->req.body_len) : NULL;
		values[4] = f->req.content_type;
		values[5] = f->req.accept;
		return PQsendQueryParams(f->pg,
								 "SELECT status, response FROM registry.rest($1, $2, $3, $4, $5, $6)",
								 6, NULL, values, NULL, NULL, 0) == 1;
	}
	Assert(f->step == FWD_COMMIT);
	return PQsendQuery(f->pg, "COMMIT; SELECT pg_catalog.pg_current_wal_insert_lsn()") == 1;
}

/*
 * Begin the round trips on the forward's connection (made or kept): its
 * transaction as the request's role first.
 */
static void
begin_round_trips(HttpForward *f)
{
	f->step = FWD_BEGIN;
	if (!send_step(f))
	{
		begin_failed(f);
		return;
	}
	watch_socket(f, EPOLLIN | EPOLLOUT);
}

/*
 * Give the forward a connection to the primary: a kept one made from the
 * same string, else a new one while the worker holds fewer than
 * HTTP_FORWARDS_MAX (closing an idle one made from another string for
 * room); else it stays queued.
 */
static void
take_connection(HttpForward *f)
{
	bool		own;
	const char *conninfo = effective_conninfo(&own);
	int			i;

	for (i = n_idle - 1; i >= 0; i--)
	{
		if (PQstatus(idle_conns[i].pg) != CONNECTION_OK ||
			strcmp(idle_conns[i].conninfo, conninfo) != 0)
		{
			close_idle(i);
			continue;
		}
		f->pg = idle_conns[i].pg;
		f->conninfo = idle_conns[i].conninfo;
		idle_conns[i] = idle_conns[--n_idle];
		f->reused = true;
		n_busy++;
		begin_round_trips(f);
		return;
	}
	if (n_busy + n_idle >= HTTP_FORWARDS_MAX && n_idle > 0)
		close_idle(0);
	if (n_busy + n_idle >= HTTP_FORWARDS_MAX)
		return;					/* queued until a forward ends */
	(void) start_connecting(f, conninfo, own);
}

/*
 * Beginning the transaction failed: a kept connection may have broken
 * since it was last used, so the forward tries once more on another
 * (nothing of the request has reached the primary yet); else it fails.
 */
static void
begin_failed(HttpForward *f)
{
	if (f->reused && PQstatus(f->pg) == CONNECTION_BAD)
	{
		clear_results(f);
		release_connection(f, false);
		take_connection(f);
		return;
	}
	fail(f, "could not begin a transaction as the request's role");
}

/* advance the connection being made */
static void
advance_connect(HttpForward *f)
{
	switch (PQconnectPoll(f->pg))
	{
		case PGRES_POLLING_OK:
			if (PQsetnonblocking(f->pg, 1) != 0)
			{
				fail(f, "could not make the connection non-blocking");
				return;
			}
			begin_round_trips(f);
			return;
		case PGRES_POLLING_READING:
			watch_socket(f, EPOLLIN);
			return;
		case PGRES_POLLING_WRITING:
			watch_socket(f, EPOLLOUT);
			return;
		default:
			fail(f, "could not connect");
			return;
	}
}

/*
 * Send what libpq has buffered and read what arrived: true when every
 * result of the statement in flight is in (f->results, f->results_ok),
 * false when the forward must wait on its socket (*broken: the connection
 * failed).
 */
static bool
pump_results(HttpForward *f, bool *broken)
{
	int			r = PQflush(f->pg);

	*broken = false;
	if (r < 0 || PQconsumeInput(f->pg) == 0)
	{
		*broken = true;
		return false;
	}
	if (r == 1)
	{
		watch_socket(f, EPOLLIN | EPOLLOUT);
		return false;
	}
	while (!PQisBusy(f->pg))
	{
		PGresult   *res = PQgetResult(f->pg);

		if (res == NULL)
			return true;
		if (PQresultStatus(res) != PGRES_COMMAND_OK &&
			PQresultStatus(res) != PGRES_TUPLES_OK)
			f->results_ok = false;
		if (f->nresults < lengthof(f->results))
			f->results[f->nresults++] = res;
		else
			PQclear(res);
	}
	watch_socket(f, EPOLLIN);
	return false;
}

/* registry.rest()'s status and body, from the primary's result */
static bool
read_rest_answer(HttpForward *f)
{
	PGresult   *res = f->results[0];

	if (f->nresults != 1 || PQntuples(res) != 1 || PQgetisnull(res, 0, 0) ||
		PQgetisnull(res, 0, 1))
		return false;
	f->answer.status = atoi(PQgetvalue(res, 0, 0));
	f->answer.len = PQgetlength(res, 0, 1);
	f->answer.body = pnstrdup(PQgetvalue(res, 0, 1), f->answer.len);
	return true;
}

/* the commit's answer and the primary's WAL insert position after it */
static bool
read_commit_position(HttpForward *f)
{
	uint32		hi,
				lo;

	if (f->nresults != 2 || strcmp(PQcmdStatus(f->results[0]), "COMMIT") != 0 ||
		PQntuples(f->results[1]) != 1 ||
		sscanf(PQgetvalue(f->results[1], 0, 0), "%X/%X", &hi, &lo) != 2)
		return false;
	f->lsn = ((uint64) hi << 32) | lo;
	return true;
}

/* the statement of the forward's step was answered: on to the next one */
static void
next_step(HttpForward *f)
{
	ForwardStep step = f->step;
	bool		ok = f->results_ok;

	if (step == FWD_BEGIN && !ok)
	{
		begin_failed(f);
		return;
	}
	if (step == FWD_REST && !(ok && read_rest_answer(f)))
	{
		fail(f, "registry.rest() failed on the primary");
		return;
	}
	if (step == FWD_COMMIT && !(ok && read_commit_position(f)))
	{
		fail(f, "the commit on the primary failed");
		return;
	}
	clear_results(f);
	if (step == FWD_COMMIT)
	{
		release_connection(f, true);
		f->step = FWD_REPLAY;
		f->replay_deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
														 registry_forward_replay_wait);
		f->next_poll = 0;
		f->pause = REPLAY_POLL_FIRST_MS;
		return;
	}
	f->step = (step == FWD_BEGIN) ? FWD_REST : FWD_COMMIT;
	if (!send_step(f))
	{
		fail(f, step == FWD_BEGIN ? "registry.rest() failed on the primary" :
			 "the commit on the primary failed");
		return;
	}
	watch_socket(f, EPOLLIN | EPOLLOUT);
}

/*
 * Has this standby replayed the forward's write (or been promoted)?  Past
 * registry.forward_replay_wait it answers all the same, and LOGs it.
 */
static void
advance_replay(HttpForward *f, TimestampTz now)
{
	XLogRecPtr	target = last_record_end(f->lsn);

	if (now < f->next_poll)
		return;
	if (!RecoveryInProgress() || GetXLogReplayRecPtr(NULL) >= target)
	{
		f->step = FWD_DONE;
		return;
	}
	if (now >= f->replay_deadline)
	{
		ereport(LOG,
				(errmsg("registry forwarded a write to the primary that this standby had not replayed after registry.forward_replay_wait"),
				 errdetail("The primary's WAL position after the write is %X/%X, replay is at %X/%X.",
						   LSN_FORMAT_ARGS(f->lsn), LSN_FORMAT_ARGS(GetXLogReplayRecPtr(NULL)))));
		f->step = FWD_DONE;
		return;
	}
	f->next_poll = TimestampTzPlusMilliseconds(now, f->pause);
	f->pause = Min(f->pause * 2, REPLAY_POLL_MAX_MS);
}

/*
 * Take the forward one step further, as far as it goes without waiting:
 * its socket was ready, or its time may be up.
 */
static void
advance(HttpForward *f, TimestampTz now)
{
	bool		broken;

	if (f->step == FWD_REPLAY)
	{
		advance_replay(f, now);
		return;
	}
	if (f->step == FWD_QUEUED && now < f->deadline)
	{
		take_connection(f);
		return;
	}
	if (now >= f->deadline)
	{
		fail(f, f->step == FWD_CONNECTING || f->step == FWD_QUEUED ?
			 "timed out connecting (registry.forward_timeout)" :
			 "timed out (registry.forward_timeout)");
		return;
	}
	if (f->step == FWD_CONNECTING)
	{
		advance_connect(f);
		return;
	}
	if (pump_results(f, &broken))
		next_step(f);
	else if (broken && f->step == FWD_BEGIN)
		begin_failed(f);
	else if (broken)
		fail(f, "the connection to the primary broke");
}

/* a finished forward's request goes on: libmicrohttpd calls it again */
static void
resume_request(HttpForward *f)
{
	dlist_delete(&f->node);
	f->node.next = f->node.prev = NULL;
	MHD_resume_connection(f->hr->conn);
}

/* advance a forward, an error on the way failing it and nothing else */
static void
advance_guarded(HttpForward *f, TimestampTz now)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(f->cxt);

	PG_TRY();
	{
		advance(f, now);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(f->cxt);
		EmitErrorReport();
		FlushErrorState();
		fail(f, "an error on the standby");
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcxt);
	if (f->step == FWD_DONE)
		resume_request(f);
}

/*
 * From the loop: advance the forwards whose sockets are ready, whose
 * replay poll or deadline has come, and the queued ones while connections
 * are free.
 */
void
http_forward_run(TimestampTz now)
{
	struct epoll_event events[EVENTS_PER_PASS];
	int			n;
	int			i;
	dlist_mutable_iter it;

	if (forward_epoll < 0 || dlist_is_empty(&forwards))
		return;
	n = epoll_wait(forward_epoll, events, lengthof(events), 0);
	for (i = 0; i < n; i++)
	{
		HttpForward *f = (HttpForward *) events[i].data.ptr;

		/* ready sockets are of forwards still in the list */
		if (f->step != FWD_DONE)
			advance_guarded(f, now);
	}
	dlist_foreach_modify(it, &forwards)
	{
		HttpForward *f = dlist_container(HttpForward, node, it.cur);

		if (f->step == FWD_REPLAY || now >= f->deadline ||
			(f->step == FWD_QUEUED && n_busy < HTTP_FORWARDS_MAX))
			advance_guarded(f, now);
	}
}

/* how long the loop may sleep (at most timeout) before a forward needs it */
long
http_forward_wakeup_ms(TimestampTz now, long timeout)
{
	dlist_iter	it;

	dlist_foreach(it, &forwards)
	{
		HttpForward *f = dlist_container(HttpForward, node, it.cur);
		TimestampTz at = (f->step == FWD_REPLAY) ? f->next_poll : f->deadline;
		long		ms = (long) ((at - now + 999) / 1000);

		timeout = Min(timeout, Max(ms, 0));
	}
	return timeout;
}

/* a copy of a string in the forward's memory, NULL staying NULL */
static const char *
copy_string(const char *s)
{
	return s ? pstrdup(s) : NULL;
}

/*
 * Start forwarding a request that tried to write on this standby (route:
 * its index) to the primary, to run there as role (NULL: the role is gone,
 * the forward fails).  True: it runs on, hr->forward is set, and the
 * caller suspends the request (http_forward_suspend); false: *answer is
 * the answer already (in the current memory context).
 */
bool
http_forward_start(HttpRequest *hr, const RestRequest *req, const char *role,
				   int route, HttpForwardAnswer *answer)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	HttpForward *f;
	bool		own;

	if (effective_conninfo(&own)[0] == '\0')
	{
		ereport(LOG,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("registry could not forward a write: no primary is known"),
				 errhint("Set registry.primary_conninfo or primary_conninfo.")));
		failure_answer(req, route, true, answer);
		return false;
	}
	if (role == NULL)
	{
		log_failure("the request's role no longer exists", NULL);
		failure_answer(req, route, false, answer);
		return false;
	}
	cxt = AllocSetContextCreate(TopMemoryContext, "registry forward",
								ALLOCSET_SMALL_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);
	f = palloc0(sizeof(HttpForward));
	f->cxt = cxt;
	f->hr = hr;
	f->req.method = copy_string(req->method);
	f->req.path = copy_string(req->path);
	f->req.query = copy_string(req->query);
	f->req.content_type = copy_string(req->content_type);
	f->req.accept = copy_string(req->accept);
	f->req.body = req->body ? pnstrdup(req->body, req->body_len) : NULL;
	f->req.body_len = req->body_len;
	f->role = pstrdup(role);
	f->route = route;
	f->answer.route = route;
	f->deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), registry_forward_timeout);
	f->sock = -1;
	f->results_ok = true;
	f->step = FWD_QUEUED;
	dlist_push_tail(&forwards, &f->node);
	hr->forward = f;
	take_connection(f);
	MemoryContextSwitchTo(oldcxt);
	if (f->step != FWD_DONE)
		return true;
	/* failed at once: answered now */
	answer->status = f->answer.status;
	answer->len = f->answer.len;
	answer->body = pnstrdup(f->answer.body, f->answer.len);
	http_forward_forget(hr);
	return false;
}

/*
 * Suspend the request being forwarded; the loop resumes it with the
 * answer, and libmicrohttpd then calls the access handler again.
 */
void
http_forward_suspend(struct MHD_Connection *conn, HttpRequest *hr)
{
	hr->conn = conn;
	MHD_suspend_connection(conn);
}

/* the answer of the request's finished forward, NULL while it runs */
const HttpForwardAnswer *
http_forward_answer(HttpRequest *hr)
{
	if (hr->forward == NULL || hr->forward->step != FWD_DONE)
		return NULL;
	return &hr->forward->answer;
}

/*
 * The request ended (answered, or its connection closed): its forward
 * goes, a connection to the primary it still held closed (a transaction
 * left open there is rolled back).
 */
void
http_forward_forget(HttpRequest *hr)
{
	HttpForward *f = hr->forward;

	if (f == NULL)
		return;
	if (f->node.next != NULL)
		dlist_delete(&f->node);
	clear_results(f);
	release_connection(f, false);
	hr->forward = NULL;
	MemoryContextDelete(f->cxt);
}

/*
 * Every forward still running fails (before the daemon stops): its request
 * is resumed with the forwarding error.
 */
void
http_forward_resume_all(void)
{
	dlist_mutable_iter it;

	dlist_foreach_modify(it, &forwards)
	{
		HttpForward *f = dlist_container(HttpForward, node, it.cur);
		MemoryContext oldcxt = MemoryContextSwitchTo(f->cxt);

		if (f->step == FWD_REPLAY)
			f->step = FWD_DONE;
		else
			fail(f, "the worker stopped serving");
		MemoryContextSwitchTo(oldcxt);
		resume_request(f);
	}
}
