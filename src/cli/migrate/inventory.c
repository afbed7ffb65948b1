/*-------------------------------------------------------------------------
 *
 * inventory.c
 *	  What a registry holds, in the one normalized form that the planner
 *	  and the verifier compare: a version is its subject, version, id,
 *	  schemaType (AVRO when absent), schema, references, metadata, rule set
 *	  and deleted flag; the answer's ts and guid are left out (a target
 *	  stamps its own times, and guids differ between registries).
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_json_text.h"

/* a new empty inventory */
MigInventory *
mig_inventory_new(void)
{
	MigInventory *inv = calloc(1, sizeof(MigInventory));

	inv->versions = rg_json_new_object();
	inv->contexts = rg_json_new_object();
	inv->config = rg_json_new_object();
	inv->mode = rg_json_new_object();
	inv->keks = rg_json_new_object();
	inv->deks = rg_json_new_object();
	json_object_set_new(inv->contexts, ".", json_true());
	return inv;
}

/* release an inventory */
void
mig_inventory_free(MigInventory *inv)
{
	if (inv == NULL)
		return;
	json_decref(inv->versions);
	json_decref(inv->contexts);
	json_decref(inv->config);
	json_decref(inv->mode);
	json_decref(inv->keks);
	json_decref(inv->deks);
	free(inv);
}

/* does the inventory hold as many items as one may? */
bool
mig_inventory_full(MigInventory *inv)
{
	return json_object_size(inv->versions) + json_object_size(inv->config) +
		json_object_size(inv->mode) + json_object_size(inv->deks) >= MIG_MAX_ITEMS;
}

/* the key of a version: subject, a unit separator, the version (malloc'd) */
char *
mig_version_key(const char *subject, long version)
{
	return mig_printf("%s\x1f%010ld", subject, version);
}

/*
 * The context of a qualified subject (":.ctx:name" is in ".ctx", anything
 * else in "."), written into buf.
 */
const char *
mig_subject_context(const char *subject, char *buf, size_t buflen)
{
	const char *end;

	if (strncmp(subject, ":.", 2) == 0 && (end = strchr(subject + 1, ':')) != NULL &&
		(size_t) (end - subject - 1) < buflen)
	{
		memcpy(buf, subject + 1, end - subject - 1);
		buf[end - subject - 1] = '\0';
		return buf;
	}
	snprintf(buf, buflen, ".");
	return buf;
}

/* is v JSON null, an empty object or an empty array? */
static bool
mig_json_empty(json_t *v)
{
	return v == NULL || json_is_null(v) ||
		(json_is_object(v) && json_object_size(v) == 0) ||
		(json_is_array(v) && json_array_size(v) == 0);
}

/*
 * The normalized form of a version answer (GET /subjects/s/versions/v, or
 * a _schemas SCHEMA value) of that subject and version; NULL with err
 * naming the subject and version when it lacks an id or a schema.
 */
json_t *
mig_version_normalize(json_t *answer, const char *subject, long version,
					  bool deleted, char *err, size_t errlen)
{
	json_t	   *v;
	json_t	   *id = json_object_get(answer, "id");
	json_t	   *schema = json_object_get(answer, "schema");
	json_t	   *type = json_object_get(answer, "schemaType");
	static const char *const optional[] = {"references", "metadata", "ruleSet"};
	int			i;

	if (!json_is_object(answer))
	{
		snprintf(err, errlen, "subject \"%s\" version %ld: the answer is not an object",
				 subject, version);
		return NULL;
	}
	if (!json_is_integer(id) || json_integer_value(id) < 0 ||
		json_integer_value(id) > 2147483647)
	{
		snprintf(err, errlen, "subject \"%s\" version %ld: no valid \"id\"", subject, version);
		return NULL;
	}
	if (!json_is_string(schema))
	{
		snprintf(err, errlen, "subject \"%s\" version %ld: no \"schema\" string", subject, version);
		return NULL;
	}
	if (type != NULL && !json_is_null(type) && !json_is_string(type))
	{
		snprintf(err, errlen, "subject \"%s\" version %ld: \"schemaType\" is not a string",
				 subject, version);
		return NULL;
	}
	v = rg_json_new_object();
	json_object_set_new(v, "subject", json_string(subject));
	json_object_set_new(v, "version", json_integer(version));
	json_object_set(v, "id", id);
	json_object_set_new(v, "schemaType",
						json_string(json_is_string(type) ? json_string_value(type) : "AVRO"));
	json_object_set(v, "schema", schema);
	for (i = 0; i < 3; i++)
	{
		json_t	   *o = json_object_get(answer, optional[i]);

		if (!mig_json_empty(o))
			json_object_set(v, optional[i], o);
	}
	if (json_object_get(v, "references") != NULL &&
		!json_is_array(json_object_get(v, "references")))
	{
		snprintf(err, errlen, "subject \"%s\" version %ld: \"references\" is not an array",
				 subject, version);
		json_decref(v);
		return NULL;
	}
	json_object_set_new(v, "deleted", json_boolean(deleted));
	return v;
}

/* the fields of a Config, in the form GET /config answers */
static const char *const config_fields[] = {
	"compatibilityLevel", "normalize", "alias", "validateFields", "validateRules",
	"compatibilityGroup", "defaultMetadata", "overrideMetadata",
	"defaultRuleSet", "overrideRuleSet", NULL
};

/*
 * The normalized form of a Config answer (or a _schemas CONFIG value):
 * its known fields that are set; NULL when it is not an object.
 */
json_t *
mig_config_normalize(json_t *answer)
{
	json_t	   *c;
	int			i;

	if (!json_is_object(answer))
		return NULL;
	c = rg_json_new_object();
	for (i = 0; config_fields[i]; i++)
	{
		json_t	   *f = json_object_get(answer, config_fields[i]);

		if (f != NULL && !json_is_null(f))
			json_object_set(c, config_fields[i], f);
	}
	/* PUT's spelling, accepted in a dump written by hand */
	if (json_object_get(c, "compatibilityLevel") == NULL &&
		json_is_string(json_object_get(answer, "compatibility")))
		json_object_set(c, "compatibilityLevel", json_object_get(answer, "compatibility"));
	return c;
}

/* the PUT /config body that sets a normalized config */
json_t *
mig_config_body(json_t *config)
{
	json_t	   *body = json_deep_copy(config);
	json_t	   *level = json_object_get(body, "compatibilityLevel");

	if (level)
	{
		json_object_set(body, "compatibility", level);
		json_object_del(body, "compatibilityLevel");
	}
	return body;
}

/* compare two C strings for qsort */
static int
mig_strcmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* the keys of an object, sorted (bytewise), as a JSON array */
json_t *
mig_sorted_keys(json_t *object)
{
	size_t		n = json_object_size(object);
	const char **keys = calloc(n ? n : 1, sizeof(char *));
	const char *key;
	json_t	   *value;
	json_t	   *out = json_array();
	size_t		i = 0;

	json_object_foreach(object, key, value)
		keys[i++] = key;
	qsort(keys, n, sizeof(char *), mig_strcmp);
	for (i = 0; i < n; i++)
		json_array_append_new(out, json_string(keys[i]));
	free(keys);
	return out;
}
