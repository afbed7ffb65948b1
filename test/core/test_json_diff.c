/*-------------------------------------------------------------------------
 *
 * test_json_diff.c
 *	  Unit tests of the JSON Schema compatibility diff (json/json_diff*.c)
 *	  against Confluent's rules (SchemaDiff.compare, the 132 difference
 *	  types, STRICT and LENIENT): for every type the diff can emit a pair
 *	  of schemas that produces it, compared both ways, with the exact list
 *	  of differences (compatible ones included) and the verdict under each
 *	  policy; the exact messages; references, recursion, combined
 *	  matching, Java's HashSet order of property names; the level driver;
 *	  a transitive check over 1,000 versions.  All cases are our own.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro_api.h"
#include "rg_jsonschema.h"
#include "rg_compat.h"
#include "json_diff_internal.h"
#include "rg_test.h"

#include <time.h>

/* json_diff.c: every difference as "TYPE #/path", in Confluent's order */
extern bool rg_json_differences(const rg_schema *original, const rg_schema *update,
								bool lenient, rg_strlist *out);

/* can_read's message templates, roles still "%s" */
#define MSG(type, desc) "{errorType:\"" type "\", description:\"" desc "\"}"

static char joined[65536];

/* The schema text with ' turned into " (the cases are written with '). */
static char *
dequote(const char *text)
{
	return rg_test_dequote(text);
}

/* Parse a JSON Schema written with single quotes; NULL (and a note) on failure. */
static rg_schema *
parse(const char *text)
{
	return rg_test_parse(&rg_format_json, text);
}

/* Parse with one reference named name (both texts written with single quotes). */
static rg_schema *
parse_with_ref(const char *text, const char *name, const char *ref_text)
{
	char	   *t = dequote(text);
	char	   *r = dequote(ref_text);
	rg_reference ref;
	rg_error	err;
	rg_schema  *s;

	ref.name = name;
	ref.schema = r;
	ref.schema_len = strlen(r);
	rg_error_clear(&err);
	s = rg_json_parse(t, strlen(t), &ref, 1, false, &err);
	if (s == NULL)
		printf("# parse failed: %s\n#   for %s\n", err.message, t);
	free(t);
	free(r);
	return s;
}

/* The list joined with " | " into `joined`. */
static const char *
join(const rg_strlist *l)
{
	return rg_test_join(l, joined, sizeof(joined));
}

/* compare(original, update) under a policy, joined. */
static const char *
differences(const rg_schema *original, const rg_schema *update, bool lenient)
{
	rg_arena   *a = rg_arena_create();
	rg_strlist	l;
	static char copy[65536];

	rg_strlist_init(&l, a);
	rg_json_differences(original, update, lenient, &l);
	snprintf(copy, sizeof(copy), "%s", join(&l));
	rg_arena_destroy(a);
	return copy;
}

/* The messages of can_read(reader, writer) under a policy, joined; *ok its verdict. */
static const char *
messages(const rg_schema *reader, const rg_schema *writer, bool lenient, bool *ok)
{
	rg_arena   *a = rg_arena_create();
	rg_strlist	l;
	static char copy[65536];

	rg_strlist_init(&l, a);
	*ok = lenient ? rg_json_can_read_lenient(reader, writer, &l)
		: rg_json_can_read(reader, writer, &l);
	snprintf(copy, sizeof(copy), "%s", join(&l));
	rg_arena_destroy(a);
	return copy;
}

typedef struct diff_case
{
	const char *name;
	const char *orig;
	const char *upd;
	const char *fwd;			/* compare(orig, upd) */
	int			fwd_strict;		/* can upd read orig, STRICT */
	int			fwd_lenient;
	const char *rev;			/* compare(upd, orig) */
	int			rev_strict;		/* can orig read upd, STRICT */
	int			rev_lenient;
} diff_case;

static const diff_case cases[] = {
	{"annotations",
		"{'type':'string','title':'a','description':'x','default':'p'}",
		"{'type':'string','title':'b','description':'y','default':'q'}",
		"TITLE_CHANGED #/ | DESCRIPTION_CHANGED #/ | DEFAULT_CHANGED #/", 1, 1,
	"TITLE_CHANGED #/ | DESCRIPTION_CHANGED #/ | DEFAULT_CHANGED #/", 1, 1},
	{"id",
		"{'$schema':'http://json-schema.org/draft-07/schema#','$id':'http://example.com/a.json','type':'string'}",
		"{'$schema':'http://json-schema.org/draft-07/schema#','$id':'http://example.com/b.json','type':'string'}",
		"ID_CHANGED #/", 1, 1,
	"ID_CHANGED #/", 1, 1},

	/*
	 * json-sKema's translation carries no $id: no difference in 2019-09 and
	 * later
	 */
	{"id, 2020-12",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','$id':'http://example.com/a.json','type':'string'}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','$id':'http://example.com/b.json','type':'string'}",
		"", 1, 1,
	"", 1, 1},
	{"id, draft 4",
		"{'$schema':'http://json-schema.org/draft-04/schema#','id':'http://example.com/a.json','type':'string'}",
		"{'$schema':'http://json-schema.org/draft-04/schema#','id':'http://example.com/b.json','type':'string'}",
		"ID_CHANGED #/", 1, 1,
	"ID_CHANGED #/", 1, 1},
	{"items added",
		"{'type':'array'}",
		"{'type':'array','items':{'type':'string'}}",
		"SCHEMA_ADDED #/items", 0, 0,
	"SCHEMA_REMOVED #/items", 1, 1},
	{"integer to number",
		"{'type':'integer'}",
		"{'type':'number'}",
		"TYPE_EXTENDED #/", 1, 1,
	"TYPE_NARROWED #/", 0, 0},
	{"string to integer",
		"{'type':'string'}",
		"{'type':'integer'}",
		"TYPE_CHANGED #/", 0, 0,
	"TYPE_CHANGED #/", 0, 0},
	{"boolean to null",
		"{'type':'boolean'}",
		"{'type':'null'}",
		"TYPE_CHANGED #/", 0, 0,
	"TYPE_CHANGED #/", 0, 0},
	{"string to empty",
		"{'type':'string'}",
		"{}",
		"", 1, 1,
	"TYPE_CHANGED #/", 0, 0},
	{"string to true",
		"{'type':'string','maxLength':3}",
		"true",
		"", 1, 1,
	"TYPE_CHANGED #/", 0, 0},
	{"false to string",
		"false",
		"{'type':'string'}",
		"", 1, 1,
	"TYPE_CHANGED #/", 0, 0},
	{"empty to true",
		"{}",
		"true",
		"", 1, 1,
	"", 1, 1},
	{"maxLength increased",
		"{'type':'string','maxLength':5}",
		"{'type':'string','maxLength':10}",
		"MAX_LENGTH_INCREASED #/maxLength", 1, 1,
	"MAX_LENGTH_DECREASED #/maxLength", 0, 0},
	{"maxLength added",
		"{'type':'string'}",
		"{'type':'string','maxLength':5}",
		"MAX_LENGTH_ADDED #/maxLength", 0, 0,
	"MAX_LENGTH_REMOVED #/maxLength", 1, 1},
	{"minLength increased",
		"{'type':'string','minLength':1}",
		"{'type':'string','minLength':5}",
		"MIN_LENGTH_INCREASED #/minLength", 0, 0,
	"MIN_LENGTH_DECREASED #/minLength", 1, 1},
	{"minLength added",
		"{'type':'string'}",
		"{'type':'string','minLength':1}",
		"MIN_LENGTH_ADDED #/minLength", 0, 0,
	"MIN_LENGTH_REMOVED #/minLength", 1, 1},
	{"pattern added",
		"{'type':'string'}",
		"{'type':'string','pattern':'^a'}",
		"PATTERN_ADDED #/pattern", 0, 0,
	"PATTERN_REMOVED #/pattern", 1, 1},
	{"pattern changed",
		"{'type':'string','pattern':'^a'}",
		"{'type':'string','pattern':'^b'}",
		"PATTERN_CHANGED #/pattern", 0, 0,
	"PATTERN_CHANGED #/pattern", 0, 0},
	{"maximum increased",
		"{'type':'number','maximum':10}",
		"{'type':'number','maximum':20}",
		"MAXIMUM_INCREASED #/maximum", 1, 1,
	"MAXIMUM_DECREASED #/maximum", 0, 0},
	{"maximum added",
		"{'type':'number'}",
		"{'type':'number','maximum':10}",
		"MAXIMUM_ADDED #/maximum", 0, 0,
	"MAXIMUM_REMOVED #/maximum", 1, 1},
	{"maximum 10 and 10.0",
		"{'type':'number','maximum':10}",
		"{'type':'number','maximum':10.0}",
		"", 1, 1,
	"", 1, 1},
	{"minimum increased",
		"{'type':'number','minimum':1}",
		"{'type':'number','minimum':5}",
		"MINIMUM_INCREASED #/minimum", 0, 0,
	"MINIMUM_DECREASED #/minimum", 1, 1},
	{"minimum added",
		"{'type':'number'}",
		"{'type':'number','minimum':1}",
		"MINIMUM_ADDED #/minimum", 0, 0,
	"MINIMUM_REMOVED #/minimum", 1, 1},
	{"exclusiveMaximum increased",
		"{'$schema':'http://json-schema.org/draft-07/schema#','type':'number','exclusiveMaximum':10}",
		"{'$schema':'http://json-schema.org/draft-07/schema#','type':'number','exclusiveMaximum':20}",
		"EXCLUSIVE_MAXIMUM_INCREASED #/exclusiveMaximum", 1, 1,
	"EXCLUSIVE_MAXIMUM_DECREASED #/exclusiveMaximum", 0, 0},
	{"exclusiveMaximum added",
		"{'type':'number'}",
		"{'type':'number','exclusiveMaximum':10}",
		"EXCLUSIVE_MAXIMUM_ADDED #/exclusiveMaximum", 0, 0,
	"EXCLUSIVE_MAXIMUM_REMOVED #/exclusiveMaximum", 1, 1},
	{"exclusiveMaximum decrease tested against maximum",
		"{'type':'number','exclusiveMaximum':20}",
		"{'type':'number','exclusiveMaximum':10,'maximum':30}",
		"MAXIMUM_ADDED #/maximum", 0, 0,
	"MAXIMUM_REMOVED #/maximum | EXCLUSIVE_MAXIMUM_INCREASED #/exclusiveMaximum", 1, 1},
	{"exclusiveMinimum increased",
		"{'type':'number','exclusiveMinimum':1}",
		"{'type':'number','exclusiveMinimum':5}",
		"EXCLUSIVE_MINIMUM_INCREASED #/exclusiveMinimum", 0, 0,
	"EXCLUSIVE_MINIMUM_DECREASED #/exclusiveMinimum", 1, 1},
	{"exclusiveMinimum added",
		"{'type':'number'}",
		"{'type':'number','exclusiveMinimum':1}",
		"EXCLUSIVE_MINIMUM_ADDED #/exclusiveMinimum", 0, 0,
	"EXCLUSIVE_MINIMUM_REMOVED #/exclusiveMinimum", 1, 1},
	{"draft-4 exclusive flag not compared",
		"{'$schema':'http://json-schema.org/draft-04/schema#','type':'number','maximum':10,'exclusiveMaximum':true}",
		"{'$schema':'http://json-schema.org/draft-04/schema#','type':'number','maximum':10}",
		"", 1, 1,
	"", 1, 1},
	{"multipleOf expanded",
		"{'type':'number','multipleOf':2}",
		"{'type':'number','multipleOf':4}",
		"MULTIPLE_OF_EXPANDED #/multipleOf", 0, 0,
	"MULTIPLE_OF_REDUCED #/multipleOf", 1, 1},
	{"multipleOf changed",
		"{'type':'number','multipleOf':2}",
		"{'type':'number','multipleOf':3}",
		"MULTIPLE_OF_CHANGED #/multipleOf", 0, 0,
	"MULTIPLE_OF_CHANGED #/multipleOf", 0, 0},
	{"multipleOf added",
		"{'type':'number'}",
		"{'type':'number','multipleOf':2}",
		"MULTIPLE_OF_ADDED #/multipleOf", 0, 0,
	"MULTIPLE_OF_REMOVED #/multipleOf", 1, 1},
	{"multipleOf exact decimals",
		"{'type':'number','multipleOf':0.1}",
		"{'type':'number','multipleOf':0.3}",
		"MULTIPLE_OF_EXPANDED #/multipleOf", 0, 0,
	"MULTIPLE_OF_REDUCED #/multipleOf", 1, 1},
	{"multipleOf 0.5 and 0.50",
		"{'type':'number','multipleOf':0.5}",
		"{'type':'number','multipleOf':0.50}",
		"", 1, 1,
	"", 1, 1},
	{"multipleOf 1 and 1.0",
		"{'type':'number','multipleOf':1}",
		"{'type':'number','multipleOf':1.0}",
		"", 1, 1,
	"", 1, 1},
	{"required added",
		"{'type':'object','properties':{'a':{'type':'string'}}}",
		"{'type':'object','properties':{'a':{'type':'string'}},'required':['a']}",
		"REQUIRED_ATTRIBUTE_ADDED #/required/a", 0, 0,
	"REQUIRED_ATTRIBUTE_REMOVED #/required/a", 1, 1},
	{"required with default added",
		"{'type':'object','properties':{'a':{'type':'string','default':'x'}}}",
		"{'type':'object','properties':{'a':{'type':'string','default':'x'}},'required':['a']}",
		"REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED #/required/a", 1, 1,
	"REQUIRED_ATTRIBUTE_REMOVED #/required/a", 1, 1},
	{"maxProperties increased",
		"{'type':'object','maxProperties':2}",
		"{'type':'object','maxProperties':3}",
		"MAX_PROPERTIES_INCREASED #/maxProperties", 1, 1,
	"MAX_PROPERTIES_DECREASED #/maxProperties", 0, 0},
	{"maxProperties added",
		"{'type':'object'}",
		"{'type':'object','maxProperties':2}",
		"MAX_PROPERTIES_ADDED #/maxProperties", 0, 0,
	"MAX_PROPERTIES_REMOVED #/maxProperties", 1, 1},
	{"minProperties increased",
		"{'type':'object','minProperties':1}",
		"{'type':'object','minProperties':2}",
		"MIN_PROPERTIES_INCREASED #/minProperties", 0, 0,
	"MIN_PROPERTIES_DECREASED #/minProperties", 1, 1},
	{"minProperties added",
		"{'type':'object'}",
		"{'type':'object','minProperties':1}",
		"MIN_PROPERTIES_ADDED #/minProperties", 0, 0,
	"MIN_PROPERTIES_REMOVED #/minProperties", 1, 1},
	{"additionalProperties false",
		"{'type':'object'}",
		"{'type':'object','additionalProperties':false}",
		"ADDITIONAL_PROPERTIES_REMOVED #/additionalProperties", 0, 1,
	"ADDITIONAL_PROPERTIES_ADDED #/additionalProperties", 1, 1},
	{"additionalProperties schema",
		"{'type':'object'}",
		"{'type':'object','additionalProperties':{'type':'string'}}",
		"ADDITIONAL_PROPERTIES_NARROWED #/additionalProperties", 0, 1,
	"ADDITIONAL_PROPERTIES_EXTENDED #/additionalProperties", 1, 1},
	{"additionalProperties schemas",
		"{'type':'object','additionalProperties':{'type':'string'}}",
		"{'type':'object','additionalProperties':{'type':'integer'}}",
		"TYPE_CHANGED #/additionalProperties", 0, 0,
	"TYPE_CHANGED #/additionalProperties", 0, 0},
	{"dependency array extended",
		"{'type':'object','dependencies':{'a':['b']}}",
		"{'type':'object','dependencies':{'a':['b','c']}}",
		"DEPENDENCY_ARRAY_EXTENDED #/dependencies/a", 0, 0,
	"DEPENDENCY_ARRAY_NARROWED #/dependencies/a", 1, 1},
	{"dependency array changed",
		"{'type':'object','dependencies':{'a':['b']}}",
		"{'type':'object','dependencies':{'a':['c']}}",
		"DEPENDENCY_ARRAY_CHANGED #/dependencies/a", 0, 0,
	"DEPENDENCY_ARRAY_CHANGED #/dependencies/a", 0, 0},
	{"dependency array same set",
		"{'type':'object','dependencies':{'a':['b','c']}}",
		"{'type':'object','dependencies':{'a':['c','b']}}",
		"", 1, 1,
	"", 1, 1},
	{"dependency array added",
		"{'type':'object'}",
		"{'type':'object','dependencies':{'a':['b']}}",
		"DEPENDENCY_ARRAY_ADDED #/dependencies/a", 0, 0,
	"DEPENDENCY_ARRAY_REMOVED #/dependencies/a", 1, 1},
	{"dependency schema added",
		"{'type':'object'}",
		"{'type':'object','dependencies':{'a':{'required':['b']}}}",
		"DEPENDENCY_SCHEMA_ADDED #/dependencies/a", 0, 0,
	"DEPENDENCY_SCHEMA_REMOVED #/dependencies/a", 1, 1},
	{"dependency schema changed",
		"{'type':'object','dependencies':{'a':{'type':'string'}}}",
		"{'type':'object','dependencies':{'a':{'type':'integer'}}}",
		"TYPE_CHANGED #/dependencies/a", 0, 0,
	"TYPE_CHANGED #/dependencies/a", 0, 0},
	{"optional property, open model",
		"{'type':'object','properties':{'a':{'type':'string'}}}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'string'}}}",
		"OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL #/properties/b", 0, 1,
	"PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/b", 1, 1},
	{"required property, open model",
		"{'type':'object','properties':{'a':{'type':'string'}}}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'string'}},'required':['b']}",
		"REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL #/properties/b", 0, 0,
	"PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/b", 1, 1},
	{"required property with default, open model",
		"{'type':'object','properties':{'a':{'type':'string'}}}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'string','default':'x'}},'required':['b']}",
		"REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL #/properties/b", 0, 1,
	"PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/b", 1, 1},
	{"empty property, open model",
		"{'type':'object','properties':{'a':{'type':'string'}}}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{}},'required':['b']}",
		"PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL #/properties/b", 1, 1,
	"PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/b", 1, 1},
	{"true property, open model",
		"{'type':'object'}",
		"{'type':'object','properties':{'b':true}}",
		"PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL #/properties/b", 1, 1,
	"PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/b", 1, 1},
	{"optional property, closed model",
		"{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':false}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'string'}},'additionalProperties':false}",
		"OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b", 1, 1,
	"PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL #/properties/b", 0, 1},
	{"required property, closed model",
		"{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':false}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'string'}},'required':['b'],'additionalProperties':false}",
		"REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b", 0, 0,
	"PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL #/properties/b", 0, 1},
	{"required property with default, closed model",
		"{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':false}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'string','default':'x'}},'required':['b'],'additionalProperties':false}",
		"REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b", 1, 1,
	"PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL #/properties/b", 0, 1},
	{"false property, closed model",
		"{'type':'object','properties':{'a':{'type':'string'},'b':false},'additionalProperties':false}",
		"{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':false}",
		"PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL #/properties/b", 1, 1,
	"OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b", 1, 1},
	{"property covered by additionalProperties",
		"{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':{'type':'string'}}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'string'}},'additionalProperties':{'type':'string'}}",
		"PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/b | OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b", 1, 1,
	"PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/b", 1, 1},
	{"property not covered by additionalProperties",
		"{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':{'type':'string'}}",
		"{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'integer'}},'additionalProperties':{'type':'string'}}",
		"TYPE_CHANGED #/properties/b | PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/b | OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b", 0, 0,
	"TYPE_CHANGED #/properties/b | PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/b", 0, 0},
	{"property covered by patternProperties",
		"{'type':'object','patternProperties':{'^x':{'type':'string'}}}",
		"{'type':'object','properties':{'xa':{'type':'string'}},'patternProperties':{'^x':{'type':'string'}}}",
		"PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/xa | OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/xa", 1, 1,
	"PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/xa", 1, 1},
	{"property outside patternProperties",
		"{'type':'object','patternProperties':{'^x':{'type':'string'}}}",
		"{'type':'object','properties':{'ya':{'type':'string'}},'patternProperties':{'^x':{'type':'string'}}}",
		"OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/ya", 1, 1,
	"PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL #/properties/ya", 0, 1},
	{"pattern with \\\\d",
		"{'type':'object','patternProperties':{'^f\\\\d+$':{'type':'string'}},'additionalProperties':false}",
		"{'type':'object','properties':{'f12':{'type':'integer'}},'patternProperties':{'^f\\\\d+$':{'type':'string'}},'additionalProperties':false}",
		"TYPE_CHANGED #/properties/f12 | PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/f12 | OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/f12", 0, 0,
	"TYPE_CHANGED #/properties/f12 | PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/f12", 0, 0},
	{"property covered by unevaluatedProperties",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':{'type':'string'}}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','properties':{'b':{'type':'string'}},'unevaluatedProperties':{'type':'string'}}",
		"PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/b | OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b", 1, 1,
	"PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/b", 1, 1},
	{"unevaluatedProperties false",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object'}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':false}",
		"UNEVALUATED_PROPERTIES_REMOVED #/unevaluatedProperties", 0, 1,
	"UNEVALUATED_PROPERTIES_ADDED #/unevaluatedProperties", 1, 1},
	{"unevaluatedProperties schema",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object'}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':{'type':'string'}}",
		"UNEVALUATED_PROPERTIES_NARROWED #/unevaluatedProperties", 0, 1,
	"UNEVALUATED_PROPERTIES_EXTENDED #/unevaluatedProperties", 1, 1},
	{"unevaluatedProperties true to schema",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':true}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':{'type':'string'}}",
		"UNEVALUATED_PROPERTIES_NARROWED #/unevaluatedProperties", 0, 1,
	"UNEVALUATED_PROPERTIES_EXTENDED #/unevaluatedProperties", 1, 1},
	{"unevaluatedProperties false to schema",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':false}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':{'type':'string'}}",
		"UNEVALUATED_PROPERTIES_ADDED #/unevaluatedProperties", 1, 1,
	"UNEVALUATED_PROPERTIES_REMOVED #/unevaluatedProperties", 0, 1},
	{"unevaluatedProperties schemas",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':{'type':'string'}}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'object','unevaluatedProperties':{'type':'integer'}}",
		"TYPE_CHANGED #/unevaluatedProperties", 0, 0,
	"TYPE_CHANGED #/unevaluatedProperties", 0, 0},
	{"items changed",
		"{'type':'array','items':{'type':'string'}}",
		"{'type':'array','items':{'type':'integer'}}",
		"TYPE_CHANGED #/items", 0, 0,
	"TYPE_CHANGED #/items", 0, 0},
	{"maxItems increased",
		"{'type':'array','maxItems':2}",
		"{'type':'array','maxItems':3}",
		"MAX_ITEMS_INCREASED #/maxItems", 1, 1,
	"MAX_ITEMS_DECREASED #/maxItems", 0, 0},
	{"maxItems added",
		"{'type':'array'}",
		"{'type':'array','maxItems':2}",
		"MAX_ITEMS_ADDED #/maxItems", 0, 0,
	"MAX_ITEMS_REMOVED #/maxItems", 1, 1},
	{"minItems increased",
		"{'type':'array','minItems':1}",
		"{'type':'array','minItems':2}",
		"MIN_ITEMS_INCREASED #/minItems", 0, 0,
	"MIN_ITEMS_DECREASED #/minItems", 1, 1},
	{"minItems added",
		"{'type':'array'}",
		"{'type':'array','minItems':1}",
		"MIN_ITEMS_ADDED #/minItems", 0, 0,
	"MIN_ITEMS_REMOVED #/minItems", 1, 1},
	{"uniqueItems added",
		"{'type':'array'}",
		"{'type':'array','uniqueItems':true}",
		"UNIQUE_ITEMS_ADDED #/uniqueItems", 0, 0,
	"UNIQUE_ITEMS_REMOVED #/uniqueItems", 1, 1},
	{"maxContains increased",
		"{'type':'array','contains':{'type':'string'},'maxContains':2}",
		"{'type':'array','contains':{'type':'string'},'maxContains':3}",
		"MAX_CONTAINS_INCREASED #/maxContains", 1, 1,
	"MAX_CONTAINS_DECREASED #/maxContains", 0, 0},
	{"maxContains added",
		"{'type':'array','contains':{'type':'string'}}",
		"{'type':'array','contains':{'type':'string'},'maxContains':2}",
		"MAX_CONTAINS_ADDED #/maxContains", 0, 0,
	"MAX_CONTAINS_REMOVED #/maxContains", 1, 1},
	{"minContains increased",
		"{'type':'array','contains':{'type':'string'},'minContains':1}",
		"{'type':'array','contains':{'type':'string'},'minContains':2}",
		"MIN_CONTAINS_INCREASED #/minContains", 0, 0,
	"MIN_CONTAINS_DECREASED #/minContains", 1, 1},
	{"minContains added",
		"{'type':'array','contains':{'type':'string'}}",
		"{'type':'array','contains':{'type':'string'},'minContains':1}",
		"MIN_CONTAINS_ADDED #/minContains", 0, 0,
	"MIN_CONTAINS_REMOVED #/minContains", 1, 1},
	{"tuple item, open model",
		"{'type':'array','items':[{'type':'string'}]}",
		"{'type':'array','items':[{'type':'string'},{'type':'integer'}]}",
		"ITEM_ADDED_TO_OPEN_CONTENT_MODEL #/items/1", 0, 0,
	"ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL #/items/1", 1, 1},
	{"empty tuple item, open model",
		"{'type':'array','items':[{'type':'string'}]}",
		"{'type':'array','items':[{'type':'string'},{}]}",
		"ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL #/items/1", 1, 1,
	"ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL #/items/1", 1, 1},
	{"tuple item, closed model",
		"{'type':'array','items':[{'type':'string'}],'additionalItems':false}",
		"{'type':'array','items':[{'type':'string'},{'type':'integer'}],'additionalItems':false}",
		"ITEM_ADDED_TO_CLOSED_CONTENT_MODEL #/items/1", 1, 1,
	"ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL #/items/1", 0, 0},
	{"false tuple item, closed model",
		"{'type':'array','items':[{'type':'string'},false],'additionalItems':false}",
		"{'type':'array','items':[{'type':'string'}],'additionalItems':false}",
		"ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL #/items/1", 1, 1,
	"ITEM_ADDED_TO_CLOSED_CONTENT_MODEL #/items/1", 1, 1},
	{"tuple item covered by additionalItems",
		"{'type':'array','items':[{'type':'string'}],'additionalItems':{'type':'integer'}}",
		"{'type':'array','items':[{'type':'string'},{'type':'integer'}],'additionalItems':{'type':'integer'}}",
		"ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/items/1", 1, 1,
	"ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/items/1", 1, 1},
	{"tuple item not covered by additionalItems",
		"{'type':'array','items':[{'type':'string'}],'additionalItems':{'type':'integer'}}",
		"{'type':'array','items':[{'type':'string'},{'type':'boolean'}],'additionalItems':{'type':'integer'}}",
		"TYPE_CHANGED #/items/1 | ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/items/1", 0, 0,
	"TYPE_CHANGED #/items/1 | ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/items/1", 0, 0},
	{"tuple item covered by unevaluatedItems",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'array','prefixItems':[{'type':'string'}],'unevaluatedItems':{'type':'integer'}}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'array','prefixItems':[{'type':'string'},{'type':'integer'}],'unevaluatedItems':{'type':'integer'}}",
		"ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/items/1", 1, 1,
	"ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/items/1", 1, 1},
	{"additionalItems false",
		"{'type':'array','items':[{'type':'string'}]}",
		"{'type':'array','items':[{'type':'string'}],'additionalItems':false}",
		"ADDITIONAL_ITEMS_REMOVED #/additionalItems", 0, 0,
	"ADDITIONAL_ITEMS_ADDED #/additionalItems", 1, 1},
	{"additionalItems schema",
		"{'type':'array','items':[{'type':'string'}]}",
		"{'type':'array','items':[{'type':'string'}],'additionalItems':{'type':'string'}}",
		"ADDITIONAL_ITEMS_NARROWED #/additionalItems", 0, 0,
	"ADDITIONAL_ITEMS_EXTENDED #/additionalItems", 1, 1},
	{"unevaluatedItems false",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'array'}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'array','unevaluatedItems':false}",
		"UNEVALUATED_ITEMS_REMOVED #/unevaluatedItems", 0, 0,
	"UNEVALUATED_ITEMS_ADDED #/unevaluatedItems", 1, 1},
	{"unevaluatedItems schema",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'array'}",
		"{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'array','unevaluatedItems':{'type':'string'}}",
		"UNEVALUATED_ITEMS_NARROWED #/unevaluatedItems", 0, 0,
	"UNEVALUATED_ITEMS_EXTENDED #/unevaluatedItems", 1, 1},
	{"enum extended",
		"{'enum':['a','b']}",
		"{'enum':['a','b','c']}",
		"ENUM_ARRAY_EXTENDED #/enum", 1, 1,
	"ENUM_ARRAY_NARROWED #/enum", 0, 0},
	{"enum changed",
		"{'enum':['a']}",
		"{'enum':['b']}",
		"ENUM_ARRAY_CHANGED #/enum", 0, 0,
	"ENUM_ARRAY_CHANGED #/enum", 0, 0},
	{"enum reordered",
		"{'enum':['a','b',{'x':1,'y':[1,2]}]}",
		"{'enum':[{'y':[1,2],'x':1},'b','a']}",
		"", 1, 1,
	"", 1, 1},
	{"enum 1 and 1.0",
		"{'enum':[1]}",
		"{'enum':[1.0]}",
		"ENUM_ARRAY_CHANGED #/enum", 0, 0,
	"ENUM_ARRAY_CHANGED #/enum", 0, 0},
	{"enum 1.5 and 1.50",
		"{'enum':[1.5]}",
		"{'enum':[1.50]}",
		"ENUM_ARRAY_CHANGED #/enum", 0, 0,
	"ENUM_ARRAY_CHANGED #/enum", 0, 0},
	{"enum of big integers",
		"{'enum':[12345678901234567890123]}",
		"{'enum':[12345678901234567890124]}",
		"ENUM_ARRAY_CHANGED #/enum", 0, 0,
	"ENUM_ARRAY_CHANGED #/enum", 0, 0},
	{"enum 10 and 1e1",
		"{'enum':[10,'x']}",
		"{'enum':[1e1,'x']}",
		"ENUM_ARRAY_CHANGED #/enum", 0, 0,
	"ENUM_ARRAY_CHANGED #/enum", 0, 0},
	{"enum 1e1 and 1E+1",
		"{'enum':[1e1]}",
		"{'enum':[1E+1]}",
		"", 1, 1,
	"", 1, 1},
	{"const changed",
		"{'const':1}",
		"{'const':2}",
		"ENUM_ARRAY_CHANGED #/const", 0, 0,
	"ENUM_ARRAY_CHANGED #/const", 0, 0},
	{"const object reordered",
		"{'const':{'a':1,'b':[true,null]}}",
		"{'const':{'b':[true,null],'a':1}}",
		"", 1, 1,
	"", 1, 1},
	{"enum to const",
		"{'enum':['a']}",
		"{'const':'a'}",
		"TYPE_CHANGED #/", 0, 0,
	"TYPE_CHANGED #/", 0, 0},
	{"oneOf to anyOf",
		"{'oneOf':[{'type':'string'},{'type':'integer'}]}",
		"{'anyOf':[{'type':'string'},{'type':'integer'}]}",
		"COMBINED_TYPE_EXTENDED #/", 1, 1,
	"COMBINED_TYPE_CHANGED #/", 0, 0},
	{"allOf to oneOf",
		"{'allOf':[{'type':'string'},{'maxLength':5}]}",
		"{'oneOf':[{'type':'string'},{'maxLength':5}]}",
		"COMBINED_TYPE_CHANGED #/", 0, 0,
	"COMBINED_TYPE_CHANGED #/", 0, 0},
	{"singleton oneOf to allOf",
		"{'oneOf':[{'type':'string'}]}",
		"{'allOf':[{'type':'string'}]}",
		"COMBINED_TYPE_EXTENDED #/", 1, 1,
	"COMBINED_TYPE_EXTENDED #/", 1, 1},
	{"allOf to singleton oneOf",
		"{'allOf':[{'type':'string'},{'type':'string'}]}",
		"{'oneOf':[{'type':'string'}]}",
		"COMBINED_TYPE_EXTENDED #/", 1, 1,
	"COMBINED_TYPE_CHANGED #/", 0, 0},
	{"sum type extended",
		"{'oneOf':[{'type':'string'},{'type':'integer'}]}",
		"{'oneOf':[{'type':'string'},{'type':'integer'},{'type':'boolean'}]}",
		"SUM_TYPE_EXTENDED #/", 1, 1,
	"SUM_TYPE_NARROWED #/", 0, 0},
	{"product type extended",
		"{'allOf':[{'type':'string'},{'maxLength':5}]}",
		"{'allOf':[{'type':'string'},{'maxLength':5},{'minLength':1}]}",
		"PRODUCT_TYPE_EXTENDED #/", 0, 0,
	"PRODUCT_TYPE_NARROWED #/", 1, 1},
	{"subschemas changed",
		"{'oneOf':[{'type':'string'},{'type':'integer'}]}",
		"{'oneOf':[{'type':'string'},{'type':'boolean'}]}",
		"COMBINED_TYPE_SUBSCHEMAS_CHANGED #/", 0, 0,
	"COMBINED_TYPE_SUBSCHEMAS_CHANGED #/", 0, 0},
	{"subschemas matched across positions",
		"{'anyOf':[{'type':'string','maxLength':5},{'type':'integer'}]}",
		"{'anyOf':[{'type':'integer'},{'type':'string','maxLength':10}]}",
		"MAX_LENGTH_INCREASED #/anyOf/0/maxLength", 1, 1,
	"COMBINED_TYPE_SUBSCHEMAS_CHANGED #/", 0, 0},
	{"duplicate subschemas collapse",
		"{'anyOf':[{'type':'string'},{'type':'string'}]}",
		"{'anyOf':[{'type':'string'}]}",
		"", 1, 1,
	"", 1, 1},
	{"string to anyOf",
		"{'type':'string'}",
		"{'anyOf':[{'type':'string'},{'type':'integer'}]}",
		"SUM_TYPE_EXTENDED #/", 1, 1,
	"TYPE_CHANGED #/", 0, 0},
	{"string to type array",
		"{'type':'string','maxLength':5}",
		"{'type':['string','null'],'maxLength':10}",
		"MAX_LENGTH_INCREASED #/maxLength | SUM_TYPE_EXTENDED #/", 1, 1,
	"TYPE_CHANGED #/", 0, 0},
	{"allOf to one of its members",
		"{'allOf':[{'type':'string'},{'type':'string','maxLength':5}]}",
		"{'type':'string'}",
		"PRODUCT_TYPE_NARROWED #/", 1, 1,
	"TYPE_CHANGED #/", 0, 0},
	{"singleton oneOf",
		"{'oneOf':[{'type':'string','maxLength':5}]}",
		"{'type':'string','maxLength':6}",
		"MAX_LENGTH_INCREASED #/maxLength", 1, 1,
	"TYPE_CHANGED #/", 0, 0},
	{"not extended",
		"{'not':{'type':'string'}}",
		"{'not':{'type':'integer'}}",
		"NOT_TYPE_EXTENDED #/not", 0, 0,
	"NOT_TYPE_EXTENDED #/not", 0, 0},
	{"not narrowed",
		"{'not':{'type':'string','maxLength':10}}",
		"{'not':{'type':'string','maxLength':5}}",
		"NOT_TYPE_NARROWED #/not", 1, 1,
	"NOT_TYPE_EXTENDED #/not", 0, 0},
	{"reference followed",
		"{'definitions':{'s':{'type':'string','maxLength':5}},'type':'object','properties':{'a':{'$ref':'#/definitions/s'}}}",
		"{'definitions':{'s':{'type':'string','maxLength':3}},'type':'object','properties':{'a':{'$ref':'#/definitions/s'}}}",
		"MAX_LENGTH_DECREASED #/properties/a/maxLength", 0, 0,
	"MAX_LENGTH_INCREASED #/properties/a/maxLength", 1, 1},
	{"reference on one side",
		"{'definitions':{'s':{'type':'string','maxLength':5}},'type':'object','properties':{'a':{'$ref':'#/definitions/s'}}}",
		"{'type':'object','properties':{'a':{'type':'string','maxLength':3}}}",
		"MAX_LENGTH_DECREASED #/properties/a/maxLength", 0, 0,
	"MAX_LENGTH_INCREASED #/properties/a/maxLength", 1, 1},

	/*
	 * one level of $ref is followed (normalizeSchema): a $ref to a $ref
	 * compares as two references
	 */
	{"reference to a reference",
		"{'definitions':{'a':{'$ref':'#/definitions/b'},'b':{'type':'string','maxLength':5}},'type':'object','properties':{'p':{'$ref':'#/definitions/a'}}}",
		"{'definitions':{'a':{'$ref':'#/definitions/b'},'b':{'type':'string','maxLength':3}},'type':'object','properties':{'p':{'$ref':'#/definitions/a'}}}",
		"", 1, 1,
	"", 1, 1},
	{"recursion, incompatible",
		"{'type':'object','properties':{'v':{'type':'string'},'next':{'$ref':'#'}}}",
		"{'type':'object','properties':{'v':{'type':'integer'},'next':{'$ref':'#'}}}",
		"TYPE_CHANGED #/properties/next/properties/next/properties/v | TYPE_CHANGED #/properties/next/properties/v | TYPE_CHANGED #/properties/v", 0, 0,
	"TYPE_CHANGED #/properties/next/properties/next/properties/v | TYPE_CHANGED #/properties/next/properties/v | TYPE_CHANGED #/properties/v", 0, 0},
	{"recursion, compatible one way",
		"{'type':'object','properties':{'v':{'type':'string','maxLength':5},'next':{'$ref':'#'}}}",
		"{'type':'object','properties':{'v':{'type':'string','maxLength':10},'next':{'$ref':'#'}}}",
		"MAX_LENGTH_INCREASED #/properties/next/properties/v/maxLength | MAX_LENGTH_INCREASED #/properties/v/maxLength", 1, 1,
	"MAX_LENGTH_DECREASED #/properties/next/properties/next/properties/v/maxLength | MAX_LENGTH_DECREASED #/properties/next/properties/v/maxLength | MAX_LENGTH_DECREASED #/properties/v/maxLength", 0, 0},
	{"connect bytes",
		"{'type':'string','connect.type':'bytes'}",
		"{'type':'integer','connect.type':'bytes'}",
		"", 1, 1,
	"", 1, 1},
	{"connect bytes one side",
		"{'type':'string','connect.type':'bytes'}",
		"{'type':'integer'}",
		"TYPE_CHANGED #/", 0, 0,
	"TYPE_CHANGED #/", 0, 0},
	{"property order",
		"{'type':'object','properties':{'zeta':{'type':'string'},'alpha':{'type':'string'},'Aa':{'type':'string'}}}",
		"{'type':'object','properties':{'BB':{'type':'string'},'alpha':{'type':'string'},'mid':{'type':'string'},'zeta':{'type':'string'},'q':{'type':'string'}}}",
		"PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/Aa | OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL #/properties/BB | OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL #/properties/q | OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL #/properties/mid", 0, 1,
	"PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/BB | OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL #/properties/Aa | PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/q | PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/mid", 0, 1},
};

#define N_CASES ((int) (sizeof(cases) / sizeof(cases[0])))

/* One direction of a case: the differences and both verdicts. */
static void
check_direction(const char *name, const char *dir, const rg_schema *orig,
				const rg_schema *upd, const char *want, int strict_ok, int lenient_ok)
{
	bool		ok;
	const char *m;

	RG_CHECK_STR(differences(orig, upd, false), want, "%s (%s): differences", name, dir);
	m = messages(upd, orig, false, &ok);
	RG_CHECK(ok == (strict_ok != 0) && (ok == (m[0] == '\0')),
			 "%s (%s): STRICT %s", name, dir, strict_ok ? "compatible" : "incompatible");
	if (ok != (strict_ok != 0))
		printf("#   messages: %s\n", m);
	m = messages(upd, orig, true, &ok);
	RG_CHECK(ok == (lenient_ok != 0) && (ok == (m[0] == '\0')),
			 "%s (%s): LENIENT %s", name, dir, lenient_ok ? "compatible" : "incompatible");
	if (ok != (lenient_ok != 0))
		printf("#   messages: %s\n", m);
}

/* Every case, both ways. */
static void
test_cases(void)
{
	int			i;

	for (i = 0; i < N_CASES; i++)
	{
		const diff_case *c = &cases[i];
		rg_schema  *o = parse(c->orig);
		rg_schema  *u = parse(c->upd);

		RG_CHECK(o != NULL && u != NULL, "%s: both schemas load", c->name);
		if (o != NULL && u != NULL)
		{
			check_direction(c->name, "forward", o, u, c->fwd, c->fwd_strict, c->fwd_lenient);
			check_direction(c->name, "reverse", u, o, c->rev, c->rev_strict, c->rev_lenient);
		}
		rg_schema_free(o);
		rg_schema_free(u);
	}
}

/* Does some case produce a difference of this type? */
static bool
type_covered(const char *type)
{
	char		pat[160];
	int			i;

	snprintf(pat, sizeof(pat), "%s #", type);
	for (i = 0; i < N_CASES; i++)
	{
		const char *s[2] = {cases[i].fwd, cases[i].rev};
		int			k;

		for (k = 0; k < 2; k++)
		{
			const char *p = s[k];

			while ((p = strstr(p, pat)) != NULL)
			{
				if (p == s[k] || p[-1] == ' ')
					return true;
				p++;
			}
		}
	}
	return false;
}

/* The table: 132 types, 65 compatible under STRICT, 74 under LENIENT; all emitted ones tested. */
static void
test_type_table(void)
{
	int			strict = 0;
	int			lenient = 0;
	int			uncovered = 0;
	int			i;

	for (i = 0; i < JD_N_TYPES; i++)
	{
		const char *n = rg_jd_types[i].name;

		strict += rg_jd_types[i].strict_ok;
		lenient += rg_jd_types[i].lenient_ok;
		if (rg_jd_types[i].strict_ok && !rg_jd_types[i].lenient_ok)
			printf("# %s compatible under STRICT only\n", n);
		if (strcmp(n, "PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL") == 0 ||
			strncmp(n, "RESERVED_PROPERTY_", 18) == 0)
			continue;			/* never emitted by the diff */
		if (!type_covered(n))
		{
			printf("# no case emits %s\n", n);
			uncovered++;
		}
	}
	RG_CHECK(JD_N_TYPES == 132, "132 difference types (%d)", JD_N_TYPES);
	RG_CHECK(strict == 65, "65 compatible under STRICT (%d)", strict);
	RG_CHECK(lenient == 74, "74 compatible under LENIENT (%d)", lenient);
	RG_CHECK(uncovered == 0, "every type the diff emits has a case (%d missing)", uncovered);
	RG_CHECK(rg_jd_type_compatible(JD_OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, true) &&
			 !rg_jd_type_compatible(JD_OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, false),
			 "OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL: LENIENT only");
	RG_CHECK(!rg_jd_type_compatible(JD_ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL, true),
			 "ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL: incompatible under both");
}

typedef struct msg_case
{
	const char *name;
	const char *writer;
	const char *reader;
	bool		lenient;
	const char *want;
} msg_case;

/* can_read(reader, writer): the exact messages, one per description group. */
static const msg_case msg_cases[] = {
	{"keyword", "{'type':'string'}", "{'type':'string','maxLength':5}", false,
	MSG("MAX_LENGTH_ADDED", "The keyword at path '#/maxLength' in the %s schema is not present in the %s schema")},
	{"more", "{'type':'string'}", "{'type':'object','properties':{'a':{'type':'string','minLength':1}}}", false,
	MSG("TYPE_CHANGED", "A type at path '#/' is different between the %s schema and the %s schema")},
	{"value more", "{'type':'string','minLength':1}", "{'type':'string','minLength':2}", false,
	MSG("MIN_LENGTH_INCREASED", "The value at path '#/minLength' in the %s schema is more than its value in the %s schema")},
	{"value less", "{'type':'object','properties':{'a':{'type':'string','maxLength':5}}}",
		"{'type':'object','properties':{'a':{'type':'string','maxLength':4}}}", false,
	MSG("MAX_LENGTH_DECREASED", "The value at path '#/properties/a/maxLength' in the %s schema is less than its value in the %s schema")},
	{"value changed", "{'type':'string','pattern':'a'}", "{'type':'string','pattern':'b'}", false,
	MSG("PATTERN_CHANGED", "The value at path '#/pattern' is different between the %s and %s schema")},
	{"fewer", "{'enum':['a','b']}", "{'enum':['a']}", false,
	MSG("ENUM_ARRAY_NARROWED", "An array or combined type at path '#/enum' has fewer elements in the %s schema than the %s schema")},
	{"more elements", "{'not':{'type':'string'}}", "{'not':{'type':'number'}}", false,
	MSG("NOT_TYPE_EXTENDED", "An array or combined type at path '#/not' has more elements in the %s schema than the %s schema")},
	{"open", "{'type':'object'}", "{'type':'object','properties':{'a':{'type':'string'}}}", false,
	MSG("OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL", "The %s schema has an open content model and has a property or item at path '#/properties/a' which is missing in the %s schema")},
	{"open, LENIENT", "{'type':'object'}", "{'type':'object','properties':{'a':{'type':'string'}}}", true, ""},
	{"item open", "{'type':'array','items':[]}", "{'type':'array','items':[{'type':'string'}]}", false,
	MSG("ITEM_ADDED_TO_OPEN_CONTENT_MODEL", "The %s schema has an open content model and has a property or item at path '#/items/0' which is missing in the %s schema")},
	{"unopen", "{'type':'object','additionalProperties':false}",
		"{'type':'object','properties':{'a':{'type':'string'}},'required':['a'],'additionalProperties':false}", false,
	MSG("REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL", "The %s schema has an unopen content model and has a required property at path '#/properties/a' which is missing in the %s schema")},
	{"closed", "{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':false}",
		"{'type':'object','additionalProperties':false}", false,
	MSG("PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL", "The %s schema has a closed content model and is missing a property or item present at path '#/properties/a' in the %s schema")},
	{"closed, LENIENT", "{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':false}",
	"{'type':'object','additionalProperties':false}", true, ""},
	{"removed not covered", "{'type':'array','items':[{'type':'string'}]}",
		"{'type':'array','items':[],'additionalItems':{'type':'integer'}}", false,
		MSG("TYPE_CHANGED", "A type at path '#/items/0' is different between the %s schema and the %s schema") " | "
		MSG("ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL", "A property or item is missing in the %s schema but present at path '#/items/0' in the %s schema and is not covered by its partially open content model") " | "
	MSG("ADDITIONAL_ITEMS_NARROWED", "An array or combined type at path '#/additionalItems' has fewer elements in the %s schema than the %s schema")},
	{"added not covered", "{'type':'object','additionalProperties':{'type':'string'}}",
		"{'type':'object','properties':{'n':{'type':'integer'}},'additionalProperties':{'type':'string'}}", false,
		MSG("TYPE_CHANGED", "A type at path '#/properties/n' is different between the %s schema and the %s schema") " | "
	MSG("PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL", "The %s schema has a property or item at path '#/properties/n' which is missing in the %s schema and is not covered by its partially open content model")},
	{"no description", "{'type':'array'}", "{'type':'array','items':{}}", false,
	MSG("SCHEMA_ADDED", "")},
	{"several, in order", "{'type':'object','properties':{'b':{'type':'string'},'a':{'type':'string'}}}",
		"{'type':'object','properties':{'b':{'type':'integer'},'a':{'type':'integer'}},'required':['b','a'],'maxProperties':3}", false,
		MSG("REQUIRED_ATTRIBUTE_ADDED", "The keyword at path '#/required/a' in the %s schema is not present in the %s schema") " | "
		MSG("REQUIRED_ATTRIBUTE_ADDED", "The keyword at path '#/required/b' in the %s schema is not present in the %s schema") " | "
		MSG("TYPE_CHANGED", "A type at path '#/properties/a' is different between the %s schema and the %s schema") " | "
		MSG("TYPE_CHANGED", "A type at path '#/properties/b' is different between the %s schema and the %s schema") " | "
	MSG("MAX_PROPERTIES_ADDED", "The keyword at path '#/maxProperties' in the %s schema is not present in the %s schema")},
};

/* The exact messages of can_read. */
static void
test_messages(void)
{
	int			i;

	for (i = 0; i < (int) (sizeof(msg_cases) / sizeof(msg_cases[0])); i++)
	{
		const msg_case *c = &msg_cases[i];
		rg_schema  *w = parse(c->writer);
		rg_schema  *r = parse(c->reader);
		bool		ok = false;

		if (w != NULL && r != NULL)
		{
			const char *m = messages(r, w, c->lenient, &ok);

			RG_CHECK_STR(m, c->want, "message: %s", c->name);
			RG_CHECK(ok == (c->want[0] == '\0'), "message: %s: verdict", c->name);
		}
		else
			RG_CHECK(false, "message: %s: schemas load", c->name);
		rg_schema_free(w);
		rg_schema_free(r);
	}
}

/*
 * The level driver under a policy: an optional property added to an open
 * object is incompatible under STRICT, compatible under LENIENT, and an
 * Avro check ignores the policy.
 */
static void
test_level_driver_policy(void)
{
	rg_schema  *old = parse("{'type':'object','properties':{'a':{'type':'string'}}}");
	rg_schema  *new = parse("{'type':'object','properties':{'a':{'type':'string'},'b':{'type':'string'}}}");
	rg_error	err;
	rg_schema  *aold = rg_format_avro.parse("\"int\"", 5, NULL, 0, false, &err);
	rg_schema  *anew = rg_format_avro.parse("\"string\"", 8, NULL, 0, false, &err);
	rg_prior_version prev;
	rg_arena   *a = rg_arena_create();
	rg_strlist	l;

	if (old == NULL || new == NULL || aold == NULL || anew == NULL)
	{
		RG_CHECK(false, "level driver policy: schemas load");
		return;
	}
	prev.schema = old;
	prev.version = 1;
	rg_strlist_init(&l, a);
	RG_CHECK(!rg_compat_check_policy(RG_COMPAT_BACKWARD, RG_POLICY_STRICT, new, &prev, 1, &l) &&
			 l.n >= 1 && strstr(l.items[0], "OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL") != NULL,
			 "STRICT: an optional property added to an open object is incompatible");
	rg_strlist_init(&l, a);
	RG_CHECK(rg_compat_check_policy(RG_COMPAT_BACKWARD, RG_POLICY_LENIENT, new, &prev, 1, &l) &&
			 l.n == 0, "LENIENT: the same change is compatible");
	prev.schema = aold;
	rg_strlist_init(&l, a);
	RG_CHECK(!rg_compat_check_policy(RG_COMPAT_BACKWARD, RG_POLICY_LENIENT, anew, &prev, 1, &l),
			 "LENIENT: an Avro check ignores the policy");
	rg_arena_destroy(a);
	rg_schema_free(old);
	rg_schema_free(new);
	rg_schema_free(aold);
	rg_schema_free(anew);
}

/* Through the level driver: the role words filled, Confluent's trailer. */
static void
test_level_driver(void)
{
	rg_schema  *old = parse("{'type':'object','properties':{'a':{'type':'string'}},'additionalProperties':false}");
	rg_schema  *new = parse("{'type':'object','properties':{'a':{'type':'string','maxLength':2}},'additionalProperties':false}");
	rg_prior_version prev;
	rg_arena   *a = rg_arena_create();
	rg_strlist	l;
	bool		ok;

	if (old == NULL || new == NULL)
	{
		RG_CHECK(false, "level driver: schemas load");
		return;
	}
	prev.schema = old;
	prev.version = 1;
	rg_strlist_init(&l, a);
	ok = rg_compat_check(RG_COMPAT_BACKWARD, new, &prev, 1, &l);
	RG_CHECK(!ok && l.n >= 2, "BACKWARD: incompatible (%d messages)", l.n);
	if (l.n >= 2)
	{
		RG_CHECK_STR(l.items[0], MSG("MAX_LENGTH_ADDED", "The keyword at path '#/properties/a/maxLength' in the new schema is not present in the old schema"),
					 "BACKWARD: the message, new then old");
		RG_CHECK_STR(l.items[1], "{oldSchemaVersion: 1}", "BACKWARD: the version");
	}
	rg_strlist_init(&l, a);
	ok = rg_compat_check(RG_COMPAT_FORWARD, new, &prev, 1, &l);
	RG_CHECK(ok && l.n == 0, "FORWARD: compatible (old reads new: maxLength removed)");
	rg_strlist_init(&l, a);
	ok = rg_compat_check(RG_COMPAT_FULL, new, &prev, 1, &l);
	RG_CHECK(!ok && l.n >= 1 && strstr(l.items[0], "in the new schema is not present in the old schema") != NULL,
			 "FULL: the backward half fails");
	rg_arena_destroy(a);
	rg_schema_free(old);
	rg_schema_free(new);
	test_level_driver_policy();
}

/* A schema that is not JSON is refused with Confluent's exception text. */
static void
test_not_json(void)
{
	rg_error	err;
	rg_schema  *avro = rg_format_avro.parse("\"int\"", 5, NULL, 0, false, &err);
	rg_schema  *json = parse("{'type':'string'}");
	bool		ok = true;

	if (avro != NULL && json != NULL)
	{
		const char *m = messages(json, avro, false, &ok);

		RG_CHECK(!ok && strcmp(m, "Unexpected exception during compatibility check: schema not parsed") == 0,
				 "an Avro writer: %s", m);
	}
	else
		RG_CHECK(false, "not json: schemas load");
	rg_schema_free(avro);
	rg_schema_free(json);
}

/* The policy decides a sub-comparison's verdict, so the differences too. */
static void
test_policy_in_subcomparisons(void)
{
	rg_schema  *o = parse("{'type':'object','additionalProperties':{'type':'object'}}");
	rg_schema  *u = parse("{'type':'object','properties':{'b':{'type':'object','additionalProperties':false}},"
						  "'additionalProperties':{'type':'object'}}");
	rg_schema  *n1 = parse("{'not':{'type':'object'}}");
	rg_schema  *n2 = parse("{'not':{'type':'object','additionalProperties':false}}");

	if (o == NULL || u == NULL || n1 == NULL || n2 == NULL)
		RG_CHECK(false, "policy: schemas load");
	else
	{
		RG_CHECK_STR(differences(o, u, false),
					 "ADDITIONAL_PROPERTIES_REMOVED #/properties/b/additionalProperties | "
					 "PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/b | "
					 "OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b",
					 "STRICT: the narrower property is not covered");
		RG_CHECK_STR(differences(o, u, true),
					 "ADDITIONAL_PROPERTIES_REMOVED #/properties/b/additionalProperties | "
					 "PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL #/properties/b | "
					 "OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/b",
					 "LENIENT: it is covered");
		/* not: compare(update.not, original.not) decides, under the policy */
		RG_CHECK_STR(differences(n2, n1, false), "NOT_TYPE_EXTENDED #/not", "STRICT: not extended");
		RG_CHECK_STR(differences(n2, n1, true), "NOT_TYPE_NARROWED #/not", "LENIENT: not narrowed");
	}
	rg_schema_free(o);
	rg_schema_free(u);
	rg_schema_free(n1);
	rg_schema_free(n2);
}

/* A $ref into a referenced schema is followed like a local one. */
static void
test_references(void)
{
	const char *main_text = "{'type':'object','properties':{'a':{'$ref':'address.json'}}}";
	rg_schema  *o = parse_with_ref(main_text, "address.json",
								   "{'type':'object','properties':{'street':{'type':'string'}}}");
	rg_schema  *u = parse_with_ref(main_text, "address.json",
								   "{'type':'object','properties':{'street':{'type':'integer'}}}");
	rg_schema  *same = parse_with_ref(main_text, "address.json",
									  "{'type':'object','properties':{'street':{'type':'string'}}}");

	if (o != NULL && u != NULL && same != NULL)
	{
		RG_CHECK_STR(differences(o, u, false), "TYPE_CHANGED #/properties/a/properties/street",
					 "a change inside a referenced schema");
		RG_CHECK_STR(differences(o, same, false), "", "the same referenced schema: no difference");
	}
	else
		RG_CHECK(false, "references: schemas load");
	rg_schema_free(o);
	rg_schema_free(u);
	rg_schema_free(same);
}

/* Property names in Java's HashSet order: 14 names outgrow the first table. */
static void
test_hash_order(void)
{
	char		upd[4096] = "{'type':'object','properties':{";
	char		want[8192] = "";
	static const char *const order[] = {"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7",
	"p8", "p9", "p10", "p12", "p11", "p13"};
	rg_schema  *o;
	rg_schema  *u;
	int			i;

	for (i = 13; i >= 0; i--)
	{
		char		one[64];

		snprintf(one, sizeof(one), "%s'p%d':{'type':'string'}", i < 13 ? "," : "", i);
		strcat(upd, one);
	}
	strcat(upd, "}}");
	for (i = 0; i < 14; i++)
	{
		if (i > 0)
			strcat(want, " | ");
		strcat(want, "OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL #/properties/");
		strcat(want, order[i]);
	}
	o = parse("{'type':'object'}");
	u = parse(upd);
	if (o != NULL && u != NULL)
		RG_CHECK_STR(differences(o, u, false), want, "14 added properties in HashSet order");
	else
		RG_CHECK(false, "hash order: schemas load");
	rg_schema_free(o);
	rg_schema_free(u);

	/*
	 * 12 names: new HashSet<>(them) keeps 16 buckets (JDK 19+), where 'q' and
	 * 'a' share one and stay in insertion order.
	 */
	o = parse("{'type':'object','properties':{'q':{},'a':{},'b':{},'c':{},'d':{},'e':{},"
			  "'f':{},'g':{},'h':{},'i':{},'j':{},'k':{}}}");
	u = parse("{'type':'object'}");
	want[0] = '\0';
	for (i = 0; i < 12; i++)
	{
		static const char *const names = "qabcdefghijk";
		char		one[96];

		snprintf(one, sizeof(one), "%sPROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL #/properties/%c",
				 i ? " | " : "", names[i]);
		strcat(want, one);
	}
	if (o != NULL && u != NULL)
		RG_CHECK_STR(differences(o, u, false), want, "12 removed properties: 16 buckets, a bucket in insertion order");
	else
		RG_CHECK(false, "hash order: schemas load");
	rg_schema_free(o);
	rg_schema_free(u);
}

/* Text of an object schema of n string properties, the last one's maxLength given. */
static char *
wide_object(int n, int max_length)
{
	char	   *s = malloc((size_t) n * 64 + 128);
	char	   *p = s;
	int			i;

	if (s == NULL)
		abort();
	p += sprintf(p, "{'type':'object','properties':{");
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s'field_%d':{'type':'string'%s}", i ? "," : "", i,
					 i == n - 1 ? "" : ",'maxLength':64");
	p += sprintf(p, "},'required':['field_0']");
	if (max_length > 0)
		p += sprintf(p, ",'maxProperties':%d", max_length);
	sprintf(p, "}");
	return s;
}

/* BACKWARD_TRANSITIVE over 1,000 versions of a 50-property schema. */
static void
test_transitive_speed(void)
{
#define N_VERSIONS 1000
	rg_prior_version *prev = calloc(N_VERSIONS, sizeof(*prev));
	rg_schema  *new;
	rg_arena   *a = rg_arena_create();
	rg_strlist	l;
	struct timespec t0,
				t1;
	double		ms;
	bool		ok;
	char	   *text;
	int			i;
	int			loaded = 0;

	for (i = 0; i < N_VERSIONS; i++)
	{
		text = wide_object(50, 100 + i);
		prev[i].schema = parse(text);
		prev[i].version = i + 1;
		loaded += prev[i].schema != NULL;
		free(text);
	}
	text = wide_object(50, 5000);
	new = parse(text);
	free(text);
	if (loaded != N_VERSIONS || new == NULL)
		RG_CHECK(false, "speed: schemas load");
	else
	{
		rg_strlist_init(&l, a);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ok = rg_compat_check(RG_COMPAT_BACKWARD_TRANSITIVE, new, prev, N_VERSIONS, &l);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
		printf("# BACKWARD_TRANSITIVE over %d versions of 50 properties: %.2f ms (ASan build)\n",
			   N_VERSIONS, ms);
		RG_CHECK(ok && l.n == 0, "transitive: compatible (maxProperties only grows)");
		/* generous: this build runs under ASan and UBSan */
		RG_CHECK(ms < 2000, "transitive: %.1f ms", ms);
	}
	for (i = 0; i < N_VERSIONS; i++)
		rg_schema_free((rg_schema *) prev[i].schema);
	free(prev);
	rg_schema_free(new);
	rg_arena_destroy(a);
}

#undef N_VERSIONS

/* A schema of depth nested objects, the innermost a string of that maxLength. */
static char *
deep_object(int depth, int max_length)
{
	char	   *s = malloc((size_t) depth * 48 + 128);
	char	   *p = s;
	int			i;

	if (s == NULL)
		abort();
	for (i = 0; i < depth; i++)
		p += sprintf(p, "{'type':'object','properties':{'x':");
	p += sprintf(p, "{'type':'string','maxLength':%d}", max_length);
	for (i = 0; i < depth; i++)
		p += sprintf(p, "}}");
	return s;
}

/* Deep nesting, wide combinations, mutual recursion: no crash, right answers. */
static void
test_robustness(void)
{
	char	   *t1 = deep_object(60, 5);
	char	   *t2 = deep_object(60, 4);
	rg_schema  *d1 = parse(t1);
	rg_schema  *d2 = parse(t2);
	char		wide1[8192] = "{'oneOf':[";
	char		wide2[8192] = "{'oneOf':[";
	rg_schema  *w1;
	rg_schema  *w2;
	rg_schema  *m1;
	rg_schema  *m2;
	bool		ok;
	int			i;

	if (d1 != NULL && d2 != NULL)
	{
		const char *m = messages(d2, d1, false, &ok);

		RG_CHECK(!ok && strstr(m, "MAX_LENGTH_DECREASED") != NULL &&
				 strstr(m, "/properties/x/maxLength'") != NULL, "60 levels deep: found");
	}
	else
		RG_CHECK(false, "deep: schemas load");
	free(t1);
	free(t2);
	rg_schema_free(d1);
	rg_schema_free(d2);

	for (i = 0; i < 40; i++)
	{
		char		one[96];

		snprintf(one, sizeof(one), "%s{'type':'string','maxLength':%d}", i ? "," : "", 10 + i);
		strcat(wide1, one);
		snprintf(one, sizeof(one), "%s{'type':'string','maxLength':%d}", i ? "," : "", 11 + i);
		strcat(wide2, one);
	}
	strcat(wide1, "]}");
	strcat(wide2, "]}");
	w1 = parse(wide1);
	w2 = parse(wide2);
	if (w1 != NULL && w2 != NULL)
	{
		messages(w2, w1, false, &ok);
		RG_CHECK(ok, "oneOf of 40, every maxLength one larger: a perfect matching");
		messages(w1, w2, false, &ok);
		RG_CHECK(!ok, "the other way: none");
	}
	else
		RG_CHECK(false, "wide: schemas load");
	rg_schema_free(w1);
	rg_schema_free(w2);

	/*
	 * A back-reference in a pattern property: the registry's matcher has none
	 * (a backtracking one may take exponential time over it), so the pattern
	 * is taken to match nothing and the added property is only an optional
	 * one added to an unopen model.
	 */
	w1 = parse("{'type':'object','patternProperties':{'^(a+)+\\\\1$':{'type':'string'}}}");
	w2 = parse("{'type':'object','properties':{'aaaa':{'type':'string'}},"
			   "'patternProperties':{'^(a+)+\\\\1$':{'type':'string'}}}");
	if (w1 != NULL && w2 != NULL)
		RG_CHECK_STR(differences(w1, w2, false),
					 "OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL #/properties/aaaa",
					 "a back-reference in a pattern matches nothing");
	else
		RG_CHECK(false, "back-reference: schemas load");
	rg_schema_free(w1);
	rg_schema_free(w2);

	m1 = parse("{'definitions':{'a':{'type':'object','properties':{'b':{'$ref':'#/definitions/b'},'s':{'type':'string'}}},"
			   "'b':{'type':'object','properties':{'a':{'$ref':'#/definitions/a'},'c':{'$ref':'#/definitions/c'}}},"
			   "'c':{'anyOf':[{'$ref':'#/definitions/a'},{'$ref':'#/definitions/b'},{'type':'null'}]}},"
			   "'$ref':'#/definitions/a'}");
	m2 = parse("{'definitions':{'a':{'type':'object','properties':{'b':{'$ref':'#/definitions/b'},'s':{'type':'string'}}},"
			   "'b':{'type':'object','properties':{'a':{'$ref':'#/definitions/a'},'c':{'$ref':'#/definitions/c'}}},"
			   "'c':{'anyOf':[{'$ref':'#/definitions/a'},{'$ref':'#/definitions/b'},{'type':'integer'}]}},"
			   "'$ref':'#/definitions/a'}");
	if (m1 != NULL && m2 != NULL)
	{
		messages(m1, m1, false, &ok);
		RG_CHECK(ok, "mutual recursion through anyOf: same schema compatible");
		messages(m2, m1, false, &ok);
		RG_CHECK(!ok, "mutual recursion: a changed member deep in the cycle is found");
	}
	else
		RG_CHECK(false, "mutual recursion: schemas load");
	rg_schema_free(m1);
	rg_schema_free(m2);
}

/*
 * Every schema of the cases against every other, both policies: no crash
 * (under ASan), and a verdict that agrees with the messages.
 */
static void
test_all_pairs(void)
{
	rg_schema  *s[2 * N_CASES];
	int			n = 0;
	int			bad = 0;
	int			pairs = 0;
	int			i;
	int			j;

	for (i = 0; i < N_CASES; i++)
	{
		s[n] = parse(cases[i].orig);
		n += s[n] != NULL;
		s[n] = parse(cases[i].upd);
		n += s[n] != NULL;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
		{
			bool		ok;
			const char *m = messages(s[i], s[j], (i + j) % 2 == 1, &ok);

			pairs++;
			if (ok != (m[0] == '\0') || (!ok && strncmp(m, "{errorType:\"", 12) != 0))
			{
				if (bad++ < 5)
					printf("# pair %d/%d: %s\n", i, j, m);
			}
		}
	RG_CHECK(bad == 0, "%d pairs of the cases' schemas: verdicts agree with messages (%d bad)",
			 pairs, bad);
	for (i = 0; i < n; i++)
		rg_schema_free(s[i]);
}

int
main(void)
{
	test_type_table();
	test_cases();
	test_messages();
	test_level_driver();
	test_not_json();
	test_references();
	test_policy_in_subcomparisons();
	test_hash_order();
	test_robustness();
	test_all_pairs();
	test_transitive_speed();
	return rg_test_done();
}
