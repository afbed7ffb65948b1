/*-------------------------------------------------------------------------
 *
 * usage.h
 *	  Who still reads a schema: per schema id (in its context) and per
 *	  subject, the reads the REST API answered, when the last was and which
 *	  roles made them, counted in shared memory by the read path and
 *	  flushed to registry.schema_reads and registry.subject_reads
 *	  (usage.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef USAGE_H
#define USAGE_H

#include "datatype/timestamp.h"

/*
 * What one answer was about: a schema id in its context (id 0: none) and
 * a subject, context-qualified (NULL: none).  The strings live as long as
 * the answer does.
 */
typedef struct RegistryRead
{
	const char *context;		/* the schema's context */
	int32		id;
	const char *subject;		/* qualified */
} RegistryRead;

/* Copy src's strings into cxt, as dst (which may be src). */
extern void registry_read_copy(RegistryRead *dst, const RegistryRead *src,
							   MemoryContext cxt);

/* registry.usage_tracking */
extern bool registry_usage_tracking;

/* from _PG_init: the settings and, when preloaded, the shared table */
extern void registry_init_usage(void);

/*
 * Count one read of what read names by role, now.  Lock-free but for one
 * spinlock of a partition of the table, held for a few dozen
 * instructions: no allocation, no SQL, no system call; safe from several
 * threads of one process.  Nothing when tracking is off or there is no
 * shared memory.
 */
extern void registry_usage_note(const RegistryRead *read, Oid role);

/* registry_usage_note() of a SQL function's read, as the current user */
extern void registry_usage_note_sql(const char *context, int32 id, const char *subject);

/*
 * The primary's first HTTP worker, from its loop: every
 * registry.usage_flush_interval, the reads counted since the last flush are added to the
 * tables in a transaction of its own (outside any transaction).
 */
extern void registry_usage_flush_due(TimestampTz now);

#endif							/* USAGE_H */
