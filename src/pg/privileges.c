/*-------------------------------------------------------------------------
 *
 * privileges.c
 *	  Who may use which of the registry's operations, in one place: each
 *	  operation is ruled by the EXECUTE privilege on the SQL function that
 *	  wraps its C service, so the GRANTs on the registry's functions decide,
 *	  over SQL (where PostgreSQL checks that privilege on the call) and over
 *	  REST (where the route's operation is checked here before it runs,
 *	  through registry.rest() and the HTTP workers alike).
 *
 * The functions' OIDs are looked up once per process and forgotten
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
#include "utils/syscache.h"

#include "privileges.h"

/* an operation: the SQL function whose EXECUTE rules it, and what a 403 names */
typedef struct OperationPrivilege
{
	const char *function;		/* its name (not overloaded): any signature */
	const char *action;			/* Confluent's: Read, Write, Delete, ... */
} OperationPrivilege;

static const OperationPrivilege operations[REGISTRY_OPERATIONS] = {
	[REGISTRY_OP_LIST_SCHEMAS] = {"registry.list_schemas", "Read"},
	[REGISTRY_OP_LIST_SCHEMAS_WITH_ALIASES] = {"registry.list_schemas_with_aliases", "Read"},
	[REGISTRY_OP_LIST_SCHEMAS_BY_ASSOCIATION] = {"registry.list_schemas_by_association", "Read"},
	[REGISTRY_OP_SCHEMA_BY_ID] = {"registry.schema_by_id", "Read"},
	[REGISTRY_OP_SCHEMA_VERSIONS] = {"registry.schema_versions", "Read"},
	[REGISTRY_OP_SCHEMA_BY_GUID] = {"registry.schema_by_guid", "Read"},
	[REGISTRY_OP_SCHEMA_IDS_BY_GUID] = {"registry.schema_ids_by_guid", "Read"},
	[REGISTRY_OP_SUBJECTS] = {"registry.subjects", "Read"},
	[REGISTRY_OP_LOOKUP] = {"registry.lookup_schema", "Read"},
	[REGISTRY_OP_DELETE_SUBJECT] = {"registry.delete_subject", "Delete"},
	[REGISTRY_OP_VERSIONS] = {"registry.versions", "Read"},
	[REGISTRY_OP_REGISTER] = {"registry.register_schema_version", "Write"},
	[REGISTRY_OP_TAG] = {"registry.tag_schema_version", "Write"},
	[REGISTRY_OP_LATEST_WITH_METADATA] = {"registry.latest_with_metadata", "Read"},
	[REGISTRY_OP_GET_VERSION] = {"registry.get_version", "Read"},
	[REGISTRY_OP_DELETE_VERSION] = {"registry.delete_version", "Delete"},
	[REGISTRY_OP_REFERENCED_BY] = {"registry.referenced_by", "Read"},
	[REGISTRY_OP_CHECK] = {"registry.check_compatibility", "Read"},
	[REGISTRY_OP_GET_CONFIG] = {"registry.get_config", "ReadCompatibility"},
	[REGISTRY_OP_SET_CONFIG] = {"registry.set_config", "AlterCompatibility"},
	[REGISTRY_OP_DELETE_CONFIG] = {"registry.delete_config", "AlterCompatibility"},
	[REGISTRY_OP_GET_MODE] = {"registry.get_mode", "ReadCompatibility"},
	[REGISTRY_OP_SET_MODE] = {"registry.set_mode", "AlterCompatibility"},
	[REGISTRY_OP_DELETE_MODE] = {"registry.delete_mode", "AlterCompatibility"},
	[REGISTRY_OP_CONTEXTS] = {"registry.list_contexts", "Read"},
	[REGISTRY_OP_DELETE_CONTEXT] = {"registry.delete_context", "Delete"},
	[REGISTRY_OP_LIST_KEKS] = {"registry.list_keks", "Read"},
	[REGISTRY_OP_CREATE_KEK] = {"registry.create_kek", "Write"},
	[REGISTRY_OP_GET_KEK] = {"registry.get_kek", "Read"},
	[REGISTRY_OP_UPDATE_KEK] = {"registry.update_kek", "Write"},
	[REGISTRY_OP_DELETE_KEK] = {"registry.delete_kek", "Delete"},
	[REGISTRY_OP_UNDELETE_KEK] = {"registry.undelete_kek", "Write"},
	[REGISTRY_OP_TEST_KEK] = {"registry.test_kek", "Write"},
	[REGISTRY_OP_LIST_DEKS] = {"registry.list_deks", "Read"},
	[REGISTRY_OP_CREATE_DEK] = {"registry.create_dek", "Write"},
	[REGISTRY_OP_GET_DEK] = {"registry.get_dek", "Read"},
	[REGISTRY_OP_DELETE_DEK] = {"registry.delete_dek", "Delete"},
	[REGISTRY_OP_UNDELETE_DEK] = {"registry.undelete_dek", "Write"},
	[REGISTRY_OP_DEK_VERSIONS] = {"registry.dek_versions", "Read"},
	[REGISTRY_OP_ASSOCIATIONS_BY_SUBJECT] = {"registry.associations_by_subject", "Read"},
	[REGISTRY_OP_ASSOCIATIONS_BY_RESOURCE_NAME] = {"registry.associations_by_resource_name", "Read"},
	[REGISTRY_OP_ASSOCIATIONS_BY_RESOURCE_ID] = {"registry.associations_by_resource_id", "Read"},
	[REGISTRY_OP_UPSERT_ASSOCIATION] = {"registry.upsert_association", "Write"},
	[REGISTRY_OP_DELETE_ASSOCIATIONS] = {"registry.delete_associations", "Delete"},
	[REGISTRY_OP_CREATE_ASSOCIATION] = {"registry.create_association", "Write"},
	[REGISTRY_OP_BATCH_GET_ASSOCIATIONS] = {"registry.batch_get_associations", "Read"},
	[REGISTRY_OP_MUTATE_ASSOCIATIONS] = {"registry.mutate_associations", "Write"},
};

/* per operation: its function's OID once looked up (InvalidOid: none) */
static Oid	function_oids[REGISTRY_OPERATIONS];
static bool function_known[REGISTRY_OPERATIONS];
static bool callback_registered = false;

/* pg_proc changed: every function is looked up again on its next use */
static void
forget_functions(Datum arg, int cacheid, uint32 hashvalue)
{
	memset(function_known, 0, sizeof(function_known));
}

/*
 * The OID of a function named by its regprocedure text, or by its name
 * alone when it is not overloaded (so that an operation keeps its rule
 * when a later version gives the function more arguments), InvalidOid if
 * none.
 * The lookup runs as the bootstrap superuser: the name's schema needs USAGE
 * of whoever looks, and a role without it (the workers' own, or one with no
 * registry grant) must be denied the operation, not get the lookup's error.
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
		result = strchr(signature, '(') ? to_regprocedure(fcinfo) : to_regproc(fcinfo);
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

/* See privileges.h */
Oid
registry_function_oid(const char *signature)
{
	return lookup_function(signature);
}

/* The OID of the function that rules an operation, looked up at its first use. */
static Oid
operation_function(RegistryOperation op)
{
	if (!callback_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, forget_functions, (Datum) 0);
		callback_registered = true;
	}
	if (!function_known[op])
	{
		function_oids[op] = lookup_function(operations[op].function);
		function_known[op] = true;
	}
	return function_oids[op];
}

/* See privileges.h */
const char *
registry_operation_action(RegistryOperation op)
{
	return op > REGISTRY_OP_OPEN && op < REGISTRY_OPERATIONS ? operations[op].action : "Read";
}

/* See privileges.h */
bool
registry_operation_writes(RegistryOperation op)
{
	const char *action = registry_operation_action(op);

	return op > REGISTRY_OP_OPEN &&
		(strcmp(action, "Write") == 0 || strcmp(action, "Delete") == 0 ||
		 strcmp(action, "AlterCompatibility") == 0);
}

/*
 * See privileges.h.  An open operation is every role's; one whose function
 * is missing (the extension half installed) is left to what it runs.
 */
bool
registry_operation_permitted(RegistryOperation op, Oid role)
{
	Oid			fn;

	if (op <= REGISTRY_OP_OPEN || op >= REGISTRY_OPERATIONS)
		return true;
	fn = operation_function(op);
	if (!OidIsValid(fn))
		return true;
	return pg_proc_aclcheck(fn, role, ACL_EXECUTE) == ACLCHECK_OK;
}
