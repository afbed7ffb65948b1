/*-------------------------------------------------------------------------
 *
 * json_diff_types.c
 *	  The difference types of the JSON Schema diff and their messages.
 *
 * Confluent's Difference.Type has 132 constants; two sets of them are
 * compatible changes (SchemaDiff's STRICT set, and the LENIENT set that
 * adds the content-model relaxations).  A message is
 * {errorType:"TYPE", description:"..."} with a description chosen by the
 * group the type belongs to; its two "%s" stand for the reader's and the
 * writer's roles and are filled by the level driver (rg_compat.c).
 *
 *-------------------------------------------------------------------------
 */
#include "json_diff_internal.h"

const jd_type_info rg_jd_types[JD_N_TYPES] = {
#define JD_TYPE(name, strict, lenient, msg) {#name, strict, lenient, msg},
	JD_TYPES
#undef JD_TYPE
};

/* the description of each group: the text before the path and after it */
typedef struct jd_template
{
	const char *before;
	const char *after;
} jd_template;

static const jd_template templates[] = {
	[JD_MSG_NONE] = {NULL, NULL},
	[JD_MSG_KEYWORD] = {"The keyword at path '",
	"' in the %s schema is not present in the %s schema"},
	[JD_MSG_MORE] = {"The value at path '",
	"' in the %s schema is more than its value in the %s schema"},
	[JD_MSG_LESS] = {"The value at path '",
	"' in the %s schema is less than its value in the %s schema"},
	[JD_MSG_VALUE] = {"The value at path '",
	"' is different between the %s and %s schema"},
	[JD_MSG_FEWER] = {"An array or combined type at path '",
	"' has fewer elements in the %s schema than the %s schema"},
	[JD_MSG_MORE_ELEMENTS] = {"An array or combined type at path '",
	"' has more elements in the %s schema than the %s schema"},
	[JD_MSG_TYPE] = {"A type at path '",
	"' is different between the %s schema and the %s schema"},
	[JD_MSG_OPEN] = {"The %s schema has an open content model and has a property or item at path '",
	"' which is missing in the %s schema"},
	[JD_MSG_REQ_UNOPEN] = {"The %s schema has an unopen content model and has a required property at path '",
	"' which is missing in the %s schema"},
	[JD_MSG_CLOSED] = {"The %s schema has a closed content model and is missing a property or item present at path '",
	"' in the %s schema"},
	[JD_MSG_REMOVED_NOT_COVERED] = {"A property or item is missing in the %s schema but present at path '",
	"' in the %s schema and is not covered by its partially open content model"},
	[JD_MSG_ADDED_NOT_COVERED] = {"The %s schema has a property or item at path '",
	"' which is missing in the %s schema and is not covered by its partially open content model"},
	[JD_MSG_RESERVED_REMOVED] = {"The %s schema has reserved property '",
	"' removed from its metadata which is present in the %s schema."},
	[JD_MSG_RESERVED_CONFLICT] = {"The %s schema has property at path '",
	"' that conflicts with the reserved properties which is missing in the %s schema."},
};

/*
 * How a message ends.  The current Difference.toString() closes the
 * description with a double quote, as it opens it.  Releases before the
 * property-added split (the 7.x line) closed it with "'}" and worded the
 * closed content model "The %s has a closed content model ..."; to emit
 * that form, make this "'}" and change JD_MSG_CLOSED's text above.
 */
#define JD_MESSAGE_END "\"}"

/* Is a difference of this type compatible under the policy? */
bool
rg_jd_type_compatible(jd_type type, bool lenient)
{
	if ((int) type < 0 || type >= JD_N_TYPES)
		return false;
	return lenient ? rg_jd_types[type].lenient_ok : rg_jd_types[type].strict_ok;
}

/* Difference.toString() of one difference at path ("#/..."). */
void
rg_jd_format_message(rg_buf *buf, jd_type type, const char *path)
{
	const jd_template *t = &templates[rg_jd_types[type].msg];

	rg_buf_puts(buf, "{errorType:\"");
	rg_buf_puts(buf, rg_jd_types[type].name);
	rg_buf_puts(buf, "\", description:\"");
	if (t->before != NULL)
	{
		rg_buf_puts(buf, t->before);
		rg_buf_puts(buf, path);
		rg_buf_puts(buf, t->after);
	}
	rg_buf_puts(buf, JD_MESSAGE_END);
}
