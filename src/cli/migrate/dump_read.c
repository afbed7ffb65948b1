/*-------------------------------------------------------------------------
 *
 * dump_read.c
 *	  Replay a dump of Confluent's _schemas topic into an inventory.  The
 *	  dump is what kafka-console-consumer --property print.key=true prints:
 *	  one record a line, its key's JSON, a tab, its value's JSON or "null"
 *	  (a tombstone).  Keys are {"keytype": ..., "magic": ...} with:
 *
 *	  SCHEMA {subject, version}: the value is the version (id, schema,
 *		schemaType, references, metadata, ruleSet, deleted); a tombstone
 *		hard-deletes it.
 *	  CONFIG {subject}: the value is the Config of the subject (no subject:
 *		global; ":.ctx:" a context); a tombstone removes it.
 *	  MODE {subject}: the value is {"mode": ...}; a tombstone removes it.
 *	  DELETE_SUBJECT {subject}: the value {subject, version} soft-deletes
 *		the subject's versions up to that one.
 *	  CLEAR_SUBJECT {subject}: the subject's soft-deleted versions go (a
 *		subject ending in ':' is a context prefix: every subject of it).
 *	  NOOP, CONTEXT and the DEK registry's own records: nothing to replay.
 *
 *	  A record that is not one of these stops the read with an error naming
 *	  the line, the subject and the version, before anything is written.
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_json_text.h"

/* read one line of at most MIG_MAX_LINE bytes into *buf; -1 at EOF, -2 too long */
static long
mig_read_line(FILE *f, char **buf, size_t *cap)
{
	size_t		len = 0;
	int			c;

	while ((c = getc(f)) != EOF)
	{
		if (c == '\n')
			break;
		if (len + 2 > *cap)
		{
			size_t		ncap = *cap ? *cap * 2 : 65536;

			if (len >= MIG_MAX_LINE)
			{
				while ((c = getc(f)) != EOF && c != '\n')
					;
				return -2;
			}
			*buf = realloc(*buf, ncap);
			if (*buf == NULL)
				return -2;
			*cap = ncap;
		}
		(*buf)[len++] = (char) c;
	}
	if (c == EOF && len == 0)
		return -1;
	if (len > 0 && (*buf)[len - 1] == '\r')
		len--;
	(*buf)[len] = '\0';
	return (long) len;
}

/* the subject named by a key or value, "" for none (the global scope) */
static const char *
mig_record_subject(json_t *o)
{
	json_t	   *s = json_object_get(o, "subject");

	return json_is_string(s) ? json_string_value(s) : "";
}

/* does subject fall under a CLEAR_SUBJECT of prefix? */
static bool
mig_clear_matches(const char *prefix, const char *subject)
{
	size_t		n = strlen(prefix);

	if (n == 0)
		return true;
	if (prefix[n - 1] == ':')
		return strncmp(prefix, subject, n) == 0 ||
			(strcmp(prefix, ":.:") == 0 && subject[0] != ':');
	return strcmp(prefix, subject) == 0;
}

/*
 * Mark deleted (or, clear, drop the deleted) versions 1 to upto of subject,
 * looked up by key: a subject's versions go no higher than top holds for it.
 */
static void
mig_subject_versions(MigInventory *inv, json_t *top, const char *subject,
					 json_int_t upto, bool clear)
{
	json_int_t	highest = json_integer_value(json_object_get(top, subject));
	json_int_t	n;

	for (n = 1; n <= upto && n <= highest; n++)
	{
		char	   *k = mig_version_key(subject, (long) n);
		json_t	   *ver = json_object_get(inv->versions, k);

		if (ver != NULL && !clear)
			json_object_set_new(ver, "deleted", json_true());
		else if (ver != NULL && json_is_true(json_object_get(ver, "deleted")))
			json_object_del(inv->versions, k);
		free(k);
	}
}

/*
 * Replay one record; false with err (without the line number) on bad input.
 * top holds each subject's highest version yet.
 */
static bool
mig_replay(MigInventory *inv, json_t *top, json_t *key, json_t *value, char *err, size_t errlen)
{
	const char *type = json_string_value(json_object_get(key, "keytype"));
	const char *subject = mig_record_subject(key);

	if (type == NULL)
	{
		snprintf(err, errlen, "the key has no \"keytype\"");
		return false;
	}
	if (value != NULL && !json_is_object(value))
	{
		snprintf(err, errlen, "%s record of subject \"%s\": the value is not an object or null",
				 type, subject);
		return false;
	}
	if (strcmp(type, "SCHEMA") == 0)
	{
		json_t	   *v = json_object_get(key, "version");
		long		version = json_is_integer(v) ? (long) json_integer_value(v) : 0;
		char	   *k;

		if (subject[0] == '\0' || version < 1 || version > 2147483647)
		{
			snprintf(err, errlen, "SCHEMA record of subject \"%s\": the key has no subject or no positive version",
					 subject);
			return false;
		}
		k = mig_version_key(subject, version);
		if (value == NULL)
			json_object_del(inv->versions, k);
		else
		{
			json_t	   *vs = json_object_get(value, "version");
			json_t	   *norm;
			char		ctx[256];

			if (strcmp(mig_record_subject(value), subject) != 0 ||
				(vs != NULL && (!json_is_integer(vs) || json_integer_value(vs) != version)))
			{
				snprintf(err, errlen, "subject \"%s\" version %ld: the value names subject \"%s\" version %lld",
						 subject, version, mig_record_subject(value),
						 json_is_integer(vs) ? (long long) json_integer_value(vs) : 0LL);
				free(k);
				return false;
			}
			norm = mig_version_normalize(value, subject, version,
										 json_is_true(json_object_get(value, "deleted")),
										 err, errlen);
			if (norm == NULL)
			{
				free(k);
				return false;
			}
			json_object_set_new(inv->versions, k, norm);
			if (json_integer_value(json_object_get(top, subject)) < version)
				json_object_set_new(top, subject, json_integer(version));
			json_object_set_new(inv->contexts,
								mig_subject_context(subject, ctx, sizeof(ctx)), json_true());
		}
		free(k);
	}
	else if (strcmp(type, "CONFIG") == 0)
	{
		if (value == NULL)
			json_object_del(inv->config, subject);
		else
			json_object_set_new(inv->config, subject, mig_config_normalize(value));
	}
	else if (strcmp(type, "MODE") == 0)
	{
		json_t	   *m = value ? json_object_get(value, "mode") : NULL;

		if (value == NULL)
			json_object_del(inv->mode, subject);
		else if (!json_is_string(m))
		{
			snprintf(err, errlen, "MODE record of subject \"%s\": no \"mode\" string", subject);
			return false;
		}
		else
			json_object_set(inv->mode, subject, m);
	}
	else if (strcmp(type, "DELETE_SUBJECT") == 0)
	{
		json_t	   *v = value ? json_object_get(value, "version") : NULL;

		if (value == NULL)
			return true;
		if (!json_is_integer(v))
		{
			snprintf(err, errlen, "DELETE_SUBJECT record of subject \"%s\": no \"version\"", subject);
			return false;
		}
		mig_subject_versions(inv, top, subject, json_integer_value(v), false);
	}
	else if (strcmp(type, "CLEAR_SUBJECT") == 0 && subject[0] && subject[strlen(subject) - 1] != ':')
		mig_subject_versions(inv, top, subject, 2147483647, true);
	else if (strcmp(type, "CLEAR_SUBJECT") == 0)
	{
		json_t	   *keys = mig_sorted_keys(inv->versions);
		size_t		i;
		json_t	   *k;

		json_array_foreach(keys, i, k)
		{
			json_t	   *ver = json_object_get(inv->versions, json_string_value(k));

			if (json_is_true(json_object_get(ver, "deleted")) &&
				mig_clear_matches(subject, json_string_value(json_object_get(ver, "subject"))))
				json_object_del(inv->versions, json_string_value(k));
		}
		json_decref(keys);
	}
	else if (strcmp(type, "CONTEXT") == 0)
	{
		json_t	   *c = json_object_get(key, "context");

		if (json_is_string(c) && json_string_value(c)[0] == '.')
			json_object_set_new(inv->contexts, json_string_value(c), json_true());
	}
	else if (strcmp(type, "NOOP") != 0)
	{
		snprintf(err, errlen, "unknown keytype \"%s\"", type);
		return false;
	}
	return true;
}

/* replay the dump at path ("-": standard input) into inv */
bool
mig_read_dump(const char *path, MigInventory *inv, char *err, size_t errlen)
{
	FILE	   *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char	   *line = NULL;
	size_t		cap = 0;
	long		len;
	long		lineno = 0;
	bool		ok = true;
	char		why[1024];
	json_t	   *top = rg_json_new_object();

	if (f == NULL)
	{
		snprintf(err, errlen, "could not open \"%s\": %s", path, strerror(errno));
		return false;
	}
	while (ok && (len = mig_read_line(f, &line, &cap)) != -1)
	{
		json_error_t jerr;
		json_t	   *key;
		json_t	   *value = NULL;
		size_t		at;
		const char *rest;

		lineno++;
		if (len == -2)
		{
			snprintf(err, errlen, "%s:%ld: the line is longer than %d bytes", path, lineno, MIG_MAX_LINE);
			ok = false;
			break;
		}
		if (strspn(line, " \t") == (size_t) len)
			continue;
		/* the key's JSON ends where the parser stops; the value follows */
		key = json_loadb(line, len, JSON_DISABLE_EOF_CHECK, &jerr);
		if (key == NULL || !json_is_object(key))
		{
			snprintf(err, errlen, "%s:%ld: the key is not a JSON object%s%s", path, lineno,
					 key ? "" : ": ", key ? "" : jerr.text);
			json_decref(key);
			ok = false;
			break;
		}
		at = jerr.position;
		rest = line + at;
		rest += strspn(rest, " \t");
		if (*rest == '\0')
		{
			snprintf(err, errlen, "%s:%ld: no value after the key (print.key=true prints key, tab, value)",
					 path, lineno);
			ok = false;
		}
		else if (strcmp(rest, "null") != 0)
		{
			value = json_loads(rest, 0, &jerr);
			if (value == NULL)
			{
				snprintf(err, errlen, "%s:%ld: %s record of subject \"%s\": the value is not JSON: %s",
						 path, lineno, json_string_value(json_object_get(key, "keytype")) ? : "?",
						 mig_record_subject(key), jerr.text);
				ok = false;
			}
		}
		if (ok && !mig_replay(inv, top, key, value, why, sizeof(why)))
		{
			snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
			ok = false;
		}
		if (ok && mig_inventory_full(inv))
		{
			snprintf(err, errlen, "%s:%ld: more than %d items", path, lineno, MIG_MAX_ITEMS);
			ok = false;
		}
		json_decref(key);
		json_decref(value);
	}
	free(line);
	json_decref(top);
	if (f != stdin)
		fclose(f);
	return ok;
}
