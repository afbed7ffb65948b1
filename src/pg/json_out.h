/*-------------------------------------------------------------------------
 *
 * json_out.h
 *	  Writing a JSON object member by member into a StringInfo, as the
 *	  REST answers and the association answers are written, and strings
 *	  into a jsonb being built, and a table row as jsonb (json_out.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef JSON_OUT_H
#define JSON_OUT_H

#include "access/htup.h"
#include "access/tupdesc.h"
#include "lib/stringinfo.h"
#include "utils/jsonb.h"

extern void registry_json_key(StringInfo out, bool *first, const char *key);
extern void registry_jsonb_push_string(JsonbParseState **state, JsonbIteratorToken token,
									   const char *value);
extern void registry_jsonb_push_member(JsonbParseState **state, const char *key,
									   const char *value);
extern Jsonb *registry_row_jsonb(HeapTuple tup, TupleDesc desc, const char *const *keys,
								 const char *const *values, int n);

#endif							/* JSON_OUT_H */
