/*-------------------------------------------------------------------------
 *
 * rg_compat.h
 *	  Confluent's seven compatibility levels over any rg_format.
 *
 * Knows the levels, which earlier versions each one considers, the
 * direction of each check and the exact message list Confluent builds;
 * knows nothing about any schema format.  Beside them, Confluent's modes:
 * the one table of their names and what each allows.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_COMPAT_H
#define RG_COMPAT_H

#include "rg_format.h"
#include "rg_lint.h"

/*
 * The message of a check that stopped at its format's budget of work or
 * memory (Avro, JSON Schema and Protobuf alike); the extension answers
 * such a check with 42201 rather than with the message.
 */
#define RG_COMPAT_TOO_LARGE \
	"Unexpected exception during compatibility check: schema comparison too large"

/* Did the check that added messages[from..] stop at its budget? */
extern bool rg_compat_too_large(const rg_strlist *messages, int from);

/*
 * The most differences one check lists: past them, one line says how many
 * more there are (a schema whose definitions each use the previous one
 * twice can have 2^60 differences).
 */
#define RG_COMPAT_MAX_MESSAGES 10000

/* The line after RG_COMPAT_MAX_MESSAGES differences: n more not listed. */
extern void rg_compat_push_more(rg_strlist *messages, uint64_t n);

/* a + b, saturating: a count of differences, which can pass 2^64 */
static inline uint64_t
rg_compat_count_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

typedef enum rg_compat_level
{
	RG_COMPAT_NONE = 0,
	RG_COMPAT_BACKWARD,
	RG_COMPAT_BACKWARD_TRANSITIVE,
	RG_COMPAT_FORWARD,
	RG_COMPAT_FORWARD_TRANSITIVE,
	RG_COMPAT_FULL,
	RG_COMPAT_FULL_TRANSITIVE
} rg_compat_level;

/* "backward_transitive" etc., case-insensitive; false if unknown */
extern bool rg_compat_level_parse(const char *s, rg_compat_level *out);

/* upper-case Confluent name */
extern const char *rg_compat_level_name(rg_compat_level level);

/* does the level look at every earlier version, or only the latest? */
extern bool rg_compat_is_transitive(rg_compat_level level);

/* the level at index i of the name table, for listing them all; false past the end */
extern bool rg_compat_level_at(int i, rg_compat_level *out);

/* Confluent's modes of a scope (global, context or subject). */
typedef enum rg_mode
{
	RG_MODE_READWRITE = 0,
	RG_MODE_READONLY,
	RG_MODE_READONLY_OVERRIDE,
	RG_MODE_IMPORT,
	RG_MODE_FORWARD
} rg_mode;

/* "readwrite" etc., case-insensitive; false if unknown */
extern bool rg_mode_parse(const char *s, rg_mode *out);

/* upper-case Confluent name */
extern const char *rg_mode_name(rg_mode mode);

/* READONLY and READONLY_OVERRIDE refuse writes */
extern bool rg_mode_is_read_only(rg_mode mode);

/* IMPORT and FORWARD take versions with the ids and numbers they are given */
extern bool rg_mode_is_import(rg_mode mode);

/*
 * Confluent's compatibilityPolicy: which differences count as compatible.
 * Only a format with a lenient variant (JSON) tells them apart.
 */
typedef enum rg_compat_policy
{
	RG_POLICY_STRICT = 0,
	RG_POLICY_LENIENT
} rg_compat_policy;

/* An earlier live version of the subject. */
typedef struct rg_prior_version
{
	const rg_schema *schema;
	int			version;		/* 0 when not known */
} rg_prior_version;

/*
 * Check new_schema against prev (oldest first, live versions only) under
 * level.  Returns true when compatible.  Otherwise appends to messages, in
 * Confluent's order and words, the differences for the first failing
 * version (newest first for transitive levels), then "{oldSchemaVersion:
 * N}", "{oldSchema: '...'}" and "{validateFields: 'false', compatibility:
 * 'LEVEL'}".  Non-transitive levels look at the last element only.
 */
extern bool rg_compat_check(rg_compat_level level, const rg_schema *new_schema,
							const rg_prior_version *prev, int n_prev,
							rg_strlist *messages);

/* rg_compat_check under a policy (rg_compat_check is the STRICT one) */
extern bool rg_compat_check_policy(rg_compat_level level, rg_compat_policy policy,
								   const rg_schema *new_schema,
								   const rg_prior_version *prev, int n_prev,
								   rg_strlist *messages);

/*
 * rg_compat_check_policy without the closing line: the differences of the
 * first failing version only (true when there are none).
 */
extern bool rg_compat_differences(rg_compat_level level, rg_compat_policy policy,
								  const rg_schema *new_schema,
								  const rg_prior_version *prev, int n_prev,
								  rg_strlist *messages);

/*
 * Confluent's closing line of a refused registration,
 * "{validateFields: 'false', compatibility: 'LEVEL'}".
 */
extern void rg_compat_close(rg_strlist *messages, rg_compat_level level,
							bool validate_fields);

/*
 * The semantic lints in rules of new_schema's format against prev (oldest
 * first, live versions only; none for a first version, which only
 * FIELD_WITHOUT_DEFAULT looks at): one message per finding, in the form
 * "{lintType:'...', description:'...', additionalInfo:'...'}".  Returns
 * true when there is none.  They are not Confluent's: a registry config
 * turns them on (as warnings or as failures), off by default (rg_lint.h).
 */
extern bool rg_compat_lint(const rg_schema *new_schema,
						   const rg_prior_version *prev, int n_prev,
						   rg_lint_rules rules, rg_strlist *messages);



/*
 * The verdict of a registration or a check after the confluent:reserved
 * rules (failed_before: they already failed it): the differences under
 * level, then the lints under lint (failures under FAIL, messages of a
 * verdict that stays true under WARN), then Confluent's closing line when
 * it fails.  n_prev == 0 (no earlier version) passes the level; only
 * FIELD_WITHOUT_DEFAULT lints a first version.  True when compatible.
 */
extern bool rg_compat_verdict(rg_compat_level level, rg_compat_policy policy,
							  rg_lint_policy lint, bool validate_fields,
							  const rg_schema *new_schema,
							  const rg_prior_version *prev, int n_prev,
							  bool failed_before, rg_strlist *messages);

#endif							/* RG_COMPAT_H */
