/*-------------------------------------------------------------------------
 *
 * audit.c
 *	  The audit trail: who changed what in the registry, when, and how it
 *	  ended, in registry.audit, and the same change on the
 *	  registry_changes LISTEN/NOTIFY channel.
 *
 * An AFTER ROW trigger on each of the registry's tables (contexts,
 * schemas, subjects, subject_versions, config, modes, associations, and
 * the DEK registry's keks and deks) records every row written, whatever
 * wrote it: the SQL API, the REST API, raw DML; an AFTER TRUNCATE trigger
 * records a truncation.  The row says the time, the role
 * that acted (outside any SECURITY DEFINER function: the session's role,
 * or the role a REST request runs as), the HTTP user and peer of a REST
 * request, the operation, its target, and the row before and after (a
 * schema by its id, type and guid, never its text).  The trigger runs in
 * the writing transaction, so a write and its audit row commit or roll
 * back together; the notification goes out at commit.
 *
 * Rows a restore brings back (restore.c) are not audited again: their
 * audit rows come back with the dump.  A REST write that fails rolls back
 * its own transaction, audit row included; the HTTP worker then records
 * the failure in a transaction of its own, with the Confluent error code
 * as the result.  A failed SQL write cannot be recorded: its transaction
 * is rolled back, and PostgreSQL has no autonomous transactions.
 *
 * Nobody but these functions writes the table: they insert as its owner,
 * with fixed, schema-qualified statements, and nobody else is granted
 * more than SELECT.  Old rows are deleted by the primary's first HTTP
 * worker (registry.audit_retention), or by registry.purge_audit().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "access/htup_details.h"
#include "access/transam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/async.h"
#include "commands/trigger.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/xid8.h"

#include "audit.h"
#include "catalog.h"
#include "json_out.h"
#include "registration.h"
#include "registry.h"
#include "rest_internal.h"
#include "trigger_row.h"

PG_FUNCTION_INFO_V1(registry_audit_row);
PG_FUNCTION_INFO_V1(registry_audit_truncate);
PG_FUNCTION_INFO_V1(registry_purge_audit);

/* the channel each audited change is announced on, at commit */
#define AUDIT_CHANNEL "registry_changes"

/* a context or subject longer than this, escaped, is left out of a notification (8000 at most) */
#define AUDIT_NOTIFY_SUBJECT_MAX 4000

/* the sweep: every AUDIT_SWEEP_MS, AUDIT_SWEEP_ROWS rows at most */
#define AUDIT_SWEEP_MS 10000
#define AUDIT_SWEEP_BUSY_MS 1000
#define AUDIT_SWEEP_ROWS 1000

int			registry_audit_retention = 365 * 24 * 60;
bool		registry_audit_notify = true;

/* the REST request the HTTP worker serves now, if any */
typedef struct AuditRequest
{
	bool		active;
	Oid			role;
	bool		has_user;
	char		user[NAMEDATALEN];
	char		peer[64];
}			AuditRequest;

static AuditRequest current_request;

/* registry.audit_retention: -1, or at least a minute */
static bool
check_retention(int *newval, void **extra, GucSource source)
{
	if (*newval == 0)
	{
		GUC_check_errdetail("Use -1 to keep the audit rows forever, or at least 1min.");
		return false;
	}
	return true;
}

/* See audit.h */
void
registry_init_audit(void)
{
	DefineCustomIntVariable("registry.audit_retention",
							"How long rows of registry.audit are kept; older ones are deleted by the primary's REST API worker (-1: forever).",
							"Rows written then are deleted within seconds of passing this age, 1000 at most each time.",
							&registry_audit_retention,
							365 * 24 * 60, -1, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MIN,
							check_retention, NULL, NULL);
	DefineCustomBoolVariable("registry.audit_notify",
							 "Whether each audited change is announced on NOTIFY registry_changes at commit.",
							 "A transaction that notifies takes a database-wide lock at commit, so writers commit one at a time.",
							 &registry_audit_notify,
							 true,
							 PGC_SIGHUP, 0,
							 NULL, NULL, NULL);
}

/* See audit.h */
void
registry_audit_request_begin(Oid role, const char *http_user, const char *peer)
{
	current_request.active = true;
	current_request.role = role;
	current_request.has_user = http_user != NULL;
	strlcpy(current_request.user, http_user ? http_user : "", NAMEDATALEN);
	strlcpy(current_request.peer, peer ? peer : "", sizeof(current_request.peer));
}

/* See audit.h */
void
registry_audit_request_end(void)
{
	memset(&current_request, 0, sizeof(current_request));
}

/*
 * Append ,"key":value (JSON-escaped) unless the escaped value would be
 * longer than AUDIT_NOTIFY_SUBJECT_MAX; then ,"keyOmitted":true.
 */
static void
append_name_bounded(StringInfo buf, const char *key, const char *value)
{
	int			start = buf->len;

	if (value == NULL)
		return;
	appendStringInfo(buf, ",\"%s\":", key);
	escape_json(buf, value);
	if (buf->len - start <= AUDIT_NOTIFY_SUBJECT_MAX)
		return;
	buf->len = start;
	buf->data[start] = '\0';
	appendStringInfo(buf, ",\"%sOmitted\":true", key);
}

/* announce an audited change on registry_changes, at commit */
static void
audit_notify(int64 id, const CatalogAuditRow *e)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "{\"audit\":" INT64_FORMAT ",\"op\":", id);
	escape_json(&buf, e->operation);

	/*
	 * far below NOTIFY's 8000 bytes, escaped: a longer name is read from the
	 * row
	 */
	append_name_bounded(&buf, "context", e->context);
	append_name_bounded(&buf, "subject", e->subject);
	if (e->has_version)
		appendStringInfo(&buf, ",\"version\":%d", e->version);
	if (e->has_schema_id)
		appendStringInfo(&buf, ",\"id\":%d", e->schema_id);
	appendStringInfoChar(&buf, '}');
	Async_Notify(AUDIT_CHANNEL, buf.data);
	pfree(buf.data);
}

/* the role that acted: the REST request's, else the one outside any SECURITY DEFINER */
static const char *
acting_role(void)
{
	Oid			role = current_request.active ? current_request.role : GetOuterUserId();

	return GetUserNameFromId(role, true);
}

/*
 * A row as jsonb, its columns by name, then the n members keys[i]:
 * values[i]; built directly where its columns' types allow, else through
 * row_to_json's text (the same value either way).
 */
static Jsonb *
row_jsonb(HeapTuple tup, TupleDesc desc, const char *const *keys, const char *const *values,
		  int n)
{
	Jsonb	   *direct = registry_row_jsonb(tup, desc, keys, values, n);
	StringInfoData buf;
	char	   *json;
	size_t		len;

	if (direct != NULL)
		return direct;
	json = TextDatumGetCString(DirectFunctionCall1(row_to_json,
												   heap_copy_tuple_as_datum(tup, desc)));
	len = strlen(json);
	/* row_to_json ends the object with '}': the members go before it */
	Assert(len > 0 && json[len - 1] == '}');
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, json, len - 1);
	for (int i = 0; i < n; i++)
	{
		appendStringInfoChar(&buf, ',');
		escape_json(&buf, keys[i]);
		appendStringInfoChar(&buf, ':');
		escape_json(&buf, values[i]);
	}
	appendStringInfoChar(&buf, '}');
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}

/* a schema row as its id, type and guid (never its text) */
static Jsonb *
schema_jsonb(HeapTuple tup, TupleDesc desc)
{
	JsonbParseState *state = NULL;
	char	   *type = trigger_row_text(tup, desc, "schema_type");
	char	   *guid = trigger_row_text(tup, desc, "guid");
	int32		id = 0;
	JsonbValue	v;

	(void) trigger_row_int(tup, desc, "id", &id);
	(void) pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
	registry_jsonb_push_string(&state, WJB_KEY, "id");
	v.type = jbvNumeric;
	v.val.numeric = int64_to_numeric(id);
	(void) pushJsonbValue(&state, WJB_VALUE, &v);
	registry_jsonb_push_member(&state, "schemaType", type ? type : "");
	registry_jsonb_push_member(&state, "guid", guid ? guid : "");
	return JsonbValueToJsonb(pushJsonbValue(&state, WJB_END_OBJECT, NULL));
}

/*
 * The type and guid of schema id in context, as the members to add to a
 * version row (keys and values, two, or none when it is gone); how many.
 */
static int
version_schema_members(const char *context, int32 id, const char **keys, const char **values)
{
	CatalogSchema row;

	if (!catalog_get_schema(context, id, &row))
		return 0;
	keys[0] = "schemaType";
	values[0] = row.schema_type;
	keys[1] = "guid";
	values[1] = registry_fingerprint_guid(row.fingerprint);
	return 2;
}

/* Is the object one of the DEK registry's keys (kek, dek)? */
static bool
is_key_object(const char *object)
{
	return strcmp(object, "kek") == 0 || strcmp(object, "dek") == 0;
}

/* The operation a row written to the object's table is, by how it changed. */
static const char *
row_operation(const char *object, TriggerData *td)
{
	const char *verb;

	if (TRIGGER_FIRED_BY_INSERT(td->tg_event))
		verb = strcmp(object, "version") == 0 ? "register" :
			(strcmp(object, "config") == 0 || strcmp(object, "mode") == 0) ? "set" : "create";
	else if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
		verb = (strcmp(object, "version") == 0 || is_key_object(object)) ?
			"hard_delete" : "delete";
	else if (strcmp(object, "version") == 0 || is_key_object(object))
	{
		bool		was_null;
		bool		is_null;
		bool		was = DatumGetBool(trigger_row_value(td->tg_trigtuple, td->tg_relation->rd_att,
														 "deleted", &was_null));
		bool		is = DatumGetBool(trigger_row_value(td->tg_newtuple, td->tg_relation->rd_att,
														"deleted", &is_null));

		verb = (!was && is) ? "soft_delete" :
			(was && !is && is_key_object(object)) ? "undelete" : "update";
	}
	else
		verb = (strcmp(object, "config") == 0 || strcmp(object, "mode") == 0) ? "set" : "update";
	return psprintf("%s.%s", object, verb);
}

/* Is the new row one a restore brings back (restore.c), by its time column? */
static bool
row_is_restored(const char *object, HeapTuple tup, TupleDesc desc)
{
	const char *column = (strcmp(object, "config") == 0 || strcmp(object, "mode") == 0 ||
						  is_key_object(object)) ? "updated_at" : "created_at";
	bool		isnull;
	Datum		at = trigger_row_value(tup, desc, column, &isnull);

	return !isnull && registry_is_restored_row(DatumGetTimestampTz(at));
}

/* the object a trigger audits: its one argument */
static const char *
trigger_object(TriggerData *td, const char *name)
{
	if (td->tg_trigger->tgnargs != 1)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("%s: the trigger must name the object it audits", name)));
	return td->tg_trigger->tgargs[0];
}

/* record e with the acting role and the REST request, and announce it */
static void
audit_record(CatalogAuditRow *e)
{
	int64		id;

	e->role = acting_role();
	if (current_request.active)
	{
		e->http_user = current_request.has_user ? current_request.user : NULL;
		e->http_peer = current_request.peer[0] ? current_request.peer : NULL;
	}
	e->result = "ok";
	id = catalog_audit_insert(e);
	if (id > 0 && registry_audit_notify)
		audit_notify(id, e);
}

/*
 * AFTER INSERT OR UPDATE OR DELETE ... FOR EACH ROW on each of the
 * registry's tables, with the object it is as argument (context, schema,
 * subject, version, config, mode, association): records the row written,
 * unless a restore brings it back.
 */
Datum
registry_audit_row(PG_FUNCTION_ARGS)
{
	TriggerData *td = trigger_row_data(fcinfo, "audit_row");
	const char *object = trigger_object(td, "audit_row");
	TupleDesc	desc = td->tg_relation->rd_att;
	HeapTuple	oldtup = NULL;
	HeapTuple	newtup = NULL;
	HeapTuple	tup;
	CatalogAuditRow e;
	bool		is_version = strcmp(object, "version") == 0;
	char	   *subject;
	MemoryContext cxt;
	MemoryContext oldcxt;

	if (!TRIGGER_FIRED_FOR_ROW(td->tg_event) || !TRIGGER_FIRED_AFTER(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("audit_row: must be fired AFTER ... FOR EACH ROW")));
	if (TRIGGER_FIRED_BY_INSERT(td->tg_event))
		newtup = td->tg_trigtuple;
	else if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
		oldtup = td->tg_trigtuple;
	else
	{
		oldtup = td->tg_trigtuple;
		newtup = td->tg_newtuple;
	}
	if (oldtup == NULL && row_is_restored(object, newtup, desc))
		return PointerGetDatum(NULL);

	/* a registration's few rows, each in memory of its own */
	cxt = AllocSetContextCreate(CurrentMemoryContext, "registry audit row",
								ALLOCSET_SMALL_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);
	tup = newtup ? newtup : oldtup;
	memset(&e, 0, sizeof(e));
	e.operation = row_operation(object, td);
	if (!is_key_object(object))
		e.context = trigger_row_text(tup, desc, "context");
	if (strcmp(object, "dek") == 0)
	{
		e.subject = trigger_row_text(tup, desc, "subject");
		e.has_version = trigger_row_int(tup, desc, "version", &e.version);
	}
	else if (strcmp(object, "context") != 0 && strcmp(object, "schema") != 0 &&
			 strcmp(object, "kek") != 0)
	{
		subject = trigger_row_text(tup, desc, "subject");
		e.subject = (subject && subject[0]) ? subject : NULL;
	}
	if (is_version)
	{
		e.has_version = trigger_row_int(tup, desc, "version", &e.version);
		e.has_schema_id = trigger_row_int(tup, desc, "schema_id", &e.schema_id);
	}
	else if (strcmp(object, "schema") == 0)
		e.has_schema_id = trigger_row_int(tup, desc, "id", &e.schema_id);

	if (is_version)
	{
		const char *keys[2];
		const char *values[2];
		int			n = e.context && e.has_schema_id ?
		version_schema_members(e.context, e.schema_id, keys, values) : 0;

		e.before = oldtup ? row_jsonb(oldtup, desc, keys, values, n) : NULL;
		e.after = newtup ? row_jsonb(newtup, desc, keys, values, n) : NULL;
	}
	else if (strcmp(object, "schema") == 0)
	{
		e.before = oldtup ? schema_jsonb(oldtup, desc) : NULL;
		e.after = newtup ? schema_jsonb(newtup, desc) : NULL;
	}
	else
	{
		e.before = oldtup ? row_jsonb(oldtup, desc, NULL, NULL, 0) : NULL;
		e.after = newtup ? row_jsonb(newtup, desc, NULL, NULL, 0) : NULL;
	}
	audit_record(&e);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(cxt);
	return PointerGetDatum(NULL);
}

/*
 * AFTER TRUNCATE ... FOR EACH STATEMENT on each of the registry's tables,
 * with the object it is as argument: records the truncation.
 */
Datum
registry_audit_truncate(PG_FUNCTION_ARGS)
{
	TriggerData *td = trigger_row_data(fcinfo, "audit_truncate");
	const char *object = trigger_object(td, "audit_truncate");
	CatalogAuditRow e;

	if (!TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("audit_truncate: must be fired AFTER TRUNCATE")));
	memset(&e, 0, sizeof(e));
	e.operation = psprintf("%s.truncate", object);
	audit_record(&e);
	return PointerGetDatum(NULL);
}

/* See audit.h */
void
registry_audit_run_step(AuditStep step, void *arg)
{
	MemoryContext cxt = CurrentMemoryContext;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PG_TRY();
	{
		/*
		 * bounded: a lock held on the audit table (a DBA's DDL) must not
		 * stall the worker, nor its reads; the row is not worth a flush
		 */
		(void) set_config_option("lock_timeout", "1000", PGC_SUSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);
		(void) set_config_option("synchronous_commit", "off", PGC_SUSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);
		PushActiveSnapshot(GetTransactionSnapshot());
		step(arg);
		PopActiveSnapshot();
		CommitTransactionCommand();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
}

/* a failed REST write, as registry_audit_rest_failure() records it */
typedef struct AuditFailure
{
	const RestRequest *req;
	Oid			role;
	const char *http_user;
	const char *peer;
	int			error_code;
}			AuditFailure;

/* the version segment of a path as a version number; false if it is none ("latest") */
static bool
version_number(const char *version, int32 *out)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(version, &end, 10);
	if (errno != 0 || *end != '\0' || end == version || v <= 0 || v > INT_MAX)
		return false;
	*out = (int32) v;
	return true;
}

/* record a failed REST write that names a write route (an AuditStep) */
static void
record_failure(void *arg)
{
	AuditFailure *f = (AuditFailure *) arg;
	char	   *qualified;
	char	   *version;
	int			route = registry_rest_write_target(f->req, &qualified, &version);
	CatalogAuditRow e;
	const char *method;
	const char *pattern;

	if (route < 0)
		return;
	memset(&e, 0, sizeof(e));
	rest_route_at(route, &method, &pattern);
	e.operation = psprintf("rest %s /%s", method, pattern);
	e.role = OidIsValid(f->role) ? GetUserNameFromId(f->role, true) : NULL;
	e.http_user = f->http_user;
	e.http_peer = f->peer;
	if (qualified)
	{
		char	   *context;
		char	   *subject;

		registry_split_subject_cstr(qualified, &context, &subject);
		e.context = context;
		e.subject = subject[0] ? subject : NULL;
	}
	if (version)
		e.has_version = version_number(version, &e.version);
	e.result = psprintf("%d", f->error_code);
	(void) catalog_audit_insert(&e);
}

/* the last refusal before authentication this process recorded */
static TimestampTz last_unauthenticated = 0;

/*
 * See audit.h.  A refusal before authentication (no role: a missing or
 * wrong password, an unknown user) is recorded at most once a second per
 * worker, so that a flood of anonymous writes cannot turn into as many
 * committed rows; the ones left out are counted in the server log.
 */
void
registry_audit_rest_failure(const RestRequest *req, Oid role, const char *http_user,
							const char *peer, int error_code)
{
	AuditFailure f = {req, role, http_user, peer, error_code};
	static int64 left_out = 0;
	TimestampTz now = GetCurrentTimestamp();

	if (RecoveryInProgress())
		return;
	if (!OidIsValid(role))
	{
		if (last_unauthenticated != 0 &&
			!TimestampDifferenceExceeds(last_unauthenticated, now, 1000))
		{
			left_out++;
			return;
		}
		if (left_out > 0)
			ereport(LOG,
					(errmsg("registry audit left out " INT64_FORMAT " refused writes before authentication (at most one a second is recorded)",
							left_out)));
		left_out = 0;
		last_unauthenticated = now;
	}
	registry_audit_run_step(record_failure, &f);
}

/*
 * registry.purge_audit(older_than interval) -> bigint: deletes the audit
 * rows older than older_than, for a DBA who runs no HTTP worker (or wants
 * them gone now); how many.
 */
Datum
registry_purge_audit(PG_FUNCTION_ARGS)
{
	Interval   *older_than = PG_GETARG_INTERVAL_P(0);
	TimestampTz now = GetCurrentTransactionStartTimestamp();
	TimestampTz cutoff;

	cutoff = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_mi_interval,
													 TimestampTzGetDatum(now),
													 IntervalPGetDatum(older_than)));
	if (cutoff > now)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("older_than must not be negative")));
	PG_RETURN_INT64((int64) catalog_audit_purge(cutoff, 0));
}

/* one batch of the retention sweep */
typedef struct AuditSweep
{
	TimestampTz cutoff;
	uint64		deleted;
}			AuditSweep;

/* delete a batch of the rows older than the cutoff (an AuditStep) */
static void
sweep_batch(void *arg)
{
	AuditSweep *sw = (AuditSweep *) arg;

	sw->deleted = catalog_audit_purge(sw->cutoff, AUDIT_SWEEP_ROWS);
}

/* See audit.h */
void
registry_audit_sweep(TimestampTz now)
{
	static TimestampTz next_sweep = 0;
	AuditSweep	sw = {0, 0};

	if (registry_audit_retention < 0 || now < next_sweep)
		return;
	next_sweep = TimestampTzPlusMilliseconds(now, AUDIT_SWEEP_MS);
	if (RecoveryInProgress())
		return;
	sw.cutoff = now - (TimestampTz) registry_audit_retention * USECS_PER_MINUTE;
	registry_audit_run_step(sweep_batch, &sw);
	/* more to delete: again soon, still a batch at a time */
	if (sw.deleted >= AUDIT_SWEEP_ROWS)
		next_sweep = TimestampTzPlusMilliseconds(now, AUDIT_SWEEP_BUSY_MS);
}
