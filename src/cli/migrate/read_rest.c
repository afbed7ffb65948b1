/*-------------------------------------------------------------------------
 *
 * read_rest.c
 *	  Read what a registry holds through Confluent's REST API: contexts,
 *	  every subject of every context, every version (soft-deleted ones
 *	  with ?deleted=true), the config and mode of every scope, and the
 *	  DEK registry's KEKs and DEKs (dek_rest.c).
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_json_text.h"

/* GET path: the answer on 200, NULL on 404 (*missing set) or an error */
json_t *
mig_get(MigEndpoint *ep, const char *path, bool *missing, char *err, size_t errlen)
{
	long		status;
	json_t	   *answer;

	*missing = false;
	if (!mig_http(ep, "GET", path, NULL, &status, &answer, err, errlen))
		return NULL;
	if (status == 200 && answer != NULL)
		return answer;
	if (mig_is_not_found(status, answer))
		*missing = true;
	else
	{
		char	   *text = answer ? json_dumps(answer, JSON_COMPACT) : NULL;

		snprintf(err, errlen, "GET %s%s: HTTP %ld%s%.300s", ep->url, path, status,
				 text ? ": " : "", text ? text : "");
		free(text);
	}
	json_decref(answer);
	return NULL;
}

/* read the config and mode a scope sets itself into inv; false on an error */
static bool
mig_read_scope(MigEndpoint *ep, MigInventory *inv, const char *scope,
			   char *err, size_t errlen)
{
	char	   *esc = mig_escape(scope);
	char	   *path;
	json_t	   *a;
	bool		missing;

	path = scope[0] ? mig_printf("/config/%s", esc) : mig_printf("/config");
	a = mig_get(ep, path, &missing, err, errlen);
	free(path);
	if (a == NULL && !missing)
	{
		free(esc);
		return false;
	}
	if (a != NULL)
	{
		json_t	   *c = mig_config_normalize(a);

		if (c != NULL)
			json_object_set_new(inv->config, scope, c);
		json_decref(a);
	}
	path = scope[0] ? mig_printf("/mode/%s", esc) : mig_printf("/mode");
	a = mig_get(ep, path, &missing, err, errlen);
	free(path);
	free(esc);
	if (a == NULL && !missing)
		return false;
	if (a != NULL)
	{
		json_t	   *m = json_object_get(a, "mode");

		if (json_is_string(m))
			json_object_set(inv->mode, scope, m);
		json_decref(a);
	}
	return true;
}

/* is n (a JSON integer) in the array of integers? */
static bool
mig_in_list(json_t *list, json_int_t n)
{
	size_t		i;
	json_t	   *v;

	json_array_foreach(list, i, v)
		if (json_is_integer(v) && json_integer_value(v) == n)
		return true;
	return false;
}

/* read one subject's versions (and its own config and mode) into inv */
static bool
mig_read_subject(MigEndpoint *ep, MigInventory *inv, const char *subject,
				 char *err, size_t errlen)
{
	char	   *esc = mig_escape(subject);
	char	   *path = mig_printf("/subjects/%s/versions?deleted=true", esc);
	json_t	   *all;
	json_t	   *live;
	bool		missing;
	size_t		i;
	json_t	   *v;
	bool		ok = true;
	char		ctx[256];

	all = mig_get(ep, path, &missing, err, errlen);
	free(path);
	if (all == NULL)
	{
		free(esc);
		return missing;			/* gone since it was listed */
	}
	path = mig_printf("/subjects/%s/versions", esc);
	live = mig_get(ep, path, &missing, err, errlen);
	free(path);
	if (live == NULL && !missing)
		ok = false;
	if (live == NULL)
		live = json_array();
	if (!json_is_array(all) || !json_is_array(live))
	{
		snprintf(err, errlen, "subject \"%s\": the versions answer is not an array", subject);
		ok = false;
	}
	json_object_set_new(inv->contexts,
						mig_subject_context(subject, ctx, sizeof(ctx)), json_true());
	json_array_foreach(all, i, v)
	{
		json_int_t	n = json_integer_value(v);
		json_t	   *answer;
		json_t	   *norm;

		if (!ok)
			break;
		if (!json_is_integer(v) || n < 1 || n > 2147483647)
		{
			snprintf(err, errlen, "subject \"%s\": a version that is not a positive integer", subject);
			ok = false;
			break;
		}
		if (mig_inventory_full(inv))
		{
			snprintf(err, errlen, "more than %d items", MIG_MAX_ITEMS);
			ok = false;
			break;
		}
		path = mig_printf("/subjects/%s/versions/%lld?deleted=true", esc, (long long) n);
		answer = mig_get(ep, path, &missing, err, errlen);
		free(path);
		if (answer == NULL)
		{
			ok = missing;
			continue;
		}
		norm = mig_version_normalize(answer, subject, (long) n,
									 !mig_in_list(live, n), err, errlen);
		json_decref(answer);
		if (norm == NULL)
		{
			ok = false;
			break;
		}
		json_object_set_new(inv->versions, mig_version_key(subject, (long) n), norm);
	}
	json_decref(all);
	json_decref(live);
	free(esc);
	return ok && mig_read_scope(ep, inv, subject, err, errlen);
}

/*
 * Read the registry at ep into inv, showing progress as role ("source",
 * "target"); false with err on the first error.
 */
bool
mig_read_rest(MigEndpoint *ep, MigInventory *inv, MigReport *rep,
			  const char *role, char *err, size_t errlen)
{
	json_t	   *contexts;
	json_t	   *subjects;
	bool		missing;
	size_t		i;
	json_t	   *v;
	const char *phase = strcmp(role, "source") == 0 ? "reading the source" : "reading the target";

	contexts = mig_get(ep, "/contexts", &missing, err, errlen);
	if (contexts == NULL && !missing)
		return false;
	json_array_foreach(contexts, i, v)
		if (json_is_string(v))
		json_object_set_new(inv->contexts, json_string_value(v), json_true());
	json_decref(contexts);

	subjects = mig_get(ep, "/subjects?subjectPrefix=%3A*%3A&deleted=true", &missing, err, errlen);
	if (subjects == NULL || !json_is_array(subjects))
	{
		if (subjects != NULL || missing)
			snprintf(err, errlen, "GET %s/subjects: no list of subjects", ep->url);
		json_decref(subjects);
		return false;
	}
	json_array_foreach(subjects, i, v)
	{
		mig_progress(rep, phase, (long) i, (long) json_array_size(subjects));
		if (!json_is_string(v) || !mig_read_subject(ep, inv, json_string_value(v), err, errlen))
		{
			if (!json_is_string(v))
				snprintf(err, errlen, "GET %s/subjects: a subject that is not a string", ep->url);
			json_decref(subjects);
			return false;
		}
	}
	mig_progress(rep, phase, (long) json_array_size(subjects), (long) json_array_size(subjects));
	json_decref(subjects);

	/* the global scope, the defaults under every context, each context */
	if (!mig_read_scope(ep, inv, "", err, errlen))
		return false;
	inv->global_config_read = true;
	if (!mig_read_scope(ep, inv, ":.__GLOBAL:", err, errlen))
		return false;
	{
		const char *ctx;
		json_t	   *t;

		json_object_foreach(inv->contexts, ctx, t)
		{
			char	   *scope;
			bool		ok;

			if (strcmp(ctx, ".") == 0)
				continue;
			scope = mig_printf(":%s:", ctx);
			ok = mig_read_scope(ep, inv, scope, err, errlen);
			free(scope);
			if (!ok)
				return false;
		}
	}
	return mig_read_deks(ep, inv, err, errlen);
}

/*
 * Read into inv (the target's) the config and mode of each subject of src
 * that inv has no version of: an interrupted run may have set its mode.
 */
bool
mig_read_more_scopes(MigEndpoint *ep, MigInventory *inv, MigInventory *src,
					 char *err, size_t errlen)
{
	json_t	   *done = rg_json_new_object();
	const char *key;
	json_t	   *v;
	bool		ok = true;

	json_object_foreach(inv->versions, key, v)
		json_object_set_new(done, json_string_value(json_object_get(v, "subject")), json_true());
	json_object_foreach(src->versions, key, v)
	{
		const char *subject = json_string_value(json_object_get(v, "subject"));

		if (json_object_get(done, subject))
			continue;
		json_object_set_new(done, subject, json_true());
		if (!mig_read_scope(ep, inv, subject, err, errlen))
		{
			ok = false;
			break;
		}
	}
	json_decref(done);
	return ok;
}
