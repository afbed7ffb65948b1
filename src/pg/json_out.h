/*-------------------------------------------------------------------------
 *
 * json_out.h
 *	  Writing a JSON object member by member into a StringInfo, as the
 *	  REST answers and the association answers are written (json_out.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef JSON_OUT_H
#define JSON_OUT_H

#include "lib/stringinfo.h"

extern void registry_json_key(StringInfo out, bool *first, const char *key);

#endif							/* JSON_OUT_H */
