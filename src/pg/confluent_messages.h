/*-------------------------------------------------------------------------
 *
 * confluent_messages.h
 *	  The words Confluent's clients read: every error message and detail
 *	  the registry gives in Confluent's wording, in one table keyed by
 *	  error_code (confluent_messages.c).  The install script reads the
 *	  same table through registry.confluent_message().
 *
 *-------------------------------------------------------------------------
 */
#ifndef CONFLUENT_MESSAGES_H
#define CONFLUENT_MESSAGES_H

/* One wording; its error_code is in the table. */
typedef enum ConfluentWording
{
	CW_SUBJECT_NOT_FOUND,		/* 40401 subject */
	CW_VERSION_NOT_FOUND,		/* 40402 version */
	CW_SCHEMA_ID_NOT_FOUND,		/* 40403 id */
	CW_SCHEMA_NOT_FOUND,		/* 40403 */
	CW_SUBJECT_SOFT_DELETED,	/* 40404 subject */
	CW_SUBJECT_NOT_SOFT_DELETED,	/* 40405 subject */
	CW_VERSION_SOFT_DELETED,	/* 40406 subject, version */
	CW_VERSION_NOT_SOFT_DELETED,	/* 40407 subject, version */
	CW_SUBJECT_CONFIG_NOT_FOUND,	/* 40408 subject */
	CW_SUBJECT_MODE_NOT_FOUND,	/* 40409 subject */
	CW_INCOMPATIBLE_SCHEMA,		/* 40901 subject, messages */
	CW_INVALID_SCHEMA,			/* 42201 the parser's words */
	CW_EMPTY_SCHEMA,			/* 42201 */
	CW_INVALID_SCHEMA_TYPE,		/* 42201 type, known types */
	CW_VERSION_NOT_NEXT,		/* 42201 */
	CW_INVALID_VERSION,			/* 42202 version */
	CW_INVALID_COMPATIBILITY,	/* 42203 */
	CW_INVALID_MODE,			/* 42204 */
	CW_SUBJECT_READ_ONLY,		/* 42205 subject, context */
	CW_CONTEXT_READ_ONLY,		/* 42205 context */
	CW_SUBJECT_NOT_READ_WRITE,	/* 42205 subject, context */
	CW_SUBJECT_NOT_IMPORT,		/* 42205 subject, context */
	CW_CONTEXT_NOT_IMPORT,		/* 42205 context */
	CW_OVERWRITE_SCHEMA_ID,		/* 42205 id, context */
	CW_REFERENCE_EXISTS,		/* 42206 subject, version */
	CW_INVALID_SUBJECT,			/* 42208 subject */
	CW_STORE_ERROR,				/* 50001 */
	CW_OPERATION_TIMED_OUT,		/* 50002 */
	CW_FORWARD_REGISTER,		/* 50003: a standby could not forward ... */
	CW_FORWARD_DELETE_VERSION,	/* 50003 */
	CW_FORWARD_UPDATE_CONFIG,	/* 50003 */
	CW_FORWARD_DELETE_CONFIG,	/* 50003 */
	CW_FORWARD_UPDATE_MODE,		/* 50003 */
	CW_FORWARD_DELETE_MODE,		/* 50003 */
	CW_FORWARD_OTHER,			/* 50003 */
	CW_LEADER_UNKNOWN,			/* 50004: ... or knows no primary */
	CW_UNKNOWN_UPDATE_CONFIG,	/* 50004 */
	CW_UNKNOWN_DELETE_CONFIG,	/* 50004 */
	CW_UNKNOWN_UPDATE_MODE,		/* 50004 */
	CW_UNKNOWN_DELETE_MODE,		/* 50004 */
	CW_DELETE_SUBJECT_FAILED,	/* 500 subject: a subject delete's every
								 * failure */
	/* the DEK registry's */
	CW_KEY_NOT_FOUND,			/* 40470 key name or subject */
	CW_KEY_NOT_SOFT_DELETED,	/* 40471 key name or subject */
	CW_KEY_SOFT_DELETED,		/* 40472 key name */
	CW_KEY_EXISTS,				/* 40971 key name or subject */
	CW_KEY_INVALID,				/* 42271 field */
	CW_KEY_REFERENCED,			/* 42272 key name */
	CW_DEK_GENERATION,			/* 50070 subject, the KMS's words */
	CW_DEK_UNWRAP,				/* 50070 subject, the KMS's words */
	CW_HTTP_NOT_FOUND,			/* 404: no such route */
	CW_HTTP_METHOD_NOT_ALLOWED, /* 405 */
	CW_HTTP_NOT_ACCEPTABLE,		/* 406 */
	CW_HTTP_UNSUPPORTED_MEDIA_TYPE, /* 415 */
	CW_ASSOCIATION_NOT_FOUND,	/* 40410 resource */
	CW_ASSOCIATION_EXISTS,		/* 40903 association type, resource */
	CW_ASSOCIATION_FOR_SUBJECT, /* 40904 subject */
	CW_STRONG_ASSOCIATION,		/* 40905 subject */
	CW_NO_ACTIVE_VERSION,		/* 40907 subject */
	CW_ASSOCIATION_FROZEN,		/* 40908 association type, subject */
	CW_INVALID_ASSOCIATION,		/* 42212 property, reason */
	CW_CONTEXT_NOT_EMPTY		/* 42211 context */
} ConfluentWording;

/* The error_code of a wording. */
extern int	confluent_error_code(ConfluentWording w);

/* A wording without blanks, as it stands in the table (no allocation). */
extern const char *confluent_fixed_text(ConfluentWording w);

/*
 * The wording with its blanks filled, palloc'd: each "%s" takes the next
 * argument, a const char *, in the order the enum's comment lists them.
 */
extern char *confluent_text(ConfluentWording w,...);

#endif							/* CONFLUENT_MESSAGES_H */
