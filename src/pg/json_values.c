/*-------------------------------------------------------------------------
 *
 * json_values.c
 *	  jansson values as the extension hands them on: compact text in
 *	  palloc'd memory, and objects without their null members.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "json_values.h"
#include "rg_alloc.h"

/* A JSON value as palloc'd compact text (its members in the order they were set). */
char *
registry_json_text(json_t *value)
{
	char	   *dumped = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
	char	   *text = pstrdup(dumped);

	rg_free(dumped);
	return text;
}

/*
 * Remove the null members of an object and of the objects within it
 * (arrays' elements are kept), as jsonb_strip_nulls() does.
 */
void
registry_json_strip_nulls(json_t *value)
{
	const char *key;
	json_t	   *member;
	void	   *tmp;
	size_t		i;

	if (json_is_array(value))
		json_array_foreach(value, i, member)
			registry_json_strip_nulls(member);
	if (!json_is_object(value))
		return;
	json_object_foreach_safe(value, tmp, key, member)
	{
		if (json_is_null(member))
			json_object_del(value, key);
		else
			registry_json_strip_nulls(member);
	}
}
