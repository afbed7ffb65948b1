/*-------------------------------------------------------------------------
 *
 * json_values.h
 *	  jansson values as the extension hands them on (json_values.c).
 *	  Include only where utils/builtins.h is not: PostgreSQL's SQL
 *	  function json_object() and jansson's constructor share a name.
 *
 *-------------------------------------------------------------------------
 */
#ifndef JSON_VALUES_H
#define JSON_VALUES_H

#include <jansson.h>

extern char *registry_json_text(json_t *value);
extern void registry_json_strip_nulls(json_t *value);

#endif							/* JSON_VALUES_H */
