/*-------------------------------------------------------------------------
 *
 * cloudevent.c
 *	  CloudEvents 1.0 envelopes in SQL: registry.cloudevent (a value
 *	  encoded for a subject version, wrapped with its schema named) and
 *	  registry.cloudevent_data (the value back out of one).
 *
 * The envelope is CloudEvents' JSON format: id (a random UUID), source,
 * type, specversion "1.0", time (the transaction's start, as now()),
 * datacontenttype, dataschema (where the registry serves the schema:
 * registry.public_url, then /schemas/ids/<id>, with ?subject= for a
 * subject of another context than the default), then the value: for a
 * JSON Schema the JSON itself in "data", checked as registry.encode checks
 * it; for AVRO and PROTOBUF the wire-format message registry.encode
 * returns, base64, in "data_base64".  Extension attributes (a correlation
 * id, a tenant) are added from a jsonb object, named as CloudEvents
 * requires.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "common/base64.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "payload.h"
#include "registry.h"

PG_FUNCTION_INFO_V1(registry_cloudevent);
PG_FUNCTION_INFO_V1(registry_cloudevent_data);

/* registry.public_url: the registry's address as consumers reach it */
static char *registry_public_url = NULL;

/* the attributes an extension may not set: CloudEvents' own */
static const char *const reserved_attributes[] = {
	"id", "source", "specversion", "type", "datacontenttype", "dataschema",
	"time", "data", "data_base64"
};

/* Define registry.public_url. */
void
registry_init_cloudevents(void)
{
	DefineCustomStringVariable("registry.public_url",
							   "The registry's REST address as consumers reach it, for the "
							   "dataschema of registry.cloudevent().",
							   "Empty: http://localhost and registry.http_port.",
							   &registry_public_url,
							   "",
							   PGC_SUSET,
							   0,
							   NULL, NULL, NULL);
}

/* A text argument that must be given and not empty. */
static char *
required_text(FunctionCallInfo fcinfo, int n, const char *name)
{
	char	   *s = PG_ARGISNULL(n) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(n));

	if (s == NULL || s[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must not be null or empty", name)));
	return s;
}

/* An optional text argument, def when it is NULL. */
static char *
optional_text(FunctionCallInfo fcinfo, int n, char *def)
{
	return PG_ARGISNULL(n) ? def : text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* Append "key": as JSON to buf (with the comma before all but the first). */
static void
append_key(StringInfo buf, const char *key)
{
	if (buf->len > 1)
		appendStringInfoChar(buf, ',');
	escape_json(buf, key);
	appendStringInfoChar(buf, ':');
}

/* Append "key":"value". */
static void
append_string(StringInfo buf, const char *key, const char *value)
{
	append_key(buf, key);
	escape_json(buf, value);
}

/* A random (version 4) UUID as text. */
static char *
random_uuid(void)
{
	uint8		b[16];

	if (!pg_strong_random(b, sizeof(b)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate a random event id")));
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	return psprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
					b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
					b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* The transaction's start as RFC 3339 in UTC, as CloudEvents' time. */
static char *
event_time(void)
{
	struct pg_tm tm;
	fsec_t		fsec;

	if (timestamp2tm(GetCurrentTransactionStartTimestamp(), NULL, &tm, &fsec, NULL, NULL) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range")));
	return psprintf("%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", tm.tm_year, tm.tm_mon, tm.tm_mday,
					tm.tm_hour, tm.tm_min, tm.tm_sec, (int) fsec);
}

/* s with every byte outside RFC 3986's unreserved set percent-encoded. */
static char *
percent_encode(const char *s)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '-' || c == '.' || c == '_' || c == '~')
			appendStringInfoChar(&buf, (char) c);
		else
			appendStringInfo(&buf, "%%%02X", c);
	}
	return buf.data;
}

/* Where the registry serves the schema a value was encoded with. */
static char *
dataschema(const PayloadSchema *used, const char *subject)
{
	char	   *base;
	size_t		len;
	char	   *url;

	if (registry_public_url != NULL && registry_public_url[0] != '\0')
		base = pstrdup(registry_public_url);
	else
		base = psprintf("http://localhost:%s",
						GetConfigOption("registry.http_port", true, false));
	len = strlen(base);
	while (len > 0 && base[len - 1] == '/')
		base[--len] = '\0';
	url = psprintf("%s/schemas/ids/%d", base, used->id);
	if (strcmp(used->context, REGISTRY_DEFAULT_CONTEXT) != 0)
		url = psprintf("%s?subject=%s", url, percent_encode(subject));
	return url;
}

/* The media type of a format's data. */
static const char *
content_type(const char *schema_type)
{
	if (strcmp(schema_type, "JSON") == 0)
		return "application/json";
	if (strcmp(schema_type, "PROTOBUF") == 0)
		return "application/protobuf";
	return "application/avro";
}

/* Is an extension attribute's name one CloudEvents allows: a-z and 0-9, not its own? */
static void
check_attribute_name(const char *name)
{
	const char *p;
	int			i;

	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			break;
	if (name[0] == '\0' || *p != '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid CloudEvents attribute name \"%s\"", name),
				 errdetail("Attribute names consist of lower-case letters a to z and digits.")));
	for (i = 0; i < lengthof(reserved_attributes); i++)
		if (strcmp(name, reserved_attributes[i]) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("CloudEvents attribute \"%s\" cannot be set as an extension", name)));
}

/* Append one extension attribute: a string, an integer or a boolean. */
static void
append_extension(StringInfo buf, const char *name, JsonbValue *v)
{
	check_attribute_name(name);
	append_key(buf, name);
	switch (v->type)
	{
		case jbvString:
			escape_json(buf, pnstrdup(v->val.string.val, v->val.string.len));
			return;
		case jbvBool:
			appendStringInfoString(buf, v->val.boolean ? "true" : "false");
			return;
		case jbvNumeric:
			{
				char	   *n = DatumGetCString(DirectFunctionCall1(numeric_out,
																	NumericGetDatum(v->val.numeric)));

				if (strspn(n, "-0123456789") == strlen(n))
				{
					appendStringInfoString(buf, n);
					return;
				}
			}
			break;
		default:
			break;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("CloudEvents attribute \"%s\" must be a string, an integer or a boolean",
					name)));
}

/* Append the members of an extensions object as attributes. */
static void
append_extensions(StringInfo buf, Jsonb *extensions)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	char	   *key = NULL;

	if (!JB_ROOT_IS_OBJECT(extensions))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("extensions must be a JSON object")));
	it = JsonbIteratorInit(&extensions->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
			key = pnstrdup(v.val.string.val, v.val.string.len);
		else if (tok == WJB_VALUE)
			append_extension(buf, key, &v);
	}
}

/*
 * cloudevent(subject, value, type, source, version, message, extensions)
 * -> jsonb: a CloudEvents 1.0 envelope of value encoded for the subject
 * version (see the file's header).  A NULL value makes an event without
 * data.
 */
Datum
registry_cloudevent(PG_FUNCTION_ARGS)
{
	char	   *subject = required_text(fcinfo, 0, "subject");
	char	   *type = required_text(fcinfo, 2, "type");
	char	   *source = required_text(fcinfo, 3, "source");
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	append_string(&buf, "specversion", "1.0");
	append_string(&buf, "id", random_uuid());
	append_string(&buf, "source", source);
	append_string(&buf, "type", type);
	append_string(&buf, "time", event_time());
	if (!PG_ARGISNULL(6))
		append_extensions(&buf, PG_GETARG_JSONB_P(6));
	if (!PG_ARGISNULL(1))
	{
		Jsonb	   *value = PG_GETARG_JSONB_P(1);
		PayloadSchema used;
		bytea	   *msg = registry_encode_value(fcinfo, subject,
												optional_text(fcinfo, 4, "latest"),
												optional_text(fcinfo, 5, NULL), value, &used);

		append_string(&buf, "datacontenttype", content_type(used.schema_type));
		append_string(&buf, "dataschema", dataschema(&used, subject));
		if (strcmp(used.schema_type, "JSON") == 0)
		{
			append_key(&buf, "data");
			appendStringInfoString(&buf, JsonbToCString(NULL, &value->root, VARSIZE(value)));
		}
		else
		{
			int			len = VARSIZE_ANY_EXHDR(msg);
			char	   *b64 = palloc(pg_b64_enc_len(len) + 1);
			int			n = pg_b64_encode(VARDATA_ANY(msg), len, b64, pg_b64_enc_len(len));

			if (n < 0)
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("could not encode the event data")));
			b64[n] = '\0';
			append_string(&buf, "data_base64", b64);
		}
	}
	appendStringInfoChar(&buf, '}');
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}

/* An envelope's member, or NULL. */
static JsonbValue *
member(Jsonb *envelope, const char *key)
{
	return getKeyJsonValueFromContainer(&envelope->root, key, strlen(key), NULL);
}

/* An envelope's string member, or NULL when it is absent; 22023 when not a string. */
static char *
string_member(Jsonb *envelope, const char *key)
{
	JsonbValue *v = member(envelope, key);

	if (v == NULL || v->type == jbvNull)
		return NULL;
	if (v->type != jbvString)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("CloudEvents attribute \"%s\" must be a string", key)));
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/* s with its %XX escapes decoded. */
static char *
percent_decode(const char *s)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (; *s; s++)
	{
		if (*s == '%' && isxdigit((unsigned char) s[1]) && isxdigit((unsigned char) s[2]))
		{
			char		hex[3] = {s[1], s[2], '\0'};

			appendStringInfoChar(&buf, (char) strtol(hex, NULL, 16));
			s += 2;
		}
		else
			appendStringInfoChar(&buf, *s);
	}
	return buf.data;
}

/*
 * The schema id (and context, NULL for the default) a dataschema names:
 * ".../schemas/ids/<id>" with an optional "?subject=<subject>".
 */
static int32
dataschema_id(const char *url, char **context)
{
	const char *at = url ? strstr(url, "/schemas/ids/") : NULL;
	const char *q;
	char	   *end;
	long		id;

	*context = NULL;
	if (at == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the envelope's dataschema does not name a schema id"),
				 errdetail("A dataschema ends with /schemas/ids/<id>, as registry.cloudevent() writes it.")));
	id = strtol(at + strlen("/schemas/ids/"), &end, 10);
	if (end == at + strlen("/schemas/ids/") || id <= 0 || id > PG_INT32_MAX ||
		(*end != '\0' && *end != '?'))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the envelope's dataschema does not name a schema id")));
	q = strstr(end, "subject=");
	if (q != NULL)
	{
		char	   *name;

		registry_split_subject_cstr(percent_decode(q + strlen("subject=")), context, &name);
	}
	return (int32) id;
}

/* An envelope's JSON data, checked against the schema its dataschema names. */
static Jsonb *
checked_json_data(FunctionCallInfo fcinfo, Jsonb *envelope, JsonbValue *data)
{
	char	   *context;
	int32		id = dataschema_id(string_member(envelope, "dataschema"), &context);
	Jsonb	   *value = JsonbValueToJsonb(data);

	registry_check_value_by_id(fcinfo, id, context, value);
	return value;
}

/*
 * cloudevent_data(envelope) -> jsonb: the value of a CloudEvents envelope
 * as registry.cloudevent wrote it: data_base64 decoded with the writer's
 * schema its wire header names; JSON data checked against the schema the
 * dataschema names; NULL for an event without data.
 */
Datum
registry_cloudevent_data(PG_FUNCTION_ARGS)
{
	Jsonb	   *envelope = PG_GETARG_JSONB_P(0);
	char	   *version;
	char	   *b64;
	JsonbValue *data;

	if (!JB_ROOT_IS_OBJECT(envelope))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a CloudEvents envelope must be a JSON object")));
	version = string_member(envelope, "specversion");
	if (version == NULL || strcmp(version, "1.0") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the envelope is not a CloudEvents 1.0 event"),
				 errdetail("Its specversion is %s.", version ? version : "missing")));
	b64 = string_member(envelope, "data_base64");
	if (b64 != NULL)
	{
		int			len = strlen(b64);
		bytea	   *msg = palloc(VARHDRSZ + pg_b64_dec_len(len));
		int			n = pg_b64_decode(b64, len, VARDATA(msg), pg_b64_dec_len(len));

		if (n < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the envelope's data_base64 is not base64")));
		SET_VARSIZE(msg, VARHDRSZ + n);
		PG_RETURN_DATUM(registry_decode_message(fcinfo, msg));
	}
	data = member(envelope, "data");
	if (data == NULL)
		PG_RETURN_NULL();
	PG_RETURN_JSONB_P(checked_json_data(fcinfo, envelope, data));
}
