/*-------------------------------------------------------------------------
 *
 * http_tls.h
 *	  The REST API's TLS certificate and key (http_tls.c), as the HTTP
 *	  worker reads them for its daemon.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HTTP_TLS_H
#define HTTP_TLS_H

/* what registry.http_tls_cert_file and registry.http_tls_key_file ask for */
typedef enum HttpTlsMode
{
	HTTP_TLS_OFF,				/* neither set: plain HTTP */
	HTTP_TLS_ON,				/* both set, read and checked: HTTPS only */
	HTTP_TLS_BROKEN				/* unusable (LOGged): nothing may listen */
} HttpTlsMode;

/* the certificate and key files, as read (palloc'd in TopMemoryContext) */
typedef struct HttpTls
{
	HttpTlsMode mode;
	char	   *cert_path;		/* absolute paths, when mode is HTTP_TLS_ON */
	char	   *key_path;
	char	   *cert;			/* the files' contents, NUL-terminated */
	size_t		cert_len;
	char	   *key;
	size_t		key_len;
} HttpTls;

extern void http_tls_load(HttpTls *tls);
extern bool http_tls_equal(const HttpTls *a, const HttpTls *b);
extern void http_tls_release(HttpTls *tls);
extern bool http_tls_serving(void);
extern void http_tls_set_serving(bool on);

/* the protocol versions and ciphers offered: TLS 1.2 and later */
#define HTTP_TLS_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

#endif							/* HTTP_TLS_H */
