/*-------------------------------------------------------------------------
 *
 * rest_privileges.c
 *	  Which role may use which REST route: each route names its operation
 *	  (rest_routes.c), and the operation's privilege (privileges.c, the one
 *	  home of who may do what, for SQL and REST alike) decides, over HTTP
 *	  and through registry.rest() alike.  A role that lacks it gets
 *	  Confluent's 403 before the route runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "privileges.h"
#include "rest.h"
#include "rest_internal.h"

/*
 * May role use route, by its operation alone?  A route that reads nothing
 * of the registry is open to every role that got this far.  (A call whose
 * query asks more of its route needs more: rest_route_permitted; the
 * answers cached by the HTTP workers are of routes without such queries.)
 */
bool
registry_rest_route_permitted(int route, Oid role)
{
	if (route < 0)
		return true;
	return registry_operation_permitted(rest_route_operation(route), role);
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
 * denied operation ..."), the action of its operation.
 */
void
rest_route_denied(RestCall *c)
{
	const char *action = registry_operation_action(c->route >= 0 ?
												   rest_route_operation(c->route) :
												   REGISTRY_OP_OPEN);
	const char *subject = route_subject(c);

	if (subject)
		rest_error(c, 403, 40301,
				   psprintf("User is denied operation %s on Subject: %s", action, subject));
	else
		rest_error(c, 403, 40301,
				   psprintf("User is denied operation %s on Schema Registry", action));
	c->sqlerrcode = ERRCODE_INSUFFICIENT_PRIVILEGE;
}

/*
 * Check that the current user may use the request's route, with every
 * operation its query makes of it (rest_call_operations); if not, set
 * Confluent's 403 and return false.
 */
bool
rest_route_permitted(RestCall *c)
{
	RegistryOperation ops[REST_CALL_MAX_OPERATIONS];
	int			n;

	if (c->route < 0)
		return true;
	n = rest_call_operations(c, ops);
	for (int i = 0; i < n; i++)
		if (!registry_operation_permitted(ops[i], GetUserId()))
		{
			rest_route_denied(c);
			return false;
		}
	return true;
}
