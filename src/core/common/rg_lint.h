/*-------------------------------------------------------------------------
 *
 * rg_lint.h
 *	  The registry's semantic lints: their names, the sets a config turns
 *	  on, and how a config applies them.
 *
 * Two groups.  DATA_LOSS: what Confluent's rules accept although old data
 * is then read wrongly (a rename without an alias, a Protobuf field
 * number or name given again).  PRACTICES: the evolution rules of teams
 * that keep events forever (two-phase removal, a default on every field,
 * no type changes).  A config's "lint" says how findings count (NONE,
 * WARN, FAIL); its "lintRules" which lints run, DATA_LOSS when absent.
 *
 * Plain C: no PostgreSQL.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_LINT_H
#define RG_LINT_H

#include <stdbool.h>

/* How a config's "lint" is applied: not at all, as warnings, as failures. */
typedef enum rg_lint_mode
{
	RG_LINT_NONE = 0,
	RG_LINT_WARN,
	RG_LINT_FAIL
} rg_lint_mode;

/* a set of lints, one bit each */
typedef unsigned int rg_lint_rules;

#define RG_LINT_RENAMED_WITHOUT_ALIAS		(1u << 0)	/* FIELD_RENAMED_WITHOUT_ALIAS */
#define RG_LINT_DELETED_NOT_RESERVED		(1u << 1)	/* DELETED_FIELD_NOT_RESERVED */
#define RG_LINT_NUMBER_REUSED				(1u << 2)	/* FIELD_NUMBER_REUSED */
#define RG_LINT_NAME_REUSED					(1u << 3)	/* FIELD_NAME_REUSED */
#define RG_LINT_REMOVED_WITHOUT_DEPRECATION	(1u << 4)	/* FIELD_REMOVED_WITHOUT_DEPRECATION */
#define RG_LINT_WITHOUT_DEFAULT				(1u << 5)	/* FIELD_WITHOUT_DEFAULT */
#define RG_LINT_TYPE_CHANGED				(1u << 6)	/* FIELD_TYPE_CHANGED */

#define RG_LINT_DATA_LOSS	(RG_LINT_RENAMED_WITHOUT_ALIAS | RG_LINT_DELETED_NOT_RESERVED | \
							 RG_LINT_NUMBER_REUSED | RG_LINT_NAME_REUSED)
#define RG_LINT_PRACTICES	(RG_LINT_REMOVED_WITHOUT_DEPRECATION | RG_LINT_WITHOUT_DEFAULT | \
							 RG_LINT_TYPE_CHANGED)
#define RG_LINT_ALL			(RG_LINT_DATA_LOSS | RG_LINT_PRACTICES)

/* How a config applies the lints: which run, and how their findings count. */
typedef struct rg_lint_policy
{
	rg_lint_mode mode;
	rg_lint_rules rules;
} rg_lint_policy;

/* "NONE", "WARN", "FAIL", case-insensitive; false if unknown */
extern bool rg_lint_mode_parse(const char *s, rg_lint_mode *out);

/*
 * A "lintRules" value: lint names and the groups DATA_LOSS, PRACTICES and
 * ALL, separated by commas, case-insensitive, spaces around names allowed;
 * NULL is DATA_LOSS.  False (out untouched) when a name is unknown or the
 * list is empty.
 */
extern bool rg_lint_rules_parse(const char *s, rg_lint_rules *out);

#endif							/* RG_LINT_H */
