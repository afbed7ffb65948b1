/*-------------------------------------------------------------------------
 *
 * payload.h
 *	  Payloads in SQL (payload.c), as the functions that wrap them use
 *	  them: CloudEvents envelopes (cloudevent.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef REGISTRY_PAYLOAD_H
#define REGISTRY_PAYLOAD_H

#include "fmgr.h"
#include "utils/jsonb.h"

/* the schema a value was encoded with */
typedef struct PayloadSchema
{
	char	   *context;
	int32		id;
	const char *schema_type;	/* "AVRO", "PROTOBUF", "JSON" */
} PayloadSchema;

/*
 * value checked against a subject version's schema and encoded as a
 * wire-format message, as registry.encode does (message: the PROTOBUF
 * message, NULL for the first); *used (if not NULL) names the schema.
 * fcinfo's call site keeps the lookup for the rest of the statement.
 */
extern bytea *registry_encode_value(FunctionCallInfo fcinfo, const char *subject,
									const char *version, const char *message,
									Jsonb *value, PayloadSchema *used);

/* value checked against the schema id names in context (NULL: as registry.decode finds it) */
extern void registry_check_value_by_id(FunctionCallInfo fcinfo, int32 id,
									   const char *context, Jsonb *value);

/* a wire-format message read with its writer's schema: a jsonb datum */
extern Datum registry_decode_message(FunctionCallInfo fcinfo, bytea *msg);

/* cloudevent.c: its setting (registry.public_url) */
extern void registry_init_cloudevents(void);

#endif							/* REGISTRY_PAYLOAD_H */
