/*-------------------------------------------------------------------------
 *
 * avro_decode.c
 *	  registry.decode for AVRO: a payload in Avro's binary encoding read
 *	  with the writer's schema, as a reader with its own schema reads it
 *	  (Avro schema resolution), written as JSON (rg_format_avro.decode).
 *
 * Resolution follows the Avro specification: int promotes to long, float
 * and double, long to float and double, float to double, string and bytes
 * to each other; record fields match by name or by the reader field's
 * aliases, a reader field the writer lacks takes its default, a writer
 * field the reader lacks is skipped; named types match by unqualified
 * name or a reader alias naming the writer's full name; an enum symbol
 * the reader lacks takes the reader's enum default; a writer union's
 * branch goes to the reader's first branch that can read it.  What the
 * reader does not read as written is reported in notes.
 *
 * Nothing in a payload is trusted: every length and block count is
 * checked against the bytes left before it is used, items that take no
 * bytes are counted (RG_AVRO_MAX_EMPTY_ITEMS), nesting is bounded
 * (RG_AVRO_MAX_VALUE_DEPTH, rg_too_deep) and long arrays give a pending
 * cancel its chance.
 *
 *-------------------------------------------------------------------------
 */
#include "avro_payload.h"
#include "rg_base64.h"
#include "rg_json_text.h"
#include "rg_utf8.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the largest JSON text decode writes (jsonb's own limit is about as much) */
#define RG_AVRO_MAX_OUTPUT ((size_t) 256 * 1024 * 1024)

/* How a writer record's fields land in a reader record, per decode. */
typedef struct dec_memo
{
	const rg_avro_schema *w;
	const rg_avro_schema *r;
	int		   *map;			/* writer field -> reader field, -1: dropped */
	bool	   *matched;		/* per reader field */
	bool		identity;		/* same fields in the same order */
	char	  **dflt;			/* per reader field: its default as JSON, once */
} dec_memo;

typedef struct dec_state
{
	const uint8_t *start;
	const uint8_t *p;
	const uint8_t *end;
	rg_buf	   *out;			/* NULL while skipping */
	rg_strlist *notes;			/* NULL: none wanted */
	rg_error   *err;
	rg_avro_path path;
	int64_t		empty_items;
	int			iterations;
	dec_memo   *memo;
	int			n_memo;
	int			cap_memo;
} dec_state;

static bool decode_value(dec_state *d, const rg_avro_schema *w,
						 const rg_avro_schema *r, int depth);

/* ---------- messages ---------- */

static bool dec_fail(dec_state *d, rg_errcode code, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

/* Fail with "<path>: <message>" and code; always false. */
static bool
dec_fail(dec_state *d, rg_errcode code, const char *fmt,...)
{
	va_list		ap;

	if (d->err->code != RG_OK)
		return false;
	va_start(ap, fmt);
	rg_avro_path_error(d->err, code, &d->path, fmt, ap);
	va_end(ap);
	return false;
}

/* Out of memory; always false. */
static bool
dec_nomem(dec_state *d)
{
	rg_error_set(d->err, RG_ERR_NOMEM, "out of memory");
	return false;
}

/* A payload that ends before the value does; always false. */
static bool
truncated(dec_state *d)
{
	return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "truncated payload (%zu bytes)",
					(size_t) (d->end - d->start));
}

/* A note (deduplicated) about the value at the current path, with wildcards. */
static bool
add_note(dec_state *d, const char *what)
{
	rg_buf		b;
	int			i;
	bool		ok = true;

	if (d->notes == NULL)
		return true;
	rg_buf_init(&b);
	rg_avro_path_write(&b, &d->path, true);
	rg_buf_puts(&b, ": ");
	rg_buf_puts(&b, what);
	if (b.oom)
		return dec_nomem(d);
	for (i = 0; i < d->notes->n; i++)
		if (strcmp(d->notes->items[i], b.data) == 0)
			break;
	if (i == d->notes->n && !rg_strlist_push(d->notes, b.data))
		ok = dec_nomem(d);
	rg_buf_free(&b);
	return ok;
}

/* "int", "record com.x.Rec": a schema for messages. */
static const char *
described(const rg_avro_schema *s, char *buf, size_t size)
{
	if (s->type == RG_AVRO_RECORD || s->type == RG_AVRO_ENUM || s->type == RG_AVRO_FIXED)
	{
		snprintf(buf, size, "%s %s", rg_avro_type_name(s->type), s->fullname);
		return buf;
	}
	return rg_avro_type_name(s->type);
}

/* The reader's type cannot read the writer's; always false. */
static bool
mismatch(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r)
{
	char		wb[300];
	char		rb[300];

	return dec_fail(d, RG_ERR_INVALID_VALUE, "the reader's %s cannot read the writer's %s",
					described(r, rb, sizeof(rb)), described(w, wb, sizeof(wb)));
}

/* ---------- output ---------- */

/* Append text unless skipping. */
static inline void
out_puts(dec_state *d, const char *s)
{
	if (d->out != NULL)
		rg_buf_puts(d->out, s);
}

/* Append a character unless skipping. */
static inline void
out_putc(dec_state *d, char c)
{
	if (d->out != NULL)
		rg_buf_putc(d->out, c);
}

/* The shortest text that reads back as the same float. */
static void
write_float(rg_buf *buf, float f)
{
	char		tmp[40];
	int			p;

	if (isnan(f) || isinf(f))
	{
		rg_json_write_double(buf, f);
		return;
	}
	for (p = 6; p < 9; p++)
	{
		snprintf(tmp, sizeof(tmp), "%.*g", p, (double) f);
		if (strtof(tmp, NULL) == f)
			break;
	}
	if (p == 9)
		snprintf(tmp, sizeof(tmp), "%.9g", (double) f);
	rg_buf_puts(buf, tmp);
}

/* The decimal digits of u into out (no NUL); their count. */
static int
digits_of(uint64_t u, char *out)
{
	char		tmp[24];
	int			n = 0;
	int			i;

	do
	{
		tmp[n++] = (char) ('0' + u % 10);
		u /= 10;
	} while (u != 0);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

/*
 * A double that is m / 10^j for an integer m below 2^53 and j <= 8 (most
 * decimal data) as that decimal, without printf: strtod of the text is
 * the correctly rounded m / 10^j, as the division here is, so the text
 * reads back as f when the division gives f.  false for other doubles.
 */
static bool
write_short_double(rg_buf *buf, double f)
{
	static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
	int			j;

	for (j = 0; j < 9; j++)
	{
		double		m = f * p10[j];
		char		digits[24];
		int			n;
		int			neg;

		if (!(fabs(m) < 9007199254740992.0) || m != floor(m) || m / p10[j] != f)
			continue;
		if (m == 0 && signbit(f))
			return false;
		neg = m < 0;
		n = digits_of((uint64_t) fabs(m), digits);
		if (neg)
			rg_buf_putc(buf, '-');
		if (j == 0)
			rg_buf_append(buf, digits, n);
		else if (n > j)
		{
			rg_buf_append(buf, digits, n - j);
			rg_buf_putc(buf, '.');
			rg_buf_append(buf, digits + n - j, j);
		}
		else
		{
			rg_buf_puts(buf, "0.");
			while (n < j--)
				rg_buf_putc(buf, '0');
			rg_buf_append(buf, digits, n);
		}
		return true;
	}
	return false;
}

/* The shortest text that reads back as the same double. */
static void
write_double(rg_buf *buf, double f)
{
	char		tmp[40];
	int			p;

	int			digits = 0;
	const char *c;

	if (isnan(f) || isinf(f))
	{
		rg_json_write_double(buf, f);
		return;
	}
	if (write_short_double(buf, f))
		return;
	/* 17 digits always read back; when they end early they are the value */
	snprintf(tmp, sizeof(tmp), "%.17g", f);
	for (c = tmp; *c && *c != 'e'; c++)
		if (*c >= '0' && *c <= '9')
			digits++;
	if (digits > 15)
	{
		for (p = 15; p < 17; p++)
		{
			snprintf(tmp, sizeof(tmp), "%.*g", p, f);
			if (strtod(tmp, NULL) == f)
				break;
		}
		if (p == 17)
			snprintf(tmp, sizeof(tmp), "%.17g", f);
	}
	rg_buf_puts(buf, tmp);
}

/* A long as decimal text (snprintf is the slow part of a small record). */
static void
write_long_text(rg_buf *buf, int64_t v)
{
	char		digits[24];
	int			n;

	if (v < 0)
		rg_buf_putc(buf, '-');
	n = digits_of(v < 0 ? (uint64_t) 0 - (uint64_t) v : (uint64_t) v, digits);
	rg_buf_append(buf, digits, n);
}

/* ---------- the binary encoding ---------- */

/* A zigzag varint long. */
static bool
read_long(dec_state *d, int64_t *v)
{
	uint64_t	z = 0;
	int			shift = 0;

	for (;;)
	{
		uint8_t		b;

		if (d->p >= d->end)
			return truncated(d);
		b = *d->p++;
		if (shift == 63 && (b & 0x7E) != 0)
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "invalid long encoding at byte %zu",
							(size_t) (d->p - d->start));
		z |= (uint64_t) (b & 0x7F) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
		if (shift > 63)
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "invalid long encoding at byte %zu",
							(size_t) (d->p - d->start));
	}
	*v = (int64_t) (z >> 1) ^ -(int64_t) (z & 1);
	return true;
}

/* A zigzag varint int (at most five bytes, in range). */
static bool
read_int(dec_state *d, int64_t *v)
{
	const uint8_t *at = d->p;

	if (!read_long(d, v))
		return false;
	if (d->p - at > 5 || *v < INT32_MIN || *v > INT32_MAX)
		return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "invalid int encoding at byte %zu",
						(size_t) (at - d->start) + 1);
	return true;
}

/* A length (of bytes, a string) and that many bytes. */
static bool
read_bytes(dec_state *d, const uint8_t **b, size_t *n)
{
	int64_t		len;

	if (!read_long(d, &len))
		return false;
	if (len < 0)
		return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "negative length %lld at byte %zu",
						(long long) len, (size_t) (d->p - d->start));
	if ((uint64_t) len > (uint64_t) (d->end - d->p))
		return truncated(d);
	*b = d->p;
	*n = (size_t) len;
	d->p += len;
	return true;
}

/* n raw bytes (fixed, float, double). */
static bool
read_raw(dec_state *d, size_t n, const uint8_t **b)
{
	if ((size_t) (d->end - d->p) < n)
		return truncated(d);
	*b = d->p;
	d->p += n;
	return true;
}

/* n little-endian bytes as an unsigned integer. */
static uint64_t
le_value(const uint8_t *b, int n)
{
	uint64_t	v = 0;
	int			i;

	for (i = n; i-- > 0;)
		v = (v << 8) | b[i];
	return v;
}

/* ---------- scalars ---------- */

/* An integer (int or long read from the writer) as the reader's type. */
static bool
emit_integer(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r, int64_t v)
{
	if (d->out == NULL)
		return true;
	switch (r->type)
	{
		case RG_AVRO_INT:
		case RG_AVRO_LONG:
			{
				rg_avro_logical lt;

				if (r->type == RG_AVRO_INT && w->type == RG_AVRO_LONG)
					return mismatch(d, w, r);
				lt = rg_avro_logical_of(r);
				if (lt.type != RG_AVRO_LT_NONE && rg_avro_time_write(d->out, lt.type, v))
					return true;
				write_long_text(d->out, v);
				return true;
			}
		case RG_AVRO_FLOAT:
			write_float(d->out, (float) v);
			return true;
		case RG_AVRO_DOUBLE:
			write_double(d->out, (double) v);
			return true;
		default:
			return mismatch(d, w, r);
	}
}

/* Can the reader's type read this writer scalar (the specification's promotions)? */
static bool
promotes(rg_avro_type w, rg_avro_type r)
{
	if (w == r)
		return true;
	switch (w)
	{
		case RG_AVRO_INT:
			return r == RG_AVRO_LONG || r == RG_AVRO_FLOAT || r == RG_AVRO_DOUBLE;
		case RG_AVRO_LONG:
			return r == RG_AVRO_FLOAT || r == RG_AVRO_DOUBLE;
		case RG_AVRO_FLOAT:
			return r == RG_AVRO_DOUBLE;
		case RG_AVRO_STRING:
			return r == RG_AVRO_BYTES;
		case RG_AVRO_BYTES:
			return r == RG_AVRO_STRING;
		default:
			return false;
	}
}

/* Bytes (bytes, string or fixed data) as the reader's bytes, string or fixed. */
static bool
emit_bytes(dec_state *d, const rg_avro_schema *r, const uint8_t *b, size_t n)
{
	if (r->type == RG_AVRO_STRING)
	{
		if (!rg_utf8_valid(b, n))
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "the string is not valid UTF-8");
		if (d->out != NULL)
			rg_json_write_string_n(d->out, (const char *) b, n);
		return true;
	}
	if (d->out == NULL)
		return true;
	if (rg_avro_logical_of(r).type == RG_AVRO_LT_DECIMAL)
	{
		if (!rg_avro_decimal_write(d->out, b, n, rg_avro_logical_of(r).scale))
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD,
							n == 0 ? "a decimal of no bytes" : "a decimal of more than %d bytes",
							RG_AVRO_MAX_DECIMAL_BYTES);
		return true;
	}
	rg_buf_putc(d->out, '"');
	rg_base64_encode(d->out, b, n);
	rg_buf_putc(d->out, '"');
	return true;
}

/* A scalar: read as the writer wrote it, written as the reader has it. */
static bool
decode_scalar(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r)
{
	const uint8_t *b = NULL;
	size_t		n;
	int64_t		v;

	if (!promotes(w->type, r->type))
		return mismatch(d, w, r);
	switch (w->type)
	{
		case RG_AVRO_NULL:
			out_puts(d, "null");
			return true;
		case RG_AVRO_BOOLEAN:
			if (!read_raw(d, 1, &b))
				return false;
			if (*b > 1)
				return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "invalid boolean %d at byte %zu",
								*b, (size_t) (d->p - d->start));
			out_puts(d, *b ? "true" : "false");
			return true;
		case RG_AVRO_INT:
			return read_int(d, &v) && emit_integer(d, w, r, v);
		case RG_AVRO_LONG:
			return read_long(d, &v) && emit_integer(d, w, r, v);
		case RG_AVRO_FLOAT:
			{
				uint32_t	u;
				float		f;

				if (!read_raw(d, 4, &b))
					return false;
				u = (uint32_t) le_value(b, 4);
				memcpy(&f, &u, 4);
				if (d->out == NULL)
					return true;
				if (r->type == RG_AVRO_FLOAT)
					write_float(d->out, f);
				else
					write_double(d->out, (double) f);
				return true;
			}
		case RG_AVRO_DOUBLE:
			{
				uint64_t	u;
				double		f;

				if (!read_raw(d, 8, &b))
					return false;
				u = le_value(b, 8);
				memcpy(&f, &u, 8);
				if (d->out != NULL)
					write_double(d->out, f);
				return true;
			}
		case RG_AVRO_STRING:
		case RG_AVRO_BYTES:
			return read_bytes(d, &b, &n) && emit_bytes(d, r, b, n);
		default:
			return mismatch(d, w, r);
	}
}

/*
 * Named types match on their unqualified names, or when one of the
 * reader's aliases is the writer's full name (as the compatibility check).
 */
static bool
names_match(const rg_avro_schema *r, const rg_avro_schema *w)
{
	int			i;

	if (r == w)
		return true;
	if (r->name != NULL && w->name != NULL && strcmp(r->name, w->name) == 0)
		return true;
	for (i = 0; i < r->n_aliases; i++)
		if (r->aliases[i] != NULL && w->fullname != NULL &&
			strcmp(r->aliases[i], w->fullname) == 0)
			return true;
	return false;
}

/* fixed: the writer's size of bytes */
static bool
decode_fixed(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r)
{
	const uint8_t *b = NULL;

	if (r->type != RG_AVRO_FIXED || !names_match(r, w) || r->size != w->size)
		return mismatch(d, w, r);
	return read_raw(d, (size_t) w->size, &b) && emit_bytes(d, r, b, (size_t) w->size);
}

/* enum: the writer's symbol, the reader's default when the reader lacks it */
static bool
decode_enum(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r)
{
	int64_t		i;
	const char *symbol;
	int			k;

	if (r->type != RG_AVRO_ENUM || !names_match(r, w))
		return mismatch(d, w, r);
	if (!read_int(d, &i))
		return false;
	if (i < 0 || i >= w->n_symbols)
		return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "enum index %lld out of range for %s",
						(long long) i, w->fullname);
	symbol = w->symbols[i];
	if (r != w)
	{
		for (k = 0; k < r->n_symbols; k++)
			if (strcmp(r->symbols[k], symbol) == 0)
				break;
		if (k == r->n_symbols)
		{
			char		note[600];

			if (r->enum_default == NULL)
				return dec_fail(d, RG_ERR_INVALID_VALUE,
								"the symbol %s is not in the reader's enum %s, which has no default",
								symbol, r->fullname);
			snprintf(note, sizeof(note), "the symbol %s is not in the reader's enum, its default %s used",
					 symbol, r->enum_default);
			if (!add_note(d, note))
				return false;
			symbol = r->enum_default;
		}
	}
	if (d->out != NULL)
		rg_json_write_string(d->out, symbol);
	return true;
}

/* ---------- arrays and maps ---------- */

/* May a value of s take no bytes at all (null, an empty record)?  Errs on yes. */
static bool
may_be_empty(const rg_avro_schema *s, int depth, int *budget)
{
	int			i;

	if (--(*budget) < 0 || depth > 64)
		return true;
	switch (s->type)
	{
		case RG_AVRO_NULL:
			return true;
		case RG_AVRO_FIXED:
			return s->size == 0;
		case RG_AVRO_RECORD:
			for (i = 0; i < s->n_fields; i++)
				if (!may_be_empty(s->fields[i].type, depth + 1, budget))
					return false;
			return true;
		default:
			return false;
	}
}

/*
 * The next block's item count (0 at the end), checked against the bytes
 * left, or counted when items may take none.
 */
static bool
read_block(dec_state *d, const rg_avro_schema *items, bool *empty_known,
		   bool *empty, int64_t *count)
{
	if (!read_long(d, count))
		return false;
	if (*count < 0)
	{
		int64_t		size;

		if (*count == INT64_MIN)
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "invalid block count");
		*count = -*count;
		if (!read_long(d, &size))
			return false;
		if (size < 0 || size > d->end - d->p)
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "invalid block size %lld",
							(long long) size);
	}
	if (*count == 0)
		return true;
	if (!*empty_known)
	{
		int			budget = 10000;

		*empty = may_be_empty(items, 0, &budget);
		*empty_known = true;
	}
	if (!*empty)
	{
		if (*count > d->end - d->p)
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD,
							"a block of %lld items with %zu bytes left", (long long) *count,
							(size_t) (d->end - d->p));
	}
	else
	{
		if (*count > RG_AVRO_MAX_EMPTY_ITEMS - d->empty_items)
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD,
							"more than %d items that take no bytes", RG_AVRO_MAX_EMPTY_ITEMS);
		d->empty_items += *count;
	}
	return true;
}

/* Between items: a pending cancel's chance, and the output bound. */
static bool
item_tick(dec_state *d)
{
	if (++d->iterations >= 4096)
	{
		d->iterations = 0;
		rg_check_interrupts();
	}
	if (d->out != NULL && d->out->len > RG_AVRO_MAX_OUTPUT)
		return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "the value is larger than %zu MB as JSON",
						RG_AVRO_MAX_OUTPUT >> 20);
	return true;
}

/* array: blocks of items */
static bool
decode_array(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r, int depth)
{
	bool		empty_known = false;
	bool		empty = false;
	int64_t		count;
	int64_t		index = 0;

	if (r->type != RG_AVRO_ARRAY)
		return mismatch(d, w, r);
	out_putc(d, '[');
	if (!rg_avro_path_push(&d->path, RG_AVRO_SEG_INDEX, NULL, 0, 0))
		return dec_nomem(d);
	for (;;)
	{
		bool		ok;

		/* a block's count is the array's, not an item's */
		d->path.n--;
		ok = read_block(d, w->items, &empty_known, &empty, &count);
		d->path.n++;
		if (!ok)
			return false;
		if (count == 0)
			break;
		while (count-- > 0)
		{
			d->path.segs[d->path.n - 1].index = index;
			if (index++ > 0)
				out_putc(d, ',');
			if (!decode_value(d, w->items, r->items, depth + 1) || !item_tick(d))
				return false;
		}
	}
	rg_avro_path_pop(&d->path);
	out_putc(d, ']');
	return true;
}

/* map: blocks of string keys and values */
static bool
decode_map(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r, int depth)
{
	bool		empty_known = true;
	bool		empty = false;	/* a key takes at least a byte */
	int64_t		count;
	int64_t		index = 0;

	if (r->type != RG_AVRO_MAP)
		return mismatch(d, w, r);
	out_putc(d, '{');
	for (;;)
	{
		if (!read_block(d, w->items, &empty_known, &empty, &count))
			return false;
		if (count == 0)
			break;
		while (count-- > 0)
		{
			const uint8_t *k;
			size_t		n;

			if (!read_bytes(d, &k, &n))
				return false;
			if (!rg_avro_path_push(&d->path, RG_AVRO_SEG_KEY, (const char *) k, n, 0))
				return dec_nomem(d);
			if (!rg_utf8_valid(k, n))
				return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "the map key is not valid UTF-8");
			if (index++ > 0)
				out_putc(d, ',');
			if (d->out != NULL)
				rg_json_write_string_n(d->out, (const char *) k, n);
			out_putc(d, ':');
			if (!decode_value(d, w->items, r->items, depth + 1) || !item_tick(d))
				return false;
			rg_avro_path_pop(&d->path);
		}
	}
	out_putc(d, '}');
	return true;
}

/* ---------- records ---------- */

/* The reader field a writer field lands in: by name, then by the reader's aliases. */
static int
reader_field(const rg_avro_schema *r, const char *name)
{
	int			j;
	int			k;

	for (j = 0; j < r->n_fields; j++)
		if (strcmp(r->fields[j].name, name) == 0)
			return j;
	for (j = 0; j < r->n_fields; j++)
		for (k = 0; k < r->fields[j].extra->n_aliases; k++)
			if (strcmp(r->fields[j].extra->aliases[k], name) == 0)
				return j;
	return -1;
}

/* The field mapping of (w, r), made once per decode. */
static dec_memo *
record_memo(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r)
{
	dec_memo   *m;
	int			i;

	for (i = 0; i < d->n_memo; i++)
		if (d->memo[i].w == w && d->memo[i].r == r)
			return &d->memo[i];
	if (d->n_memo == d->cap_memo)
	{
		int			cap = d->cap_memo ? d->cap_memo * 2 : 8;
		dec_memo   *memo = rg_realloc(d->memo, sizeof(dec_memo) * cap);

		if (memo == NULL)
			return NULL;
		d->memo = memo;
		d->cap_memo = cap;
	}
	m = &d->memo[d->n_memo];
	memset(m, 0, sizeof(*m));
	m->w = w;
	m->r = r;
	m->map = rg_calloc(w->n_fields + 1, sizeof(int));
	m->matched = rg_calloc(r->n_fields + 1, sizeof(bool));
	m->dflt = rg_calloc(r->n_fields + 1, sizeof(char *));
	if (m->map == NULL || m->matched == NULL || m->dflt == NULL)
	{
		rg_free(m->map);
		rg_free(m->matched);
		rg_free(m->dflt);
		return NULL;
	}
	d->n_memo++;
	m->identity = w->n_fields == r->n_fields;
	for (i = 0; i < w->n_fields; i++)
	{
		int			j = reader_field(r, w->fields[i].name);

		/* a reader field takes the first writer field that names it */
		if (j >= 0 && m->matched[j])
			j = -1;
		m->map[i] = j;
		if (j >= 0)
			m->matched[j] = true;
		if (j != i)
			m->identity = false;
	}
	return m;
}

/* Free what the field mappings of a decode hold. */
static void
memo_free(dec_state *d)
{
	int			i;
	int			j;

	for (i = 0; i < d->n_memo; i++)
	{
		for (j = 0; j < d->memo[i].r->n_fields; j++)
			rg_free(d->memo[i].dflt[j]);
		rg_free(d->memo[i].map);
		rg_free(d->memo[i].matched);
		rg_free(d->memo[i].dflt);
	}
	rg_free(d->memo);
	d->memo = NULL;
	d->n_memo = d->cap_memo = 0;
}

/* The JSON of a reader field's default, made once per decode. */
static const char *
field_default(dec_state *d, dec_memo *m, int j, int depth)
{
	const rg_avro_field *f = &m->r->fields[j];
	rg_buf		bin;
	rg_buf		json;
	rg_error	err;
	dec_state	sub;
	bool		ok;

	if (m->dflt[j] != NULL)
		return m->dflt[j];
	rg_buf_init(&bin);
	rg_buf_init(&json);
	rg_error_clear(&err);
	if (!rg_avro_encode_default(f->type, f->default_value, &bin, &err))
	{
		if (err.code == RG_ERR_NOMEM)
			dec_nomem(d);
		else
			dec_fail(d, RG_ERR_INVALID_VALUE, "the reader's default does not fit its type (%s)",
					 err.message);
		rg_buf_free(&bin);
		return NULL;
	}
	memset(&sub, 0, sizeof(sub));
	sub.start = sub.p = (const uint8_t *) (bin.data ? bin.data : "");
	sub.end = sub.p + bin.len;
	sub.out = &json;
	sub.err = &err;
	rg_avro_path_init(&sub.path);
	ok = decode_value(&sub, f->type, f->type, depth);
	rg_avro_path_free(&sub.path);
	memo_free(&sub);
	rg_buf_free(&bin);
	if (!ok || json.oom)
	{
		if (json.oom || err.code == RG_ERR_NOMEM)
			dec_nomem(d);
		else
			dec_fail(d, RG_ERR_INVALID_VALUE, "the reader's default cannot be read (%s)",
					 err.message);
		rg_buf_free(&json);
		return NULL;
	}
	m->dflt[j] = json.data;
	return m->dflt[j];
}

/* A record read as it was written, field by field. */
static bool
decode_record_direct(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r,
					 int depth)
{
	int			i;

	out_putc(d, '{');
	for (i = 0; i < w->n_fields; i++)
	{
		if (!rg_avro_path_push(&d->path, RG_AVRO_SEG_FIELD, w->fields[i].name, 0, 0))
			return dec_nomem(d);
		if (i > 0)
			out_putc(d, ',');
		if (d->out != NULL)
		{
			rg_json_write_string(d->out, r->fields[i].name);
			rg_buf_putc(d->out, ':');
		}
		if (!decode_value(d, w->fields[i].type, r->fields[i].type, depth + 1))
			return false;
		rg_avro_path_pop(&d->path);
	}
	out_putc(d, '}');
	return true;
}

/*
 * A record read through a field mapping: the writer's fields in their
 * order into slices of one buffer, the reader's defaults for the rest,
 * then written in the reader's order.
 */
static bool
decode_record_resolved(dec_state *d, dec_memo *m, int depth)
{
	const rg_avro_schema *w = m->w;
	const rg_avro_schema *r = m->r;
	rg_buf	   *saved = d->out;
	rg_buf		tmp;
	size_t	   *slice;
	bool		ok = true;
	int			i;

	slice = rg_calloc((size_t) r->n_fields * 2 + 1, sizeof(size_t));
	if (slice == NULL)
		return dec_nomem(d);
	rg_buf_init(&tmp);
	for (i = 0; ok && i < w->n_fields; i++)
	{
		int			j = m->map[i];

		if (!rg_avro_path_push(&d->path, RG_AVRO_SEG_FIELD, w->fields[i].name, 0, 0))
		{
			ok = dec_nomem(d);
			break;
		}
		if (j < 0)
		{
			rg_strlist *notes = d->notes;

			ok = add_note(d, "not in the reader, dropped");
			d->out = NULL;
			d->notes = NULL;
			ok = ok && decode_value(d, w->fields[i].type, w->fields[i].type, depth + 1);
			d->notes = notes;
		}
		else
		{
			d->out = saved ? &tmp : NULL;
			slice[2 * j] = tmp.len;
			ok = decode_value(d, w->fields[i].type, r->fields[j].type, depth + 1);
			slice[2 * j + 1] = tmp.len - slice[2 * j];
		}
		d->out = saved;
		if (ok)
			rg_avro_path_pop(&d->path);
	}
	for (i = 0; ok && i < r->n_fields; i++)
	{
		const char *dflt;

		if (m->matched[i])
			continue;
		if (!rg_avro_path_push(&d->path, RG_AVRO_SEG_FIELD, r->fields[i].name, 0, 0))
		{
			ok = dec_nomem(d);
			break;
		}
		if (r->fields[i].default_value == NULL)
			ok = dec_fail(d, RG_ERR_INVALID_VALUE,
						  "missing from the data, and the reader's field has no default");
		else if ((dflt = field_default(d, m, i, depth + 1)) == NULL)
			ok = false;
		else
		{
			ok = add_note(d, "missing from the data, the reader's default used");
			slice[2 * i] = tmp.len;
			rg_buf_puts(&tmp, dflt);
			slice[2 * i + 1] = tmp.len - slice[2 * i];
		}
		if (ok)
			rg_avro_path_pop(&d->path);
	}
	if (ok && tmp.oom)
		ok = dec_nomem(d);
	if (ok && saved != NULL)
	{
		rg_buf_putc(saved, '{');
		for (i = 0; i < r->n_fields; i++)
		{
			if (i > 0)
				rg_buf_putc(saved, ',');
			rg_json_write_string(saved, r->fields[i].name);
			rg_buf_putc(saved, ':');
			rg_buf_append(saved, tmp.data + slice[2 * i], slice[2 * i + 1]);
		}
		rg_buf_putc(saved, '}');
	}
	rg_buf_free(&tmp);
	rg_free(slice);
	return ok;
}

/* record: direct when the reader's fields are the writer's, else resolved */
static bool
decode_record(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r, int depth)
{
	dec_memo   *m;

	if (r->type != RG_AVRO_RECORD || !names_match(r, w))
		return mismatch(d, w, r);
	if (r == w)
		return decode_record_direct(d, w, r, depth);
	m = record_memo(d, w, r);
	if (m == NULL)
		return dec_nomem(d);
	if (m->identity)
		return decode_record_direct(d, w, r, depth);
	return decode_record_resolved(d, m, depth);
}

/* ---------- unions ---------- */

/*
 * The reader union's branch for a writer's (non-union) type: the first of
 * the same type (and name), else the first it promotes to; -1 if none.
 */
static int
best_branch(const rg_avro_schema *u, const rg_avro_schema *w)
{
	int			i;

	for (i = 0; i < u->n_branches; i++)
	{
		const rg_avro_schema *b = u->branches[i];

		if (b->type != w->type)
			continue;
		if (b->type == RG_AVRO_RECORD || b->type == RG_AVRO_ENUM || b->type == RG_AVRO_FIXED)
		{
			if (names_match(b, w))
				return i;
		}
		else
			return i;
	}
	for (i = 0; i < u->n_branches; i++)
		if (u->branches[i]->type != w->type && promotes(w->type, u->branches[i]->type))
			return i;
	return -1;
}

/* A writer value read into a reader union: its branch, wrapped when ambiguous. */
static bool
decode_into_union(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r,
				  int depth)
{
	int			b = best_branch(r, w);
	const rg_avro_schema *rb;
	bool		wrap;
	char		wb[300];

	if (b < 0)
		return dec_fail(d, RG_ERR_INVALID_VALUE,
						"the reader's union has no branch for the writer's %s",
						described(w, wb, sizeof(wb)));
	rb = r->branches[b];
	wrap = d->out != NULL && rb->type != RG_AVRO_NULL && rg_avro_union_ambiguous(r);
	if (wrap)
	{
		rg_buf_putc(d->out, '{');
		rg_json_write_string(d->out, rg_avro_branch_name(rb));
		rg_buf_putc(d->out, ':');
	}
	if (!decode_value(d, w, rb, depth + 1))
		return false;
	if (wrap)
		rg_buf_putc(d->out, '}');
	return true;
}

/* ---------- values ---------- */

/* A value the writer wrote with w, as the reader r reads it. */
static bool
decode_value(dec_state *d, const rg_avro_schema *w, const rg_avro_schema *r, int depth)
{
	if (depth > RG_AVRO_MAX_VALUE_DEPTH || rg_too_deep(depth))
		return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "the value nests deeper than %d levels",
						RG_AVRO_MAX_VALUE_DEPTH);
	if (w->type == RG_AVRO_UNION)
	{
		int64_t		i;

		if (!read_long(d, &i))
			return false;
		if (i < 0 || i >= w->n_branches)
			return dec_fail(d, RG_ERR_INVALID_PAYLOAD, "union branch %lld out of range",
							(long long) i);
		return decode_value(d, w->branches[i], r, depth + 1);
	}
	if (r->type == RG_AVRO_UNION)
		return decode_into_union(d, w, r, depth);
	switch (w->type)
	{
		case RG_AVRO_FIXED:
			return decode_fixed(d, w, r);
		case RG_AVRO_ENUM:
			return decode_enum(d, w, r);
		case RG_AVRO_ARRAY:
			return decode_array(d, w, r, depth);
		case RG_AVRO_MAP:
			return decode_map(d, w, r, depth);
		case RG_AVRO_RECORD:
			return decode_record(d, w, r, depth);
		default:
			return decode_scalar(d, w, r);
	}
}

/* rg_format_avro.decode (rg_format.h) */
bool
rg_avro_decode(const rg_schema *writer, const rg_schema *reader,
			   const uint8_t *data, size_t len, rg_buf *out, rg_strlist *notes,
			   rg_error *err)
{
	const rg_avro_schema *w = ((const rg_avro_parsed *) writer->model)->root;
	const rg_avro_schema *r = reader ? ((const rg_avro_parsed *) reader->model)->root : w;
	dec_state	d;
	bool		ok;

	rg_error_clear(err);
	memset(&d, 0, sizeof(d));
	d.start = d.p = data;
	d.end = data + len;
	d.out = out;
	d.notes = notes;
	d.err = err;
	rg_avro_path_init(&d.path);
	ok = decode_value(&d, w, r, 0);
	if (ok && d.p != d.end)
	{
		d.path.n = 0;
		ok = dec_fail(&d, RG_ERR_INVALID_PAYLOAD,
					  "%zu bytes after the end of the value (at byte %zu of %zu)",
					  (size_t) (d.end - d.p), (size_t) (d.p - d.start), len);
	}
	if (d.path.oom || out->oom)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		ok = false;
	}
	memo_free(&d);
	rg_avro_path_free(&d.path);
	return ok;
}
