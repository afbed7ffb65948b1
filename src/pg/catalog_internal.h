/*-------------------------------------------------------------------------
 *
 * catalog_internal.h
 *	  What the files of the catalog module (catalog.c, catalog_scan.c,
 *	  catalog_scopes.c, catalog_api.c, scope_cache.c) share: kept plans,
 *	  the SPI connection of one catalog call and the reading of result
 *	  columns; the direct index scans and the reading of their rows.
 *	  Nothing outside the module includes it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CATALOG_INTERNAL_H
#define CATALOG_INTERNAL_H

#include "access/genam.h"
#include "access/htup.h"
#include "access/sdir.h"
#include "executor/tuptable.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

/*
 * A statement with typed parameters, prepared on first use and kept for the
 * backend's life.  catalog_run() executes it and checks the SPI result
 * code; the rows are in SPI_tuptable.
 */
#define CATALOG_MAX_ARGS 12

typedef struct CatalogPlan
{
	const char *sql;
	int			nargs;
	Oid			argtypes[CATALOG_MAX_ARGS];
	void	   *plan;			/* SPIPlanPtr */
} CatalogPlan;

/* the column of a one-column result */
#define Anum_value 1

extern MemoryContext catalog_connect(void);
extern void catalog_disconnect(void);
extern void catalog_run(CatalogPlan *p, Datum *values, const char *nulls,
						int expected);
extern HeapTuple catalog_one_row(CatalogPlan *p);
extern int	catalog_pin_search_path(void);
extern void catalog_unpin_search_path(int nestlevel);
extern char *catalog_datum_text(Datum d, bool isnull, MemoryContext cxt);
extern char *catalog_text(HeapTuple tup, int col, MemoryContext cxt);
extern Datum catalog_datum(HeapTuple tup, int col, bool *isnull);
extern int32 catalog_int32(HeapTuple tup, int col);
extern bool catalog_bool(HeapTuple tup, int col);

/*
 * catalog_scan.c: one index scan of one registry table, read as
 * PostgreSQL reads its catalogs (see the file's header)
 */
#define SCAN_MAX_KEYS 3

/* one index scan of one registry table */
typedef struct CatalogScan
{
	Relation	heap;
	Relation	index;
	Snapshot	snapshot;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	ScanKeyData keys[SCAN_MAX_KEYS];
	int			nkeys;
	bool		rekeyed;		/* new keys since the last index_rescan */
} CatalogScan;

extern Relation catalog_open_table(const char *name);
extern void catalog_scan_open(CatalogScan *s, const char *table, const char *index);
extern void catalog_scan_text_key(CatalogScan *s, int col, const char *value);
extern void catalog_scan_rekey(CatalogScan *s);
extern bool catalog_scan_next(CatalogScan *s, ScanDirection dir);
extern void catalog_scan_close(CatalogScan *s);
extern Datum catalog_scan_datum(CatalogScan *s, const char *name, bool *isnull);
extern char *catalog_scan_text(CatalogScan *s, const char *name, MemoryContext cxt);
extern char *catalog_scan_jsonb_text(CatalogScan *s, const char *name, MemoryContext cxt);

/* catalog_scan.c: the subject's row lock, and reads under it */
extern bool catalog_lock_subject_row(const char *context, const char *subject);
extern int32 catalog_max_version(const char *context, const char *subject);
extern int32 catalog_max_version_latest(const char *context, const char *subject,
										CatalogSchema *latest, bool *has_latest);

/* scope_cache.c: config and mode rows, and aliases, kept across transactions */
extern uint64 scope_cache_generation(void);
extern bool scope_cache_rows(uint64 gen, const char *context, const char *subject,
							 CatalogScopeRows *out);
extern void scope_cache_keep_rows(uint64 gen, const char *context, const char *subject,
								  const CatalogScopeRows *rows);
extern bool scope_cache_alias(uint64 gen, const char *context, const char *subject,
							  char **alias);
extern void scope_cache_keep_alias(uint64 gen, const char *context, const char *subject,
								   const char *alias);

/* catalog.c: for catalog_scan.c */
extern void catalog_ensure_context(const char *context);

#endif							/* CATALOG_INTERNAL_H */
