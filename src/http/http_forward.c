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
 * Each worker keeps one connection to the primary, made on first use and
 * again when it broke or registry.primary_conninfo changed.  Connecting and
 * every round trip are non-blocking and waited for on the worker's latch,
 * all within registry.forward_timeout; the replay wait is bounded by
 * registry.forward_replay_wait.  A primary that cannot be reached, or fails,
 * gives Confluent's forwarding error for the route (50003), its reason in
 * the server log only.  The forward connects only to a server that accepts
 * writes (target_session_attrs=read-write unless the string says
 * otherwise): a standby, be it a cascading standby's upstream or this one,
 * is refused at connect.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq-fe.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xlogrecovery.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "confluent_messages.h"
#include "http.h"
#include "http_internal.h"
#include "rest.h"

/* the longest pause between two looks at the replay position (ms) */
#define REPLAY_POLL_MAX_MS 10

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

/* the worker's connection to the primary, and the string it was made from */
static PGconn *primary_conn = NULL;
static char *primary_conn_conninfo = NULL;

/* the worker's latch was set while it waited here: set it again after */
static bool latch_was_set = false;

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

/* drop the connection to the primary */
static void
disconnect_primary(void)
{
	if (primary_conn != NULL)
		PQfinish(primary_conn);
	primary_conn = NULL;
	if (primary_conn_conninfo != NULL)
		pfree(primary_conn_conninfo);
	primary_conn_conninfo = NULL;
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
 * Wait until the connection's socket is ready for events (WL_SOCKET_*),
 * or the deadline passes (false).  The worker stays responsive to
 * postmaster death; a latch set meanwhile is remembered.
 */
static bool
wait_for_socket(PGconn *conn, int events, TimestampTz deadline)
{
	for (;;)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
		int			rc;

		if (left <= 0 || PQsocket(conn) == PGINVALID_SOCKET)
			return false;
		rc = WaitLatchOrSocket(MyLatch,
							   WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH | events,
							   PQsocket(conn), left, PG_WAIT_EXTENSION);
		if (rc & WL_LATCH_SET)
		{
			ResetLatch(MyLatch);
			latch_was_set = true;
		}
		if (rc & (WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE))
			return true;
	}
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

/* connect to the primary without blocking, by the deadline; NULL if not */
static PGconn *
connect_primary(const char *conninfo, bool own, TimestampTz deadline)
{
	const char **keywords;
	const char **values;
	PGconn	   *conn;
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;

	if (!connection_parameters(conninfo, own, &keywords, &values))
		return NULL;
	conn = PQconnectStartParams(keywords, values, false);
	if (conn == NULL || PQstatus(conn) == CONNECTION_BAD)
	{
		log_failure("could not start a connection", conn);
		if (conn)
			PQfinish(conn);
		return NULL;
	}
	while (st != PGRES_POLLING_OK)
	{
		if (st == PGRES_POLLING_FAILED ||
			!wait_for_socket(conn, st == PGRES_POLLING_READING ?
							 WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE, deadline))
		{
			log_failure(st == PGRES_POLLING_FAILED ? "could not connect" :
						"timed out connecting (registry.forward_timeout)", conn);
			PQfinish(conn);
			return NULL;
		}
		st = PQconnectPoll(conn);
	}
	if (PQsetnonblocking(conn, 1) != 0)
	{
		log_failure("could not make the connection non-blocking", conn);
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

/* the kept connection to the primary, made when there is none fit for use */
static PGconn *
primary_connection(TimestampTz deadline, bool *reused)
{
	bool		own;
	const char *conninfo = effective_conninfo(&own);

	*reused = false;
	if (primary_conn != NULL &&
		(PQstatus(primary_conn) != CONNECTION_OK ||
		 PQtransactionStatus(primary_conn) != PQTRANS_IDLE ||
		 strcmp(primary_conn_conninfo, conninfo) != 0))
		disconnect_primary();
	if (primary_conn != NULL)
	{
		*reused = true;
		return primary_conn;
	}
	primary_conn = connect_primary(conninfo, own, deadline);
	if (primary_conn != NULL)
		primary_conn_conninfo = MemoryContextStrdup(TopMemoryContext, conninfo);
	return primary_conn;
}

/* send what libpq has buffered, by the deadline */
static bool
flush_query(PGconn *conn, TimestampTz deadline)
{
	int			r;

	while ((r = PQflush(conn)) == 1)
	{
		if (!wait_for_socket(conn, WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE, deadline))
			return false;
		if (PQconsumeInput(conn) == 0)
			return false;
	}
	return r == 0;
}

/*
 * The results of the query just sent, by the deadline: up to max of them
 * in results[] (the caller clears them), their count in *n.  False when
 * the deadline passed, the connection failed or a statement failed.
 */
static bool
collect_results(PGconn *conn, TimestampTz deadline, PGresult **results, int max, int *n)
{
	PGresult   *res;
	bool		ok = true;

	*n = 0;
	if (!flush_query(conn, deadline))
		return false;
	for (;;)
	{
		while (PQisBusy(conn))
		{
			if (!wait_for_socket(conn, WL_SOCKET_READABLE, deadline) ||
				PQconsumeInput(conn) == 0)
				return false;
		}
		res = PQgetResult(conn);
		if (res == NULL)
			break;
		if (PQresultStatus(res) != PGRES_COMMAND_OK &&
			PQresultStatus(res) != PGRES_TUPLES_OK)
			ok = false;
		if (*n < max)
			results[(*n)++] = res;
		else
			PQclear(res);
	}
	return ok;
}

/* clear the results collect_results() kept */
static void
clear_results(PGresult **results, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		PQclear(results[i]);
}

/*
 * Begin the primary's transaction as the request's role, its statements
 * limited to what is left of the forward's time.
 */
static bool
begin_as_role(PGconn *conn, const char *role, TimestampTz deadline)
{
	long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
	char	   *sql = psprintf("BEGIN; SET LOCAL ROLE %s; SET LOCAL statement_timeout = %ld",
							   quote_identifier(role), Max(left, 1));
	PGresult   *results[3];
	int			n = 0;
	bool		ok;

	ok = PQsendQuery(conn, sql) && collect_results(conn, deadline, results, 3, &n);
	clear_results(results, n);
	pfree(sql);
	return ok;
}

/*
 * Run the request as registry.rest() on the primary: its status and body.
 */
static bool
run_rest(PGconn *conn, const RestRequest *req, TimestampTz deadline,
		 HttpForwardAnswer *answer)
{
	const char *values[6];
	PGresult   *res[1];
	int			n = 0;
	bool		ok;

	values[0] = req->method;
	values[1] = req->path;
	values[2] = req->query;
	values[3] = req->body ? pnstrdup(req->body, req->body_len) : NULL;
	values[4] = req->content_type;
	values[5] = req->accept;
	ok = PQsendQueryParams(conn,
						   "SELECT status, response FROM registry.rest($1, $2, $3, $4, $5, $6)",
						   6, NULL, values, NULL, NULL, 0) &&
		collect_results(conn, deadline, res, 1, &n);
	if (ok && (n != 1 || PQntuples(res[0]) != 1 || PQgetisnull(res[0], 0, 0) ||
			   PQgetisnull(res[0], 0, 1)))
		ok = false;
	if (ok)
	{
		answer->status = atoi(PQgetvalue(res[0], 0, 0));
		answer->len = PQgetlength(res[0], 0, 1);
		answer->body = pnstrdup(PQgetvalue(res[0], 0, 1), answer->len);
	}
	clear_results(res, n);
	return ok;
}

/*
 * Commit on the primary, and read its WAL insert position after the commit:
 * the standby has the write once its replay reaches it.
 */
static bool
commit_and_locate(PGconn *conn, TimestampTz deadline, XLogRecPtr *lsn)
{
	PGresult   *res[2];
	int			n = 0;
	bool		ok;
	uint32		hi,
				lo;

	ok = PQsendQuery(conn, "COMMIT; SELECT pg_catalog.pg_current_wal_insert_lsn()") &&
		collect_results(conn, deadline, res, 2, &n);
	if (ok && (n != 2 || strcmp(PQcmdStatus(res[0]), "COMMIT") != 0 ||
			   PQntuples(res[1]) != 1 ||
			   sscanf(PQgetvalue(res[1], 0, 0), "%X/%X", &hi, &lo) != 2))
		ok = false;
	if (ok)
		*lsn = ((uint64) hi << 32) | lo;
	clear_results(res, n);
	return ok;
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

/*
 * Wait until this standby has replayed up to target, at most
 * registry.forward_replay_wait; true when it has (or was promoted).
 */
static bool
wait_for_replay(XLogRecPtr target)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													   registry_forward_replay_wait);
	long		pause = 1;

	while (RecoveryInProgress() && GetXLogReplayRecPtr(NULL) < target)
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
		int			rc;

		if (left <= 0)
			return false;
		rc = WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					   Min(left, pause), PG_WAIT_EXTENSION);
		if (rc & WL_LATCH_SET)
		{
			ResetLatch(MyLatch);
			latch_was_set = true;
		}
		pause = Min(pause * 2, REPLAY_POLL_MAX_MS);
	}
	return true;
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
 * The forward's round trips on a connection: begin as the role, run the
 * request, commit and read the WAL position.  *sent says whether the
 * request may have reached the primary (then it is not tried again).
 */
static bool
forward_on(PGconn *conn, const RestRequest *req, const char *role,
		   TimestampTz deadline, HttpForwardAnswer *answer, XLogRecPtr *lsn,
		   bool *sent)
{
	*sent = false;
	if (!begin_as_role(conn, role, deadline))
	{
		log_failure("could not begin a transaction as the request's role", conn);
		return false;
	}
	*sent = true;
	if (!run_rest(conn, req, deadline, answer))
	{
		log_failure("registry.rest() failed on the primary", conn);
		return false;
	}
	if (!commit_and_locate(conn, deadline, lsn))
	{
		log_failure("the commit on the primary failed", conn);
		return false;
	}
	return true;
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

/*
 * Answer a request that tried to write on this standby (route: its index)
 * with the primary's answer to it, run there as role (NULL: the role is
 * gone, the forward fails); the answer is in the current memory context.
 */
void
http_forward(const RestRequest *req, const char *role, int route,
			 HttpForwardAnswer *answer)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													   registry_forward_timeout);
	bool		own;
	bool		reused;
	bool		sent = false;
	bool		ok = false;
	XLogRecPtr	lsn = InvalidXLogRecPtr;
	PGconn	   *conn;

	latch_was_set = false;
	pgstat_report_activity(STATE_RUNNING, "forwarding a write to the primary");
	if (effective_conninfo(&own)[0] == '\0')
	{
		ereport(LOG,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("registry could not forward a write: no primary is known"),
				 errhint("Set registry.primary_conninfo or primary_conninfo.")));
		failure_answer(req, route, true, answer);
		pgstat_report_activity(STATE_IDLE, NULL);
		return;
	}
	conn = role ? primary_connection(deadline, &reused) : NULL;
	if (role == NULL)
		log_failure("the request's role no longer exists", NULL);
	if (conn != NULL)
	{
		ok = forward_on(conn, req, role, deadline, answer, &lsn, &sent);
		/* a kept connection may have broken since: one new try */
		if (!ok && !sent && reused && PQstatus(conn) == CONNECTION_BAD)
		{
			disconnect_primary();
			conn = primary_connection(deadline, &reused);
			if (conn != NULL)
				ok = forward_on(conn, req, role, deadline, answer, &lsn, &sent);
		}
	}
	if (!ok)
	{
		/* its state is unknown: the next forward connects anew */
		disconnect_primary();
		failure_answer(req, route, false, answer);
	}
	else if (!wait_for_replay(last_record_end(lsn)))
		ereport(LOG,
				(errmsg("registry forwarded a write to the primary that this standby had not replayed after registry.forward_replay_wait"),
				 errdetail("The primary's WAL position after the write is %X/%X, replay is at %X/%X.",
						   LSN_FORMAT_ARGS(lsn), LSN_FORMAT_ARGS(GetXLogReplayRecPtr(NULL)))));
	pgstat_report_activity(STATE_IDLE, NULL);
	if (latch_was_set)
		SetLatch(MyLatch);
}
