/*-------------------------------------------------------------------------
 *
 * payload.c
 *	  Payloads in SQL: registry.encode (a jsonb value to a Confluent
 *	  wire-format message), registry.decode (back, with the writer's schema
 *	  or as a reader schema reads it) and registry.check_data (stored
 *	  messages replayed through a proposed schema).  Format-independent:
 *	  each format's encode and decode (rg_format.h) do the work, and a
 *	  format without them is refused (feature_not_supported).
 *
 * The schema of a (subject, version) or an id is looked up once per
 * statement (the functions are STABLE) and its parsed form comes from the
 * backend's schema cache, so a query over many rows parses nothing and
 * asks the catalog once.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "catalog.h"
#include "compatibility.h"
#include "payload.h"
#include "registry.h"
#include "schemas.h"
#include "usage.h"

PG_FUNCTION_INFO_V1(registry_encode);
PG_FUNCTION_INFO_V1(registry_decode);
PG_FUNCTION_INFO_V1(registry_decode_as);
PG_FUNCTION_INFO_V1(registry_check_data);

/*
 * A stored schema found by id or by subject version, with its parsed form
 * from the backend's cache (valid until the end of the transaction: the
 * cache retires an evicted schema's memory only then).
 */
typedef struct SchemaRef
{
	char	   *context;
	int32		id;
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
	const rg_schema *parsed;
} SchemaRef;

/* The statement a lookup was made in: it holds while that one runs. */
typedef struct Stamp
{
	bool		valid;
	LocalTransactionId lxid;
	TimestampTz statement;
	CommandId	command;
} Stamp;

/* What one call site (fn_extra) remembers of its lookups. */
typedef struct PayloadCache
{
	/* by subject and version */
	Stamp		version_stamp;
	char	   *subject;
	char	   *version;
	SchemaRef	by_version;
	/* by id (a message's writer), in a context */
	Stamp		id_stamp;
	int32		id;
	char	   *id_context;
	SchemaRef	by_id;
} PayloadCache;

/* ---------- lookups ---------- */

/* Is a lookup stamped in the statement now running? */
static bool
stamp_current(const Stamp *s)
{
	return s->valid && s->lxid == MyProc->lxid &&
		s->statement == GetCurrentStatementStartTimestamp() &&
		s->command == GetCurrentCommandId(false);
}

/* Stamp a lookup with the statement now running. */
static void
stamp_set(Stamp *s)
{
	s->valid = true;
	s->lxid = MyProc->lxid;
	s->statement = GetCurrentStatementStartTimestamp();
	s->command = GetCurrentCommandId(false);
}

/* The call site's cache, made on the first call. */
static PayloadCache *
call_cache(FunctionCallInfo fcinfo)
{
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
														  sizeof(PayloadCache));
	return (PayloadCache *) fcinfo->flinfo->fn_extra;
}

/* Copy a SchemaRef into the call site's memory. */
static void
ref_copy(FunctionCallInfo fcinfo, SchemaRef *dst, const SchemaRef *src)
{
	dst->context = MemoryContextStrdup(fcinfo->flinfo->fn_mcxt, src->context);
	dst->id = src->id;
	memcpy(dst->fingerprint, src->fingerprint, REGISTRY_FINGERPRINT_LEN);
	dst->parsed = src->parsed;
}

/*
 * The schema of a subject version ("latest", -1 or a number; the subject
 * may name a context), with registry.get_version's errors.
 */
static SchemaRef
lookup_version(FunctionCallInfo fcinfo, const char *subject, const char *version)
{
	PayloadCache *cache = call_cache(fcinfo);
	CatalogSchemaRow row;
	CatalogSchema stored;
	SchemaRef	ref;
	char	   *name;

	if (stamp_current(&cache->version_stamp) && strcmp(cache->subject, subject) == 0 &&
		strcmp(cache->version, version) == 0)
		return cache->by_version;
	registry_read_version(registry_served_subject(subject), subject, version, false, &row);
	registry_split_subject_cstr(row.subject, &ref.context, &name);
	if (!catalog_get_schema(ref.context, row.id, &stored))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema %d not found", row.id)));
	ref.id = row.id;
	memcpy(ref.fingerprint, stored.fingerprint, REGISTRY_FINGERPRINT_LEN);
	ref.parsed = registry_stored_schema(ref.context, ref.id, ref.fingerprint);
	cache->version_stamp.valid = false;
	if (cache->subject)
		pfree(cache->subject);
	if (cache->version)
		pfree(cache->version);
	cache->subject = MemoryContextStrdup(fcinfo->flinfo->fn_mcxt, subject);
	cache->version = MemoryContextStrdup(fcinfo->flinfo->fn_mcxt, version);
	ref_copy(fcinfo, &cache->by_version, &ref);
	stamp_set(&cache->version_stamp);
	/* who still reads it (usage.c): once per statement and call site */
	registry_usage_note_sql(ref.context, ref.id, row.subject);
	return ref;
}

/*
 * The schema a message's id names: in context, or with context NULL as
 * registry.schema_by_id(id) finds it (the default context, else the first
 * context that has it); in the default context, also any other.  false
 * when there is none.
 */
static bool
lookup_id(FunctionCallInfo fcinfo, int32 id, const char *context, SchemaRef *out)
{
	PayloadCache *cache = fcinfo ? call_cache(fcinfo) : NULL;
	CatalogSchema stored;
	bool		found;

	if (cache && stamp_current(&cache->id_stamp) && cache->id == id &&
		((context == NULL && cache->id_context == NULL) ||
		 (context && cache->id_context && strcmp(context, cache->id_context) == 0)))
	{
		*out = cache->by_id;
		return true;
	}
	if (context != NULL && strcmp(context, REGISTRY_DEFAULT_CONTEXT) != 0)
		found = catalog_get_schema(context, id, &stored);
	else
		found = catalog_schema_any_context(id, &stored);
	if (!found)
		return false;
	out->context = stored.context;
	out->id = id;
	memcpy(out->fingerprint, stored.fingerprint, REGISTRY_FINGERPRINT_LEN);
	out->parsed = registry_stored_schema(out->context, id, out->fingerprint);
	if (cache)
	{
		cache->id_stamp.valid = false;
		if (cache->id_context)
			pfree(cache->id_context);
		cache->id_context = context ? MemoryContextStrdup(fcinfo->flinfo->fn_mcxt, context) : NULL;
		cache->id = id;
		ref_copy(fcinfo, &cache->by_id, out);
		stamp_set(&cache->id_stamp);
		/* a SQL call's read (usage.c): once per statement and call site */
		registry_usage_note_sql(out->context, id, NULL);
	}
	return true;
}

/* ---------- errors ---------- */

/* A format without payloads: feature_not_supported. */
static void
check_payloads(const rg_schema *s, bool encode)
{
	if ((encode && s->format->encode == NULL) || (!encode && s->format->decode == NULL))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s payloads of %s schemas are not supported",
						encode ? "encoding" : "decoding", s->format->name)));
}

/* The SQLSTATE of a core payload error. */
static int
payload_sqlstate(const rg_error *err)
{
	switch (err->code)
	{
		case RG_ERR_INVALID_PAYLOAD:
			return ERRCODE_INVALID_BINARY_REPRESENTATION;
		case RG_ERR_INVALID_VALUE:
			return ERRCODE_INVALID_PARAMETER_VALUE;
		case RG_ERR_NOMEM:
			return ERRCODE_OUT_OF_MEMORY;
		default:
			return ERRCODE_INTERNAL_ERROR;
	}
}

/* Raise a failed encode or decode, naming the schema it was against. */
static void
report_payload_error(const rg_error *err, const char *role, int32 id)
{
	ereport(ERROR,
			(errcode(payload_sqlstate(err)),
			 errmsg("%s", err->message),
			 errdetail("The %s schema is schema %d.", role, id)));
}

/* ---------- the functions ---------- */

/* A text argument, or def when it is NULL. */
static char *
text_arg(FunctionCallInfo fcinfo, int n, char *def)
{
	if (PG_NARGS() <= n || PG_ARGISNULL(n))
		return def;
	return text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* A value encoded for a subject version as registry.encode does (payload.h). */
bytea *
registry_encode_value(FunctionCallInfo fcinfo, const char *subject, const char *version,
					  const char *message, Jsonb *value, PayloadSchema *used)
{
	SchemaRef	ref = lookup_version(fcinfo, subject, version);
	const rg_schema *s = ref.parsed;
	char	   *json;
	rg_buf		out;
	rg_error	err;
	bytea	   *result;

	check_payloads(s, true);
	json = JsonbToCString(NULL, &value->root, VARSIZE(value));
	rg_buf_init(&out);
	if (!s->format->encode(s, message, json, strlen(json), &out, &err))
		report_payload_error(&err, "writer's", ref.id);
	if (out.oom)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	result = registry_wire_message(ref.id, out.data, out.len);
	rg_buf_free(&out);
	if (used)
	{
		used->context = ref.context;
		used->id = ref.id;
		used->schema_type = s->format->name;
	}
	return result;
}

/* Check a value against the schema an id names in context, as encode does (payload.h). */
void
registry_check_value_by_id(FunctionCallInfo fcinfo, int32 id, const char *context,
						   Jsonb *value)
{
	SchemaRef	ref;
	char	   *json;
	rg_buf		out;
	rg_error	err;

	if (!lookup_id(fcinfo, id, context, &ref))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema %d not found", id)));
	check_payloads(ref.parsed, true);
	json = JsonbToCString(NULL, &value->root, VARSIZE(value));
	rg_buf_init(&out);
	if (!ref.parsed->format->encode(ref.parsed, NULL, json, strlen(json), &out, &err))
		report_payload_error(&err, "writer's", id);
	rg_buf_free(&out);
}

/*
 * encode(subject, value, version, message) -> bytea: value checked against
 * the subject version's schema, as a wire-format message (NULL value: NULL).
 */
Datum
registry_encode(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("subject must not be null")));
	if (PG_ARGISNULL(1))
		PG_RETURN_NULL();
	PG_RETURN_BYTEA_P(registry_encode_value(fcinfo, text_arg(fcinfo, 0, NULL),
											text_arg(fcinfo, 2, "latest"),
											text_arg(fcinfo, 3, NULL),
											PG_GETARG_JSONB_P(1), NULL));
}

/* A decoded value's JSON text as jsonb. */
static Datum
json_result(rg_buf *out)
{
	Datum		result;

	if (out->oom || out->data == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	result = DirectFunctionCall1(jsonb_in, CStringGetDatum(out->data));
	rg_buf_free(out);
	return result;
}

/* The writer of a message: its id's schema, in context (NULL: as schema_by_id). */
static const rg_schema *
message_writer(FunctionCallInfo fcinfo, const char *msg, size_t len, const char *context,
			   int32 *id)
{
	SchemaRef	ref;

	*id = registry_wire_read(msg, len);
	if (!lookup_id(fcinfo, *id, context, &ref))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema %d not found", *id)));
	return ref.parsed;
}

/* A wire-format message read with its writer's schema, as jsonb (payload.h). */
Datum
registry_decode_message(FunctionCallInfo fcinfo, bytea *msg)
{
	const char *data = VARDATA_ANY(msg);
	size_t		len = VARSIZE_ANY_EXHDR(msg);
	int32		id;
	const rg_schema *w = message_writer(fcinfo, data, len, NULL, &id);
	rg_buf		out;
	rg_error	err;

	check_payloads(w, false);
	rg_buf_init(&out);
	if (!w->format->decode(w, NULL, (const uint8_t *) data + REGISTRY_WIRE_HEADER,
						   len - REGISTRY_WIRE_HEADER, &out, NULL, &err))
		report_payload_error(&err, "writer's", id);
	return json_result(&out);
}

/* decode(payload) -> jsonb: a wire-format message read with its writer's schema. */
Datum
registry_decode(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(registry_decode_message(fcinfo, PG_GETARG_BYTEA_PP(0)));
}

/* A reader of another format than the writer's cannot read its messages. */
static void
check_same_format(const rg_schema *w, int32 wid, const rg_schema *r)
{
	if (w->format != r->format)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("schema %d is a %s schema, the reader's is %s", wid,
						w->format->name, r->format->name)));
}

/*
 * decode(payload, subject, version) -> jsonb: a wire-format message read as
 * the subject version's schema reads it (Avro schema resolution).  The
 * writer's id is looked up in the subject's context.
 */
Datum
registry_decode_as(PG_FUNCTION_ARGS)
{
	bytea	   *msg = PG_GETARG_BYTEA_PP(0);
	const char *data = VARDATA_ANY(msg);
	size_t		len = VARSIZE_ANY_EXHDR(msg);
	SchemaRef	rref = lookup_version(fcinfo, text_arg(fcinfo, 1, NULL),
									  text_arg(fcinfo, 2, "latest"));
	int32		id;
	const rg_schema *r = rref.parsed;
	const rg_schema *w = message_writer(fcinfo, data, len, rref.context, &id);
	rg_buf		out;
	rg_error	err;

	check_payloads(w, false);
	check_same_format(w, id, r);
	rg_buf_init(&out);
	if (!w->format->decode(w, r, (const uint8_t *) data + REGISTRY_WIRE_HEADER,
						   len - REGISTRY_WIRE_HEADER, &out, NULL, &err))
		report_payload_error(&err, err.code == RG_ERR_INVALID_VALUE ? "reader's" : "writer's",
							 err.code == RG_ERR_INVALID_VALUE ? rref.id : id);
	PG_RETURN_DATUM(json_result(&out));
}

/* ---------- check_data ---------- */

/* One row of check_data's answer. */
typedef struct CheckRow
{
	char	   *path;			/* NULL: not about one part of the value */
	char	   *outcome;
	int			samples;
	int			first_sample;
	int			last_sample;	/* counts a sample once per row */
} CheckRow;

typedef struct CheckKey
{
	char		key[1024];
	int			row;
} CheckKey;

typedef struct CheckResult
{
	MemoryContext memory;		/* of the rows and their texts */
	bool		have_writer;	/* the last sample's writer, for the next */
	SchemaRef	writer;
	HTAB	   *index;
	CheckRow   *rows;
	int			n;
	int			cap;
} CheckResult;

/* Count sample (1-based) under (path, outcome). */
static void
check_count(CheckResult *res, const char *path, const char *outcome, int sample)
{
	char		key[1024];
	CheckKey   *k;
	bool		found;
	CheckRow   *row;

	snprintf(key, sizeof(key), "%s\x01%s", path ? path : "", outcome);
	k = hash_search(res->index, key, HASH_ENTER, &found);
	if (!found)
	{
		if (res->n == res->cap)
		{
			res->cap = res->cap ? res->cap * 2 : 16;
			res->rows = res->rows ? repalloc(res->rows, sizeof(CheckRow) * res->cap) :
				MemoryContextAlloc(res->memory, sizeof(CheckRow) * res->cap);
		}
		row = &res->rows[res->n];
		row->path = path ? MemoryContextStrdup(res->memory, path) : NULL;
		row->outcome = MemoryContextStrdup(res->memory, outcome);
		row->samples = 0;
		row->first_sample = sample;
		row->last_sample = 0;
		k->row = res->n++;
	}
	row = &res->rows[k->row];
	if (row->last_sample != sample)
	{
		row->samples++;
		row->last_sample = sample;
	}
}

/*
 * A core message "$.a.b: what" as its path and what; a message without a
 * path is all what.
 */
static void
split_message(const char *msg, char **path, char **what)
{
	const char *sep = msg[0] == '$' ? strstr(msg, ": ") : NULL;

	if (sep == NULL)
	{
		*path = NULL;
		*what = pstrdup(msg);
		return;
	}
	*path = pnstrdup(msg, sep - msg);
	*what = pstrdup(sep + 2);
}

/* Replay one sample with reader r, counting what happened to it. */
static void
check_sample(CheckResult *res, const rg_schema *r, const char *context, bytea *msg,
			 int sample)
{
	const char *data = VARDATA_ANY(msg);
	size_t		len = VARSIZE_ANY_EXHDR(msg);
	const unsigned char *p = (const unsigned char *) data;
	int32		id;
	SchemaRef	ref;
	const rg_schema *w;
	rg_arena   *arena;
	rg_strlist	notes;
	rg_buf		out;
	rg_error	err;
	char	   *path;
	char	   *what;
	int			i;

	if (len < REGISTRY_WIRE_HEADER || p[0] != 0)
	{
		check_count(res, NULL, "unreadable: not a Confluent wire-format message", sample);
		return;
	}
	id = registry_wire_read(data, len);
	if (res->have_writer && res->writer.id == id)
		ref = res->writer;
	else if (lookup_id(NULL, id, context, &ref))
	{
		res->writer.context = MemoryContextStrdup(res->memory, ref.context);
		res->writer.id = id;
		memcpy(res->writer.fingerprint, ref.fingerprint, REGISTRY_FINGERPRINT_LEN);
		res->writer.parsed = ref.parsed;
		res->have_writer = true;
	}
	else
	{
		check_count(res, NULL, psprintf("unreadable: schema %d not found", id), sample);
		return;
	}
	w = ref.parsed;
	if (w->format != r->format || w->format->decode == NULL)
	{
		check_count(res, NULL, psprintf("unreadable: schema %d is a %s schema", id,
										w->format->name), sample);
		return;
	}
	arena = rg_arena_create();
	if (arena == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	rg_strlist_init(&notes, arena);
	rg_buf_init(&out);
	if (!w->format->decode(w, r, (const uint8_t *) data + REGISTRY_WIRE_HEADER,
						   len - REGISTRY_WIRE_HEADER, &out, &notes, &err))
	{
		if (err.code == RG_ERR_NOMEM)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory")));
		split_message(err.message, &path, &what);
		check_count(res, path, psprintf("unreadable: %s", what), sample);
	}
	else if (notes.n == 0)
		check_count(res, NULL, "read as written", sample);
	for (i = 0; err.code == RG_OK && i < notes.n; i++)
	{
		split_message(notes.items[i], &path, &what);
		check_count(res, path, what, sample);
	}
	rg_buf_free(&out);
	rg_arena_destroy(arena);
}

/*
 * check_data(subject, schema, samples, schema_type, refs) -> table(path,
 * outcome, samples, first_sample): stored wire-format messages read with a
 * proposed schema as the reader.  One row per (path, outcome): a field that
 * falls back to the reader's default, one the reader drops, an enum symbol
 * replaced by the reader's default, "unreadable: <why>" for a sample that
 * cannot be read, "read as written" for samples read without any of these.
 * samples counts the samples, first_sample is the first one's position
 * (1-based).  Ids are looked up in the subject's context.
 */
Datum
registry_check_data(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *qualified;
	char	   *context;
	char	   *subject;
	char	   *refs = "[]";
	SubmittedSchema *proposed;
	ArrayType  *samples;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int			i;
	CheckResult res = {0};
	HASHCTL		ctl;
	MemoryContext per_sample;
	MemoryContext old;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("subject, schema and samples must not be null")));
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	qualified = registry_served_subject(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	registry_split_subject_cstr(qualified, &context, &subject);
	if (PG_NARGS() > 4 && !PG_ARGISNULL(4))
		refs = JsonbToCString(NULL, &PG_GETARG_JSONB_P(4)->root, VARSIZE(PG_GETARG_JSONB_P(4)));
	proposed = registry_parse_submitted(context, text_arg(fcinfo, 3, "AVRO"),
										text_to_cstring(PG_GETARG_TEXT_PP(1)), refs,
										NULL, NULL, false, NULL);
	check_payloads(proposed->parsed, false);
	samples = PG_GETARG_ARRAYTYPE_P(2);
	if (ARR_NDIM(samples) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("samples must be a one-dimensional array")));
	deconstruct_array(samples, BYTEAOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);

	res.memory = CurrentMemoryContext;
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(((CheckKey *) NULL)->key);
	ctl.entrysize = sizeof(CheckKey);
	ctl.hcxt = CurrentMemoryContext;
	res.index = hash_create("registry check_data outcomes", 64, &ctl,
							HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	per_sample = AllocSetContextCreate(CurrentMemoryContext, "registry check_data sample",
									   ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < n; i++)
	{
		if (nulls[i])
			continue;
		CHECK_FOR_INTERRUPTS();
		/* rows and their texts are made in res.memory, the rest goes */
		old = MemoryContextSwitchTo(per_sample);
		check_sample(&res, proposed->parsed, context, DatumGetByteaPP(elems[i]), i + 1);
		MemoryContextSwitchTo(old);
		MemoryContextReset(per_sample);
	}
	for (i = 0; i < res.n; i++)
	{
		Datum		values[4];
		bool		isnull[4] = {false, false, false, false};

		if (res.rows[i].path)
			values[0] = CStringGetTextDatum(res.rows[i].path);
		else
			isnull[0] = true;
		values[1] = CStringGetTextDatum(res.rows[i].outcome);
		values[2] = Int32GetDatum(res.rows[i].samples);
		values[3] = Int32GetDatum(res.rows[i].first_sample);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, isnull);
	}
	return (Datum) 0;
}
