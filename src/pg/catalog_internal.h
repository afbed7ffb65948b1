/*-------------------------------------------------------------------------
 *
 * catalog_internal.h
 *	  What the files of the catalog module share: the SPI statements of the
 *	  writes (catalog_spi.c), the reading of one registry table through one
 *	  of its B-tree indexes (catalog_rel.c), what one table's file offers
 *	  the others, and the scope cache (scope_cache.c).  Nothing outside the
 *	  module includes it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef CATALOG_INTERNAL_H
#define CATALOG_INTERNAL_H

#include "access/genam.h"
#include "access/htup.h"
#include "access/sdir.h"
#include "access/skey.h"
#include "executor/tuptable.h"
#include "utils/jsonb.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

#include "catalog.h"

/* --- catalog_spi.c: statements, for the writes ------------------------------ */

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
extern bool catalog_rest_process;
extern int	catalog_pin_search_path(void);
extern void catalog_unpin_search_path(int nestlevel);
extern char *catalog_datum_text(Datum d, bool isnull, MemoryContext cxt);
extern char *catalog_text(HeapTuple tup, int col, MemoryContext cxt);
extern Datum catalog_datum(HeapTuple tup, int col, bool *isnull);
extern int32 catalog_int32(HeapTuple tup, int col);
extern bool catalog_bool(HeapTuple tup, int col);
extern char *catalog_jsonb_value_text(JsonbValue *v);

/*
 * The tables nobody but the registry writes (registry.audit, the read
 * counts) are written as their owner: who ran before.
 */
typedef struct CatalogUserSave
{
	Oid			userid;
	int			sec_context;
} CatalogUserSave;

extern bool catalog_table_owner(const char *relname, Oid *owner);
extern void catalog_become_owner(Oid owner, CatalogUserSave *save);
extern void catalog_restore_user(const CatalogUserSave *save);

/* --- catalog_rel.c: a registry table read through its index ----------------- */

/* one column of a registry table, at attribute number (its index in the array) + 1 */
typedef struct CatalogColumn
{
	const char *name;
	Oid			type;
} CatalogColumn;

/*
 * A registry table as the extension's script creates it: its name and its
 * columns in order, so each table's file reads them by Anum_ constants,
 * checked against the relation's descriptor when it is first opened.
 */
typedef struct CatalogTable
{
	const char *name;
	int			ncols;
	const CatalogColumn *cols;
	Oid			relid;			/* looked up and checked; InvalidOid: not yet */
} CatalogTable;

/*
 * One of its B-tree indexes: its leading key columns (attribute numbers of
 * the table, InvalidAttrNumber for an expression) and, for a partial index,
 * the two columns of its "a IS NOT NULL OR b IS NOT NULL" predicate.
 */
#define SCAN_MAX_KEYS 4

typedef struct CatalogIndex
{
	const char *name;
	CatalogTable *table;
	int			nkeys;
	AttrNumber	keys[SCAN_MAX_KEYS];
	AttrNumber	or_not_null[2];
	Oid			relid;			/* looked up and checked; InvalidOid: not yet */
} CatalogIndex;

/* one ordered scan of one registry table through one of its indexes */
typedef struct CatalogScan
{
	Relation	heap;
	Relation	index;
	Snapshot	snapshot;		/* registered */
	SysScanDesc scan;
	TupleTableSlot *slot;		/* the current row's */
	TupleTableSlot *fetch_slot; /* catalog_scan_fetch_tid()'s */
	ScanKeyData keys[SCAN_MAX_KEYS];
	int			nkeys;
	bool		rekeyed;		/* new keys since the scan began or rescanned */
} CatalogScan;

extern Snapshot catalog_read_snapshot(void);
extern Relation catalog_open_table(CatalogTable *table);
extern void catalog_scan_open(CatalogScan *s, CatalogIndex *index);
extern void catalog_scan_share_snapshot(CatalogScan *s, const CatalogScan *from);
extern void catalog_scan_key_op(CatalogScan *s, AttrNumber attno, StrategyNumber strategy,
								RegProcedure proc, Datum value);
extern void catalog_scan_key(CatalogScan *s, AttrNumber attno, RegProcedure proc, Datum value);
extern void catalog_scan_text_key(CatalogScan *s, AttrNumber attno, const char *value);
extern bool catalog_scan_next(CatalogScan *s, ScanDirection dir);
extern void catalog_scan_rekey(CatalogScan *s);
extern bool catalog_scan_fetch_tid(CatalogScan *s, ItemPointer tid, BlockNumber nblocks);
extern void catalog_scan_close(CatalogScan *s);
extern Datum catalog_scan_datum(CatalogScan *s, AttrNumber attno, bool *isnull);
extern char *catalog_scan_text(CatalogScan *s, AttrNumber attno, MemoryContext cxt);
extern char *catalog_scan_jsonb_text(CatalogScan *s, AttrNumber attno, MemoryContext cxt);
extern int32 catalog_scan_int32(CatalogScan *s, AttrNumber attno);
extern bool catalog_scan_bool(CatalogScan *s, AttrNumber attno);
extern TimestampTz catalog_scan_timestamp(CatalogScan *s, AttrNumber attno);
extern bool catalog_scan_text_is(CatalogScan *s, AttrNumber attno, const char *value);
extern void catalog_scan_fingerprint(CatalogScan *s, AttrNumber attno, uint8 *out);

/*
 * catalog_horizon.c: when rows kept across transactions may answer a read
 * (a snapshot taken after their generation was first seen, and what it
 * saw running)
 */
typedef struct CatalogHorizon
{
	uint64		generation;		/* 0: none taken yet */
	TransactionId xmax;
	TransactionId *running;		/* in TopMemoryContext */
	int			nrunning;
	bool		in_recovery;
} CatalogHorizon;

extern bool catalog_has_always_trigger(Relation rel, const char *name, int16 type);
extern bool catalog_horizon_sees(CatalogHorizon *h, Snapshot snap, uint64 gen);
extern void catalog_horizon_forget(CatalogHorizon *h);

/* --- one table's file, for the others -------------------------------------- */

/* catalog_schemas.c */
extern bool catalog_schema_by_id(const char *context, int32 id, MemoryContext cxt,
								 CatalogSchema *out);
extern void catalog_schema_fingerprint(const char *context, int32 id, uint8 *out);
extern int32 catalog_schema_id_by_fingerprint(const char *context, const uint8 *fingerprint);
extern void catalog_add_fingerprints(const char *context, const CatalogScan *versions_scan,
									 CatalogVersion *versions, int n);

/* A schema of a context with a given type and stored text. */
typedef struct CatalogSameText
{
	int32		id;
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
	char	   *refs;
	char	   *metadata;
	char	   *rule_set;
} CatalogSameText;

extern CatalogSameText *catalog_schemas_with_text(const char *context, const char *schema_type,
												  const char *schema,
												  const uint8 *plain_fingerprint, int *n);

/* catalog_versions.c, for the subject directory (catalog_directory.c) */
extern CatalogSubjectCount *catalog_count_subject_versions(MemoryContext cxt, int max, int *n);
extern bool catalog_versions_announced(Oid *relid);

/* catalog_subjects.c: the subject's row lock */
extern bool catalog_lock_subject_row(const char *context, const char *subject);
extern void catalog_insert_subject(const char *context, const char *subject);

/* catalog_versions.c: the subject's newest versions, read under its lock */
extern int32 catalog_max_version(const char *context, const char *subject);
extern int32 catalog_max_version_latest(const char *context, const char *subject,
										CatalogSchema *latest, bool *has_latest);

/* catalog_contexts.c */
extern void catalog_ensure_context(const char *context);
extern List *catalog_context_names(const CatalogScan *share);

/* catalog_fence.c: on a new WAL timeline, ids move past what an old primary handed out */
extern void catalog_fence_ids(void);

/* scope_cache.c: config and mode rows, and aliases, kept across transactions */
#define SCOPE_CONFIG	0
#define SCOPE_MODES		1
#define SCOPE_TABLES	2

/* what is known of one scope's own rows: per table whether known, then the row or NULL */
typedef struct ScopeKnown
{
	bool		known[SCOPE_TABLES];
	const CatalogConfigRow *config;
	const char *alias;			/* the config's alias, or NULL */
	const char *mode;
} ScopeKnown;

extern uint64 scope_cache_generation(void);
extern bool scope_cache_stale(void);
extern bool scope_cache_find(uint64 gen, const char *context, const char *subject,
							 ScopeKnown *k);
extern void scope_cache_keep(uint64 gen, const char *context, const char *subject,
							 const ScopeKnown *k);
extern bool scope_cache_wants_load(uint64 gen, int t, double rows);
extern void scope_cache_load_begin(uint64 gen, int t);
extern bool scope_cache_load_row(uint64 gen, int t, const char *context, const char *subject,
								 const ScopeKnown *k);
extern void scope_cache_load_end(uint64 gen, int t, bool complete);

#endif							/* CATALOG_INTERNAL_H */
