/*-------------------------------------------------------------------------
 *
 * schema_formats.c
 *	  The other forms of a stored schema that a read asks for with format=
 *	  (Confluent's ParsedSchema.formattedString): AVRO's resolved form, the
 *	  named types of its references written in full where first used.
 *	  (PROTOBUF's serialized form is registry.schema_serialized(), wire.c.)
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog.h"
#include "registry.h"
#include "schemas.h"

/*
 * The resolved form of schema id in context (Avro's Schema.toString() of
 * it with its references' types inlined), NULL for a format without one or
 * when the context has no such schema (the caller answers the stored text).
 */
char *
registry_schema_resolved(const char *context, int32 id)
{
	CatalogSchema row;
	const rg_schema *s;
	rg_buf		buf;
	char	   *out;

	if (!catalog_get_schema(context, id, &row))
		return NULL;
	s = registry_stored_schema(context, id, row.fingerprint);
	if (s->format->write_resolved == NULL)
		return NULL;
	rg_buf_init(&buf);
	s->format->write_resolved(s, &buf);
	if (buf.oom || buf.too_deep)
	{
		rg_buf_free(&buf);
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory while writing schema %d in its resolved form", id)));
	}
	out = pnstrdup(buf.data, buf.len);
	rg_buf_free(&buf);
	return out;
}
