/*-------------------------------------------------------------------------
 *
 * registration.h
 *	  What the registration, lookup and read operations and their SQL
 *	  functions share: a request's schema arguments, a registration, and
 *	  what it answers.
 *
 *-------------------------------------------------------------------------
 */
#ifndef REGISTRATION_H
#define REGISTRATION_H

#include "catalog.h"
#include "schemas.h"

/* The arguments every function here starts with, read once. */
typedef struct SchemaArgs
{
	char	   *qualified;
	char	   *context;
	char	   *subject;
	char	   *schema;
	char	   *schema_type;
	char	   *refs;
	bool		normalize;
	char	   *metadata;
	char	   *rule_set;
} SchemaArgs;

/* What register_schema's caller gets back. */
typedef struct Registered
{
	int32		id;
	int32		version;
	const char *schema_type;
	char	   *schema;			/* stored form, in the caller's context */
	char	   *refs;			/* jsonb text, in the caller's context */
	char	   *metadata;		/* as stored (merged), or NULL */
	char	   *rule_set;		/* as stored (merged), or NULL */
	bool		inserted;		/* the version is new, made by this call */
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];	/* the schema's */
} Registered;

/*
 * A registration's arguments: the schema, the id and version asked for,
 * and Confluent's schema tag operations.
 */
typedef struct Registration
{
	SchemaArgs	a;
	bool		has_id;
	int32		want_id;
	bool		has_version;
	int32		want_version;
	const char *tags_to_add;	/* schemaTagsToAdd (SchemaTags list), or NULL */
	const char *tags_to_remove; /* schemaTagsToRemove, or NULL */
	bool		propagate_tags; /* propagateSchemaTags */
	bool		new_version;	/* always a new version (Confluent's version
								 * -1, a tagged registration's too) */
	bool		latest_only;	/* version -1: the fast path answers with the
								 * latest version only */
	bool		force;			/* register's force=true: no compatibility
								 * check */
} Registration;

/* registration.c: the pipeline and what its answers are made of */
extern void registry_register(Registration *r, Registered *out);
extern void registry_registration_options(Registration *r, bool has_id, int32 id,
										  bool has_version, int32 version,
										  const char *tags_to_add,
										  const char *tags_to_remove, bool propagate);
extern void registry_merge_data_contract(SchemaArgs *a, const CatalogSettings *settings,
										 const CatalogSchema *prev);
extern void registry_submission_args(SchemaArgs *a, const char *served,
									 const CatalogSubmission *b);
extern char *registry_jsonb_text(const char *json);
extern void registry_registered_row(const char *qualified, const Registered *reg,
									CatalogSchemaRow *out);
extern char *registry_fingerprint_guid(const uint8 *fp);
extern int64 registry_epoch_ms(TimestampTz ts);
extern void registry_schema_row(CatalogSchemaRow *out, const char *qualified, int32 version,
								bool deleted, const CatalogSchema *s, TimestampTz registered);

/* registration_match.c: a submission that a subject has as a version already */
extern bool registry_registered_fast(Registration *r, SubmittedSchema *s, int32 *content_id,
									 CatalogVersion *existing);
extern bool registry_already_registered(Registration *r, SubmittedSchema *s, int32 *content_id,
										CatalogVersion *existing);
extern bool registry_same_text(const char *a, const char *b);
extern bool registry_find_but_version(SchemaArgs *a, SubmittedSchema *s, bool deleted,
									  bool any, CatalogVersion *found);

/* schema_lookup.c */
extern SubmittedSchema *registry_look_up(SchemaArgs *a, bool deleted, CatalogVersion *found,
										 CatalogSchema *stored);

/* tag_service.c: POST /subjects/{s}/versions/{v}/tags */
extern char *registry_tag_version(const char *named, const char *version_arg,
								  const CatalogTagRequest *t, Registered *out);

/* version_reads.c */
extern void registry_requested_version(const char *context, const char *subject,
									   const char *named, const char *version_arg,
									   bool include_deleted, CatalogVersion *v,
									   TimestampTz *created_at);

#endif							/* REGISTRATION_H */
