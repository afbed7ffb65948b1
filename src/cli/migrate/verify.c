/*-------------------------------------------------------------------------
 *
 * verify.c
 *	  Compare what the source and the target answer, answer by answer:
 *	  the contexts, every version of every subject (soft-deleted ones
 *	  too: id, type, schema, references, metadata, rule set, deleted),
 *	  the config and the mode of every scope either one sets, and the
 *	  KEKs and DEKs when both have a DEK registry.  Each difference is
 *	  printed with both answers.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_json_text.h"

/* print one difference of what (a GET path), with both answers */
static void
mig_difference(MigReport *rep, const char *what, json_t *a, json_t *b)
{
	char	   *x = a ? json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
	char	   *y = b ? json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;

	rep->differences++;
	mig_note(rep, "differs: %s: source %.500s, target %.500s", what,
			 x ? x : "(none)", y ? y : "(none)");
	free(x);
	free(y);
}

/*
 * Compare the members of two objects over the union of their keys; path
 * makes each key's GET path for the message.  skip_global leaves the key
 * "" out (a dump that sets no global config or mode).  Versions (of the
 * source inventory versions_of) are the same when their schemas are
 * equivalent (equivalent.c).
 */
static void
mig_compare_objects(MigReport *rep, json_t *src, json_t *dst,
					const char *(*path) (const char *key, char *buf, size_t buflen),
					bool skip_global, MigInventory *versions_of)
{
	json_t	   *both = json_deep_copy(src);
	json_t	   *keys;
	size_t		i;
	json_t	   *k;

	json_object_update(both, dst);
	keys = mig_sorted_keys(both);
	json_array_foreach(keys, i, k)
	{
		const char *key = json_string_value(k);
		json_t	   *a = json_object_get(src, key);
		json_t	   *b = json_object_get(dst, key);
		char		buf[1024];

		if (skip_global && key[0] == '\0')
			continue;
		rep->compared++;
		if (a == NULL || b == NULL ||
			!(versions_of ? mig_same_version(versions_of, a, b) : json_equal(a, b)))
			mig_difference(rep, path(key, buf, sizeof(buf)), a, b);
	}
	json_decref(keys);
	json_decref(both);
}

/* GET path of a version key */
static const char *
mig_version_path(const char *key, char *buf, size_t buflen)
{
	const char *sep = strchr(key, '\x1f');

	snprintf(buf, buflen, "/subjects/%.*s/versions/%ld?deleted=true",
			 (int) (sep - key), key, strtol(sep + 1, NULL, 10));
	return buf;
}

/* GET path of a config scope */
static const char *
mig_config_path(const char *key, char *buf, size_t buflen)
{
	snprintf(buf, buflen, "/config%s%s", key[0] ? "/" : "", key);
	return buf;
}

/* GET path of a mode scope */
static const char *
mig_mode_path(const char *key, char *buf, size_t buflen)
{
	snprintf(buf, buflen, "/mode%s%s", key[0] ? "/" : "", key);
	return buf;
}

/* GET path of a context (the list's member) */
static const char *
mig_context_path(const char *key, char *buf, size_t buflen)
{
	snprintf(buf, buflen, "/contexts: %s", key);
	return buf;
}

/* GET path of a KEK */
static const char *
mig_kek_path(const char *key, char *buf, size_t buflen)
{
	snprintf(buf, buflen, "/dek-registry/v1/keks/%s", key);
	return buf;
}

/* GET path of a DEK key (kek, subject, algorithm, version) */
static const char *
mig_dek_path(const char *key, char *buf, size_t buflen)
{
	char		k[4][256] = {{0}};
	int			n = 0;
	const char *p = key;

	while (n < 4)
	{
		const char *sep = strchr(p, '\x1f');
		size_t		len = sep ? (size_t) (sep - p) : strlen(p);

		snprintf(k[n++], sizeof(k[0]), "%.*s", (int) len, p);
		if (!sep)
			break;
		p = sep + 1;
	}
	snprintf(buf, buflen, "/dek-registry/v1/keks/%s/deks/%s/versions/%ld?algorithm=%s",
			 k[0], k[1], strtol(k[3], NULL, 10), k[2]);
	return buf;
}

/* compare src with dst into rep (compared, differences, notes) */
void
mig_verify(MigInventory *src, MigInventory *dst, MigReport *rep)
{
	bool		skip = !src->global_config_read;

	mig_compare_objects(rep, src->contexts, dst->contexts, mig_context_path, false, NULL);
	mig_compare_objects(rep, src->versions, dst->versions, mig_version_path, false, src);
	mig_compare_objects(rep, src->config, dst->config, mig_config_path,
						skip && json_object_get(src->config, "") == NULL, NULL);
	mig_compare_objects(rep, src->mode, dst->mode, mig_mode_path,
						skip && json_object_get(src->mode, "") == NULL, NULL);
	if (src->has_dek_registry && dst->has_dek_registry)
	{
		mig_compare_objects(rep, src->keks, dst->keks, mig_kek_path, false, NULL);
		mig_compare_objects(rep, src->deks, dst->deks, mig_dek_path, false, NULL);
	}
	else if (src->has_dek_registry && json_object_size(src->keks) > 0)
		mig_note(rep, "the target has no DEK registry: its KEKs and DEKs are not compared");
}
