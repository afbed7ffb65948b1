/*-------------------------------------------------------------------------
 *
 * jansson_names.c
 *	  jansson's functions whose names the postgres executable also exports.
 *
 * The server exports its SQL function json_object() (utils/adt/json.c)
 * under the very name of jansson's constructor of an empty object, and a
 * shared library's calls bind to the executable's definition first: a
 * core call of json_object() would run the SQL function with garbage
 * arguments and crash the backend.  Defined here with hidden visibility,
 * the extension's own calls bind to this definition when the library is
 * linked, and no lookup at run time can divert them.  The core's unit
 * tests and fuzzers, outside the server, call jansson's directly.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <jansson.h>

/* jansson's json_object(): a new empty object, made without that name */
extern json_t *json_object(void) __attribute__((visibility("hidden")));

/* A new empty JSON object, as jansson's json_object() makes one. */
json_t *
json_object(void)
{
	return json_pack("{}");
}
