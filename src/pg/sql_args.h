/*-------------------------------------------------------------------------
 *
 * sql_args.h
 *	  The arguments and answers of the SQL functions that wrap the C
 *	  services (settings_sql.c, read_sql.c, association_sql.c, dek_sql.c), read and
 *	  made one way (sql_args.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SQL_ARGS_H
#define SQL_ARGS_H

#include "fmgr.h"
#include "nodes/pg_list.h"
#include "utils/jsonb.h"

extern Datum sql_jsonb_result(const char *text);
extern const char *sql_text_arg(FunctionCallInfo fcinfo, int n);
extern const char *sql_required_text_arg(FunctionCallInfo fcinfo, int n, const char *name);
extern bool sql_bool_arg(FunctionCallInfo fcinfo, int n);
extern Jsonb *sql_jsonb_arg(FunctionCallInfo fcinfo, int n);
extern List *sql_text_list_arg(FunctionCallInfo fcinfo, int n, const char *name);
extern void sql_page_args(FunctionCallInfo fcinfo, int n, int *offset, int *limit);

#endif							/* SQL_ARGS_H */
