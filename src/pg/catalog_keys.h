/*-------------------------------------------------------------------------
 *
 * catalog_keys.h
 *	  registry.keks and registry.deks, the DEK registry's tables, as the
 *	  DEK service and the tables' triggers read and write them
 *	  (catalog_keys.c).  Every statement runs as the calling role, so the
 *	  tables' grants decide who may do what; the triggers check the rules.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CATALOG_KEYS_H
#define CATALOG_KEYS_H

#include "nodes/pg_list.h"

/* A KEK row. */
typedef struct CatalogKek
{
	char	   *name;
	char	   *kms_type;
	char	   *kms_key_id;
	char	   *kms_props;		/* a JSON object of strings, as text */
	char	   *doc;			/* NULL: none */
	bool		shared;
	bool		deleted;
	int64		ts;				/* updated_at, in milliseconds since 1970 */
} CatalogKek;

/* A DEK row: one version of the key of a subject, under a KEK, for an algorithm. */
typedef struct CatalogDek
{
	char	   *kek_name;
	char	   *subject;
	char	   *algorithm;
	int32		version;
	char	   *encrypted_key_material; /* base64 */
	bool		deleted;
	int64		ts;
} CatalogDek;

/* the version the DEK reads take for "latest" */
#define CATALOG_DEK_LATEST (-1)

extern bool catalog_kek_get(const char *name, bool deleted, CatalogKek *out);
extern List *catalog_kek_names(bool deleted);
extern List *catalog_kek_names_of_dek_subjects(List *subject_prefixes, bool deleted);
extern bool catalog_kek_insert(const CatalogKek *k);
extern void catalog_kek_update(const CatalogKek *k);
extern int	catalog_kek_set_deleted(const char *name, bool deleted);
extern int	catalog_kek_delete(const char *name);
extern void catalog_dek_writers_wait(void);
extern int64 catalog_dek_count(const char *kek_name, bool live_only);

extern bool catalog_dek_get(const char *kek_name, const char *subject, const char *algorithm,
							int32 version, bool deleted, CatalogDek *out);
extern List *catalog_dek_subjects(const char *kek_name, bool deleted);
extern List *catalog_dek_versions(const char *kek_name, const char *subject,
								  const char *algorithm, bool deleted);
extern bool catalog_dek_insert(const CatalogDek *d);
extern int	catalog_dek_set_deleted(const char *kek_name, const char *subject,
									const char *algorithm, int32 version, bool deleted);
extern int	catalog_dek_delete(const char *kek_name, const char *subject,
							   const char *algorithm, int32 version);
extern bool catalog_dek_live_exists(const char *kek_name, const char *subject,
									const char *algorithm, int32 version);

#endif							/* CATALOG_KEYS_H */
