/*-------------------------------------------------------------------------
 *
 * privileges.h
 *	  Who may use which of the registry's operations: one table, for the
 *	  REST routes and the SQL functions alike (privileges.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PRIVILEGES_H
#define PRIVILEGES_H

/* The operations a role may be denied, one per Confluent operation. */
typedef enum RegistryOperation
{
	REGISTRY_OP_OPEN = -1,		/* reads nothing of the registry: every role */
	REGISTRY_OP_LIST_SCHEMAS,
	REGISTRY_OP_LIST_SCHEMAS_WITH_ALIASES,
	REGISTRY_OP_LIST_SCHEMAS_BY_ASSOCIATION,
	REGISTRY_OP_SCHEMA_BY_ID,
	REGISTRY_OP_SCHEMA_VERSIONS,
	REGISTRY_OP_SCHEMA_BY_GUID,
	REGISTRY_OP_SCHEMA_IDS_BY_GUID,
	REGISTRY_OP_SUBJECTS,
	REGISTRY_OP_LOOKUP,
	REGISTRY_OP_DELETE_SUBJECT,
	REGISTRY_OP_VERSIONS,
	REGISTRY_OP_REGISTER,
	REGISTRY_OP_TAG,
	REGISTRY_OP_LATEST_WITH_METADATA,
	REGISTRY_OP_GET_VERSION,
	REGISTRY_OP_DELETE_VERSION,
	REGISTRY_OP_REFERENCED_BY,
	REGISTRY_OP_CHECK,
	REGISTRY_OP_GET_CONFIG,
	REGISTRY_OP_SET_CONFIG,
	REGISTRY_OP_DELETE_CONFIG,
	REGISTRY_OP_GET_MODE,
	REGISTRY_OP_SET_MODE,
	REGISTRY_OP_DELETE_MODE,
	REGISTRY_OP_CONTEXTS,
	REGISTRY_OP_DELETE_CONTEXT,
	/* the DEK registry */
	REGISTRY_OP_LIST_KEKS,
	REGISTRY_OP_CREATE_KEK,
	REGISTRY_OP_GET_KEK,
	REGISTRY_OP_UPDATE_KEK,
	REGISTRY_OP_DELETE_KEK,
	REGISTRY_OP_UNDELETE_KEK,
	REGISTRY_OP_TEST_KEK,
	REGISTRY_OP_LIST_DEKS,
	REGISTRY_OP_CREATE_DEK,
	REGISTRY_OP_GET_DEK,
	REGISTRY_OP_DELETE_DEK,
	REGISTRY_OP_UNDELETE_DEK,
	REGISTRY_OP_DEK_VERSIONS,
	/* associations */
	REGISTRY_OP_ASSOCIATIONS_BY_SUBJECT,
	REGISTRY_OP_ASSOCIATIONS_BY_RESOURCE_NAME,
	REGISTRY_OP_ASSOCIATIONS_BY_RESOURCE_ID,
	REGISTRY_OP_UPSERT_ASSOCIATION,
	REGISTRY_OP_DELETE_ASSOCIATIONS,
	REGISTRY_OP_CREATE_ASSOCIATION,
	REGISTRY_OP_BATCH_GET_ASSOCIATIONS,
	REGISTRY_OP_MUTATE_ASSOCIATIONS,
	REGISTRY_OPERATIONS			/* how many */
} RegistryOperation;

/*
 * The OID of a function named by its regprocedure text (looked up as the
 * bootstrap superuser, so whoever asks learns only whether it exists),
 * InvalidOid if none
 */
extern Oid	registry_function_oid(const char *signature);

/* Confluent's name of what an operation does, for its 403 ("Read", ...) */
extern const char *registry_operation_action(RegistryOperation op);

/* Does the operation change the registry (a write, delete or config change)? */
extern bool registry_operation_writes(RegistryOperation op);

/* May role use the operation?  Inside a transaction. */
extern bool registry_operation_permitted(RegistryOperation op, Oid role);

#endif							/* PRIVILEGES_H */
