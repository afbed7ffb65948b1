/*-------------------------------------------------------------------------
 *
 * http_tls.c
 *	  The REST API's TLS certificate and key: registry.http_tls_cert_file
 *	  and registry.http_tls_key_file, read and checked by the HTTP worker.
 *
 * With both set the daemon serves HTTPS only.  The files are read by the
 * worker itself (relative paths from the data directory, as ssl_cert_file),
 * at its start and at each reload, so that a changed file is noticed by
 * comparing contents.  Whatever makes them unusable (one set without the
 * other, a file that cannot be read, too large, not PEM, a key others may
 * read, a key that is not the certificate's) is LOGged with the setting and
 * the file, and the mode is HTTP_TLS_BROKEN: the worker then listens on
 * nothing, never on plain HTTP instead, until a reload fixes it.  The key's
 * contents are never logged, and are zeroed when released.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>

#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/memutils.h"

#include "http.h"
#include "http_tls.h"

/* the largest certificate or key file read (a chain of a few PEMs fits) */
#define TLS_FILE_MAX (1024 * 1024)

/* what every LOG of an unusable setting adds */
#define NOT_LISTENING_DETAIL \
	"The REST API does not listen until this is fixed and the configuration reloaded."

/* whether the running daemon serves TLS (for those writing on its sockets) */
static bool serving_tls = false;

/* the absolute path of a setting's file: relative ones from the data directory */
static char *
resolve_path(const char *path)
{
	char		joined[MAXPGPATH];

	if (is_absolute_path(path))
		return MemoryContextStrdup(TopMemoryContext, path);
	join_path_components(joined, DataDir, path);
	return MemoryContextStrdup(TopMemoryContext, joined);
}

/*
 * A private key must not be readable by others, as PostgreSQL requires of
 * ssl_key_file: owned by the server's user with no group or world access,
 * or owned by root with at most group read.
 */
static bool
key_permissions_ok(const struct stat *st, const char *path)
{
	if (st->st_uid != geteuid() && st->st_uid != 0)
	{
		ereport(LOG,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("registry.http_tls_key_file \"%s\" must be owned by the database user or root",
						path),
				 errdetail(NOT_LISTENING_DETAIL)));
		return false;
	}
	if ((st->st_uid == geteuid() && (st->st_mode & (S_IRWXG | S_IRWXO))) ||
		(st->st_uid == 0 && (st->st_mode & (S_IWGRP | S_IXGRP | S_IRWXO))))
	{
		ereport(LOG,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("registry.http_tls_key_file \"%s\" has group or world access",
						path),
				 errdetail(NOT_LISTENING_DETAIL),
				 errhint("The file must have permissions u=rw (0600) or less if owned by the database user, or u=rw,g=r (0640) or less if owned by root.")));
		return false;
	}
	return true;
}

/* LOG that a setting's file could not be used, and why */
static void
report_unusable(const char *guc, const char *path, const char *why)
{
	ereport(LOG,
			(errcode(ERRCODE_CONFIG_FILE_ERROR),
			 errmsg("could not use %s \"%s\": %s", guc, path, why),
			 errdetail(NOT_LISTENING_DETAIL)));
}

/*
 * Read a setting's file whole into *out (NUL-terminated): a regular file of
 * at most TLS_FILE_MAX bytes without NUL bytes (libmicrohttpd takes PEM
 * text as a C string).  O_NONBLOCK so that a FIFO cannot stall the worker.
 */
static bool
read_tls_file(const char *guc, const char *path, bool is_key,
			  char **out, size_t *len)
{
	struct stat st;
	char	   *buf;
	ssize_t		n = 0;
	size_t		total = 0;
	int			fd;
	int			read_errno;

	*out = NULL;
	fd = OpenTransientFile(path, O_RDONLY | O_NONBLOCK | PG_BINARY);
	if (fd < 0)
	{
		ereport(LOG,
				(errcode_for_file_access(),
				 errmsg("could not open %s \"%s\": %m", guc, path),
				 errdetail(NOT_LISTENING_DETAIL)));
		return false;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
	{
		report_unusable(guc, path, "it is not a regular file");
		CloseTransientFile(fd);
		return false;
	}
	if (is_key && !key_permissions_ok(&st, path))
	{
		CloseTransientFile(fd);
		return false;
	}
	buf = palloc(TLS_FILE_MAX + 1);
	while (total <= TLS_FILE_MAX &&
		   (n = read(fd, buf + total, TLS_FILE_MAX + 1 - total)) > 0)
		total += n;
	read_errno = errno;
	CloseTransientFile(fd);
	if (n < 0)
	{
		errno = read_errno;
		ereport(LOG,
				(errcode_for_file_access(),
				 errmsg("could not read %s \"%s\": %m", guc, path),
				 errdetail(NOT_LISTENING_DETAIL)));
	}
	else if (total > TLS_FILE_MAX)
		report_unusable(guc, path, "it is larger than 1 MB");
	else if (memchr(buf, '\0', total) != NULL)
		report_unusable(guc, path, "it is not PEM text (it holds a NUL byte)");
	else
	{
		*out = MemoryContextAllocZero(TopMemoryContext, total + 1);
		memcpy(*out, buf, total);
		*len = total;
	}
	explicit_bzero(buf, Min(total, TLS_FILE_MAX + 1));
	pfree(buf);
	return *out != NULL;
}

/* Does the certificate file hold at least one PEM certificate? */
static bool
certificate_ok(const HttpTls *tls)
{
	gnutls_datum_t data = {(unsigned char *) tls->cert, (unsigned int) tls->cert_len};
	gnutls_x509_crt_t *crts = NULL;
	unsigned int ncrts = 0;
	int			rc;

	rc = gnutls_x509_crt_list_import2(&crts, &ncrts, &data, GNUTLS_X509_FMT_PEM, 0);
	if (rc >= 0)
	{
		for (unsigned int i = 0; i < ncrts; i++)
			gnutls_x509_crt_deinit(crts[i]);
		gnutls_free(crts);
	}
	if (rc < 0 || ncrts == 0)
	{
		ereport(LOG,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not use registry.http_tls_cert_file \"%s\": no PEM certificate could be read (%s)",
						tls->cert_path, rc < 0 ? gnutls_strerror(rc) : "none found"),
				 errdetail(NOT_LISTENING_DETAIL)));
		return false;
	}
	return true;
}

/* Does the key file hold an unencrypted PEM private key? */
static bool
private_key_ok(const HttpTls *tls)
{
	gnutls_datum_t data = {(unsigned char *) tls->key, (unsigned int) tls->key_len};
	gnutls_x509_privkey_t key;
	int			rc;

	if (gnutls_x509_privkey_init(&key) < 0)
		return false;
	rc = gnutls_x509_privkey_import2(key, &data, GNUTLS_X509_FMT_PEM, NULL, 0);
	gnutls_x509_privkey_deinit(key);
	if (rc < 0)
	{
		ereport(LOG,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not use registry.http_tls_key_file \"%s\": no unencrypted PEM private key could be read (%s)",
						tls->key_path, gnutls_strerror(rc)),
				 errdetail(NOT_LISTENING_DETAIL)));
		return false;
	}
	return true;
}

/* Is the key the certificate's (what the daemon will load, loaded here first)? */
static bool
key_matches_certificate(const HttpTls *tls)
{
	gnutls_datum_t cert = {(unsigned char *) tls->cert, (unsigned int) tls->cert_len};
	gnutls_datum_t key = {(unsigned char *) tls->key, (unsigned int) tls->key_len};
	gnutls_certificate_credentials_t cred;
	int			rc;

	if (gnutls_certificate_allocate_credentials(&cred) < 0)
		return false;
	rc = gnutls_certificate_set_x509_key_mem2(cred, &cert, &key,
											  GNUTLS_X509_FMT_PEM, NULL, 0);
	gnutls_certificate_free_credentials(cred);
	if (rc < 0)
	{
		ereport(LOG,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("registry.http_tls_key_file \"%s\" does not fit registry.http_tls_cert_file \"%s\": %s",
						tls->key_path, tls->cert_path, gnutls_strerror(rc)),
				 errdetail(NOT_LISTENING_DETAIL)));
		return false;
	}
	return true;
}

/* both settings set: read and check both files into tls */
static bool
load_files(HttpTls *tls)
{
	tls->cert_path = resolve_path(registry_http_tls_cert_file);
	tls->key_path = resolve_path(registry_http_tls_key_file);
	if (!read_tls_file("registry.http_tls_cert_file", tls->cert_path, false,
					   &tls->cert, &tls->cert_len) ||
		!read_tls_file("registry.http_tls_key_file", tls->key_path, true,
					   &tls->key, &tls->key_len))
		return false;
	return certificate_ok(tls) && private_key_ok(tls) &&
		key_matches_certificate(tls);
}

/*
 * What the settings ask for, read now: HTTP_TLS_OFF, HTTP_TLS_ON with the
 * files' contents, or HTTP_TLS_BROKEN (already LOGged).
 */
void
http_tls_load(HttpTls *tls)
{
	bool		has_cert = registry_http_tls_cert_file && registry_http_tls_cert_file[0];
	bool		has_key = registry_http_tls_key_file && registry_http_tls_key_file[0];

	memset(tls, 0, sizeof(*tls));
	tls->mode = HTTP_TLS_BROKEN;
	if (!has_cert && !has_key)
		tls->mode = HTTP_TLS_OFF;
	else if (!has_cert || !has_key)
		ereport(LOG,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("%s is set but %s is not",
						has_cert ? "registry.http_tls_cert_file" : "registry.http_tls_key_file",
						has_cert ? "registry.http_tls_key_file" : "registry.http_tls_cert_file"),
				 errdetail("The REST API serves HTTPS with both set, plain HTTP with neither; it does not listen until this is fixed and the configuration reloaded.")));
	else if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
		ereport(LOG,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("registry.http_tls_cert_file is set but libmicrohttpd was built without TLS"),
				 errdetail(NOT_LISTENING_DETAIL)));
	else if (load_files(tls))
		tls->mode = HTTP_TLS_ON;
	if (tls->mode != HTTP_TLS_ON)
	{
		HttpTlsMode mode = tls->mode;

		http_tls_release(tls);
		tls->mode = mode;
	}
}

/* Do a and b serve the same files with the same contents? */
bool
http_tls_equal(const HttpTls *a, const HttpTls *b)
{
	if (a->mode != b->mode)
		return false;
	if (a->mode != HTTP_TLS_ON)
		return true;
	return strcmp(a->cert_path, b->cert_path) == 0 &&
		strcmp(a->key_path, b->key_path) == 0 &&
		a->cert_len == b->cert_len && a->key_len == b->key_len &&
		memcmp(a->cert, b->cert, a->cert_len) == 0 &&
		memcmp(a->key, b->key, a->key_len) == 0;
}

/* free what tls holds, the key zeroed first; tls is left HTTP_TLS_OFF */
void
http_tls_release(HttpTls *tls)
{
	if (tls->key)
	{
		explicit_bzero(tls->key, tls->key_len);
		pfree(tls->key);
	}
	if (tls->cert)
		pfree(tls->cert);
	if (tls->cert_path)
		pfree(tls->cert_path);
	if (tls->key_path)
		pfree(tls->key_path);
	memset(tls, 0, sizeof(*tls));
}

/* Does the running daemon serve TLS? */
bool
http_tls_serving(void)
{
	return serving_tls;
}

/* the worker started (on = TLS) or stopped (false) its daemon */
void
http_tls_set_serving(bool on)
{
	serving_tls = on;
}
