/*-------------------------------------------------------------------------
 *
 * catalog_changes.c
 *	  The statements that change a scope's settings and delete subject
 *	  versions, for the config, mode and delete operations
 *	  (settings_service.c, delete_service.c).
 *
 * Each is one row write; the BEFORE triggers on the table decide whether
 * it may be made (a writable scope, a valid level or mode, a soft delete
 * before a hard one, no live reference) and the AFTER triggers tidy up,
 * so a raw UPDATE or DELETE by a DBA meets the same rules.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/dependency.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "catalog.h"
#include "catalog_internal.h"

/* the columns of a config row as plan_upsert_config and plan_delete_config return them */
#define CONFIG_ROW_COLUMNS "c.compatibility, c.\"normalize\", c.settings::text"
#define Anum_config_compatibility	1
#define Anum_config_normalize		2
#define Anum_config_settings		3

/*
 * A scope's config, written: a level or normalize given replaces the
 * stored one, the other fields of the request (its members but the level
 * and normalize, nulls dropped, kept exactly as jsonb keeps them) are
 * merged into the stored ones.
 */
static CatalogPlan plan_upsert_config = {
	"INSERT INTO registry.config AS c (context, subject, compatibility, \"normalize\", settings) "
	"VALUES ($1, $2, $3, $4, pg_catalog.jsonb_strip_nulls("
	"$5::jsonb - 'compatibility' - 'compatibilityLevel' - 'normalize')) "
	"ON CONFLICT ON CONSTRAINT config_pkey DO UPDATE "
	"SET compatibility = COALESCE(excluded.compatibility, c.compatibility), "
	"\"normalize\" = COALESCE(excluded.\"normalize\", c.\"normalize\"), "
	"settings = c.settings || excluded.settings "
	"RETURNING " CONFIG_ROW_COLUMNS,
	5, {TEXTOID, TEXTOID, TEXTOID, BOOLOID, TEXTOID}
};
static CatalogPlan plan_delete_config = {
	"DELETE FROM registry.config c WHERE c.context = $1 AND c.subject = $2 "
	"RETURNING " CONFIG_ROW_COLUMNS,
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_upsert_mode = {
	"INSERT INTO registry.modes AS m (context, subject, mode) VALUES ($1, $2, $3) "
	"ON CONFLICT ON CONSTRAINT modes_pkey DO UPDATE SET mode = excluded.mode",
	3, {TEXTOID, TEXTOID, TEXTOID}
};
static CatalogPlan plan_delete_mode = {
	"DELETE FROM registry.modes m WHERE m.context = $1 AND m.subject = $2 RETURNING m.mode",
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_delete_subject_modes = {
	"DELETE FROM registry.modes m WHERE m.context = $1 AND m.subject <> ''",
	1, {TEXTOID}
};
static CatalogPlan plan_soft_delete_version = {
	"UPDATE registry.subject_versions sv SET deleted = true "
	"WHERE sv.context = $1 AND sv.subject = $2 AND sv.version = $3",
	3, {TEXTOID, TEXTOID, INT4OID}
};
static CatalogPlan plan_hard_delete_version = {
	"DELETE FROM registry.subject_versions sv "
	"WHERE sv.context = $1 AND sv.subject = $2 AND sv.version = $3",
	3, {TEXTOID, TEXTOID, INT4OID}
};

static CatalogPlan plan_version_referenced = {
	"SELECT 1 FROM registry.schema_references r "
	"WHERE r.context = $1 AND r.ref_subject = $2 AND r.ref_version = $3 "
	"AND (NOT $4 OR EXISTS (SELECT 1 FROM registry.subject_versions sv "
	"WHERE sv.context = r.context AND sv.schema_id = r.schema_id AND NOT sv.deleted)) LIMIT 1",
	4, {TEXTOID, TEXTOID, INT4OID, BOOLOID}
};

/* after a hard delete: the schema if no version uses it, the subject's rows if it has none */
static CatalogPlan plan_remove_unused_schema = {
	"DELETE FROM registry.schemas s WHERE s.context = $1 AND s.id = $2 "
	"AND NOT EXISTS (SELECT 1 FROM registry.subject_versions sv "
	"WHERE sv.context = $1 AND sv.schema_id = $2)",
	2, {TEXTOID, INT4OID}
};
static CatalogPlan plan_subject_has_versions = {
	"SELECT 1 FROM registry.subject_versions sv WHERE sv.context = $1 AND sv.subject = $2 LIMIT 1",
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_remove_subject_config = {
	"DELETE FROM registry.config c WHERE c.context = $1 AND c.subject = $2",
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_remove_subject_mode = {
	"DELETE FROM registry.modes m WHERE m.context = $1 AND m.subject = $2",
	2, {TEXTOID, TEXTOID}
};
static CatalogPlan plan_remove_subject = {
	"DELETE FROM registry.subjects s WHERE s.context = $1 AND s.subject = $2",
	2, {TEXTOID, TEXTOID}
};

static CatalogPlan plan_context_lock = {
	"SELECT c.id_sequence::oid FROM registry.contexts c WHERE c.context = $1 FOR UPDATE",
	1, {TEXTOID}
};
static CatalogPlan plan_context_used = {
	"SELECT 1 FROM registry.subject_versions v WHERE v.context = $1 LIMIT 1",
	1, {TEXTOID}
};
static CatalogPlan plan_context_clear[] = {
	{"DELETE FROM registry.config x WHERE x.context = $1", 1, {TEXTOID}},
	{"DELETE FROM registry.modes x WHERE x.context = $1", 1, {TEXTOID}},
	{"DELETE FROM registry.schemas x WHERE x.context = $1", 1, {TEXTOID}},
	{"DELETE FROM registry.subjects x WHERE x.context = $1", 1, {TEXTOID}},
	{"DELETE FROM registry.contexts x WHERE x.context = $1", 1, {TEXTOID}}
};
static CatalogPlan plan_context_id_sequence = {
	"SELECT registry.context_id_sequence($1)::oid",
	1, {TEXTOID}
};

/* The config row a statement returned, copied into the caller's memory. */
static void
returned_config_row(const char *context, const char *subject, MemoryContext cxt,
					CatalogConfigRow *out)
{
	HeapTuple	tup = SPI_tuptable->vals[0];
	bool		isnull;
	Datum		normalize = catalog_datum(tup, Anum_config_normalize, &isnull);
	MemoryContext old = MemoryContextSwitchTo(cxt);

	out->context = pstrdup(context);
	out->subject = pstrdup(subject);
	MemoryContextSwitchTo(old);
	out->compatibility = catalog_text(tup, Anum_config_compatibility, cxt);
	out->has_normalize = !isnull;
	out->normalize = !isnull && DatumGetBool(normalize);
	out->settings = catalog_text(tup, Anum_config_settings, cxt);
}

/*
 * Write a scope's config (level and normalize NULL: kept as stored;
 * request: a ConfigUpdateRequest object's text, whose other fields are
 * merged into the stored ones), and return the row as stored after it.
 */
void
catalog_write_config(const char *context, const char *subject, const char *level,
					 const bool *normalize, const char *request, CatalogConfigRow *stored)
{
	MemoryContext cxt = catalog_connect();
	Datum		v[5];
	char		nulls[5] = "     ";

	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	v[2] = level ? CStringGetTextDatum(level) : (Datum) 0;
	nulls[2] = level ? ' ' : 'n';
	v[3] = normalize ? BoolGetDatum(*normalize) : (Datum) 0;
	nulls[3] = normalize ? ' ' : 'n';
	v[4] = CStringGetTextDatum(request ? request : "{}");
	catalog_run(&plan_upsert_config, v, nulls, SPI_OK_INSERT_RETURNING);
	(void) catalog_one_row(&plan_upsert_config);
	returned_config_row(context, subject, cxt, stored);
	catalog_disconnect();
}

/* Delete a scope's config row into *old: false when it had none. */
bool
catalog_delete_config(const char *context, const char *subject, CatalogConfigRow *old)
{
	MemoryContext cxt = catalog_connect();
	Datum		v[2];
	bool		found;

	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	catalog_run(&plan_delete_config, v, NULL, SPI_OK_DELETE_RETURNING);
	found = SPI_processed > 0;
	if (found)
		returned_config_row(context, subject, cxt, old);
	catalog_disconnect();
	return found;
}

/* Set a scope's mode. */
void
catalog_write_mode(const char *context, const char *subject, const char *mode)
{
	Datum		v[3];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	v[2] = CStringGetTextDatum(mode);
	catalog_run(&plan_upsert_mode, v, NULL, SPI_OK_INSERT);
	catalog_disconnect();
}

/* Delete a scope's mode row: the mode it had, NULL when it had none. */
char *
catalog_delete_mode(const char *context, const char *subject)
{
	MemoryContext cxt = catalog_connect();
	Datum		v[2];
	char	   *old = NULL;

	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	catalog_run(&plan_delete_mode, v, NULL, SPI_OK_DELETE_RETURNING);
	if (SPI_processed > 0)
		old = catalog_text(SPI_tuptable->vals[0], 1, cxt);
	catalog_disconnect();
	return old;
}

/* Delete the mode rows of a context's subjects (not the context's own). */
void
catalog_delete_subject_modes(const char *context)
{
	Datum		v[1];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	catalog_run(&plan_delete_subject_modes, v, NULL, SPI_OK_DELETE);
	catalog_disconnect();
}

/* Run a statement on one subject version (soft or hard delete). */
static void
version_statement(CatalogPlan *p, const char *context, const char *subject, int32 version,
				  int expected)
{
	Datum		v[3];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	v[2] = Int32GetDatum(version);
	catalog_run(p, v, NULL, expected);
	catalog_disconnect();
}

/* Mark a subject version deleted (its BEFORE UPDATE trigger decides). */
void
catalog_soft_delete_version(const char *context, const char *subject, int32 version)
{
	version_statement(&plan_soft_delete_version, context, subject, version, SPI_OK_UPDATE);
}

/* Remove a subject version (its BEFORE DELETE trigger decides). */
void
catalog_hard_delete_version(const char *context, const char *subject, int32 version)
{
	version_statement(&plan_hard_delete_version, context, subject, version, SPI_OK_DELETE);
}

/*
 * Lock an existing subject's row, as SELECT ... FOR UPDATE does, so that
 * deletes and registrations of one subject take turns; false (nothing
 * locked, nothing made) when the subject has no row.
 */
bool
catalog_lock_existing_subject(const char *context, const char *subject)
{
	return catalog_lock_subject_row(context, subject);
}

/*
 * Does a schema reference the subject-version (a schema that a live
 * version uses, with live_only)?
 */
bool
catalog_version_referenced(const char *context, const char *subject, int32 version,
						   bool live_only)
{
	Datum		v[4];
	bool		referenced;

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = CStringGetTextDatum(subject);
	v[2] = Int32GetDatum(version);
	v[3] = BoolGetDatum(live_only);
	catalog_run(&plan_version_referenced, v, NULL, SPI_OK_SELECT);
	referenced = SPI_processed > 0;
	catalog_disconnect();
	return referenced;
}

/*
 * After a version of a subject was hard-deleted: remove the schema when no
 * version uses it any more, and the subject's row, config and mode when it
 * has no version left (Confluent's hard delete takes them along).
 */
void
catalog_remove_unused(const char *context, const char *subject, int32 schema_id)
{
	Datum		v[2];

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	v[1] = Int32GetDatum(schema_id);
	catalog_run(&plan_remove_unused_schema, v, NULL, SPI_OK_DELETE);
	v[1] = CStringGetTextDatum(subject);
	catalog_run(&plan_subject_has_versions, v, NULL, SPI_OK_SELECT);
	if (SPI_processed == 0)
	{
		catalog_run(&plan_remove_subject_config, v, NULL, SPI_OK_DELETE);
		catalog_run(&plan_remove_subject_mode, v, NULL, SPI_OK_DELETE);
		catalog_run(&plan_remove_subject, v, NULL, SPI_OK_DELETE);
	}
	catalog_disconnect();
}

/* The id sequence of a context other than ".", made when it has none yet. */
Oid
catalog_context_id_sequence(const char *context)
{
	Datum		v[1];
	bool		isnull;
	Oid			seq;

	catalog_connect();
	v[0] = CStringGetTextDatum(context);
	catalog_run(&plan_context_id_sequence, v, NULL, SPI_OK_SELECT);
	seq = DatumGetObjectId(catalog_datum(catalog_one_row(&plan_context_id_sequence), 1, &isnull));
	catalog_disconnect();
	return seq;
}

/*
 * Lock a context's row; false when there is none.  *has_versions: some
 * subject of it has a version (soft-deleted ones too).
 */
bool
catalog_lock_context(const char *context, bool *has_versions)
{
	Datum		v[1] = {CStringGetTextDatum(context)};
	bool		found;
	Oid			owner;
	CatalogUserSave save;

	if (!catalog_table_owner("contexts", &owner))
		return false;
	catalog_connect();
	catalog_become_owner(owner, &save);
	catalog_run(&plan_context_lock, v, NULL, SPI_OK_SELECT);
	found = SPI_processed > 0;
	*has_versions = false;
	if (found)
	{
		catalog_run(&plan_context_used, v, NULL, SPI_OK_SELECT);
		*has_versions = SPI_processed > 0;
	}
	catalog_restore_user(&save);
	catalog_disconnect();
	return found;
}

/*
 * Remove a context without versions: its settings, its schemas and subjects
 * left by hard deletes, its row, and its id sequence, as the owner of the
 * registry's tables (who owns the sequence too); who may is the caller's
 * check (REGISTRY_OP_DELETE_CONTEXT, registry.delete_context()'s EXECUTE).
 */
void
catalog_delete_context(const char *context)
{
	Datum		v[1] = {CStringGetTextDatum(context)};
	Oid			seq;
	bool		isnull;
	int			i;
	Oid			owner;
	CatalogUserSave save;

	if (!catalog_table_owner("contexts", &owner))
		return;
	catalog_connect();
	catalog_become_owner(owner, &save);
	catalog_run(&plan_context_lock, v, NULL, SPI_OK_SELECT);
	seq = InvalidOid;
	if (SPI_processed > 0)
	{
		Datum		d = catalog_datum(catalog_one_row(&plan_context_lock), 1, &isnull);

		if (!isnull)
			seq = DatumGetObjectId(d);
	}
	for (i = 0; i < lengthof(plan_context_clear); i++)
		catalog_run(&plan_context_clear[i], v, NULL, SPI_OK_DELETE);
	if (OidIsValid(seq) && get_rel_name(seq) != NULL)
	{
		ObjectAddress seq_address = {RelationRelationId, seq, 0};

		performDeletion(&seq_address, DROP_RESTRICT, 0);
	}
	catalog_restore_user(&save);
	catalog_disconnect();
}
