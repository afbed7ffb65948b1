/*-------------------------------------------------------------------------
 *
 * avro_encode.c
 *	  registry.encode for AVRO: a JSON value checked against a schema and
 *	  written in Avro's binary encoding (rg_format_avro.encode).
 *
 * The JSON form (doc/payloads.md) is the one decode writes, and Avro's
 * own JSON encoding of unions ({"int": 5}) and of bytes, fixed and
 * decimals (strings of code points U+0000..U+00FF) is read too (the rule
 * where a string reads both ways: value_bytes).  A value the
 * schema does not admit is refused with the path of the offending part:
 * "$.address.zip: expected int, found string".
 *
 * A schema's default values are written through the same code in
 * "default mode": there bytes and fixed are strings of code points
 * U+0000..U+00FF and a union's value is bare, as the Avro specification
 * has defaults.
 *
 *-------------------------------------------------------------------------
 */
#include "avro_payload.h"
#include "rg_base64.h"
#include "rg_utf8.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct enc_state
{
	rg_buf	   *out;
	rg_error   *err;
	rg_avro_path path;
	rg_arena   *arena;
	bool		default_mode;
	bool		bare_branch;	/* the next value is a bare union branch's */
} enc_state;

static bool encode_value(enc_state *e, const rg_avro_schema *s,
						 const avj_value *v, int depth);

/* ---------- the binary encoding ---------- */

/* A long (or int) as a zigzag varint. */
static void
write_long(rg_buf *out, int64_t v)
{
	uint64_t	z = ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
	char		b[10];
	int			n = 0;

	while (z >= 0x80)
	{
		b[n++] = (char) ((z & 0x7F) | 0x80);
		z >>= 7;
	}
	b[n++] = (char) z;
	rg_buf_append(out, b, n);
}

/* n bytes, little-endian, of v. */
static void
write_le(rg_buf *out, uint64_t v, int n)
{
	char		b[8];
	int			i;

	for (i = 0; i < n; i++)
		b[i] = (char) (v >> (8 * i));
	rg_buf_append(out, b, n);
}

/* Bytes or a string: the length, then the bytes. */
static void
write_bytes(rg_buf *out, const char *b, size_t n)
{
	write_long(out, (int64_t) n);
	rg_buf_append(out, b, n);
}

/* ---------- messages ---------- */

static bool enc_fail(enc_state *e, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/* Fail with "<path>: <message>" (RG_ERR_INVALID_VALUE); always false. */
static bool
enc_fail(enc_state *e, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	rg_avro_path_error(e->err, RG_ERR_INVALID_VALUE, &e->path, fmt, ap);
	va_end(ap);
	return false;
}

/* Out of memory; always false. */
static bool
enc_nomem(enc_state *e)
{
	rg_error_set(e->err, RG_ERR_NOMEM, "out of memory");
	e->out->oom = true;
	return false;
}

/* What a schema expects, for messages: "int", "date", "record com.x.Rec". */
static const char *
expected_name(const rg_avro_schema *s, char *buf, size_t size)
{
	static const char *const lt_names[] = {
		NULL, "decimal", "uuid", "date", "time-millis", "time-micros",
		"timestamp-millis", "timestamp-micros", "local-timestamp-millis",
		"local-timestamp-micros"
	};
	rg_avro_logical lt = rg_avro_logical_of(s);

	if (lt.type != RG_AVRO_LT_NONE)
		return lt_names[lt.type];
	if (s->type == RG_AVRO_RECORD || s->type == RG_AVRO_ENUM || s->type == RG_AVRO_FIXED)
	{
		snprintf(buf, size, "%s %s", rg_avro_type_name(s->type), s->fullname);
		return buf;
	}
	return rg_avro_type_name(s->type);
}

/* "expected X, found Y" at the current path; always false. */
static bool
wrong_kind(enc_state *e, const rg_avro_schema *s, const avj_value *v)
{
	char		name[512];

	return enc_fail(e, "expected %s, found %s", expected_name(s, name, sizeof(name)),
					avj_kind_name(v->kind));
}

/* A short quoted form of a value's text for messages. */
static const char *
shown(const avj_value *v, char *buf, size_t size)
{
	if (v->kind == AVJ_STRING)
		snprintf(buf, size, "\"%.60s%s\"", v->text, v->len > 60 ? "..." : "");
	else
		snprintf(buf, size, "%.60s%s", v->text, v->len > 60 ? "..." : "");
	return buf;
}

/* ---------- scalars ---------- */

/* A JSON number with an integral value in [lo, hi]; false if it is not one. */
static bool
number_integer(const avj_value *v, int64_t lo, int64_t hi, int64_t *out)
{
	char	   *end;

	if (strpbrk(v->text, ".eE") == NULL)
	{
		long long	n;

		errno = 0;
		n = strtoll(v->text, &end, 10);
		if (errno != 0 || *end != '\0' || n < lo || n > hi)
			return false;
		*out = n;
		return true;
	}
	else
	{
		double		d = strtod(v->text, &end);

		if (*end != '\0' || d != floor(d) || d < (double) lo || d >= -(double) INT64_MIN ||
			d > (double) hi)
			return false;
		*out = (int64_t) d;
		return true;
	}
}

/* An int or a long (and their date and time logical types). */
static bool
encode_integer(enc_state *e, const rg_avro_schema *s, const avj_value *v)
{
	rg_avro_logical lt = rg_avro_logical_of(s);
	bool		is_int = s->type == RG_AVRO_INT;
	int64_t		n;
	char		tmp[80];

	if (v->kind == AVJ_NUMBER)
	{
		if (!number_integer(v, is_int ? INT32_MIN : INT64_MIN,
							is_int ? INT32_MAX : INT64_MAX, &n))
			return enc_fail(e, "%s is not %s", shown(v, tmp, sizeof(tmp)),
							is_int ? "an int (32 bits)" : "a long (64 bits)");
	}
	else if (v->kind == AVJ_STRING && lt.type != RG_AVRO_LT_NONE)
	{
		const char *why = NULL;

		if (!rg_avro_time_parse(lt.type, v->text, v->len, &n, &why))
			return enc_fail(e, "%s: %s", shown(v, tmp, sizeof(tmp)), why);
		if (is_int && (n < INT32_MIN || n > INT32_MAX))
			return enc_fail(e, "%s is out of range", shown(v, tmp, sizeof(tmp)));
	}
	else
		return wrong_kind(e, s, v);
	write_long(e->out, n);
	return true;
}

/* A float or a double: a number, or "NaN", "Infinity", "-Infinity". */
static bool
encode_real(enc_state *e, const rg_avro_schema *s, const avj_value *v)
{
	double		d;
	char	   *end;
	char		tmp[80];

	if (v->kind == AVJ_NUMBER)
	{
		errno = 0;
		d = strtod(v->text, &end);
		if (isinf(d) || (s->type == RG_AVRO_FLOAT && isinf((float) d)))
			return enc_fail(e, "%s is out of range for %s", shown(v, tmp, sizeof(tmp)),
							rg_avro_type_name(s->type));
	}
	else if (v->kind == AVJ_STRING && strcmp(v->text, "NaN") == 0)
		d = NAN;
	else if (v->kind == AVJ_STRING && strcmp(v->text, "Infinity") == 0)
		d = INFINITY;
	else if (v->kind == AVJ_STRING && strcmp(v->text, "-Infinity") == 0)
		d = -INFINITY;
	else
		return wrong_kind(e, s, v);
	if (s->type == RG_AVRO_FLOAT)
	{
		float		f = (float) d;
		uint32_t	u;

		memcpy(&u, &f, 4);
		write_le(e->out, u, 4);
	}
	else
	{
		uint64_t	u;

		memcpy(&u, &d, 8);
		write_le(e->out, u, 8);
	}
	return true;
}

/*
 * A string of code points U+0000..U+00FF as bytes, one each (Avro's JSON
 * encoding of bytes and fixed, and so of defaults); false if another.
 */
static bool
latin1_bytes(const avj_value *v, rg_buf *out)
{
	const unsigned char *p = (const unsigned char *) v->text;
	const unsigned char *end = p + v->len;

	while (p < end)
	{
		char		c;

		if (*p < 0x80)
			c = (char) *p++;
		else if ((*p & 0xE0) == 0xC0 && p + 1 < end && *p <= 0xC3)
		{
			c = (char) (((p[0] & 0x1F) << 6) | (p[1] & 0x3F));
			p += 2;
		}
		else
			return false;
		rg_buf_append(out, &c, 1);
	}
	return true;
}

/* Empty raw, to read the value again another way. */
static void
raw_reset(rg_buf *raw)
{
	raw->len = 0;
	if (raw->data)
		raw->data[0] = '\0';
}

/*
 * A decimal in Avro's JSON encoding: its unscaled two's-complement bytes as
 * code points, which must be a value of decimal(precision, scale).  Into
 * raw, written as a number of that value is (minimal two's complement, or
 * the fixed size), so that the message depends on the value alone.
 */
static bool
decimal_code_points(enc_state *e, const rg_avro_schema *s, rg_avro_logical lt,
					const avj_value *v, rg_buf *raw)
{
	rg_buf		given;
	rg_buf		text;
	const char *why = NULL;
	char		tmp[80];
	bool		ok;

	rg_buf_init(&given);
	if (!latin1_bytes(v, &given))
	{
		rg_buf_free(&given);
		return enc_fail(e, "%s is neither a decimal number nor a decimal's bytes in "
						"Avro's JSON encoding (code points U+0000 to U+00FF) (decimal(%d,%d))",
						shown(v, tmp, sizeof(tmp)), lt.precision, lt.scale);
	}
	if (s->type == RG_AVRO_FIXED && given.len != (size_t) s->size)
	{
		/* encode_bytes says what size it wants */
		rg_buf_append(raw, given.data ? given.data : "", given.len);
		rg_buf_free(&given);
		return true;
	}
	rg_buf_init(&text);
	ok = !given.oom &&
		rg_avro_decimal_write(&text, (const uint8_t *) given.data, given.len, lt.scale);
	if (!ok)
		why = given.len == 0 ? "is a decimal of no bytes" : "is a decimal of too many bytes";
	else if (!text.oom)
		ok = rg_avro_decimal_parse(text.data, text.len, lt.precision, lt.scale,
								   s->type == RG_AVRO_FIXED ? s->size : 0, raw, &why);
	if (given.oom || text.oom || raw->oom)
		ok = enc_nomem(e);
	else if (!ok)
		ok = enc_fail(e, "%s (%.60s%s in Avro's JSON encoding) %s (decimal(%d,%d))",
					  shown(v, tmp, sizeof(tmp)), text.len ? text.data : "?",
					  text.len > 60 ? "..." : "", why, lt.precision, lt.scale);
	rg_buf_free(&given);
	rg_buf_free(&text);
	return ok;
}

/*
 * The bytes of bytes or fixed, into raw.  Two JSON forms are read: the one
 * decode writes (base64; a decimal as a number, or a string of one) and
 * Avro's JSON encoding (a string of code points U+0000..U+00FF, one byte
 * each; defaults are always that).  Where a string is both: for bytes,
 * valid base64 is base64; for fixed, the form that gives the fixed size
 * (never both: base64 of n bytes is longer than n); for a decimal, number
 * text is the number.  A bare union branch reads only the first form (Avro's
 * JSON encoding wraps a union's value).
 */
static bool
value_bytes(enc_state *e, const rg_avro_schema *s, const avj_value *v, bool bare,
			rg_buf *raw)
{
	rg_avro_logical lt = rg_avro_logical_of(s);
	char		tmp[80];
	const char *why = NULL;

	if (lt.type == RG_AVRO_LT_DECIMAL && !e->default_mode)
	{
		if (v->kind != AVJ_NUMBER && v->kind != AVJ_STRING)
			return wrong_kind(e, s, v);
		if (v->kind == AVJ_STRING && !bare && !rg_avro_decimal_syntax(v->text, v->len))
			return decimal_code_points(e, s, lt, v, raw);
		if (!rg_avro_decimal_parse(v->text, v->len, lt.precision, lt.scale,
								   s->type == RG_AVRO_FIXED ? s->size : 0, raw, &why))
			return enc_fail(e, "%s %s (decimal(%d,%d))", shown(v, tmp, sizeof(tmp)),
							why, lt.precision, lt.scale);
		return true;
	}
	if (v->kind != AVJ_STRING)
		return wrong_kind(e, s, v);
	if (e->default_mode)
	{
		if (!latin1_bytes(v, raw))
			return enc_fail(e, "the default %s has a character above U+00FF",
							shown(v, tmp, sizeof(tmp)));
		return true;
	}
	if (rg_base64_decode(v->text, v->len, true, raw))
	{
		rg_buf		cp;

		if (bare || s->type != RG_AVRO_FIXED || raw->len == (size_t) s->size)
			return true;
		/* fixed: the size's number of code points is Avro's JSON encoding */
		rg_buf_init(&cp);
		if (latin1_bytes(v, &cp) && cp.len == (size_t) s->size)
		{
			raw_reset(raw);
			rg_buf_append(raw, cp.data, cp.len);
		}
		rg_buf_free(&cp);
		return true;
	}
	if (bare)
		return enc_fail(e, "%s is not base64", shown(v, tmp, sizeof(tmp)));
	raw_reset(raw);
	if (!latin1_bytes(v, raw))
		return enc_fail(e, "%s is neither base64 nor bytes in Avro's JSON encoding "
						"(code points U+0000 to U+00FF)", shown(v, tmp, sizeof(tmp)));
	return true;
}

/* bytes or fixed (bare: a bare union branch's value) */
static bool
encode_bytes(enc_state *e, const rg_avro_schema *s, const avj_value *v, bool bare)
{
	rg_buf		raw;
	bool		ok;

	rg_buf_init(&raw);
	ok = value_bytes(e, s, v, bare, &raw);
	if (ok && raw.oom)
		ok = enc_nomem(e);
	if (ok && s->type == RG_AVRO_FIXED && raw.len != (size_t) s->size)
		ok = enc_fail(e, "expected %d bytes for fixed %s, found %zu", s->size,
					  s->fullname, raw.len);
	if (ok && s->type == RG_AVRO_FIXED)
		rg_buf_append(e->out, raw.data ? raw.data : "", raw.len);
	else if (ok)
		write_bytes(e->out, raw.data ? raw.data : "", raw.len);
	rg_buf_free(&raw);
	return ok;
}

/*
 * string (and uuid: any text, as decode gives any, Avro Java's generic
 * data included)
 */
static bool
encode_string(enc_state *e, const rg_avro_schema *s, const avj_value *v)
{
	if (v->kind != AVJ_STRING)
		return wrong_kind(e, s, v);
	if (!rg_utf8_valid((const unsigned char *) v->text, v->len))
		return enc_fail(e, "the string is not valid UTF-8");
	write_bytes(e->out, v->text, v->len);
	return true;
}

/* enum: a symbol, written as its index */
static bool
encode_enum(enc_state *e, const rg_avro_schema *s, const avj_value *v)
{
	char		tmp[80];
	int			i;

	if (v->kind != AVJ_STRING)
		return wrong_kind(e, s, v);
	for (i = 0; i < s->n_symbols; i++)
	{
		if (strlen(s->symbols[i]) == v->len && memcmp(s->symbols[i], v->text, v->len) == 0)
		{
			write_long(e->out, i);
			return true;
		}
	}
	return enc_fail(e, "%s is not a symbol of enum %s", shown(v, tmp, sizeof(tmp)),
					s->fullname);
}

/* ---------- containers ---------- */

/* array: one block of every item, then the end block */
static bool
encode_array(enc_state *e, const rg_avro_schema *s, const avj_value *v, int depth)
{
	int			i;

	if (v->kind != AVJ_ARRAY)
		return wrong_kind(e, s, v);
	if (v->n > 0)
		write_long(e->out, v->n);
	if (!rg_avro_path_push(&e->path, RG_AVRO_SEG_INDEX, NULL, 0, 0))
		return enc_nomem(e);
	for (i = 0; i < v->n; i++)
	{
		e->path.segs[e->path.n - 1].index = i;
		if (!encode_value(e, s->items, v->items[i], depth + 1))
			return false;
	}
	rg_avro_path_pop(&e->path);
	write_long(e->out, 0);
	return true;
}

/* map: one block of every entry (key, value), then the end block */
static bool
encode_map(enc_state *e, const rg_avro_schema *s, const avj_value *v, int depth)
{
	int			i;

	if (v->kind != AVJ_OBJECT)
		return wrong_kind(e, s, v);
	if (v->n > 0)
		write_long(e->out, v->n);
	for (i = 0; i < v->n; i++)
	{
		if (!rg_avro_path_push(&e->path, RG_AVRO_SEG_KEY, v->keys[i], v->key_lens[i], 0))
			return enc_nomem(e);
		write_bytes(e->out, v->keys[i], v->key_lens[i]);
		if (!encode_value(e, s->items, v->items[i], depth + 1))
			return false;
		rg_avro_path_pop(&e->path);
	}
	write_long(e->out, 0);
	return true;
}

/* The member of an object named name (len bytes; the last, as jsonb keeps it), or NULL. */
static const avj_value *
member(const avj_value *v, const char *name, size_t len)
{
	int			i;

	for (i = v->n; i-- > 0;)
		if (v->key_lens[i] == len && memcmp(v->keys[i], name, len) == 0)
			return v->items[i];
	return NULL;
}

/* Is key (len bytes) the name of one of the record's fields? */
static bool
is_field(const rg_avro_schema *s, const char *key, size_t len)
{
	int			i;

	for (i = 0; i < s->n_fields; i++)
		if (strlen(s->fields[i].name) == len && memcmp(s->fields[i].name, key, len) == 0)
			return true;
	return false;
}

/* A default value (from the schema) written in default mode. */
static bool
encode_default(enc_state *e, const rg_avro_schema *s, const json_t *dflt, int depth)
{
	avj_value  *v = avj_from_jansson(e->arena, dflt, 0);
	bool		saved = e->default_mode;
	bool		ok;

	if (v == NULL)
		return enc_nomem(e);
	e->default_mode = true;
	ok = encode_value(e, s, v, depth);
	e->default_mode = saved;
	return ok;
}

/* record: its fields in order, a missing one from its default */
static bool
encode_record(enc_state *e, const rg_avro_schema *s, const avj_value *v, int depth)
{
	int			found = 0;
	int			i;

	if (v->kind != AVJ_OBJECT)
		return wrong_kind(e, s, v);
	for (i = 0; i < s->n_fields; i++)
	{
		const rg_avro_field *f = &s->fields[i];
		const avj_value *fv = member(v, f->name, strlen(f->name));
		bool		ok;

		if (!rg_avro_path_push(&e->path, RG_AVRO_SEG_FIELD, f->name, 0, 0))
			return enc_nomem(e);
		if (fv != NULL)
		{
			found++;
			ok = encode_value(e, f->type, fv, depth + 1);
		}
		else if (f->default_value != NULL)
			ok = encode_default(e, f->type, f->default_value, depth + 1);
		else
			ok = enc_fail(e, "missing, and the field has no default");
		if (!ok)
			return false;
		rg_avro_path_pop(&e->path);
	}
	/* members that are no field (keys are distinct, as jsonb has them) */
	for (i = 0; found < v->n && i < v->n; i++)
	{
		if (is_field(s, v->keys[i], v->key_lens[i]))
			continue;
		if (!rg_avro_path_push(&e->path, RG_AVRO_SEG_KEY, v->keys[i], v->key_lens[i], 0))
			return enc_nomem(e);
		return enc_fail(e, "not a field of record %s", s->fullname);
	}
	return true;
}

/* ---------- unions ---------- */

/* Write branch b's index and v as that branch; on failure nothing is written. */
static bool
try_branch(enc_state *e, const rg_avro_schema *u, int b, const avj_value *v,
		   int depth, bool bare)
{
	size_t		mark = e->out->len;
	int			path_n = e->path.n;

	write_long(e->out, b);
	e->bare_branch = bare;
	if (encode_value(e, u->branches[b], v, depth + 1))
		return true;
	e->path.n = path_n;
	if (!e->out->oom)
	{
		e->out->len = mark;
		if (e->out->data)
			e->out->data[mark] = '\0';
	}
	return false;
}

/* The branch a wrapper's key names ("int", "com.x.Rec", "Rec"), or -1. */
static int
wrapper_branch(const rg_avro_schema *u, const avj_value *v)
{
	int			i;

	for (i = 0; i < u->n_branches; i++)
	{
		const rg_avro_schema *b = u->branches[i];
		const char *name = rg_avro_branch_name(b);

		if (strlen(name) == v->key_lens[0] && memcmp(name, v->keys[0], v->key_lens[0]) == 0)
			return i;
	}
	for (i = 0; i < u->n_branches; i++)
	{
		const rg_avro_schema *b = u->branches[i];

		if (b->name != NULL && b->fullname != b->name &&
			strlen(b->name) == v->key_lens[0] &&
			memcmp(b->name, v->keys[0], v->key_lens[0]) == 0)
			return i;
	}
	return -1;
}

/* May a branch read a value of this JSON kind, other than its own kind? */
static bool
accepts_otherwise(const rg_avro_schema *b, avj_kind k)
{
	rg_avro_lt	lt = rg_avro_logical_of(b).type;

	switch (b->type)
	{
		case RG_AVRO_INT:
		case RG_AVRO_LONG:
			return lt != RG_AVRO_LT_NONE && k == AVJ_NUMBER;
		case RG_AVRO_FLOAT:
		case RG_AVRO_DOUBLE:
			return k == AVJ_STRING;
		case RG_AVRO_BYTES:
		case RG_AVRO_FIXED:
			return lt == RG_AVRO_LT_DECIMAL && k == AVJ_STRING;
		default:
			return false;
	}
}

/*
 * A bare value: the first branch of its JSON kind that takes it, then the
 * branches that take that kind otherwise (a number for a date, "NaN" for
 * a double).  In default mode the first branch comes first.
 */
static bool
encode_bare(enc_state *e, const rg_avro_schema *u, const avj_value *v, int depth)
{
	rg_error	first;
	bool		have_first = false;
	int			pass;
	int			i;

	if (e->default_mode && u->n_branches > 0 && try_branch(e, u, 0, v, depth, true))
		return true;
	if (e->out->oom || e->err->code == RG_ERR_NOMEM)
		return false;
	for (pass = 0; pass < 2; pass++)
	{
		for (i = 0; i < u->n_branches; i++)
		{
			const rg_avro_schema *b = u->branches[i];
			bool		candidate;

			if (pass == 0)
				candidate = rg_avro_json_kind(b) == v->kind;
			else
				candidate = accepts_otherwise(b, v->kind);

			if (!candidate || (e->default_mode && i == 0))
				continue;
			if (try_branch(e, u, i, v, depth, true))
				return true;
			if (e->out->oom || e->err->code == RG_ERR_NOMEM)
				return false;
			if (!have_first)
			{
				first = *e->err;
				have_first = true;
			}
		}
	}
	if (have_first)
	{
		*e->err = first;
		return false;
	}
	{
		rg_buf		names;
		bool		ok;

		rg_buf_init(&names);
		for (i = 0; i < u->n_branches; i++)
		{
			if (i)
				rg_buf_puts(&names, ", ");
			rg_buf_puts(&names, rg_avro_branch_name(u->branches[i]));
		}
		ok = enc_fail(e, "expected one of [%s], found %s", names.data ? names.data : "",
					  avj_kind_name(v->kind));
		rg_buf_free(&names);
		return ok;
	}
}

/* union: Avro's JSON wrapper {"name": value}, or a bare value */
static bool
encode_union(enc_state *e, const rg_avro_schema *u, const avj_value *v, int depth)
{
	if (!e->default_mode && v->kind == AVJ_OBJECT && v->n == 1)
	{
		int			b = wrapper_branch(u, v);

		if (b >= 0)
		{
			rg_error	wrapped;
			bool		object_branch = false;
			int			i;

			if (try_branch(e, u, b, v->items[0], depth, false))
				return true;
			if (e->out->oom || e->err->code == RG_ERR_NOMEM)
				return false;
			/* perhaps a record or map whose one member has that name */
			for (i = 0; i < u->n_branches; i++)
				if (rg_avro_json_kind(u->branches[i]) == AVJ_OBJECT)
					object_branch = true;
			if (!object_branch)
				return false;
			wrapped = *e->err;
			if (encode_bare(e, u, v, depth))
				return true;
			if (e->err->code != RG_ERR_NOMEM)
				*e->err = wrapped;
			return false;
		}
	}
	return encode_bare(e, u, v, depth);
}

/* ---------- values ---------- */

/* Any value of schema s. */
static bool
encode_value(enc_state *e, const rg_avro_schema *s, const avj_value *v, int depth)
{
	bool		bare = e->bare_branch;

	e->bare_branch = false;
	if (depth > RG_AVRO_MAX_VALUE_DEPTH || rg_too_deep(depth))
		return enc_fail(e, "the value nests deeper than %d levels", RG_AVRO_MAX_VALUE_DEPTH);
	if (e->out->oom)
		return enc_nomem(e);
	switch (s->type)
	{
		case RG_AVRO_NULL:
			return v->kind == AVJ_NULL ? true : wrong_kind(e, s, v);
		case RG_AVRO_BOOLEAN:
			if (v->kind != AVJ_BOOL)
				return wrong_kind(e, s, v);
			rg_buf_putc(e->out, v->boolean ? 1 : 0);
			return true;
		case RG_AVRO_INT:
		case RG_AVRO_LONG:
			return encode_integer(e, s, v);
		case RG_AVRO_FLOAT:
		case RG_AVRO_DOUBLE:
			return encode_real(e, s, v);
		case RG_AVRO_BYTES:
		case RG_AVRO_FIXED:
			return encode_bytes(e, s, v, bare);
		case RG_AVRO_STRING:
			return encode_string(e, s, v);
		case RG_AVRO_ENUM:
			return encode_enum(e, s, v);
		case RG_AVRO_ARRAY:
			return encode_array(e, s, v, depth);
		case RG_AVRO_MAP:
			return encode_map(e, s, v, depth);
		case RG_AVRO_RECORD:
			return encode_record(e, s, v, depth);
		case RG_AVRO_UNION:
			return encode_union(e, s, v, depth);
	}
	return enc_fail(e, "unknown schema type");
}

/* Run one encode of v against s into out, in a fresh state. */
static bool
encode_root(const rg_avro_schema *s, const avj_value *v, bool default_mode,
			rg_arena *arena, rg_buf *out, rg_error *err)
{
	enc_state	e;
	bool		ok;

	e.out = out;
	e.err = err;
	e.arena = arena;
	e.default_mode = default_mode;
	e.bare_branch = false;
	rg_avro_path_init(&e.path);
	ok = encode_value(&e, s, v, 0);
	rg_avro_path_free(&e.path);
	if (out->oom || e.path.oom)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	return ok;
}

/* rg_format_avro.encode (rg_format.h); message is ignored. */
bool
rg_avro_encode(const rg_schema *schema, const char *message, const char *json,
			   size_t json_len, rg_buf *out, rg_error *err)
{
	const rg_avro_parsed *model = schema->model;
	rg_arena   *arena = rg_arena_create();
	avj_value  *v;
	bool		ok = false;

	rg_error_clear(err);
	if (arena == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	v = avj_parse(arena, json, json_len, err);
	if (v != NULL)
		ok = encode_root(model->root, v, false, arena, out, err);
	rg_arena_destroy(arena);
	return ok;
}

/* See avro_payload.h */
bool
rg_avro_encode_default(const rg_avro_schema *s, const json_t *value, rg_buf *out,
					   rg_error *err)
{
	rg_arena   *arena = rg_arena_create();
	avj_value  *v;
	bool		ok = false;

	if (arena == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	v = avj_from_jansson(arena, value, 0);
	if (v == NULL)
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	else
		ok = encode_root(s, v, true, arena, out, err);
	rg_arena_destroy(arena);
	return ok;
}
