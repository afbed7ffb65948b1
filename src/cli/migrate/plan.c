/*-------------------------------------------------------------------------
 *
 * plan.c
 *	  The writes that make the target hold what the source holds, in the
 *	  order they can be made: KEKs and DEKs; each subject that gets writes
 *	  put in IMPORT mode (of its own); the missing versions, each after the
 *	  versions it references and after its subject's earlier ones; the
 *	  soft deletes; the configs; then every mode as the source has it (the
 *	  subjects' own first, the global one last), which takes the subjects
 *	  out of IMPORT again.  What the target already holds is not written,
 *	  so a second run plans only what the first did not finish.
 *
 *	  A target version that differs from the source's (another id, another
 *	  schema), or that is soft-deleted where the source's is live, cannot
 *	  be made right by an import: it is an error naming the subject and
 *	  version, and that subject gets no writes.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_json_text.h"

/* the planner's working state */
typedef struct MigPlanner
{
	MigInventory *src;
	MigInventory *dst;
	MigReport  *rep;
	json_t	   *plan;			/* the actions, in order */
	json_t	   *pending;		/* version key -> 0 to register, 1 visiting, 2
								 * done */
	json_t	   *touched;		/* subject -> true: it gets version writes */
	json_t	   *refused;		/* subject -> true: it has a conflict */
} MigPlanner;

/* append an action of kind op (its other members filled by the caller) */
static json_t *
mig_action(MigPlanner *p, const char *op)
{
	json_t	   *a = rg_json_new_object();

	json_object_set_new(a, "op", json_string(op));
	json_array_append_new(p->plan, a);
	mig_count(p->rep->planned, op);
	return a;
}

/* is the target's version t the source's v, deleted flag aside? */
static bool
mig_same_content(MigInventory *src, json_t *v, json_t *t)
{
	json_t	   *x = json_deep_copy(v);
	bool		same;

	json_object_set(x, "deleted", json_object_get(t, "deleted"));
	same = mig_same_version(src, x, t);
	json_decref(x);
	return same;
}

/* the qualified subject a reference of a version of subject names */
static char *
mig_ref_subject(const char *subject, const char *ref)
{
	char		ctx[256];

	mig_subject_context(subject, ctx, sizeof(ctx));
	if (strncmp(ref, ":.", 2) == 0 || strcmp(ctx, ".") == 0)
		return strdup(ref);
	return mig_printf(":%s:%s", ctx, ref);
}

static bool mig_visit(MigPlanner *p, const char *key);

/* visit the version a dependency names, if it is to be registered */
static bool
mig_visit_dep(MigPlanner *p, const char *from, const char *subject, long version)
{
	char	   *k = mig_version_key(subject, version);
	bool		ok = true;

	if (json_object_get(p->pending, k) != NULL)
		ok = mig_visit(p, k);
	else if (json_object_get(p->src->versions, k) == NULL &&
			 json_object_get(p->dst->versions, k) == NULL)
	{
		json_t	   *v = json_object_get(p->src->versions, from);

		mig_error(p->rep, json_string_value(json_object_get(v, "subject")),
				  (long) json_integer_value(json_object_get(v, "version")),
				  "it references subject \"%s\" version %ld, which neither registry has",
				  subject, version);
		ok = false;
	}
	free(k);
	return ok;
}

/* plan the registration of a version after those it depends on (depth first) */
static bool
mig_visit(MigPlanner *p, const char *key)
{
	json_t	   *state = json_object_get(p->pending, key);
	json_t	   *v = json_object_get(p->src->versions, key);
	const char *subject = json_string_value(json_object_get(v, "subject"));
	long		version = (long) json_integer_value(json_object_get(v, "version"));
	json_t	   *refs = json_object_get(v, "references");
	size_t		i;
	json_t	   *r;
	json_t	   *a;
	long		earlier;

	if (json_integer_value(state) == 2)
		return true;
	if (json_integer_value(state) == 1)
	{
		mig_error(p->rep, subject, version, "its references form a cycle");
		return false;
	}
	json_object_set_new(p->pending, key, json_integer(1));
	/* the subject's nearest earlier version that is to be registered too */
	for (earlier = version - 1; earlier >= 1; earlier--)
	{
		char	   *k = mig_version_key(subject, earlier);
		bool		found = json_object_get(p->pending, k) != NULL;
		bool		ok = true;

		if (found)
			ok = mig_visit(p, k);
		free(k);
		if (!ok)
			return false;
		if (found)
			break;
	}
	json_array_foreach(refs, i, r)
	{
		const char *rs = json_string_value(json_object_get(r, "subject"));
		json_t	   *rv = json_object_get(r, "version");
		char	   *qs;
		bool		ok;

		if (rs == NULL || !json_is_integer(rv))
		{
			mig_error(p->rep, subject, version, "a reference without a subject or a version");
			return false;
		}
		qs = mig_ref_subject(subject, rs);
		ok = json_integer_value(rv) < 1 ||
			mig_visit_dep(p, key, qs, (long) json_integer_value(rv));
		free(qs);
		if (!ok)
			return false;
	}
	json_object_set_new(p->pending, key, json_integer(2));
	a = mig_action(p, "register");
	json_object_set_new(a, "subject", json_string(subject));
	json_object_set_new(a, "version", json_integer(version));
	json_object_set(a, "id", json_object_get(v, "id"));
	json_object_set(a, "item", v);
	return true;
}

/* does the subject scope have versions in the source? (":.ctx:" and "" are not subjects) */
static bool
mig_is_subject_scope(const char *scope)
{
	size_t		n = strlen(scope);

	return n > 0 && !(scope[0] == ':' && scope[n - 1] == ':');
}

/* the rank of a mode scope: subjects first, then contexts, the global last */
static int
mig_scope_rank(const char *scope)
{
	if (scope[0] == '\0')
		return 3;
	if (strcmp(scope, ":.__GLOBAL:") == 0)
		return 2;
	return mig_is_subject_scope(scope) ? 0 : 1;
}

/* plan the configs and modes */
static void
mig_plan_settings(MigPlanner *p)
{
	json_t	   *keys = mig_sorted_keys(p->src->config);
	size_t		i;
	json_t	   *k;
	int			rank;
	const char *subject;
	json_t	   *t;

	json_array_foreach(keys, i, k)
	{
		const char *scope = json_string_value(k);
		json_t	   *c = json_object_get(p->src->config, scope);
		json_t	   *d = json_object_get(p->dst->config, scope);

		if (json_object_get(p->refused, scope) || (d && json_equal(c, d)))
			continue;
		t = mig_action(p, "config");
		json_object_set_new(t, "scope", json_string(scope));
		json_object_set(t, "config", c);
	}
	json_decref(keys);

	/*
	 * a subject given IMPORT by this or an interrupted run gets its own mode
	 * back
	 */
	json_object_foreach(p->src->versions, subject, t)
	{
		const char *s = json_string_value(json_object_get(t, "subject"));
		json_t	   *dm = json_object_get(p->dst->mode, s);

		if (json_object_get(p->src->mode, s) == NULL && dm &&
			strcmp(json_string_value(dm), "IMPORT") == 0)
			json_object_set_new(p->touched, s, json_true());
	}
	keys = mig_sorted_keys(p->src->mode);
	for (rank = 0; rank <= 3; rank++)
	{
		json_t	   *tk = mig_sorted_keys(p->touched);

		if (rank == 0)
			json_array_foreach(tk, i, k)
		{
			const char *s = json_string_value(k);

			if (json_object_get(p->src->mode, s) == NULL)
			{
				t = mig_action(p, "mode");
				json_object_set_new(t, "scope", json_string(s));
				json_object_set_new(t, "mode", json_null());
			}
		}
		json_decref(tk);
		json_array_foreach(keys, i, k)
		{
			const char *scope = json_string_value(k);
			json_t	   *m = json_object_get(p->src->mode, scope);
			json_t	   *d = json_object_get(p->dst->mode, scope);

			if (mig_scope_rank(scope) != rank || json_object_get(p->refused, scope))
				continue;
			if (d && json_equal(m, d) && !json_object_get(p->touched, scope))
				continue;
			t = mig_action(p, "mode");
			json_object_set_new(t, "scope", json_string(scope));
			json_object_set(t, "mode", m);
		}
	}
	json_decref(keys);
}

/*
 * Plan the KEKs and DEKs the target lacks: KEKs, then DEKs, then the soft
 * deletes of DEKs, then of KEKs (a KEK takes DEKs only while live).
 */
static void
mig_plan_deks(MigPlanner *p)
{
	const char *const what[2] = {"kek", "dek"};
	const char *const deletes[2] = {"kek-delete", "dek-delete"};
	json_t	   *src[2] = {p->src->keks, p->src->deks};
	json_t	   *dst[2] = {p->dst->keks, p->dst->deks};
	json_t	   *later[2] = {json_array(), json_array()};
	int			i;

	if (!p->src->has_dek_registry)
		return;
	if (!p->dst->has_dek_registry)
	{
		if (json_object_size(p->src->keks) > 0)
			mig_note(p->rep, "the target has no DEK registry (/dek-registry answers 404): "
					 "%zu KEKs and %zu DEKs are not copied",
					 json_object_size(p->src->keks), json_object_size(p->src->deks));
		return;
	}
	for (i = 0; i < 2; i++)
	{
		json_t	   *keys = mig_sorted_keys(src[i]);
		size_t		j;
		json_t	   *key;

		json_array_foreach(keys, j, key)
		{
			const char *k = json_string_value(key);
			json_t	   *v = json_object_get(src[i], k);
			json_t	   *d = json_object_get(dst[i], k);
			json_t	   *x = json_deep_copy(v);
			bool		sdel = json_is_true(json_object_get(v, "deleted"));
			bool		ddel = d && json_is_true(json_object_get(d, "deleted"));

			json_object_set_new(x, "deleted", json_boolean(ddel));
			if (d && !json_equal(x, d))
				mig_error(p->rep, json_string_value(json_object_get(v, i ? "subject" : "name")),
						  (long) json_integer_value(json_object_get(v, "version")),
						  "the target's %s differs from the source's", what[i]);
			else if (!sdel && ddel)
				mig_error(p->rep, json_string_value(json_object_get(v, i ? "subject" : "name")),
						  (long) json_integer_value(json_object_get(v, "version")),
						  "the target's %s is soft-deleted, the source's is not", what[i]);
			else
			{
				if (d == NULL)
					json_object_set(mig_action(p, what[i]), "item", v);
				if (sdel && !ddel)
					json_array_append(later[i], v);
			}
			json_decref(x);
		}
		json_decref(keys);
	}
	for (i = 1; i >= 0; i--)
	{
		size_t		j;
		json_t	   *v;

		json_array_foreach(later[i], j, v)
			json_object_set(mig_action(p, deletes[i]), "item", v);
		json_decref(later[i]);
	}
}

/* the plan (a JSON array of actions) from src to dst; conflicts go to rep */
json_t *
mig_plan(MigInventory *src, MigInventory *dst, MigReport *rep)
{
	MigPlanner	p = {src, dst, rep, json_array(), rg_json_new_object(),
	rg_json_new_object(), rg_json_new_object()};
	json_t	   *keys = mig_sorted_keys(src->versions);
	json_t	   *deletes = json_array();
	size_t		i;
	json_t	   *k;

	mig_plan_deks(&p);

	/* what each source version needs: nothing, a registration, a soft delete */
	json_array_foreach(keys, i, k)
	{
		const char *key = json_string_value(k);
		json_t	   *v = json_object_get(src->versions, key);
		json_t	   *t = json_object_get(dst->versions, key);
		const char *subject = json_string_value(json_object_get(v, "subject"));
		long		version = (long) json_integer_value(json_object_get(v, "version"));
		bool		sdel = json_is_true(json_object_get(v, "deleted"));

		if (t == NULL)
		{
			json_object_set_new(p.pending, key, json_integer(0));
			if (sdel)
				json_array_append(deletes, v);
			continue;
		}
		if (!mig_same_content(src, v, t))
			mig_error(rep, subject, version,
					  "the target holds other content (id %lld) than the source (id %lld): an import never replaces a version",
					  (long long) json_integer_value(json_object_get(t, "id")),
					  (long long) json_integer_value(json_object_get(v, "id")));
		else if (!sdel && json_is_true(json_object_get(t, "deleted")))
			mig_error(rep, subject, version,
					  "soft-deleted in the target but live in the source: a delete is not undone");
		else if (sdel && !json_is_true(json_object_get(t, "deleted")))
		{
			json_array_append(deletes, v);
			continue;
		}
		else
			continue;
		json_object_set_new(p.refused, subject, json_true());
	}

	/* registrations, dependencies first; a refused subject gets none */
	json_array_foreach(keys, i, k)
	{
		const char *key = json_string_value(k);
		json_t	   *v = json_object_get(src->versions, key);
		const char *subject = json_string_value(json_object_get(v, "subject"));

		if (json_object_get(p.pending, key) && !json_object_get(p.refused, subject) &&
			!mig_visit(&p, key))
			json_object_set_new(p.refused, subject, json_true());
	}
	json_array_foreach(deletes, i, k)
	{
		const char *subject = json_string_value(json_object_get(k, "subject"));

		if (json_object_get(p.refused, subject))
			continue;
		json_object_set_new(p.touched, subject, json_true());
	}
	json_array_foreach(p.plan, i, k)
	{
		if (strcmp(json_string_value(json_object_get(k, "op")), "register") == 0)
			json_object_set_new(p.touched, json_string_value(json_object_get(k, "subject")), json_true());
	}

	/* IMPORT for each subject that gets writes, before the writes */
	{
		json_t	   *tk = mig_sorted_keys(p.touched);
		json_t	   *rest = p.plan;
		json_t	   *m;

		p.plan = json_array();
		json_array_foreach(rest, i, k)
		{
			const char *op = json_string_value(json_object_get(k, "op"));

			if (strncmp(op, "kek", 3) == 0 || strncmp(op, "dek", 3) == 0)
				json_array_append(p.plan, k);
		}
		json_array_foreach(tk, i, k)
		{
			const char *s = json_string_value(k);
			json_t	   *dm = json_object_get(dst->mode, s);

			if (dm && strcmp(json_string_value(dm), "IMPORT") == 0)
				continue;
			m = mig_action(&p, "import");
			json_object_set(m, "scope", k);
		}
		json_array_foreach(rest, i, k)
		{
			const char *op = json_string_value(json_object_get(k, "op"));

			if (strcmp(op, "register") == 0)
				json_array_append(p.plan, k);
		}
		json_decref(rest);
		json_decref(tk);
	}
	json_array_foreach(deletes, i, k)
	{
		const char *subject = json_string_value(json_object_get(k, "subject"));
		json_t	   *a;

		if (json_object_get(p.refused, subject))
			continue;
		a = mig_action(&p, "soft-delete");
		json_object_set(a, "subject", json_object_get(k, "subject"));
		json_object_set(a, "version", json_object_get(k, "version"));
	}
	mig_plan_settings(&p);

	json_decref(deletes);
	json_decref(keys);
	json_decref(p.pending);
	json_decref(p.touched);
	json_decref(p.refused);
	return p.plan;
}
