/*-------------------------------------------------------------------------
 *
 * dek_rest.c
 *	  The DEK registry (client-side field encryption) over Confluent's
 *	  routes: /dek-registry/v1/keks, .../keks/{name}/deks,
 *	  .../deks/{subject}/versions?algorithm=.  A registry that answers 404
 *	  there has none, and the KEKs and DEKs are skipped.  Only what the
 *	  registry stores is copied: a KEK's KMS fields, a DEK's encrypted key
 *	  material, never a decrypted one.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_json_text.h"

/* the algorithms a DEK may have, each listed apart */
static const char *const dek_algorithms[] = {"AES128_GCM", "AES256_GCM", "AES256_SIV", NULL};

/* the fields of a KEK or DEK that are copied and compared */
static json_t *
mig_pick(json_t *from, const char *const *fields)
{
	json_t	   *o = rg_json_new_object();
	int			i;

	for (i = 0; fields[i]; i++)
	{
		json_t	   *f = json_object_get(from, fields[i]);

		if (f && !json_is_null(f))
			json_object_set(o, fields[i], f);
	}
	if (json_object_get(o, "deleted") == NULL)
		json_object_set_new(o, "deleted", json_false());
	return o;
}

static const char *const kek_fields[] = {"name", "kmsType", "kmsKeyId", "kmsProps", "doc", "shared", "deleted", NULL};
static const char *const dek_fields[] = {"kekName", "subject", "version", "algorithm", "encryptedKeyMaterial", "deleted", NULL};

/* read one KEK's DEKs of one subject into inv */
static bool
mig_read_dek_subject(MigEndpoint *ep, MigInventory *inv, const char *kek,
					 const char *subject, char *err, size_t errlen)
{
	char	   *ek = mig_escape(kek);
	char	   *es = mig_escape(subject);
	bool		ok = true;
	int			a;

	for (a = 0; ok && dek_algorithms[a]; a++)
	{
		char	   *path = mig_printf("/dek-registry/v1/keks/%s/deks/%s/versions?algorithm=%s&deleted=true",
									  ek, es, dek_algorithms[a]);
		bool		missing;
		json_t	   *versions = mig_get(ep, path, &missing, err, errlen);
		size_t		i;
		json_t	   *v;

		free(path);
		if (versions == NULL)
		{
			ok = missing;
			continue;
		}
		json_array_foreach(versions, i, v)
		{
			json_t	   *dek;

			if (!json_is_integer(v))
				continue;
			path = mig_printf("/dek-registry/v1/keks/%s/deks/%s/versions/%lld?algorithm=%s&deleted=true",
							  ek, es, (long long) json_integer_value(v), dek_algorithms[a]);
			dek = mig_get(ep, path, &missing, err, errlen);
			free(path);
			if (dek == NULL)
			{
				ok = missing;
				if (!ok)
					break;
				continue;
			}
			json_object_set_new(inv->deks,
								mig_printf("%s\x1f%s\x1f%s\x1f%010lld", kek, subject,
										   dek_algorithms[a], (long long) json_integer_value(v)),
								mig_pick(dek, dek_fields));
			json_decref(dek);
		}
		json_decref(versions);
	}
	free(ek);
	free(es);
	return ok;
}

/* read the DEK registry's KEKs and DEKs into inv; a 404 means none */
bool
mig_read_deks(MigEndpoint *ep, MigInventory *inv, char *err, size_t errlen)
{
	bool		missing;
	json_t	   *names = mig_get(ep, "/dek-registry/v1/keks?deleted=true", &missing, err, errlen);
	size_t		i;
	json_t	   *n;
	bool		ok = true;

	if (names == NULL)
		return missing;
	inv->has_dek_registry = true;
	json_array_foreach(names, i, n)
	{
		char	   *en;
		char	   *path;
		json_t	   *kek;
		json_t	   *subjects;
		size_t		j;
		json_t	   *s;

		if (!json_is_string(n))
			continue;
		en = mig_escape(json_string_value(n));
		path = mig_printf("/dek-registry/v1/keks/%s?deleted=true", en);
		kek = mig_get(ep, path, &missing, err, errlen);
		free(path);
		if (kek == NULL)
		{
			free(en);
			if (!missing)
			{
				ok = false;
				break;
			}
			continue;
		}
		json_object_set_new(inv->keks, json_string_value(n), mig_pick(kek, kek_fields));
		json_decref(kek);
		path = mig_printf("/dek-registry/v1/keks/%s/deks?deleted=true", en);
		subjects = mig_get(ep, path, &missing, err, errlen);
		free(path);
		free(en);
		if (subjects == NULL && !missing)
		{
			ok = false;
			break;
		}
		json_array_foreach(subjects, j, s)
		{
			if (json_is_string(s) &&
				!mig_read_dek_subject(ep, inv, json_string_value(n), json_string_value(s), err, errlen))
			{
				ok = false;
				break;
			}
		}
		json_decref(subjects);
		if (!ok)
			break;
	}
	json_decref(names);
	return ok;
}

/* POST a body to path: made, or there already (409: an interrupted run made it) */
static bool
mig_dek_post(MigEndpoint *ep, const char *path, json_t *body, char *err, size_t errlen)
{
	long		status;
	json_t	   *answer;
	bool		ok;

	if (!mig_http(ep, "POST", path, body, &status, &answer, err, errlen))
		return false;
	ok = (status == 200 || status == 409);
	if (!ok)
	{
		char	   *text = answer ? json_dumps(answer, JSON_COMPACT) : NULL;

		snprintf(err, errlen, "POST %s: HTTP %ld: %.300s", path, status, text ? text : "");
		free(text);
	}
	json_decref(answer);
	return ok;
}

/* the path of a KEK, or of a DEK version (its algorithm in the query) */
static char *
mig_dek_path(json_t *item, bool dek)
{
	char	   *ek = mig_escape(json_string_value(json_object_get(item, dek ? "kekName" : "name")));
	char	   *es = dek ? mig_escape(json_string_value(json_object_get(item, "subject"))) : NULL;
	char	   *path = dek
	? mig_printf("/dek-registry/v1/keks/%s/deks/%s/versions/%lld?algorithm=%s",
				 ek, es, (long long) json_integer_value(json_object_get(item, "version")),
				 json_string_value(json_object_get(item, "algorithm")))
	: mig_printf("/dek-registry/v1/keks/%s", ek);

	free(ek);
	free(es);
	return path;
}

/* soft-delete a KEK or a DEK version (a 404 is an error: it was just made) */
bool
mig_dek_delete(MigEndpoint *ep, json_t *item, bool dek, char *err, size_t errlen)
{
	char	   *path = mig_dek_path(item, dek);
	long		status;
	json_t	   *answer;
	bool		ok = mig_http(ep, "DELETE", path, NULL, &status, &answer, err, errlen);

	if (ok && status != 200 && status != 204)
	{
		snprintf(err, errlen, "DELETE %s: HTTP %ld", path, status);
		ok = false;
	}
	json_decref(answer);
	free(path);
	return ok;
}

/* create a KEK as the source has it (a soft delete is an action of its own) */
bool
mig_dek_post_kek(MigEndpoint *ep, json_t *kek, char *err, size_t errlen)
{
	json_t	   *body = json_deep_copy(kek);
	bool		ok;

	json_object_del(body, "deleted");
	ok = mig_dek_post(ep, "/dek-registry/v1/keks", body, err, errlen);
	json_decref(body);
	return ok;
}

/* create a DEK version as the source has it */
bool
mig_dek_post_dek(MigEndpoint *ep, json_t *dek, char *err, size_t errlen)
{
	json_t	   *body = json_deep_copy(dek);
	char	   *ek = mig_escape(json_string_value(json_object_get(dek, "kekName")));
	char	   *path = mig_printf("/dek-registry/v1/keks/%s/deks", ek);
	bool		ok;

	json_object_del(body, "deleted");
	json_object_del(body, "kekName");
	ok = mig_dek_post(ep, path, body, err, errlen);
	json_decref(body);
	free(ek);
	free(path);
	return ok;
}
