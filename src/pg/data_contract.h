/*-------------------------------------------------------------------------
 *
 * data_contract.h
 *	  Confluent's data contracts: a schema's metadata and rule set in their
 *	  canonical form, validated, merged and versioned as Confluent does.
 *
 *-------------------------------------------------------------------------
 */
#ifndef DATA_CONTRACT_H
#define DATA_CONTRACT_H

#include "lib/stringinfo.h"

/* The reserved metadata properties Confluent gives a meaning. */
#define DC_CONFLUENT_VERSION	"confluent:version"
#define DC_CONFLUENT_RESERVED	"confluent:reserved"

/*
 * Each takes and returns JSON text (NULL: absent).  The canonical forms are
 * what Confluent's Metadata and RuleSet entities write; a malformed
 * metadata is 42201, a malformed or invalid rule set 42210.
 */
extern char *dc_metadata_canonical(const char *json);
extern char *dc_rule_set_canonical(const char *json);
extern char *dc_metadata_merge(const char *older, const char *newer);
extern char *dc_rule_set_merge(const char *older, const char *newer);
extern char *dc_rule_set_without(const char *rule_set, const char *names);
extern char *dc_metadata_with_version(const char *metadata, int version);
extern char *dc_metadata_without_version(const char *metadata);

/*
 * The bytes of a canonical metadata or rule set that Confluent's guid (the
 * MD5 of Schema.updateHash) digests, appended to buf: a byte 1 and the
 * entity's strings; nothing for NULL.
 */
extern void dc_metadata_identity(const char *canonical, StringInfo buf);
extern void dc_rule_set_identity(const char *canonical, StringInfo buf);

/* A property of a metadata (NULL when it has none of that name). */
extern char *dc_metadata_property(const char *metadata, const char *key);

/* qsort/bsearch comparator of two char * by bytes */
extern int	registry_cmp_cstrings(const void *a, const void *b);

/* The names listed in the confluent:reserved property (comma separated), trimmed, sorted, once each. */
extern char **dc_reserved_fields(const char *metadata, int *n);

/* Refuse a config (jsonb text) with a malformed default or override. */
extern void dc_check_config(const char *settings);

/* A metadata or rule set as a jsonb datum, or SQL NULL. */
extern Datum dc_jsonb_datum(const char *json, bool *isnull);

#endif							/* DATA_CONTRACT_H */
