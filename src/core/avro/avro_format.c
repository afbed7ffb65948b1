/*-------------------------------------------------------------------------
 *
 * avro_format.c
 *	  The AVRO format: its rg_format, the one thing the Avro folder exports
 *	  to the rest of the core besides the entry points of rg_avro_api.h.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"
#include "rg_tags.h"

const rg_format rg_format_avro = {
	.name = "AVRO",
	.parse = rg_avro_parse,
	.can_read = rg_avro_can_read,
	.has_top_level_field = rg_avro_has_top_level_field,
	.release = rg_avro_model_release,
	.parse_textless = rg_avro_parse_textless,
	.write_text = rg_avro_write_text,
	.write_resolved = rg_avro_write_resolved,
	.lint = rg_avro_lint,
	.fields = rg_avro_fields,
	.encode = rg_avro_encode,
	.decode = rg_avro_decode,
	.apply_tags = rg_avro_apply_tags,
	.tagged_entities = rg_avro_tagged_entities,
	.canonical_form = rg_avro_canonical_form,
};
