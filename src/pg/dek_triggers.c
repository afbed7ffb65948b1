/*-------------------------------------------------------------------------
 *
 * dek_triggers.c
 *	  The BEFORE triggers of registry.keks and registry.deks: the DEK
 *	  registry's rules, kept by every write (the service, the REST API,
 *	  raw DML), with Confluent's error codes.
 *
 * A KEK's name, KMS type and key id never change; it is soft-deleted only
 * when none of its DEKs is live (waiting for the DEKs being created, so
 * none slips in under it), and hard-deleted only once soft-deleted and
 * without DEKs (the foreign key waits for those being created).  A DEK is
 * created under a live KEK (a DEK created soft-deleted, under a KEK that
 * may be soft-deleted too), with a valid subject, algorithm and key
 * material; only its deleted flag changes after; it is undeleted only
 * under a live KEK, and hard-deleted only once soft-deleted.  Each write stamps updated_at (Confluent's ts).  Rows a
 * restore brings back (restore.c) are taken as they come.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "commands/trigger.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "catalog_keys.h"
#include "confluent_messages.h"
#include "dek_service.h"
#include "registry.h"
#include "trigger_row.h"

PG_FUNCTION_INFO_V1(registry_keks_before_write);
PG_FUNCTION_INFO_V1(registry_deks_before_write);

/* 42271 for a field */
static void
invalid_field(const char *field)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_KEY_INVALID),
			 errmsg("invalid or missing key field \"%s\"", field),
			 errdetail("%s", confluent_text(CW_KEY_INVALID, field))));
}

/* The text column of a row, 42271 for the field when NULL or empty. */
static char *
required_text(HeapTuple tup, TupleDesc desc, const char *column, const char *field)
{
	char	   *s = trigger_row_text(tup, desc, column);

	if (s == NULL || s[0] == '\0')
		invalid_field(field);
	return s;
}

/* 42271 for the field unless the column is the same in both rows. */
static void
unchanged(HeapTuple oldtup, HeapTuple newtup, TupleDesc desc, const char *column,
		  const char *field)
{
	char	   *a = trigger_row_text(oldtup, desc, column);
	char	   *b = trigger_row_text(newtup, desc, column);

	if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
		invalid_field(field);
}

/* The row's deleted flag. */
static bool
row_deleted(HeapTuple tup, TupleDesc desc)
{
	bool		isnull;
	Datum		d = trigger_row_value(tup, desc, "deleted", &isnull);

	return !isnull && DatumGetBool(d);
}

/* The new row with updated_at set to now. */
static HeapTuple
stamped(HeapTuple tup, TupleDesc desc)
{
	int			cols[1] = {trigger_row_column(desc, "updated_at")};
	Datum		values[1] = {TimestampTzGetDatum(GetCurrentStatementStartTimestamp())};
	bool		nulls[1] = {false};

	return heap_modify_tuple_by_cols(tup, desc, 1, cols, values, nulls);
}

/* 42272: DEKs still use the KEK */
static void
kek_referenced(const char *name)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_KEY_REFERENCED),
			 errmsg("KEK \"%s\" is still used by DEKs", name),
			 errdetail("%s", confluent_text(CW_KEY_REFERENCED, name))));
}

/* 40471: a key hard-deleted before it was soft-deleted */
static void
not_soft_deleted(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_KEY_NOT_SOFT_DELETED),
			 errmsg("key \"%s\" was not soft-deleted first", what),
			 errdetail("%s", confluent_text(CW_KEY_NOT_SOFT_DELETED, what))));
}

/* BEFORE INSERT OR UPDATE OR DELETE ON registry.keks FOR EACH ROW */
Datum
registry_keks_before_write(PG_FUNCTION_ARGS)
{
	TriggerData *td = trigger_row_data(fcinfo, "keks_before_write");
	TupleDesc	desc = td->tg_relation->rd_att;
	HeapTuple	oldtup = td->tg_trigtuple;
	char	   *name;

	if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
	{
		name = trigger_row_text(oldtup, desc, "name");
		if (catalog_dek_count(name, false) > 0)
			kek_referenced(name);
		if (!row_deleted(oldtup, desc))
			not_soft_deleted(name);
		return PointerGetDatum(oldtup);
	}
	if (TRIGGER_FIRED_BY_INSERT(td->tg_event))
	{
		if (registry_trigger_row_restored(oldtup, desc, "updated_at"))
			return PointerGetDatum(oldtup);
		registry_check_kek_name(trigger_row_text(oldtup, desc, "name"));
		(void) required_text(oldtup, desc, "kms_type", "kmsType");
		(void) required_text(oldtup, desc, "kms_key_id", "kmsKeyId");
		return PointerGetDatum(oldtup);
	}
	/* UPDATE */
	unchanged(oldtup, td->tg_newtuple, desc, "name", "name");
	unchanged(oldtup, td->tg_newtuple, desc, "kms_type", "kmsType");
	unchanged(oldtup, td->tg_newtuple, desc, "kms_key_id", "kmsKeyId");
	name = trigger_row_text(oldtup, desc, "name");
	if (!row_deleted(oldtup, desc) && row_deleted(td->tg_newtuple, desc))
	{
		/* a DEK being created now counts too: wait for it */
		catalog_dek_writers_wait();
		if (catalog_dek_count(name, true) > 0)
			kek_referenced(name);
	}
	return PointerGetDatum(stamped(td->tg_newtuple, desc));
}

/* BEFORE INSERT OR UPDATE OR DELETE ON registry.deks FOR EACH ROW */
Datum
registry_deks_before_write(PG_FUNCTION_ARGS)
{
	TriggerData *td = trigger_row_data(fcinfo, "deks_before_write");
	TupleDesc	desc = td->tg_relation->rd_att;
	HeapTuple	oldtup = td->tg_trigtuple;
	HeapTuple	newtup = td->tg_newtuple;
	CatalogKek	kek;
	char	   *kek_name;

	if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
	{
		if (!row_deleted(oldtup, desc))
			not_soft_deleted(trigger_row_text(oldtup, desc, "subject"));
		return PointerGetDatum(oldtup);
	}
	if (TRIGGER_FIRED_BY_INSERT(td->tg_event))
	{
		if (registry_trigger_row_restored(oldtup, desc, "updated_at"))
			return PointerGetDatum(oldtup);
		kek_name = required_text(oldtup, desc, "kek_name", "kekName");
		registry_check_kek_name(kek_name);
		registry_check_dek_subject(trigger_row_text(oldtup, desc, "subject"));
		registry_check_dek_algorithm(trigger_row_text(oldtup, desc, "algorithm"));
		(void) required_text(oldtup, desc, "encrypted_key_material", "encryptedKeyMaterial");

		/*
		 * a DEK created soft-deleted may be under a soft-deleted KEK, as
		 * Confluent's
		 */
		if (!catalog_kek_get(kek_name, row_deleted(oldtup, desc), &kek))
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_KEY_NOT_FOUND),
					 errmsg("KEK \"%s\" not found", kek_name),
					 errdetail("%s", confluent_text(CW_KEY_NOT_FOUND, kek_name))));
		return PointerGetDatum(oldtup);
	}
	/* UPDATE: only the deleted flag changes */
	unchanged(oldtup, newtup, desc, "kek_name", "kekName");
	unchanged(oldtup, newtup, desc, "subject", "subject");
	unchanged(oldtup, newtup, desc, "algorithm", "algorithm");
	unchanged(oldtup, newtup, desc, "version", "version");
	unchanged(oldtup, newtup, desc, "encrypted_key_material", "encryptedKeyMaterial");
	kek_name = trigger_row_text(oldtup, desc, "kek_name");
	if (row_deleted(oldtup, desc) && !row_deleted(newtup, desc) &&
		!catalog_kek_get(kek_name, false, &kek))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_KEY_SOFT_DELETED),
				 errmsg("KEK \"%s\" must be undeleted first", kek_name),
				 errdetail("%s", confluent_text(CW_KEY_SOFT_DELETED, kek_name))));
	return PointerGetDatum(stamped(newtup, desc));
}
