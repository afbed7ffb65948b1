/*-------------------------------------------------------------------------
 *
 * rest_privileges.c
 *	  Which role may use which REST route: each route names the SQL
 *	  function whose EXECUTE privilege gates it (rest_routes.c), so the
 *	  GRANTs on the registry's functions decide, over HTTP and through
 *	  registry.rest() alike.  A role that lacks it gets Confluent's 403
 *	  before the route runs.
 *
 * The gating functions' OIDs are looked up once per process and forgotten
 * whenever pg_proc changes (a syscache callback), as a dropped and
 * re-created extension gives its functions new OIDs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "catalog/pg_proc.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "rest.h"
#include "rest_internal.h"

/* per route: the gating function's OID once looked up (InvalidOid: none) */
static Oid *gate_oids = NULL;
static bool *gate_known = NULL;
static bool callback_registered = false;

/* pg_proc changed: every gate is looked up again on its next use */
static void
forget_gates(Datum arg, int cacheid, uint32 hashvalue)
{
	int			n = rest_route_count();

	if (gate_known)
		memset(gate_known, 0, sizeof(bool) * n);
}

/*
 * The OID of a function named by its regprocedure text, InvalidOid if none.
 * The lookup runs as the bootstrap superuser: the name's schema needs USAGE
 * of whoever looks, and a role without it (the workers' own, or one with no
 * registry grant) must get the route's 403, not the lookup's error.
 */
static Oid
lookup_function(const char *signature)
{
	LOCAL_FCINFO(fcinfo, 1);
	Datum		result = (Datum) 0;
	Oid			save_userid;
	int			save_sec_context;

	InitFunctionCallInfoData(*fcinfo, NULL, 1, InvalidOid, NULL, NULL);
	fcinfo->args[0].value = CStringGetTextDatum(signature);
	fcinfo->args[0].isnull = false;
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(BOOTSTRAP_SUPERUSERID,
						   save_sec_context | SECURITY_LOCAL_USERID_CHANGE);
	PG_TRY();
	{
		result = to_regprocedure(fcinfo);
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec_context);
	}
	PG_END_TRY();
	if (fcinfo->isnull)
		return InvalidOid;
	return DatumGetObjectId(result);
}

/* The gating function of route i, looked up at its first use. */
static Oid
route_gate_oid(int route, const char **operation)
{
	const char *gate;

	rest_route_gate(route, &gate, operation);
	if (gate == NULL)
		return InvalidOid;
	if (gate_oids == NULL)
	{
		gate_oids = MemoryContextAllocZero(TopMemoryContext, sizeof(Oid) * rest_route_count());
		gate_known = MemoryContextAllocZero(TopMemoryContext, sizeof(bool) * rest_route_count());
	}
	if (!callback_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, forget_gates, (Datum) 0);
		callback_registered = true;
	}
	if (!gate_known[route])
	{
		gate_oids[route] = lookup_function(gate);
		gate_known[route] = true;
	}
	return gate_oids[route];
}

/*
 * May role use route?  A route without a gate is open to every role that
 * got this far; a gate that is missing (the extension half installed)
 * leaves the decision to the SQL the route runs.
 */
bool
registry_rest_route_permitted(int route, Oid role)
{
	const char *operation;
	Oid			fn;

	if (route < 0)
		return true;
	fn = route_gate_oid(route, &operation);
	if (!OidIsValid(fn))
		return true;
	return pg_proc_aclcheck(fn, role, ACL_EXECUTE) == ACLCHECK_OK;
}

/* The subject a route is about, as the client named it, or NULL. */
static const char *
route_subject(RestCall *c)
{
	if (c->nseg >= 2 && (strcmp(c->seg[0], "subjects") == 0 ||
						 strcmp(c->seg[0], "config") == 0 ||
						 strcmp(c->seg[0], "mode") == 0))
		return c->seg[1];
	if (c->nseg >= 3 && strcmp(c->seg[0], "compatibility") == 0)
		return c->seg[2];
	return NULL;
}

/*
 * Set Confluent's 403 for the request's route (error code 40301, "User is
 * denied operation ..."), the operation its gate names.
 */
void
rest_route_denied(RestCall *c)
{
	const char *operation = NULL;
	const char *subject = route_subject(c);

	if (c->route >= 0)
		(void) route_gate_oid(c->route, &operation);
	if (operation == NULL)
		operation = "Read";
	if (subject)
		rest_error(c, 403, 40301,
				   psprintf("User is denied operation %s on Subject: %s", operation, subject));
	else
		rest_error(c, 403, 40301,
				   psprintf("User is denied operation %s on Schema Registry", operation));
	c->sqlerrcode = ERRCODE_INSUFFICIENT_PRIVILEGE;
}

/*
 * Check that the current user may use the request's route; if not, set
 * Confluent's 403 and return false.
 */
bool
rest_route_permitted(RestCall *c)
{
	if (registry_rest_route_permitted(c->route, GetUserId()))
		return true;
	rest_route_denied(c);
	return false;
}
