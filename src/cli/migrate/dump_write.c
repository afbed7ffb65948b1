/*-------------------------------------------------------------------------
 *
 * dump_write.c
 *	  Write an inventory as a dump of Confluent's _schemas topic, in the
 *	  form dump_read.c reads and kafka-console-producer --property
 *	  parse.key=true --property key.separator=<tab> writes back: configs,
 *	  then every version (soft-deleted ones with "deleted": true) in
 *	  subject and version order, then modes.  Keys carry Confluent's magic
 *	  (1 for SCHEMA, 0 for the others).
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_json_text.h"

/* write key, a tab, value (or null) and a newline */
static bool
mig_write_record(FILE *f, json_t *key, json_t *value)
{
	char	   *k = json_dumps(key, JSON_COMPACT | JSON_PRESERVE_ORDER);
	char	   *v = value ? json_dumps(value, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	bool		ok = k && (value == NULL || v) &&
	fprintf(f, "%s\t%s\n", k, v ? v : "null") > 0;

	free(k);
	free(v);
	json_decref(key);
	json_decref(value);
	return ok;
}

/* the key of a CONFIG or MODE record of a scope ("" global: no subject) */
static json_t *
mig_scope_key(const char *type, const char *scope)
{
	json_t	   *key = rg_json_new_object();

	json_object_set_new(key, "keytype", json_string(type));
	if (scope[0])
		json_object_set_new(key, "subject", json_string(scope));
	json_object_set_new(key, "magic", json_integer(0));
	return key;
}

/* write inv to path ("-": standard output) */
bool
mig_write_dump(const char *path, MigInventory *inv, char *err, size_t errlen)
{
	FILE	   *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	json_t	   *keys;
	size_t		i;
	json_t	   *k;
	bool		ok = true;

	if (f == NULL)
	{
		snprintf(err, errlen, "could not open \"%s\": %s", path, strerror(errno));
		return false;
	}
	keys = mig_sorted_keys(inv->config);
	json_array_foreach(keys, i, k)
	{
		const char *scope = json_string_value(k);

		ok = ok && mig_write_record(f, mig_scope_key("CONFIG", scope),
									json_deep_copy(json_object_get(inv->config, scope)));
	}
	json_decref(keys);
	keys = mig_sorted_keys(inv->versions);
	json_array_foreach(keys, i, k)
	{
		json_t	   *v = json_object_get(inv->versions, json_string_value(k));
		json_t	   *key = rg_json_new_object();
		json_t	   *value = rg_json_new_object();
		static const char *const fields[] = {"subject", "version", "id", "schemaType",
		"references", "metadata", "ruleSet", "schema", "deleted", NULL};
		int			j;

		json_object_set_new(key, "keytype", json_string("SCHEMA"));
		json_object_set(key, "subject", json_object_get(v, "subject"));
		json_object_set(key, "version", json_object_get(v, "version"));
		json_object_set_new(key, "magic", json_integer(1));
		for (j = 0; fields[j]; j++)
		{
			json_t	   *f = json_object_get(v, fields[j]);

			/* Confluent leaves AVRO, the default type, out */
			if (f && !(strcmp(fields[j], "schemaType") == 0 &&
					   strcmp(json_string_value(f), "AVRO") == 0))
				json_object_set(value, fields[j], f);
		}
		ok = ok && mig_write_record(f, key, value);
	}
	json_decref(keys);
	keys = mig_sorted_keys(inv->mode);
	json_array_foreach(keys, i, k)
	{
		const char *scope = json_string_value(k);
		json_t	   *value = rg_json_new_object();

		if (scope[0])
			json_object_set_new(value, "subject", json_string(scope));
		json_object_set(value, "mode", json_object_get(inv->mode, scope));
		ok = ok && mig_write_record(f, mig_scope_key("MODE", scope), value);
	}
	json_decref(keys);
	if (fflush(f) != 0)
		ok = false;
	if (f != stdout && fclose(f) != 0)
		ok = false;
	if (!ok)
		snprintf(err, errlen, "could not write \"%s\": %s", path, strerror(errno));
	return ok;
}
