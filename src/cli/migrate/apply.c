/*-------------------------------------------------------------------------
 *
 * apply.c
 *	  Make the planned writes on the target, in order, through its REST
 *	  API.  Each write is one request the target makes atomically, and
 *	  each is idempotent (a version is registered with its id and version,
 *	  so given again it answers the same), so a run stopped anywhere
 *	  leaves whole versions behind and a later run continues.
 *
 *	  The first refused write stops the versions and configs; the modes of
 *	  the subjects this run put in IMPORT are still given back, so the
 *	  target is left as consistent as before, with the refused subject and
 *	  version named.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_json_text.h"

/* the error an answer carries, as "HTTP status: {json}" into buf */
static void
mig_answer_text(long status, json_t *answer, char *buf, size_t buflen)
{
	char	   *text = answer ? json_dumps(answer, JSON_COMPACT) : NULL;

	snprintf(buf, buflen, "HTTP %ld%s%.400s", status, text ? ": " : "", text ? text : "");
	free(text);
}

/* a scope's path under /config or /mode ("" the global one) */
static char *
mig_scope_path(const char *what, const char *scope, const char *query)
{
	char	   *esc = mig_escape(scope);
	char	   *path = scope[0] ? mig_printf("/%s/%s%s", what, esc, query)
	: mig_printf("/%s%s", what, query);

	free(esc);
	return path;
}

/* register one version with its id and version */
static bool
mig_register(MigEndpoint *ep, json_t *a, char *err, size_t errlen)
{
	json_t	   *v = json_object_get(a, "item");
	const char *subject = json_string_value(json_object_get(v, "subject"));
	json_t	   *body = rg_json_new_object();
	static const char *const fields[] = {"schema", "schemaType", "references", "metadata", "ruleSet", "id", "version", NULL};
	char	   *esc = mig_escape(subject);
	char	   *path = mig_printf("/subjects/%s/versions", esc);
	long		status;
	json_t	   *answer;
	bool		ok;
	int			i;

	for (i = 0; fields[i]; i++)
		if (json_object_get(v, fields[i]))
			json_object_set(body, fields[i], json_object_get(v, fields[i]));
	ok = mig_http(ep, "POST", path, body, &status, &answer, err, errlen);
	if (ok && status != 200)
	{
		mig_answer_text(status, answer, err, errlen);
		ok = false;
	}
	else if (ok && json_is_integer(json_object_get(answer, "id")) &&
			 !json_equal(json_object_get(answer, "id"), json_object_get(v, "id")))
	{
		snprintf(err, errlen, "the target answered id %lld, not %lld",
				 (long long) json_integer_value(json_object_get(answer, "id")),
				 (long long) json_integer_value(json_object_get(v, "id")));
		ok = false;
	}
	json_decref(answer);
	json_decref(body);
	free(esc);
	free(path);
	return ok;
}

/* send one request whose success is a 2xx (or a 404 when missing_ok) */
static bool
mig_send(MigEndpoint *ep, const char *method, const char *path, json_t *body,
		 bool missing_ok, char *err, size_t errlen)
{
	long		status;
	json_t	   *answer;
	bool		ok = mig_http(ep, method, path, body, &status, &answer, err, errlen);

	/* a retried soft delete whose first try went through: 40406, already done */
	if (ok && strcmp(method, "DELETE") == 0 && status == 404 &&
		json_integer_value(json_object_get(answer, "error_code")) == 40406)
		missing_ok = true;
	if (ok && !(status >= 200 && status < 300) && !(missing_ok && status == 404))
	{
		mig_answer_text(status, answer, err, errlen);
		ok = false;
	}
	json_decref(answer);
	return ok;
}

/* make one action's write */
static bool
mig_apply_one(MigEndpoint *ep, json_t *a, char *err, size_t errlen)
{
	const char *op = json_string_value(json_object_get(a, "op"));
	const char *scope = json_string_value(json_object_get(a, "scope"));
	bool		ok;
	char	   *path;
	json_t	   *body;

	if (strcmp(op, "register") == 0)
		return mig_register(ep, a, err, errlen);
	if (strcmp(op, "kek") == 0)
		return mig_dek_post_kek(ep, json_object_get(a, "item"), err, errlen);
	if (strcmp(op, "dek") == 0)
		return mig_dek_post_dek(ep, json_object_get(a, "item"), err, errlen);
	if (strcmp(op, "kek-delete") == 0 || strcmp(op, "dek-delete") == 0)
		return mig_dek_delete(ep, json_object_get(a, "item"), op[0] == 'd', err, errlen);
	if (strcmp(op, "soft-delete") == 0)
	{
		char	   *esc = mig_escape(json_string_value(json_object_get(a, "subject")));

		path = mig_printf("/subjects/%s/versions/%lld", esc,
						  (long long) json_integer_value(json_object_get(a, "version")));
		free(esc);
		ok = mig_send(ep, "DELETE", path, NULL, false, err, errlen);
		free(path);
		return ok;
	}
	if (strcmp(op, "config") == 0)
	{
		body = mig_config_body(json_object_get(a, "config"));
		path = mig_scope_path("config", scope, "");
		ok = mig_send(ep, "PUT", path, body, false, err, errlen);
		json_decref(body);
		free(path);
		return ok;
	}
	/* import, mode: a mode of null takes the scope's own mode away */
	{
		json_t	   *mode = strcmp(op, "import") == 0 ? json_string("IMPORT")
		: json_incref(json_object_get(a, "mode"));

		if (json_is_null(mode))
		{
			path = mig_scope_path("mode", scope, "");
			ok = mig_send(ep, "DELETE", path, NULL, true, err, errlen);
		}
		else
		{
			body = rg_json_new_object();
			json_object_set(body, "mode", mode);
			path = mig_scope_path("mode", scope,
								  strcmp(json_string_value(mode), "IMPORT") == 0 ? "?force=true" : "");
			ok = mig_send(ep, "PUT", path, body, false, err, errlen);
			json_decref(body);
		}
		json_decref(mode);
		free(path);
		return ok;
	}
}

/* the subject (or scope) and version an action is about, for its error */
static void
mig_action_names(json_t *a, const char **subject, long *version)
{
	json_t	   *item = json_object_get(a, "item");

	*subject = json_string_value(json_object_get(a, "subject"));
	if (*subject == NULL)
		*subject = json_string_value(json_object_get(a, "scope"));
	if (*subject == NULL && item)
		*subject = json_string_value(json_object_get(item, "subject")) ? :
			json_string_value(json_object_get(item, "name"));
	*version = (long) json_integer_value(json_object_get(a, "version"));
}

/*
 * Make the plan's writes on opt->to: MIG_EXIT_OK, MIG_EXIT_FAILED after a
 * refused write (the subjects' modes given back), MIG_EXIT_STOPPED when
 * --max-writes stopped it (as a killed run would: nothing given back).
 */
int
mig_apply(MigOptions *opt, json_t *plan, MigReport *rep)
{
	size_t		n = json_array_size(plan);
	size_t		i;
	long		writes = 0;
	bool		failed = false;
	char		err[2048];

	for (i = 0; i < n; i++)
	{
		json_t	   *a = json_array_get(plan, i);
		const char *op = json_string_value(json_object_get(a, "op"));
		const char *scope = json_string_value(json_object_get(a, "scope"));

		/* after a refusal only the subjects' own modes are given back */
		if (failed && !(strcmp(op, "mode") == 0 && scope[0] && scope[0] != ':'))
			continue;
		if (opt->max_writes > 0 && writes >= opt->max_writes)
		{
			mig_progress_end(rep);
			mig_note(rep, "stopped after %ld writes (--max-writes): run again to continue", writes);
			return MIG_EXIT_STOPPED;
		}
		mig_progress(rep, "writing", (long) i, (long) n);
		if (!mig_apply_one(&opt->to, a, err, sizeof(err)))
		{
			const char *subject;
			long		version;

			mig_action_names(a, &subject, &version);
			mig_error(rep, subject, version, "%s refused: %s", op, err);
			failed = true;
			continue;
		}
		writes++;
		mig_count(rep->written, op);
	}
	mig_progress(rep, "writing", (long) n, (long) n);
	mig_progress_end(rep);
	return failed ? MIG_EXIT_FAILED : MIG_EXIT_OK;
}
