/*-------------------------------------------------------------------------
 *
 * avro_pcf.c
 *	  Avro's Parsing Canonical Form and the CRC-64-AVRO fingerprint.
 *
 * The Parsing Canonical Form strips everything that does not affect how
 * data is read (docs, aliases, defaults, order, logical types, custom
 * properties) and writes the rest in one fixed shape, so that two schemas
 * that read data the same way have the same text and fingerprint.  It is
 * what Avro tooling (and clients outside Confluent) fingerprint schemas
 * with; Confluent itself identifies schemas by their stored form instead.
 *
 * Rules (Avro specification, "Parsing Canonical Form"): primitives as bare
 * strings; named types as {"name":"<fullname>","type":...} followed by
 * "fields" (each {"name":..,"type":..}), "symbols" or "size"; arrays and
 * maps as {"type":..,"items"|"values":..}; unions as arrays; a named type
 * already written as "<fullname>"; no whitespace.  Types defined by
 * references are written in full, so the form is self-contained.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"

#include <stdlib.h>
#include <string.h>

#define CRC64_AVRO_EMPTY UINT64_C(0xc15d213aa4d7a795)

/* Named types written so far; a short list (schemas have few). */
typedef struct pcf_ctx
{
	rg_buf	   *buf;
	const rg_avro_schema **seen;
	int			n_seen;
	int			cap_seen;
	int			depth;			/* of pcf_schema calls */
} pcf_ctx;

/* Was this named type written already (later uses are its name)? */
static bool
pcf_seen(pcf_ctx *c, const rg_avro_schema *s)
{
	int			i;

	for (i = 0; i < c->n_seen; i++)
		if (c->seen[i] == s)
			return true;
	return false;
}

/* Remember a named type as written. */
static void
pcf_mark(pcf_ctx *c, const rg_avro_schema *s)
{
	if (c->n_seen == c->cap_seen)
	{
		int			cap = c->cap_seen ? c->cap_seen * 2 : 16;
		const rg_avro_schema **seen = rg_realloc(c->seen, sizeof(*seen) * cap);

		if (seen == NULL)
		{
			c->buf->oom = true;
			return;
		}
		c->seen = seen;
		c->cap_seen = cap;
	}
	c->seen[c->n_seen++] = s;
}

/*
 * Names are written between quotes without escaping, as Avro's
 * SchemaNormalization does; validated names never need any.
 */
static void
pcf_quoted(pcf_ctx *c, const char *s)
{
	rg_buf_putc(c->buf, '"');
	rg_buf_puts(c->buf, s);
	rg_buf_putc(c->buf, '"');
}

/* Write one schema node in Parsing Canonical Form. */
static void
pcf_schema(pcf_ctx *c, const rg_avro_schema *s)
{
	int			i;

	if (c->buf->oom)
		return;
	if (rg_too_deep(c->depth))
	{
		rg_buf_set_too_deep(c->buf);
		return;
	}
	c->depth++;
	switch (s->type)
	{
		case RG_AVRO_UNION:
			rg_buf_putc(c->buf, '[');
			for (i = 0; i < s->n_branches; i++)
			{
				if (i)
					rg_buf_putc(c->buf, ',');
				pcf_schema(c, s->branches[i]);
			}
			rg_buf_putc(c->buf, ']');
			break;
		case RG_AVRO_ARRAY:
		case RG_AVRO_MAP:
			rg_buf_puts(c->buf, s->type == RG_AVRO_ARRAY ?
						"{\"type\":\"array\",\"items\":" :
						"{\"type\":\"map\",\"values\":");
			pcf_schema(c, s->items);
			rg_buf_putc(c->buf, '}');
			break;
		case RG_AVRO_RECORD:
		case RG_AVRO_ENUM:
		case RG_AVRO_FIXED:
			if (pcf_seen(c, s))
			{
				pcf_quoted(c, s->fullname);
				break;
			}
			pcf_mark(c, s);
			rg_buf_puts(c->buf, "{\"name\":");
			pcf_quoted(c, s->fullname);
			rg_buf_puts(c->buf, ",\"type\":");
			pcf_quoted(c, rg_avro_type_name(s->type));
			if (s->type == RG_AVRO_ENUM)
			{
				rg_buf_puts(c->buf, ",\"symbols\":[");
				for (i = 0; i < s->n_symbols; i++)
				{
					if (i)
						rg_buf_putc(c->buf, ',');
					pcf_quoted(c, s->symbols[i]);
				}
				rg_buf_putc(c->buf, ']');
			}
			else if (s->type == RG_AVRO_FIXED)
				rg_buf_printf(c->buf, ",\"size\":%d", s->size);
			else
			{
				rg_buf_puts(c->buf, ",\"fields\":[");
				for (i = 0; i < s->n_fields; i++)
				{
					if (i)
						rg_buf_putc(c->buf, ',');
					rg_buf_puts(c->buf, "{\"name\":");
					pcf_quoted(c, s->fields[i].name);
					rg_buf_puts(c->buf, ",\"type\":");
					pcf_schema(c, s->fields[i].type);
					rg_buf_putc(c->buf, '}');
				}
				rg_buf_putc(c->buf, ']');
			}
			rg_buf_putc(c->buf, '}');
			break;
		default:
			pcf_quoted(c, rg_avro_type_name(s->type));
			break;
	}
	c->depth--;
}

/* The Parsing Canonical Form of an AVRO schema, from rg_malloc (rg_free it). */
char *
rg_avro_canonical_form(const rg_schema *schema, rg_error *err)
{
	const rg_avro_parsed *parsed;
	pcf_ctx		c;
	rg_buf		buf;

	if (schema == NULL || schema->format != &rg_format_avro || schema->model == NULL)
	{
		rg_error_set(err, RG_ERR_INTERNAL, "not an AVRO schema");
		return NULL;
	}
	parsed = schema->model;
	rg_buf_init(&buf);
	memset(&c, 0, sizeof(c));
	c.buf = &buf;
	pcf_schema(&c, parsed->root);
	rg_free(c.seen);
	if (buf.oom || buf.data == NULL)
	{
		if (buf.too_deep)
			rg_error_set(err, RG_ERR_INVALID_SCHEMA,
						 "Schema nesting is too deep for the stack");
		else
			rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		rg_buf_free(&buf);
		return NULL;
	}
	return buf.data;
}

/*
 * CRC-64-AVRO (a Rabin fingerprint): table-driven, the table built once.
 * Not thread-safe on first use only in the sense that two threads may both
 * build the same table; the result is identical either way.
 */
uint64_t
rg_avro_crc64(const char *data, size_t len)
{
	static uint64_t table[256];
	static bool table_ready = false;
	uint64_t	fp = CRC64_AVRO_EMPTY;
	size_t		i;

	if (!table_ready)
	{
		int			b;

		for (b = 0; b < 256; b++)
		{
			uint64_t	v = (uint64_t) b;
			int			k;

			for (k = 0; k < 8; k++)
				v = (v >> 1) ^ (CRC64_AVRO_EMPTY & (0 - (v & 1)));
			table[b] = v;
		}
		table_ready = true;
	}
	for (i = 0; i < len; i++)
		fp = (fp >> 8) ^ table[(fp ^ (unsigned char) data[i]) & 0xff];
	return fp;
}
