/*-------------------------------------------------------------------------
 *
 * avro_fields.c
 *	  The fields at an Avro schema's top level, for Confluent's
 *	  confluent:reserved check (AvroSchema.hasTopLevelField).
 *
 * Only a record at the root has top-level fields: its own fields, matched
 * by name as Avro Java's Schema.getField matches them (aliases do not
 * count).  A root that names a record defined by a reference is that
 * record.  Any other root (a union, an array, a primitive) has none.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"

#include <string.h>

/* See rg_avro_api.h */
bool
rg_avro_has_top_level_field(const rg_schema *schema, const char *name)
{
	const rg_avro_parsed *parsed = schema->model;
	const rg_avro_schema *root = parsed != NULL ? parsed->root : NULL;
	int			i;

	if (root == NULL || root->type != RG_AVRO_RECORD)
		return false;
	for (i = 0; i < root->n_fields; i++)
		if (strcmp(root->fields[i].name, name) == 0)
			return true;
	return false;
}
