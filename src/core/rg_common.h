/*-------------------------------------------------------------------------
 *
 * rg_common.h
 *	  Error values and string lists shared by every module of the core.
 *
 * The core never longjmps and never prints: a failing call fills an
 * rg_error and returns NULL/false, and the caller decides what to do
 * (ereport in the PostgreSQL glue, an assertion in a unit test).
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_COMMON_H
#define RG_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rg_arena.h"

typedef enum rg_errcode
{
	RG_OK = 0,
	RG_ERR_INVALID_SCHEMA,		/* Confluent 42201 */
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

/* A growable byte buffer on malloc, for building output text. */
typedef struct rg_buf
{
	char	   *data;
	size_t		len;
	size_t		cap;
	bool		oom;
} rg_buf;

extern void rg_buf_init(rg_buf *buf);
extern void rg_buf_free(rg_buf *buf);
extern void rg_buf_append(rg_buf *buf, const char *s, size_t n);
extern void rg_buf_puts(rg_buf *buf, const char *s);
extern void rg_buf_putc(rg_buf *buf, char c);
extern void rg_buf_printf(rg_buf *buf, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

#endif							/* RG_COMMON_H */
