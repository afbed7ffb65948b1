/*-------------------------------------------------------------------------
 *
 * rg_common.h
 *	  Error values and string lists shared by every module of the core.
 *
 * The core never longjmps and never prints: a failing call fills an
 * rg_error and returns NULL/false, and the caller decides what to do
 * (ereport in the PostgreSQL glue, an assertion in a unit test).  Only
 * the glue's own handlers (rg_alloc.h: palloc out of memory, a cancel at
 * an interrupt check) may leave the core by a longjmp, which leaks
 * nothing because everything the core holds is theirs.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_COMMON_H
#define RG_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rg_alloc.h"
#include "rg_arena.h"

typedef enum rg_errcode
{
	RG_OK = 0,
	RG_ERR_INVALID_SCHEMA,		/* Confluent 42201 */
	RG_ERR_INVALID_VALUE,		/* a value the schema does not admit */
	RG_ERR_INVALID_PAYLOAD,		/* bytes that are not a payload of the schema */
	RG_ERR_NOMEM,
	RG_ERR_INTERNAL
} rg_errcode;

#define RG_ERROR_MAX 2048

typedef struct rg_error
{
	rg_errcode	code;
	char		message[RG_ERROR_MAX];
} rg_error;

/* printf-style; a NULL err is allowed and ignored */
extern void rg_error_set(rg_error *err, rg_errcode code, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));
extern void rg_error_clear(rg_error *err);

/*
 * Recursion guard.  Every recursive routine of the core passes its depth
 * (0 at the top) to rg_too_deep() before it goes one level down, and when
 * that says stop it fails cleanly with an error value, never a longjmp:
 *	- past RG_MAX_RECURSION levels, whatever the stack (a fixed counter, so
 *	  unit tests and fuzzers see the same limit as the server);
 *	- or when rg_stack_check_hook says the C stack is nearly used up.  The
 *	  PostgreSQL glue sets it from _PG_init to a wrapper of
 *	  stack_is_too_deep(), so max_stack_depth holds in the core too; NULL
 *	  (the default) leaves the counter alone in charge.
 * The input limits (RG_PROTO_MAX_NESTING, RG_JSON_MAX_NESTING) keep every
 * legitimate schema well below RG_MAX_RECURSION.
 */
#define RG_MAX_RECURSION 1000

typedef bool (*rg_stack_check_fn) (void);

extern rg_stack_check_fn rg_stack_check_hook;

/* Must a recursive routine at this depth stop? */
extern bool rg_too_deep(int depth);

/* A growable list of strings whose storage lives in an arena. */
typedef struct rg_strlist
{
	rg_arena   *arena;
	char	  **items;
	int			n;
	int			cap;
} rg_strlist;

extern void rg_strlist_init(rg_strlist *list, rg_arena *arena);

/* Append a copy of s; false on out-of-memory. */
extern bool rg_strlist_push(rg_strlist *list, const char *s);
extern bool rg_strlist_pushf(rg_strlist *list, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/*
 * A set of names (borrowed, not copied), so that the first repeat in a
 * list is found in one pass: a schema may list hundreds of thousands of
 * names, and comparing each with all before it would stall the process
 * for minutes.
 */
typedef struct rg_name_set
{
	const char **slot;			/* open addressing, NULL when free */
	size_t		mask;
} rg_name_set;

/* An empty set for up to n names; false on out of memory. */
extern bool rg_name_set_init(rg_name_set *set, size_t n);

/* Add name; false when the set held it already. */
extern bool rg_name_set_add(rg_name_set *set, const char *name);
extern void rg_name_set_free(rg_name_set *set);

/*
 * A growable byte buffer on rg_malloc, for building output text.  A writer
 * stopped by rg_too_deep sets too_deep and oom (so that appends stop and
 * every oom check sees the failure).
 */
typedef struct rg_buf
{
	char	   *data;
	size_t		len;
	size_t		cap;
	bool		oom;
	bool		too_deep;
} rg_buf;

extern void rg_buf_init(rg_buf *buf);
extern void rg_buf_free(rg_buf *buf);
extern void rg_buf_append(rg_buf *buf, const char *s, size_t n);
extern void rg_buf_puts(rg_buf *buf, const char *s);
extern void rg_buf_putc(rg_buf *buf, char c);
extern void rg_buf_printf(rg_buf *buf, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

/* Mark buf as abandoned by a writer that went too deep. */
extern void rg_buf_set_too_deep(rg_buf *buf);

#endif							/* RG_COMMON_H */
