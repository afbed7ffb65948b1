/*-------------------------------------------------------------------------
 *
 * registry.c
 *	  Module entry: PG_MODULE_MAGIC, GUCs, and the small SQL-callable
 *	  helpers every other part leans on (qualified subjects, version ids,
 *	  the SQLSTATE <-> Confluent error_code map, Avro canonical form).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>
#include <limits.h>

#include "access/htup_details.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "catalog.h"
#include "http.h"
#include "invalidation.h"
#include "registry.h"
#include "rg_avro_api.h"
#include "schemas.h"

PG_MODULE_MAGIC;

bool		registry_force_mode = false;

void		_PG_init(void);

PG_FUNCTION_INFO_V1(registry_split_subject);
PG_FUNCTION_INFO_V1(registry_parse_version);
PG_FUNCTION_INFO_V1(registry_avro_canonical_form);
PG_FUNCTION_INFO_V1(registry_avro_fingerprint);
PG_FUNCTION_INFO_V1(registry_effective_mode);
PG_FUNCTION_INFO_V1(registry_effective_compatibility);
PG_FUNCTION_INFO_V1(registry_effective_normalize);

void
_PG_init(void)
{
	/*
	 * The core's recursive routines stop cleanly where PostgreSQL's own
	 * parsers would raise "stack depth limit exceeded" (max_stack_depth).
	 */
	rg_stack_check_hook = stack_is_too_deep;
	registry_core_init();
	if (IsBinaryUpgrade)
		return;
	DefineCustomBoolVariable("registry.force_mode",
							 "Lets set_mode switch a scope with live subjects to IMPORT.",
							 "Set for one transaction by registry.set_mode(..., force => true).",
							 &registry_force_mode,
							 false,
							 PGC_USERSET,
							 GUC_NOT_IN_SAMPLE | GUC_NO_SHOW_ALL,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_port",
							"TCP port of the registry's REST API (0 disables the HTTP workers).",
							NULL,
							&registry_http_port,
							8081, 0, 65535,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomStringVariable("registry.http_listen_addresses",
							   "Address the REST API listens on: localhost, * or one IP address.",
							   NULL,
							   &registry_http_listen_addresses,
							   "localhost",
							   PGC_SIGHUP, 0,
							   NULL, NULL, NULL);
	/*
	 * PostgreSQL creates PGC_POSTMASTER settings only at server start; a
	 * library loaded later (CREATE EXTENSION without preloading, for the SQL
	 * API alone) runs no workers and needs neither.
	 */
	if (process_shared_preload_libraries_in_progress)
	{
		DefineCustomIntVariable("registry.http_workers",
								"Number of HTTP worker processes sharing the REST API port.",
								NULL,
								&registry_http_workers,
								2, 1, 64,
								PGC_POSTMASTER, 0,
								NULL, NULL, NULL);
		DefineCustomStringVariable("registry.database",
								   "Database whose registry the REST API serves.",
								   NULL,
								   &registry_database,
								   "postgres",
								   PGC_POSTMASTER, 0,
								   NULL, NULL, NULL);
	}
	DefineCustomIntVariable("registry.http_max_body_size",
							"Largest REST request body accepted; larger ones get 413.",
							NULL,
							&registry_http_max_body_size,
							16 * 1024 * 1024, 1024, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_max_connections",
							"Most connections one HTTP worker holds; fewer when the open file limit is low.",
							NULL,
							&registry_http_max_connections,
							1000, 1, 1000000,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_max_body_memory",
							"Memory all pending request bodies of one HTTP worker may hold; a request over it gets 503.",
							NULL,
							&registry_http_max_body_memory,
							64 * 1024 * 1024, 1024, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_request_timeout",
							"Longest time a REST request's head and body may take to arrive; past it 408.",
							NULL,
							&registry_http_request_timeout,
							30, 1, 3600,
							PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_lock_wait",
							"Longest time a REST request waits for locks; past it 500 with error code 50002.",
							"Other requests are served meanwhile.",
							&registry_http_lock_wait,
							10000, 0, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("registry.http_statement_timeout",
							"Longest time one attempt of a REST request may run (0: no limit); past it 500 with error code 50002.",
							NULL,
							&registry_http_statement_timeout,
							30000, 0, INT_MAX,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("registry");

	if (process_shared_preload_libraries_in_progress)
	{
		registry_install_shmem_hooks();
		registry_http_register_workers();
	}
}

/*
 * Confluent's qualified subject ":.ctx:name" -> (".ctx", "name"); a plain
 * name is in the default context "."; ":.ctx:" is the context itself
 * (empty name).  A context given without its leading dot gets one, as
 * Confluent's QualifiedSubject does.
 */
void
registry_split_subject_cstr(const char *qualified, char **context, char **subject)
{
	const char *end;

	if (qualified[0] == ':' && (end = strchr(qualified + 1, ':')) != NULL)
	{
		size_t		len = end - (qualified + 1);

		if (len == 0)
			*context = pstrdup(REGISTRY_DEFAULT_CONTEXT);
		else if (qualified[1] == '.')
			*context = pnstrdup(qualified + 1, len);
		else
			*context = psprintf(".%.*s", (int) len, qualified + 1);
		*subject = pstrdup(end + 1);
		return;
	}
	*context = pstrdup(REGISTRY_DEFAULT_CONTEXT);
	*subject = pstrdup(qualified);
}

/*
 * Confluent's isValidSubject: no ISO control characters, not one of the
 * reserved names, not empty.  Raises 42208.
 */
void
registry_validate_subject(const char *qualified, const char *subject)
{
	const unsigned char *p;
	bool		ok = subject[0] != '\0' &&
		strcmp(subject, "__GLOBAL") != 0 && strcmp(subject, "__EMPTY") != 0;

	for (p = (const unsigned char *) qualified; ok && *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			ok = false;
	/* C1 controls U+0080..U+009F are encoded as 0xC2 0x80..0x9F */
	for (p = (const unsigned char *) qualified; ok && *p; p++)
		if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
			ok = false;
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SUBJECT),
				 errmsg("the specified subject is not valid"),
				 errdetail("The specified subject '%s' is not a valid.", qualified)));
}

Datum
registry_split_subject(PG_FUNCTION_ARGS)
{
	char	   *qualified = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *context;
	char	   *subject;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	registry_split_subject_cstr(qualified, &context, &subject);
	values[0] = CStringGetTextDatum(context);
	values[1] = CStringGetTextDatum(subject);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/*
 * Confluent's VersionId: "latest" (any case) or -1 is the latest version
 * (returned as -1); otherwise an integer in [1, 2^31-1].  Anything else is
 * 42202.
 */
Datum
registry_parse_version(PG_FUNCTION_ARGS)
{
	char	   *s;
	char	   *end;
	long		v;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	s = text_to_cstring(PG_GETARG_TEXT_PP(0));
	if (pg_strcasecmp(s, "latest") == 0)
		PG_RETURN_INT32(-1);
	errno = 0;
	v = strtol(s, &end, 10);
	if (s[0] != '\0' && *end == '\0' && errno == 0 && (v == -1 || (v >= 1 && v <= INT_MAX)))
		PG_RETURN_INT32((int32) v);
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_VERSION),
			 errmsg("invalid version \"%s\"", s),
			 errdetail("The specified version '%s' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"", s)));
	PG_RETURN_NULL();
}

/*
 * The Confluent error_code behind a registry SQLSTATE (see registry.h), or
 * 50001 for anything else.
 */
int
registry_confluent_error_code(int sqlerrcode)
{
	char		state[6];
	int			i;
	int			code = 0;

	for (i = 0; i < 5; i++)
	{
		state[i] = PGUNSIXBIT(sqlerrcode);
		sqlerrcode >>= 6;
	}
	state[5] = '\0';
	if (state[0] != 'R' && state[0] != 'S')
		return 50001;
	for (i = 1; i < 5; i++)
	{
		if (!isdigit((unsigned char) state[i]))
			return 50001;
		code = code * 10 + (state[i] - '0');
	}
	return (state[0] == 'R' ? 40000 : 50000) + code;
}

static rg_schema *
parse_avro_or_error(text *t)
{
	rg_error	err;
	char	   *s = text_to_cstring(t);
	rg_schema  *schema;

	rg_error_clear(&err);
	schema = rg_avro_parse(s, strlen(s), NULL, 0, false, &err);
	if (schema == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid AVRO schema"),
				 errdetail("%s", err.message)));
	return schema;
}

Datum
registry_avro_canonical_form(PG_FUNCTION_ARGS)
{
	rg_schema  *schema = parse_avro_or_error(PG_GETARG_TEXT_PP(0));
	rg_error	err;
	char	   *pcf;
	text	   *result;

	rg_error_clear(&err);
	pcf = rg_avro_canonical_form(schema, &err);
	rg_schema_free(schema);
	if (pcf == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	result = cstring_to_text(pcf);
	rg_free(pcf);
	PG_RETURN_TEXT_P(result);
}

Datum
registry_avro_fingerprint(PG_FUNCTION_ARGS)
{
	rg_schema  *schema = parse_avro_or_error(PG_GETARG_TEXT_PP(0));
	rg_error	err;
	char	   *pcf;
	uint64		fp;

	rg_error_clear(&err);
	pcf = rg_avro_canonical_form(schema, &err);
	rg_schema_free(schema);
	if (pcf == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	fp = rg_avro_crc64(pcf, strlen(pcf));
	rg_free(pcf);
	PG_RETURN_INT64((int64) fp);
}

/*
 * registry.effective_mode/compatibility/normalize(context, subject): the
 * settings in force, by the one rule in catalog_effective_settings().
 */
static CatalogSettings
effective_settings(FunctionCallInfo fcinfo)
{
	CatalogSettings s;
	CatalogSettings out;
	MemoryContext cxt = CurrentMemoryContext;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	catalog_effective_settings(text_to_cstring(PG_GETARG_TEXT_PP(0)),
							   text_to_cstring(PG_GETARG_TEXT_PP(1)), &s);
	out.mode = MemoryContextStrdup(cxt, s.mode);
	out.compatibility = MemoryContextStrdup(cxt, s.compatibility);
	out.normalize = s.normalize;
	SPI_finish();
	return out;
}

Datum
registry_effective_mode(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(effective_settings(fcinfo).mode));
}

Datum
registry_effective_compatibility(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(effective_settings(fcinfo).compatibility));
}

Datum
registry_effective_normalize(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(effective_settings(fcinfo).normalize);
}
