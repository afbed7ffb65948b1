/*-------------------------------------------------------------------------
 *
 * json_format.c
 *	  The JSON format's entry points (placeholder until the loader and the
 *	  diff land: every document is refused).
 *
 *-------------------------------------------------------------------------
 */
#include "rg_jsonschema.h"

/* Refuse every document: JSON Schema is not implemented yet. */
rg_schema *
rg_json_parse(const char *text, size_t len, const rg_reference *refs,
			  int n_refs, bool normalize, rg_error *err)
{
	(void) text;
	(void) len;
	(void) refs;
	(void) n_refs;
	(void) normalize;
	rg_error_set(err, RG_ERR_INVALID_SCHEMA, "JSON Schema is not supported yet");
	return NULL;
}

/* Nothing is kept outside the arena. */
void
rg_json_model_release(void *model)
{
	(void) model;
}
