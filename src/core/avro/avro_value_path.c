/*-------------------------------------------------------------------------
 *
 * avro_value_path.c
 *	  Where a part of an Avro value is ("$.address.zip", "$.items[3]"),
 *	  for the messages of encode and decode, and how a union's branches
 *	  are told apart in JSON.
 *
 * A path is a stack of segments kept while walking a value; it is written
 * out only for a message, so a walk over a large array costs one integer
 * store per item.
 *
 *-------------------------------------------------------------------------
 */
#include "avro_payload.h"
#include "rg_json_text.h"

#include <stdio.h>
#include <string.h>

/* the levels shown at each end of a deep path */
#define RG_AVRO_PATH_SHOWN 8

/* See avro_payload.h */
void
rg_avro_path_init(rg_avro_path *p)
{
	p->segs = NULL;
	p->n = 0;
	p->cap = 0;
	p->oom = false;
}

/* See avro_payload.h */
void
rg_avro_path_free(rg_avro_path *p)
{
	rg_free(p->segs);
	rg_avro_path_init(p);
}

/* See avro_payload.h */
bool
rg_avro_path_push(rg_avro_path *p, rg_avro_seg_kind kind, const char *name, size_t len,
				  int64_t index)
{
	rg_avro_seg *s;

	if (p->n == p->cap)
	{
		int			cap = p->cap ? p->cap * 2 : 32;
		rg_avro_seg *segs = rg_realloc(p->segs, sizeof(rg_avro_seg) * cap);

		if (segs == NULL)
		{
			p->oom = true;
			return false;
		}
		p->segs = segs;
		p->cap = cap;
	}
	s = &p->segs[p->n++];
	s->kind = kind;
	s->name = name;
	s->len = len;
	s->index = index;
	return true;
}

/* Is a map key written as .key (letters, digits, '_', not first a digit)? */
static bool
plain_key(const char *k, size_t len)
{
	size_t		i;

	if (len == 0 || (k[0] >= '0' && k[0] <= '9'))
		return false;
	for (i = 0; i < len; i++)
	{
		char		c = k[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

/* See avro_payload.h */
void
rg_avro_path_write(rg_buf *buf, const rg_avro_path *p, bool wildcards)
{
	int			i;

	rg_buf_putc(buf, '$');
	for (i = 0; i < p->n; i++)
	{
		const rg_avro_seg *s = &p->segs[i];

		/* a deep path keeps its first and last levels */
		if (p->n > 2 * RG_AVRO_PATH_SHOWN && i == RG_AVRO_PATH_SHOWN)
		{
			rg_buf_printf(buf, "...(%d levels)...", p->n - 2 * RG_AVRO_PATH_SHOWN);
			i = p->n - RG_AVRO_PATH_SHOWN - 1;
			continue;
		}

		if (s->kind == RG_AVRO_SEG_FIELD)
		{
			rg_buf_putc(buf, '.');
			rg_buf_puts(buf, s->name);
		}
		else if (wildcards)
			rg_buf_puts(buf, "[*]");
		else if (s->kind == RG_AVRO_SEG_INDEX)
			rg_buf_printf(buf, "[%lld]", (long long) s->index);
		else if (plain_key(s->name, s->len))
		{
			rg_buf_putc(buf, '.');
			rg_buf_append(buf, s->name, s->len);
		}
		else
		{
			rg_buf_putc(buf, '[');
			rg_json_write_string_n(buf, s->name, s->len);
			rg_buf_putc(buf, ']');
		}
	}
}

/* See avro_payload.h */
void
rg_avro_path_error(rg_error *err, rg_errcode code, const rg_avro_path *p,
				   const char *fmt, va_list ap)
{
	rg_buf		msg;
	char		text[1024];

	vsnprintf(text, sizeof(text), fmt, ap);
	rg_buf_init(&msg);
	rg_avro_path_write(&msg, p, false);
	rg_buf_puts(&msg, ": ");
	rg_buf_puts(&msg, text);
	if (msg.oom)
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	else
		rg_error_set(err, code, "%s", msg.data);
	rg_buf_free(&msg);
}

/* See avro_payload.h */
const char *
rg_avro_branch_name(const rg_avro_schema *s)
{
	if (s->type == RG_AVRO_RECORD || s->type == RG_AVRO_ENUM || s->type == RG_AVRO_FIXED)
		return s->fullname;
	return rg_avro_type_name(s->type);
}

/*
 * See avro_payload.h.  Branches are told apart by their JSON kind (a
 * string, a number, an object...): when two branches share one, values
 * are wrapped.  null needs no wrapper either way.
 */
bool
rg_avro_union_ambiguous(const rg_avro_schema *u)
{
	bool		seen[AVJ_OBJECT + 1] = {false};
	int			i;

	for (i = 0; i < u->n_branches; i++)
	{
		avj_kind	k = rg_avro_json_kind(u->branches[i]);

		if (seen[k])
			return true;
		seen[k] = true;
	}
	return false;
}
