/*-------------------------------------------------------------------------
 *
 * local_kms.c
 *	  The server's side of shared KEKs: DEK key material made as Confluent's
 *	  clients make it, and the local KMS that wraps it.
 *
 * Key material is Tink's serialized key: an AesGcmKey (field 3, the raw
 * key) for AES128_GCM and AES256_GCM, an AesSivKey (field 2, two 256-bit
 * keys) for AES256_SIV; version 0 is proto3's default and not written.
 * The local KMS is the clients' LocalKmsDriver: its key is the first 16
 * bytes of HKDF-SHA256 of the secret (no salt, no info), and a wrapped
 * key is Tink's AES-GCM ciphertext: a random 12-byte IV, then the
 * AES-128-GCM ciphertext and its 16-byte tag, with no associated data.
 * A client with the same secret unwraps what the server wrapped, and the
 * other way round.  GnuTLS (linked for TLS already) does the cryptography.
 *
 * The secret is registry.local_kms_secret: PGC_SUSET and superuser-only,
 * so no other role can read it (SHOW, pg_settings) or set it.  Without it
 * a shared local-kms KEK answers as one whose KMS is unreachable.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include "utils/guc.h"

#include "kms.h"

#define LOCAL_KMS_KEY_SIZE 16
#define GCM_IV_SIZE 12
#define GCM_TAG_SIZE 16
#define SHA256_SIZE 32

static char *local_kms_secret = NULL;

/* See kms.h */
void
registry_init_kms(void)
{
	DefineCustomStringVariable("registry.local_kms_secret",
							   "The secret of the local KMS (kmsType local-kms) that wraps the DEKs of shared KEKs.",
							   "The same secret as the clients' LocalKmsDriver; empty: shared local-kms KEKs cannot make or unwrap DEKs.",
							   &local_kms_secret,
							   "",
							   PGC_SUSET, GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							   NULL, NULL, NULL);
}

/* See kms.h */
int
kms_dek_key_size(const char *algorithm)
{
	if (strcmp(algorithm, "AES128_GCM") == 0)
		return 16;
	if (strcmp(algorithm, "AES256_GCM") == 0)
		return 32;
	if (strcmp(algorithm, "AES256_SIV") == 0)
		return 64;
	return 0;
}

/* See kms.h */
char *
kms_new_dek(const char *algorithm, int *len)
{
	int			size = kms_dek_key_size(algorithm);
	char	   *out;

	if (size == 0)
		elog(ERROR, "unknown DEK algorithm \"%s\"", algorithm);
	out = palloc(size + 2);
	/* the key_value field's tag: 3 in AesGcmKey, 2 in AesSivKey; both bytes */
	out[0] = (size == 64) ? 0x12 : 0x1a;
	out[1] = (char) size;
	if (gnutls_rnd(GNUTLS_RND_KEY, out + 2, size) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random key material")));
	*len = size + 2;
	return out;
}

/* The local KMS's AES-128 key, derived from the secret; false without one. */
static bool
local_kms_key(unsigned char *key)
{
	unsigned char salt[SHA256_SIZE] = {0};
	unsigned char prk[SHA256_SIZE];
	gnutls_datum_t ikm;
	gnutls_datum_t saltd = {salt, SHA256_SIZE};
	gnutls_datum_t prkd = {prk, SHA256_SIZE};
	gnutls_datum_t info = {(unsigned char *) "", 0};

	if (local_kms_secret == NULL || local_kms_secret[0] == '\0')
		return false;
	ikm.data = (unsigned char *) local_kms_secret;
	ikm.size = strlen(local_kms_secret);
	if (gnutls_hkdf_extract(GNUTLS_MAC_SHA256, &ikm, &saltd, prk) != 0 ||
		gnutls_hkdf_expand(GNUTLS_MAC_SHA256, &prkd, &info, key, LOCAL_KMS_KEY_SIZE) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not derive the local KMS key")));
	explicit_bzero(prk, sizeof(prk));
	return true;
}

/*
 * The KMS of a KEK, when the server can use it: true for local-kms with a
 * secret (its key in key), else false with Confluent's error in *error.
 */
static bool
kms_key(const char *kms_type, const char *kms_key_id, unsigned char *key, char **error)
{
	if (strcmp(kms_type, KMS_TYPE_LOCAL) == 0 && local_kms_key(key))
		return true;
	*error = psprintf("No kms client found for %s://%s", kms_type, kms_key_id);
	return false;
}

/* One AES-128-GCM operation with the KMS key; false when decryption fails. */
static bool
local_gcm(const unsigned char *key, bool encrypt, const char *in, int len,
		  char *out, int *out_len)
{
	gnutls_aead_cipher_hd_t h;
	gnutls_datum_t keyd = {(unsigned char *) key, LOCAL_KMS_KEY_SIZE};
	size_t		outsz;
	int			rc;

	if (gnutls_aead_cipher_init(&h, GNUTLS_CIPHER_AES_128_GCM, &keyd) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not initialize AES-128-GCM")));
	if (encrypt)
	{
		if (gnutls_rnd(GNUTLS_RND_NONCE, out, GCM_IV_SIZE) != 0)
		{
			gnutls_aead_cipher_deinit(h);
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate an IV")));
		}
		outsz = len + GCM_TAG_SIZE;
		rc = gnutls_aead_cipher_encrypt(h, out, GCM_IV_SIZE, NULL, 0, GCM_TAG_SIZE,
										in, len, out + GCM_IV_SIZE, &outsz);
		*out_len = GCM_IV_SIZE + (int) outsz;
	}
	else
	{
		outsz = len;
		rc = gnutls_aead_cipher_decrypt(h, in, GCM_IV_SIZE, NULL, 0, GCM_TAG_SIZE,
										in + GCM_IV_SIZE, len - GCM_IV_SIZE, out, &outsz);
		*out_len = (int) outsz;
	}
	gnutls_aead_cipher_deinit(h);
	return rc == 0;
}

/* See kms.h */
char *
kms_wrap(const char *kms_type, const char *kms_key_id,
		 const char *plain, int len, int *out_len, char **error)
{
	unsigned char key[LOCAL_KMS_KEY_SIZE];
	char	   *out;

	if (!kms_key(kms_type, kms_key_id, key, error))
		return NULL;
	out = palloc(len + GCM_IV_SIZE + GCM_TAG_SIZE);
	if (!local_gcm(key, true, plain, len, out, out_len))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not encrypt with AES-128-GCM")));
	explicit_bzero(key, sizeof(key));
	return out;
}

/* See kms.h */
char *
kms_unwrap(const char *kms_type, const char *kms_key_id,
		   const char *wrapped, int len, int *out_len, char **error)
{
	unsigned char key[LOCAL_KMS_KEY_SIZE];
	char	   *out;
	bool		ok;

	if (!kms_key(kms_type, kms_key_id, key, error))
		return NULL;
	if (len < GCM_IV_SIZE + GCM_TAG_SIZE)
	{
		*error = pstrdup("ciphertext too short");
		return NULL;
	}
	out = palloc(len);
	ok = local_gcm(key, false, wrapped, len, out, out_len);
	explicit_bzero(key, sizeof(key));
	if (!ok)
	{
		*error = pstrdup("decryption failed");
		return NULL;
	}
	return out;
}
