/*-------------------------------------------------------------------------
 *
 * avro_functions.c
 *	  The SQL functions over one Avro schema text, outside any subject:
 *	  registry.avro_canonical_form() and registry.avro_fingerprint().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"

#include "registry.h"
#include "rg_avro_api.h"

PG_FUNCTION_INFO_V1(registry_avro_canonical_form);
PG_FUNCTION_INFO_V1(registry_avro_fingerprint);

/* The Parsing Canonical Form of an Avro schema text (rg_free()d by the caller); 42201 when invalid. */
static char *
canonical_form_or_error(text * t)
{
	rg_error	err;
	char	   *s = text_to_cstring(t);
	rg_schema  *schema;
	char	   *pcf;

	rg_error_clear(&err);
	schema = rg_format_avro.parse(s, strlen(s), NULL, 0, false, &err);
	if (schema == NULL)
		registry_report_invalid_schema("AVRO", err.message);
	rg_error_clear(&err);
	pcf = schema->format->canonical_form(schema, &err);
	rg_schema_free(schema);
	if (pcf == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	return pcf;
}

/* registry.avro_canonical_form(schema) -> Parsing Canonical Form */
Datum
registry_avro_canonical_form(PG_FUNCTION_ARGS)
{
	char	   *pcf = canonical_form_or_error(PG_GETARG_TEXT_PP(0));
	text	   *result = cstring_to_text(pcf);

	rg_free(pcf);
	PG_RETURN_TEXT_P(result);
}

/* registry.avro_fingerprint(schema) -> CRC-64-AVRO of the canonical form */
Datum
registry_avro_fingerprint(PG_FUNCTION_ARGS)
{
	char	   *pcf = canonical_form_or_error(PG_GETARG_TEXT_PP(0));
	uint64		fp = rg_avro_crc64(pcf, strlen(pcf));

	rg_free(pcf);
	PG_RETURN_INT64((int64) fp);
}
