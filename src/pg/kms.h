/*-------------------------------------------------------------------------
 *
 * kms.h
 *	  The key management the DEK registry does itself for shared KEKs
 *	  (local_kms.c): new DEK key material in Tink's key format, wrapped and
 *	  unwrapped with the KEK through its KMS.  Only the local KMS
 *	  (kmsType "local-kms", its secret in registry.local_kms_secret) is
 *	  reachable from the server; the others answer Confluent's error for a
 *	  KMS it has no client for.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KMS_H
#define KMS_H

#define KMS_TYPE_LOCAL "local-kms"

/* From _PG_init: the local KMS's secret (a superuser-only GUC). */
extern void registry_init_kms(void);

/* The size of the raw key of a DEK algorithm, 0 for an unknown one. */
extern int	kms_dek_key_size(const char *algorithm);

/*
 * New key material for a DEK of the algorithm: a random key in Tink's
 * AesGcmKey or AesSivKey serialization, as Confluent's clients make it.
 */
extern char *kms_new_dek(const char *algorithm, int *len);

/*
 * Wrap (encrypt) or unwrap (decrypt) key material with a KEK of kms_type
 * and kms_key_id.  NULL with *error set when the KMS cannot be reached
 * (no client for it, no secret) or unwrapping fails.
 */
extern char *kms_wrap(const char *kms_type, const char *kms_key_id,
					  const char *plain, int len, int *out_len, char **error);
extern char *kms_unwrap(const char *kms_type, const char *kms_key_id,
						const char *wrapped, int len, int *out_len, char **error);

#endif							/* KMS_H */
