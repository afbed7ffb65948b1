/*-------------------------------------------------------------------------
 *
 * rg_avro_api.h
 *	  The Avro entry points callers outside the core may use.  Free of
 *	  jansson, so the PostgreSQL glue can include it (jansson's json_object
 *	  clashes with PostgreSQL's fmgrprotos.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_AVRO_API_H
#define RG_AVRO_API_H

#include "rg_format.h"

/* the AVRO format (avro_format.c) */
extern const rg_format rg_format_avro;

/*
 * Avro's Parsing Canonical Form of a schema (from rg_malloc, the caller
 * rg_frees it) and the CRC-64-AVRO fingerprint of a byte string.
 */
extern char *rg_avro_canonical_form(const rg_schema *schema, rg_error *err);
extern uint64_t rg_avro_crc64(const char *data, size_t len);

/* rg_format_avro's parse and can_read (avro_parse.c, avro_compat.c) */
extern rg_schema *rg_avro_parse(const char *text, size_t len,
								const rg_reference *refs, int n_refs,
								bool normalize, rg_error *err);
extern bool rg_avro_can_read(const rg_schema *reader, const rg_schema *writer,
							 rg_strlist *out);

/* rg_format_avro's parse_textless (avro_parse.c) */
extern rg_schema *rg_avro_parse_textless(const char *text, size_t len,
										 const rg_reference *refs, int n_refs,
										 rg_error *err);

/* rg_format_avro's write_text (avro_write.c): the stored form, from the model */
extern void rg_avro_write_text(const rg_schema *schema, rg_buf *out);

/* rg_format_avro's write_resolved (avro_write.c): the references' types inlined */
extern void rg_avro_write_resolved(const rg_schema *schema, rg_buf *out);

/*
 * rg_format_avro's has_top_level_field (avro_fields.c): a field of the
 * root record, by name
 */
extern bool rg_avro_has_top_level_field(const rg_schema *schema,
										const char *name);

/*
 * rg_format_avro's lint (avro_lint.c): a field removed and one of the same
 * type added with a default and no alias naming it, against the latest
 * earlier version
 */
struct rg_prior_version;

/*
 * rg_format_avro's encode and decode (avro_encode.c, avro_decode.c): the
 * binary encoding of a value in the JSON form of doc/payloads.md, and back
 * through Avro's schema resolution
 */
extern bool rg_avro_encode(const rg_schema *schema, const char *message,
						   const char *json, size_t json_len, rg_buf *out,
						   rg_error *err);
extern bool rg_avro_decode(const rg_schema *writer, const rg_schema *reader,
						   const uint8_t *data, size_t len, rg_buf *out,
						   rg_strlist *notes, rg_error *err);
struct rg_field_list;

/* rg_format_avro's fields: every field the schema declares (avro_fields.c) */
extern bool rg_avro_fields(const rg_schema *schema, struct rg_field_list *out);
extern bool rg_avro_lint(const rg_schema *new_schema,
						 const struct rg_prior_version *earlier, int n_earlier,
						 unsigned int rules, rg_strlist *out);

#endif							/* RG_AVRO_API_H */
