/*-------------------------------------------------------------------------
 *
 * avro_payload.h
 *	  Internal to the Avro payload code (avro_encode.c, avro_decode.c,
 *	  avro_logical.c, avro_value_json.c): the JSON values encode reads,
 *	  the logical types and the paths that name a part of a value.
 *
 * The JSON form of Avro values is documented in doc/payloads.md.
 *
 *-------------------------------------------------------------------------
 */
#ifndef AVRO_PAYLOAD_H
#define AVRO_PAYLOAD_H

#include "rg_avro.h"

#include <stdarg.h>

/*
 * Limits.  A value nests at most RG_AVRO_MAX_VALUE_DEPTH schema levels
 * (a recursive schema admits any depth; rg_too_deep also holds).  Items
 * that take no bytes in the binary form (null, an empty record) are
 * counted: a payload may hold at most RG_AVRO_MAX_EMPTY_ITEMS of them, so
 * a block count of 2^62 nulls is refused instead of looping.  A decimal
 * has at most RG_AVRO_MAX_DECIMAL_BYTES bytes (about 9800 digits).
 */
#define RG_AVRO_MAX_VALUE_DEPTH 900
#define RG_AVRO_MAX_EMPTY_ITEMS (1 << 20)
#define RG_AVRO_MAX_DECIMAL_BYTES 4096

/* ---------- JSON values with exact numbers (avro_value_json.c) ---------- */

typedef enum avj_kind
{
	AVJ_NULL = 0,
	AVJ_BOOL,
	AVJ_NUMBER,
	AVJ_STRING,
	AVJ_ARRAY,
	AVJ_OBJECT
} avj_kind;

/*
 * A JSON value.  Numbers keep their text, so a decimal or a long reads
 * exactly; strings are unescaped UTF-8 (len bytes, NUL-terminated, may
 * hold a NUL).  Arrays and objects have n items; an object's keys are
 * parallel to its items.
 */
typedef struct avj_value
{
	avj_kind	kind;
	bool		boolean;
	const char *text;
	size_t		len;
	struct avj_value **items;
	const char **keys;
	size_t	   *key_lens;
	int			n;
} avj_value;

/* Parse JSON text into arena; NULL with err (RG_ERR_INVALID_VALUE) on bad JSON. */
extern avj_value *avj_parse(rg_arena *arena, const char *text, size_t len,
							rg_error *err);

/* A jansson value (a schema's default) as an avj_value; NULL on OOM or too deep. */
extern avj_value *avj_from_jansson(rg_arena *arena, const json_t *v, int depth);

/* "null", "boolean", "number", ... for messages */
extern const char *avj_kind_name(avj_kind kind);

/* ---------- logical types (avro_logical.c) ---------- */

typedef enum rg_avro_lt
{
	RG_AVRO_LT_NONE = 0,
	RG_AVRO_LT_DECIMAL,
	RG_AVRO_LT_UUID,
	RG_AVRO_LT_DATE,
	RG_AVRO_LT_TIME_MILLIS,
	RG_AVRO_LT_TIME_MICROS,
	RG_AVRO_LT_TIMESTAMP_MILLIS,
	RG_AVRO_LT_TIMESTAMP_MICROS,
	RG_AVRO_LT_LOCAL_TIMESTAMP_MILLIS,
	RG_AVRO_LT_LOCAL_TIMESTAMP_MICROS
} rg_avro_lt;

typedef struct rg_avro_logical
{
	rg_avro_lt	type;
	int			precision;		/* decimal */
	int			scale;			/* decimal */
} rg_avro_logical;

/* The logical type Avro 1.11 recognizes on s (invalid ones are ignored). */
extern rg_avro_logical rg_avro_logical_of(const rg_avro_schema *s);

/* Is a value of s written as a JSON string (a date, bytes, an enum...)? */
extern avj_kind rg_avro_json_kind(const rg_avro_schema *s);

/*
 * A date, time or timestamp (raw value v of logical type lt) as ISO 8601
 * text into buf, quoted; false when v is outside what the text can say
 * (the caller writes the raw number then).
 */
extern bool rg_avro_time_write(rg_buf *buf, rg_avro_lt lt, int64_t v);

/* Parse the ISO 8601 text of a date, time or timestamp; false with a reason. */
extern bool rg_avro_time_parse(rg_avro_lt lt, const char *s, size_t len, int64_t *out,
							   const char **why);

/*
 * A decimal's unscaled two's-complement big-endian bytes as JSON number
 * text with scale digits after the point; false when empty or too long.
 */
extern bool rg_avro_decimal_write(rg_buf *buf, const uint8_t *b, size_t n, int scale);

/*
 * Has s the syntax of number text as a decimal reads it (an optional sign,
 * digits with an optional point, an optional exponent)?
 */
extern bool rg_avro_decimal_syntax(const char *s, size_t len);

/*
 * Number text (JSON number syntax, as a JSON number or a string) as the
 * unscaled bytes of decimal(precision, scale): minimal two's complement, or
 * sign-extended to fixed_size when it is not 0.  false with a reason.
 */
extern bool rg_avro_decimal_parse(const char *s, size_t len, int precision, int scale,
								  int fixed_size, rg_buf *out, const char **why);




/* ---------- paths of values in messages ---------- */

typedef enum rg_avro_seg_kind
{
	RG_AVRO_SEG_FIELD,
	RG_AVRO_SEG_INDEX,
	RG_AVRO_SEG_KEY
} rg_avro_seg_kind;

typedef struct rg_avro_seg
{
	rg_avro_seg_kind kind;
	const char *name;			/* field name or map key */
	size_t		len;			/* of a map key */
	int64_t		index;
} rg_avro_seg;

/* The path from the root to the value at hand, rendered only on a message. */
typedef struct rg_avro_path
{
	rg_avro_seg *segs;
	int			n;
	int			cap;
	bool		oom;
} rg_avro_path;

extern void rg_avro_path_init(rg_avro_path *p);
extern void rg_avro_path_free(rg_avro_path *p);

/* Push a segment (false on out of memory); pop it. */
extern bool rg_avro_path_push(rg_avro_path *p, rg_avro_seg_kind kind, const char *name,
							  size_t len, int64_t index);
static inline void
rg_avro_path_pop(rg_avro_path *p)
{
	p->n--;
}

/*
 * "$.a.b[3]" into buf; with wildcards, array indexes and map keys as
 * "[*]" (the path of every item, for notes).
 */
extern void rg_avro_path_write(rg_buf *buf, const rg_avro_path *p, bool wildcards);

/*
 * Set err to code with "<path>: <message>", the message formatted from fmt
 * and ap (RG_ERR_NOMEM when the text finds no memory): the one form of
 * encode's and decode's messages.
 */
extern void rg_avro_path_error(rg_error *err, rg_errcode code,
							   const rg_avro_path *p, const char *fmt,
							   va_list ap) __attribute__((format(printf, 4, 0)));

/* The name a union branch has in Avro's JSON encoding ("int", "com.x.Rec"). */
extern const char *rg_avro_branch_name(const rg_avro_schema *s);

/* Does a union need its values wrapped ({"int": 5}) to tell its branches apart? */
extern bool rg_avro_union_ambiguous(const rg_avro_schema *u);

/* The binary form of a schema's default value, for decode (avro_encode.c). */
extern bool rg_avro_encode_default(const rg_avro_schema *s, const json_t *value,
								   rg_buf *out, rg_error *err);

#endif							/* AVRO_PAYLOAD_H */
