/*-------------------------------------------------------------------------
 *
 * avro_nodes.c
 *	  The static parts of the Avro model: type names, and the nodes every
 *	  parsed schema may share.
 *
 * A backend caches thousands of parsed schemas, so what many fields have
 * in common is one static node rather than one per use: the type of a
 * field written as a primitive's name ("long"), the union of two such
 * primitives (["null","string"], the optional field's type) and the empty
 * rest of a field without doc, aliases or properties.  Such a node has no
 * properties, and nothing writes to it once a schema is parsed
 * (rg_avro_normalize leaves it alone).  It has no identity either: the
 * compatibility checker does not memoize pairs with a shared side.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"

/* See rg_avro.h (never written: a field with nothing extra points here) */
rg_avro_field_extra rg_avro_no_extra;

/* One node per primitive, indexed by rg_avro_type, which numbers the primitives first. */
static rg_avro_schema plain_primitives[] = {
	{.type = RG_AVRO_NULL,.shared = true}, {.type = RG_AVRO_BOOLEAN,.shared = true},
	{.type = RG_AVRO_INT,.shared = true}, {.type = RG_AVRO_LONG,.shared = true},
	{.type = RG_AVRO_FLOAT,.shared = true}, {.type = RG_AVRO_DOUBLE,.shared = true},
	{.type = RG_AVRO_BYTES,.shared = true}, {.type = RG_AVRO_STRING,.shared = true}
};

#define N_PLAIN ((int) (sizeof(plain_primitives) / sizeof(plain_primitives[0])))

/*
 * One union node per ordered pair of primitives; [a][a] is never handed
 * out (a union has no repeats).
 */
#define PLAIN_PAIR(a, b) \
	{.type = RG_AVRO_UNION, .shared = true, .n_branches = 2, \
	 .branches = (rg_avro_schema *[]) {&plain_primitives[a], &plain_primitives[b]}}
#define PLAIN_PAIRS(a) \
	{PLAIN_PAIR(a, 0), PLAIN_PAIR(a, 1), PLAIN_PAIR(a, 2), PLAIN_PAIR(a, 3), \
	 PLAIN_PAIR(a, 4), PLAIN_PAIR(a, 5), PLAIN_PAIR(a, 6), PLAIN_PAIR(a, 7)}

static rg_avro_schema plain_pairs[N_PLAIN][N_PLAIN] = {
	PLAIN_PAIRS(0), PLAIN_PAIRS(1), PLAIN_PAIRS(2), PLAIN_PAIRS(3),
	PLAIN_PAIRS(4), PLAIN_PAIRS(5), PLAIN_PAIRS(6), PLAIN_PAIRS(7)
};

/* See rg_avro.h */
const char *
rg_avro_type_name(rg_avro_type type)
{
	switch (type)
	{
		case RG_AVRO_NULL:
			return "null";
		case RG_AVRO_BOOLEAN:
			return "boolean";
		case RG_AVRO_INT:
			return "int";
		case RG_AVRO_LONG:
			return "long";
		case RG_AVRO_FLOAT:
			return "float";
		case RG_AVRO_DOUBLE:
			return "double";
		case RG_AVRO_BYTES:
			return "bytes";
		case RG_AVRO_STRING:
			return "string";
		case RG_AVRO_RECORD:
			return "record";
		case RG_AVRO_ENUM:
			return "enum";
		case RG_AVRO_ARRAY:
			return "array";
		case RG_AVRO_MAP:
			return "map";
		case RG_AVRO_UNION:
			return "union";
		case RG_AVRO_FIXED:
			return "fixed";
	}
	return "unknown";
}

/* See rg_avro.h */
rg_avro_schema *
rg_avro_plain(rg_avro_type primitive)
{
	return &plain_primitives[primitive];
}

/* The index of a shared primitive node, or -1 for any other node. */
static int
plain_index(const rg_avro_schema *s)
{
	if (s >= plain_primitives && s < plain_primitives + N_PLAIN)
		return (int) (s - plain_primitives);
	return -1;
}

/* See rg_avro.h: the primitives first, then the pairs row by row */
int
rg_avro_shared_index(const rg_avro_schema *s)
{
	const rg_avro_schema *pairs = &plain_pairs[0][0];
	int			a = plain_index(s);

	if (a >= 0)
		return a;
	if (s >= pairs && s < pairs + N_PLAIN * N_PLAIN)
		return N_PLAIN + (int) (s - pairs);
	return -1;
}

/* See rg_avro.h */
rg_avro_schema *
rg_avro_plain_pair(const rg_avro_schema *first, const rg_avro_schema *second)
{
	int			a = plain_index(first);
	int			b = plain_index(second);

	if (a < 0 || b < 0 || a == b)
		return NULL;
	return &plain_pairs[a][b];
}
