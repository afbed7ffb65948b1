/*-------------------------------------------------------------------------
 *
 * catalog_references.c
 *	  A schema's references, as registry.schemas.refs keeps them: the
 *	  jsonb text of a Confluent references array
 *	  [{"name", "subject", "version"}], read and written with PostgreSQL's
 *	  jsonb functions (the same parser, errors and text form as the column
 *	  itself), not by SQL.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "json_out.h"
#include "registry.h"

/* The refusal of a references value that is not an array. */
static void
refs_not_an_array(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
			 errmsg("invalid schema references"),
			 errdetail("References must be a JSON array of objects with name, subject and version.")));
}

/*
 * The text of member key of a JSON object as ->> gives it (NULL when it is
 * missing or null); *type the member's type (jbvNull when missing).
 */
static char *
member_text(JsonbContainer *object, const char *key, enum jbvType *type)
{
	JsonbValue	v;

	if (getKeyJsonValueFromContainer(object, key, strlen(key), &v) == NULL)
	{
		*type = jbvNull;
		return NULL;
	}
	*type = v.type;
	return catalog_jsonb_value_text(&v);
}

/* One element of a references array into out, its strings palloc'd. */
static void
parse_ref(JsonbValue *elem, CatalogRef *out)
{
	JsonbContainer *object;
	enum jbvType name_type;
	enum jbvType subject_type;
	enum jbvType version_type;
	char	   *version;
	char	   *end;
	long		ver;

	if (elem->type != jbvBinary || !JsonContainerIsObject(elem->val.binary.data))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid schema reference"),
				 errdetail("Each reference needs a name, a subject and a version.")));
	object = elem->val.binary.data;
	out->name = member_text(object, "name", &name_type);
	out->subject = member_text(object, "subject", &subject_type);
	version = member_text(object, "version", &version_type);
	if (out->name == NULL || out->subject == NULL || version == NULL ||
		version_type != jbvNumeric)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid schema reference"),
				 errdetail("Each reference needs a name, a subject and a version.")));
	errno = 0;
	ver = strtol(version, &end, 10);
	if (*end != '\0' || errno != 0 || ver < -1 || ver == 0 || ver > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid version %s in the reference to subject \"%s\"",
						version, out->subject)));
	out->version = (int32) ver;
}

/*
 * Read a Confluent references array [{"name","subject","version"}].  A
 * malformed array is an invalid schema (42201), as Confluent answers; text
 * that is not JSON is refused as jsonb refuses it.
 */
CatalogRef *
catalog_parse_refs(const char *refs_json, int *n)
{
	Jsonb	   *jb;
	CatalogRef *out;
	JsonbValue *elem;

	/* the common case needs no parse */
	if (strcmp(refs_json, "[]") == 0)
	{
		*n = 0;
		return palloc0(sizeof(CatalogRef));
	}
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(refs_json)));
	if (!JB_ROOT_IS_ARRAY(jb) || JB_ROOT_IS_SCALAR(jb))
		refs_not_an_array();
	*n = (int) JB_ROOT_COUNT(jb);
	out = palloc0(sizeof(CatalogRef) * (*n + 1));
	for (int i = 0; i < *n; i++)
	{
		elem = getIthJsonbValueFromContainer(&jb->root, i);
		parse_ref(elem, &out[i]);
	}
	return out;
}

/* References as the jsonb text of a Confluent references array. */
char *
catalog_refs_to_json(const CatalogRef *refs, int n)
{
	JsonbParseState *state = NULL;
	JsonbValue *array;
	JsonbValue	v;
	Jsonb	   *jb;

	if (n == 0)
		return pstrdup("[]");
	pushJsonbValue(&state, WJB_BEGIN_ARRAY, NULL);
	for (int i = 0; i < n; i++)
	{
		pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
		registry_jsonb_push_member(&state, "name", refs[i].name);
		registry_jsonb_push_member(&state, "subject", refs[i].subject);
		registry_jsonb_push_string(&state, WJB_KEY, "version");
		v.type = jbvNumeric;
		v.val.numeric = int64_to_numeric(refs[i].version);
		pushJsonbValue(&state, WJB_VALUE, &v);
		pushJsonbValue(&state, WJB_END_OBJECT, NULL);
	}
	array = pushJsonbValue(&state, WJB_END_ARRAY, NULL);
	jb = JsonbValueToJsonb(array);
	return JsonbToCString(NULL, &jb->root, VARSIZE(jb));
}
