/*-------------------------------------------------------------------------
 *
 * rg_compat.c
 *	  Confluent's seven compatibility levels over any rg_format.
 *
 * A format only answers "can this reader read that writer?" with a list of
 * message templates.  This file decides, per level, which earlier versions
 * are asked, in which direction, and builds the exact message list
 * Confluent returns (doc/design.md#messages): the role words filled in,
 * "{oldSchemaVersion: N}", "{oldSchema: '...'}" and the closing
 * "{validateFields: 'false', compatibility: 'LEVEL'}".
 *
 *-------------------------------------------------------------------------
 */
#include "rg_compat.h"

#include <string.h>

/* Confluent's MAX_SCHEMA_SIZE_FOR_LOGGING, in Java chars */
#define RG_COMPAT_MAX_OLD_SCHEMA 10240

static const char *const level_names[] = {
	"NONE",
	"BACKWARD",
	"BACKWARD_TRANSITIVE",
	"FORWARD",
	"FORWARD_TRANSITIVE",
	"FULL",
	"FULL_TRANSITIVE"
};

#define N_LEVELS ((int) (sizeof(level_names) / sizeof(level_names[0])))

/* in the order of rg_mode */
static const char *const mode_names[] = {
	"READWRITE",
	"READONLY",
	"READONLY_OVERRIDE",
	"IMPORT",
	"FORWARD"
};

#define N_MODES ((int) (sizeof(mode_names) / sizeof(mode_names[0])))

/* ASCII upper case, whatever the locale */
static char
ascii_upper(char ch)
{
	return (ch >= 'a' && ch <= 'z') ? (char) (ch - 'a' + 'A') : ch;
}

/*
 * The index of s in names, compared as Confluent does: upper-cased, then
 * an exact match (no trimming); -1 when s is none of them.
 */
static int
name_index(const char *s, const char *const *names, int n)
{
	int			i;

	if (s == NULL)
		return -1;
	for (i = 0; i < n; i++)
	{
		const char *a = s;
		const char *b = names[i];

		while (*a && *b && ascii_upper(*a) == *b)
		{
			a++;
			b++;
		}
		if (*a == '\0' && *b == '\0')
			return i;
	}
	return -1;
}

/* A level by its Confluent name, in any case. */
bool
rg_compat_level_parse(const char *s, rg_compat_level *out)
{
	int			i = name_index(s, level_names, N_LEVELS);

	if (i < 0)
		return false;
	if (out)
		*out = (rg_compat_level) i;
	return true;
}

/* The Confluent name of a level. */
const char *
rg_compat_level_name(rg_compat_level level)
{
	if ((int) level < 0 || (int) level >= N_LEVELS)
		return "NONE";
	return level_names[level];
}

/* The i-th level of the name table, for listing every level. */
bool
rg_compat_level_at(int i, rg_compat_level *out)
{
	if (i < 0 || i >= N_LEVELS)
		return false;
	*out = (rg_compat_level) i;
	return true;
}

/* A mode by its Confluent name, in any case. */
bool
rg_mode_parse(const char *s, rg_mode *out)
{
	int			i = name_index(s, mode_names, N_MODES);

	if (i < 0)
		return false;
	if (out)
		*out = (rg_mode) i;
	return true;
}

/* The Confluent name of a mode. */
const char *
rg_mode_name(rg_mode mode)
{
	if ((int) mode < 0 || (int) mode >= N_MODES)
		return "READWRITE";
	return mode_names[mode];
}

/* Does the mode refuse every write? */
bool
rg_mode_is_read_only(rg_mode mode)
{
	return mode == RG_MODE_READONLY || mode == RG_MODE_READONLY_OVERRIDE;
}

/* Does the mode take versions with the ids and numbers they are given? */
bool
rg_mode_is_import(rg_mode mode)
{
	return mode == RG_MODE_IMPORT || mode == RG_MODE_FORWARD;
}

/* Does the level look at every earlier version? */
bool
rg_compat_is_transitive(rg_compat_level level)
{
	return level == RG_COMPAT_BACKWARD_TRANSITIVE ||
		level == RG_COMPAT_FORWARD_TRANSITIVE ||
		level == RG_COMPAT_FULL_TRANSITIVE;
}

/*
 * Java's String.format(msg, reader, writer) as far as our templates can
 * need it: "%s" takes the next word, "%%" is a percent sign, "%n" a
 * newline.  A "%s" with no word left and any other "%" sequence are kept
 * as written (Java would throw there; a message is more useful).
 */
static void
java_format2(rg_buf *buf, const char *msg, const char *w1, const char *w2)
{
	const char *words[2] = {w1, w2};
	int			next = 0;
	const char *p = msg;

	while (*p)
	{
		const char *pct = strchr(p, '%');

		if (pct == NULL)
		{
			rg_buf_puts(buf, p);
			break;
		}
		rg_buf_append(buf, p, (size_t) (pct - p));
		if (pct[1] == 's' && next < 2)
		{
			rg_buf_puts(buf, words[next++]);
			p = pct + 2;
		}
		else if (pct[1] == '%')
		{
			rg_buf_putc(buf, '%');
			p = pct + 2;
		}
		else if (pct[1] == 'n')
		{
			rg_buf_putc(buf, '\n');
			p = pct + 2;
		}
		else
		{
			rg_buf_putc(buf, '%');
			p = pct + 1;
		}
	}
}

/*
 * How many bytes of UTF-8 text hold its first `limit` Java chars (UTF-16
 * code units); *over is set when the text is longer than that.  A
 * character that would straddle the limit is left out whole.
 */
static size_t
utf16_prefix(const char *s, size_t len, size_t limit, bool *over)
{
	size_t		i = 0;
	size_t		units = 0;

	*over = false;
	while (i < len)
	{
		unsigned char b = (unsigned char) s[i];
		size_t		bytes = 1;
		size_t		u = 1;

		if (b >= 0xF0 && b < 0xF8)
		{
			bytes = 4;
			u = 2;
		}
		else if (b >= 0xE0 && b < 0xF0)
			bytes = 3;
		else if (b >= 0xC0 && b < 0xE0)
			bytes = 2;
		if (i + bytes > len)
			bytes = len - i;
		if (units + u > limit)
		{
			*over = true;
			return i;
		}
		units += u;
		i += bytes;
	}
	return i;
}

/* "{oldSchemaVersion: N}" (when known) and "{oldSchema: '...'}". */
static bool
push_schema_info(rg_strlist *out, const rg_prior_version *p)
{
	rg_buf		stored;
	size_t		len;
	const char *text;
	size_t		cut;
	bool		over;
	rg_buf		buf;
	bool		ok;

	if (p->version > 0 && !rg_strlist_pushf(out, "{oldSchemaVersion: %d}", p->version))
		return false;
	rg_buf_init(&stored);
	text = rg_schema_text(p->schema, &stored, &len);
	if (text == NULL)
	{
		rg_buf_free(&stored);
		return false;
	}
	cut = utf16_prefix(text, len, RG_COMPAT_MAX_OLD_SCHEMA, &over);
	rg_buf_init(&buf);
	if (over)
	{
		rg_buf_puts(&buf, "{oldSchema: <truncated> '");
		rg_buf_append(&buf, text, cut);
		rg_buf_puts(&buf, "...'}");
	}
	else
	{
		rg_buf_puts(&buf, "{oldSchema: '");
		rg_buf_append(&buf, text, len);
		rg_buf_puts(&buf, "'}");
	}
	ok = !buf.oom && rg_strlist_push(out, buf.data);
	rg_buf_free(&buf);
	rg_buf_free(&stored);
	return ok;
}

/*
 * One direction of one strategy: ask the format whether `reader` reads
 * `writer`, fill the role words into each message and, when asked and
 * something failed, add the earlier version's number and text.  Returns
 * the number of messages added, or -1 when out of memory.
 */
static int
run_half(const rg_schema *reader, const rg_schema *writer, rg_compat_policy policy,
		 const char *reader_role, const char *writer_role,
		 bool append_schema, const rg_prior_version *p, rg_strlist *out)
{
	rg_strlist	raw;
	int			before = out->n;
	int			i;
	bool		(*can_read) (const rg_schema *, const rg_schema *, rg_strlist *);

	rg_strlist_init(&raw, out->arena);
	if (reader->format == NULL || reader->format->can_read == NULL)
		return -1;

	/*
	 * a format without a lenient variant ignores the policy, as Confluent's
	 * do
	 */
	can_read = reader->format->can_read;
	if (policy == RG_POLICY_LENIENT && reader->format->can_read_lenient != NULL)
		can_read = reader->format->can_read_lenient;
	if (can_read(reader, writer, &raw) && raw.n == 0)
		return 0;
	if (raw.n == 0 && !rg_strlist_push(&raw, "Unexpected exception during compatibility check: unknown failure"))
		return -1;
	for (i = 0; i < raw.n; i++)
	{
		rg_buf		buf;
		bool		ok;

		rg_buf_init(&buf);
		java_format2(&buf, raw.items[i], reader_role, writer_role);
		ok = !buf.oom && rg_strlist_push(out, buf.data ? buf.data : "");
		rg_buf_free(&buf);
		if (!ok)
			return -1;
	}
	if (append_schema && !push_schema_info(out, p))
		return -1;
	return out->n - before;
}

/* Are two schemas of the same format (a check across formats fails)? */
static bool
same_format(const rg_schema *a, const rg_schema *b)
{
	if (a->format == b->format)
		return true;
	if (a->format == NULL || b->format == NULL)
		return false;
	return strcmp(a->format->name, b->format->name) == 0;
}

/*
 * The level's strategy against one earlier version; returns the number of
 * messages added (0 = compatible), -1 when out of memory.
 */
static int
check_one(rg_compat_level level, rg_compat_policy policy, const rg_schema *new_schema,
		  const rg_prior_version *p, rg_strlist *out)
{
	int			a,
				b;

	if (!same_format(new_schema, p->schema))
		return rg_strlist_push(out, "Incompatible because of different schema type") ? 1 : -1;

	switch (level)
	{
		case RG_COMPAT_BACKWARD:
		case RG_COMPAT_BACKWARD_TRANSITIVE:
			return run_half(new_schema, p->schema, policy, "new", "old", true, p, out);
		case RG_COMPAT_FORWARD:
		case RG_COMPAT_FORWARD_TRANSITIVE:
			return run_half(p->schema, new_schema, policy, "old", "new", true, p, out);
		case RG_COMPAT_FULL:
		case RG_COMPAT_FULL_TRANSITIVE:
			/* the forward half first, then the backward half with the info */
			a = run_half(p->schema, new_schema, policy, "old", "new", false, p, out);
			if (a < 0)
				return -1;
			b = run_half(new_schema, p->schema, policy, "new", "old", true, p, out);
			if (b < 0)
				return -1;
			return a + b;
		case RG_COMPAT_NONE:
			break;
	}
	return 0;
}

/*
 * Confluent's CompatibilityChecker plus the closing line of
 * isCompatibleWithPrevious.  prev is oldest first; the checks go newest
 * first and stop at the first version with messages.
 */
bool
rg_compat_check(rg_compat_level level, const rg_schema *new_schema,
				const rg_prior_version *prev, int n_prev,
				rg_strlist *messages)
{
	return rg_compat_check_policy(level, RG_POLICY_STRICT, new_schema, prev, n_prev,
								  messages);
}

/* See rg_compat.h */
bool
rg_compat_check_policy(rg_compat_level level, rg_compat_policy policy,
					   const rg_schema *new_schema,
					   const rg_prior_version *prev, int n_prev,
					   rg_strlist *messages)
{
	if (rg_compat_differences(level, policy, new_schema, prev, n_prev, messages))
		return true;
	rg_compat_close(messages, level, false);
	return false;
}

/* See rg_compat.h */
bool
rg_compat_differences(rg_compat_level level, rg_compat_policy policy,
					  const rg_schema *new_schema,
					  const rg_prior_version *prev, int n_prev,
					  rg_strlist *messages)
{
	int			last;
	int			i;
	int			n = 0;

	if (level == RG_COMPAT_NONE || n_prev <= 0 || prev == NULL)
		return true;
	last = rg_compat_is_transitive(level) ? 0 : n_prev - 1;
	for (i = n_prev - 1; i >= last; i--)
	{
		rg_check_interrupts();
		if (prev[i].schema == NULL)
			continue;
		n = check_one(level, policy, new_schema, &prev[i], messages);
		if (n != 0)
			break;
	}
	if (n < 0)
		rg_strlist_push(messages, "Unexpected exception during compatibility check: out of memory");
	return n == 0;
}

/* See rg_compat.h */
void
rg_compat_close(rg_strlist *messages, rg_compat_level level, bool validate_fields)
{
	rg_strlist_pushf(messages, "{validateFields: '%s', compatibility: '%s'}",
					 validate_fields ? "true" : "false", rg_compat_level_name(level));
}

/* The format's lints against the earlier versions of the same format. */
bool
rg_compat_lint(const rg_schema *new_schema, const rg_prior_version *prev, int n_prev,
			   rg_lint_rules rules, rg_strlist *messages)
{
	int			before = messages->n;

	if (new_schema->format->lint == NULL ||
		(n_prev == 0 && (rules & RG_LINT_WITHOUT_DEFAULT) == 0))
		return true;
	(void) new_schema->format->lint(new_schema, prev, n_prev, rules, messages);
	return messages->n == before;
}

/* The verdict after the reserved-field rules (see rg_compat.h). */
bool
rg_compat_verdict(rg_compat_level level, rg_compat_policy policy, rg_lint_policy lint,
				  bool validate_fields, const rg_schema *new_schema,
				  const rg_prior_version *prev, int n_prev, bool failed_before,
				  rg_strlist *messages)
{
	bool		compatible = !failed_before;
	int			before = messages->n;

	if (level != RG_COMPAT_NONE && n_prev > 0 &&
		!rg_compat_differences(level, policy, new_schema, prev, n_prev, messages))
		compatible = false;
	if (messages->n > before)
		compatible = false;
	if (lint.mode != RG_LINT_NONE &&
		!rg_compat_lint(new_schema, prev, n_prev, lint.rules, messages) &&
		lint.mode == RG_LINT_FAIL)
		compatible = false;
	if (!compatible)
		rg_compat_close(messages, level, validate_fields);
	return compatible;
}

/* See rg_compat.h */
bool
rg_compat_too_large(const rg_strlist *messages, int from)
{
	int			i;

	for (i = from < 0 ? 0 : from; i < messages->n; i++)
		if (strcmp(messages->items[i], RG_COMPAT_TOO_LARGE) == 0)
			return true;
	return false;
}

/* See rg_compat.h */
void
rg_compat_push_more(rg_strlist *messages, uint64_t n)
{
	if (n == UINT64_MAX)
		rg_strlist_push(messages, "{errorType:\"TOO_MANY_DIFFERENCES\", description:\""
						"more incompatible differences than can be counted are not listed\"}");
	else
		rg_strlist_pushf(messages, "{errorType:\"TOO_MANY_DIFFERENCES\", description:\""
						 "%llu more incompatible differences are not listed\"}",
						 (unsigned long long) n);
}
