/*-------------------------------------------------------------------------
 *
 * registry.h
 *	  Declarations shared by the PostgreSQL glue of the registry extension:
 *	  the SQLSTATEs (errors.c), qualified subjects and version ids
 *	  (subjects.c), and the modes and settings in force (settings.c).
 *
 * SQLSTATEs: one per Confluent error_code.  A 4xxxx code NNNNN becomes
 * "R" + its last four digits (40401 -> R0401, 42201 -> R2201, 40901 ->
 * R0901); a 5xxxx code becomes "S" + its last four (50001 -> S0001).  The
 * REST layer maps back with registry_confluent_error_code(), never by
 * reading message text.
 *
 *-------------------------------------------------------------------------
 */
#ifndef REGISTRY_H
#define REGISTRY_H

#include "access/htup.h"
#include "access/tupdesc.h"
#include "datatype/timestamp.h"
#include "fmgr.h"

#include "rg_compat.h"
#include "rg_format.h"

#define ERRCODE_REGISTRY_SUBJECT_NOT_FOUND		MAKE_SQLSTATE('R','0','4','0','1')
#define ERRCODE_REGISTRY_VERSION_NOT_FOUND		MAKE_SQLSTATE('R','0','4','0','2')
#define ERRCODE_REGISTRY_SCHEMA_NOT_FOUND		MAKE_SQLSTATE('R','0','4','0','3')
#define ERRCODE_REGISTRY_SUBJECT_SOFT_DELETED	MAKE_SQLSTATE('R','0','4','0','4')
#define ERRCODE_REGISTRY_SUBJECT_NOT_SOFT_DELETED MAKE_SQLSTATE('R','0','4','0','5')
#define ERRCODE_REGISTRY_VERSION_SOFT_DELETED	MAKE_SQLSTATE('R','0','4','0','6')
#define ERRCODE_REGISTRY_VERSION_NOT_SOFT_DELETED MAKE_SQLSTATE('R','0','4','0','7')
#define ERRCODE_REGISTRY_SUBJECT_CONFIG_NOT_FOUND MAKE_SQLSTATE('R','0','4','0','8')
#define ERRCODE_REGISTRY_SUBJECT_MODE_NOT_FOUND	MAKE_SQLSTATE('R','0','4','0','9')
#define ERRCODE_REGISTRY_INCOMPATIBLE_SCHEMA	MAKE_SQLSTATE('R','0','9','0','1')
#define ERRCODE_REGISTRY_INVALID_SCHEMA			MAKE_SQLSTATE('R','2','2','0','1')
#define ERRCODE_REGISTRY_INVALID_VERSION		MAKE_SQLSTATE('R','2','2','0','2')
#define ERRCODE_REGISTRY_INVALID_COMPATIBILITY	MAKE_SQLSTATE('R','2','2','0','3')
#define ERRCODE_REGISTRY_INVALID_MODE			MAKE_SQLSTATE('R','2','2','0','4')
#define ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED MAKE_SQLSTATE('R','2','2','0','5')
#define ERRCODE_REGISTRY_REFERENCE_EXISTS		MAKE_SQLSTATE('R','2','2','0','6')
/* the longest qualified subject (bytes): index keys of the catalog stay below btree's limit */
#define REGISTRY_MAX_SUBJECT_BYTES 2000

#define ERRCODE_REGISTRY_INVALID_SUBJECT		MAKE_SQLSTATE('R','2','2','0','8')
#define ERRCODE_REGISTRY_INVALID_RULE_SET		MAKE_SQLSTATE('R','2','2','1','0')
/* associations (Confluent 8.2+) */
#define ERRCODE_REGISTRY_ASSOCIATION_NOT_FOUND	MAKE_SQLSTATE('R','0','4','1','0')
#define ERRCODE_REGISTRY_ASSOCIATION_EXISTS		MAKE_SQLSTATE('R','0','9','0','3')
#define ERRCODE_REGISTRY_ASSOCIATION_FOR_SUBJECT MAKE_SQLSTATE('R','0','9','0','4')
#define ERRCODE_REGISTRY_STRONG_ASSOCIATION		MAKE_SQLSTATE('R','0','9','0','5')
#define ERRCODE_REGISTRY_NO_ACTIVE_VERSION		MAKE_SQLSTATE('R','0','9','0','7')
#define ERRCODE_REGISTRY_ASSOCIATION_FROZEN		MAKE_SQLSTATE('R','0','9','0','8')
#define ERRCODE_REGISTRY_INVALID_ASSOCIATION	MAKE_SQLSTATE('R','2','2','1','2')
#define ERRCODE_REGISTRY_CONTEXT_NOT_EMPTY		MAKE_SQLSTATE('R','2','2','1','1')
#define ERRCODE_REGISTRY_STORE_ERROR			MAKE_SQLSTATE('S','0','0','0','1')

#define REGISTRY_DEFAULT_CONTEXT "."

/* the server's defaults, where no scope sets a level or a mode */
#define REGISTRY_DEFAULT_COMPATIBILITY "BACKWARD"
#define REGISTRY_DEFAULT_MODE "READWRITE"
/* Confluent's context of the lowest config and mode scope; it holds no schemas */
#define REGISTRY_GLOBAL_CONTEXT ".__GLOBAL"

/* errors.c: the SQLSTATE -> Confluent error_code map; a parser's 42201 and its mark */
extern int	registry_confluent_error_code(int sqlerrcode);
extern void registry_report_invalid_schema(const char *format_name,
										   const char *parser_message) pg_attribute_noreturn();
extern bool registry_is_parser_error(const ErrorData *edata);

/* subjects.c: qualified subjects, their validity, version ids */
extern void registry_split_subject_cstr(const char *qualified, char **context,
										char **subject);
extern void registry_validate_subject(const char *qualified, const char *subject);
extern bool registry_context_name_valid(const char *context);
extern void registry_check_context(const char *context);
extern char *registry_qualify_subject(const char *context, const char *subject);
extern bool registry_subject_has_prefix(const char *context, const char *subject,
										const char *prefix);
extern void registry_validate_version_context(const char *context, const char *subject);
extern char *registry_served_subject(const char *qualified);
extern void registry_scope_key(const char *qualified, char **context, char **subject);
extern int32 registry_version_number(const char *version);
extern Datum registry_parse_version(PG_FUNCTION_ARGS);

/*
 * wire.c: the Confluent wire format's header (magic byte 0, the schema id
 * as 4 bytes big-endian).  registry_wire_message: a message of id and
 * payload.  registry_wire_read: the id of a message, 22P03 when it has no
 * header; the payload starts REGISTRY_WIRE_HEADER bytes in.
 */
#define REGISTRY_WIRE_HEADER 5
extern bytea *registry_wire_message(int32 id, const char *payload, size_t len);
extern int32 registry_wire_read(const char *msg, size_t len);

/* settings.c: modes, compatibility levels and the settings in force */
extern void registry_init_settings(void);
extern rg_mode registry_mode(const char *name);
extern rg_compat_level registry_level(const char *name);
extern void registry_check_importing(const char *context, const char *subject, rg_mode mode);
extern void registry_check_scope_writable(const char *context, const char *subject);
extern void registry_check_schema_context_writable(const char *context);
extern char *registry_sql_upper(const char *s);

/* restore.c: a row a restore brings back, told apart from a raw INSERT */
extern bool registry_is_restored_row(TimestampTz created_at);
extern bool registry_trigger_row_restored(HeapTuple tup, TupleDesc desc,
										  const char *time_column);
extern void registry_check_writable(const char *context, const char *subject,
									rg_mode mode);
extern void registry_check_not_subscriber(void);

/* triggers.c */
extern void registry_check_next_version(const char *subject, int32 version,
										int32 max_version);

#endif							/* REGISTRY_H */
