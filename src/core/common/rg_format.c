/*-------------------------------------------------------------------------
 *
 * rg_format.c
 *	  The table of schema formats and the life cycle of a parsed schema.
 *
 * Callers name a format the way Confluent's API does ("schemaType":
 * "AVRO") and get back the vtable; everything else goes through it.  Each
 * format defines its own rg_format in its folder; this table is the one
 * place that names them all.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro_api.h"
#include "rg_jsonschema.h"
#include "rg_protobuf.h"

#include <string.h>

/* the formats, in the order GET /schemas/types lists them */
static const rg_format *const formats[] = {
	&rg_format_avro,
	&rg_format_json,
	&rg_format_protobuf,
};

/* The formats this build knows, for GET /schemas/types; NULL past the end. */
const rg_format *
rg_format_at(int i)
{
	if (i < 0 || (size_t) i >= sizeof(formats) / sizeof(formats[0]))
		return NULL;
	return formats[i];
}

/* Confluent matches schemaType exactly: "avro" is not a schema type. */
const rg_format *
rg_format_lookup(const char *name)
{
	size_t		i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(formats[i]->name, name) == 0)
			return formats[i];
	return NULL;
}

/*
 * Release what the arena does not own (JSON values a model keeps), then
 * the arena, which holds the schema itself.
 */
void
rg_schema_free(rg_schema *schema)
{
	if (schema == NULL)
		return;
	if (schema->format && schema->format->release && schema->model)
		schema->format->release(schema->model);
	rg_arena_destroy(schema->arena);
}

/* See rg_format.h */
const char *
rg_schema_text(const rg_schema *schema, rg_buf *buf, size_t *len)
{
	if (schema->canonical != NULL)
	{
		*len = schema->canonical_len;
		return schema->canonical;
	}
	schema->format->write_text(schema, buf);
	if (buf->oom || buf->data == NULL)
		return NULL;
	*len = buf->len;
	return buf->data;
}

/* See rg_format.h */
bool
rg_schema_keep_text(rg_schema *schema, rg_arena *arena, rg_buf *buf)
{
	schema->canonical = NULL;
	if (!buf->oom && buf->data != NULL)
		schema->canonical = rg_arena_strndup(arena, buf->data, buf->len);
	schema->canonical_len = schema->canonical != NULL ? buf->len : 0;
	rg_buf_free(buf);
	return schema->canonical != NULL;
}

/* See rg_format.h */
rg_schema *
rg_parse_for_model(const rg_format *format, const char *text, size_t len,
				   const rg_reference *refs, int n_refs, rg_error *err)
{
	if (format->parse_textless != NULL)
		return format->parse_textless(text, len, refs, n_refs, err);
	return format->parse(text, len, refs, n_refs, false, err);
}

/* See rg_format.h */
rg_schema *
rg_parse_in_scratch(rg_parse_body body, const char *text, size_t len,
					const rg_reference *refs, int n_refs, bool normalize,
					rg_error *err)
{
	rg_arena   *arena;
	rg_schema  *schema;
	void	   *scratch;

	rg_error_clear(err);
	arena = rg_arena_create();
	if (arena == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return NULL;
	}
	scratch = rg_scratch_begin();
	schema = body(arena, text, len, refs, n_refs, normalize, err);
	rg_scratch_end(scratch);
	return schema;
}

/* See rg_format.h */
bool
rg_schema_has_top_level_field(const rg_schema *schema, const char *name)
{
	return schema->format->has_top_level_field != NULL &&
		schema->format->has_top_level_field(schema, name);
}
