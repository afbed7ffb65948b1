/*-------------------------------------------------------------------------
 *
 * http.c
 *	  registry-migrate's HTTP client: one libcurl handle per registry,
 *	  basic auth, a CA bundle, JSON in and out, every answer bounded.
 *
 *-------------------------------------------------------------------------
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "migrate.h"
#include "rg_common.h"

/* an answer being read, refused past MIG_MAX_ANSWER bytes */
typedef struct MigBuffer
{
	rg_buf		text;
	bool		too_big;
} MigBuffer;

/* libcurl's write callback: append to the buffer, or stop past the bound */
static size_t
mig_http_write(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	MigBuffer  *buf = userdata;
	size_t		n = size * nmemb;

	if (buf->text.len + n > MIG_MAX_ANSWER)
	{
		buf->too_big = true;
		return 0;
	}
	rg_buf_append(&buf->text, ptr, n);
	if (buf->text.oom)
	{
		buf->too_big = true;
		return 0;
	}
	return n;
}

/* make the endpoint's libcurl handle; false (with err) when libcurl cannot */
bool
mig_http_init(MigEndpoint *ep, char *err, size_t errlen)
{
	static bool global_done = false;
	size_t		len;

	if (!global_done)
	{
		curl_global_init(CURL_GLOBAL_DEFAULT);
		global_done = true;
	}
	ep->curl = curl_easy_init();
	if (ep->curl == NULL)
	{
		snprintf(err, errlen, "could not start libcurl");
		return false;
	}
	len = strlen(ep->url);
	while (len > 0 && ep->url[len - 1] == '/')
		len--;
	ep->url = strndup(ep->url, len);
	if (ep->timeout <= 0)
		ep->timeout = 60;
	return true;
}

/* release the endpoint's handle */
void
mig_http_close(MigEndpoint *ep)
{
	if (ep->curl)
		curl_easy_cleanup(ep->curl);
	ep->curl = NULL;
}

/* a path segment (a subject, a KEK name) escaped for a URL; malloc'd */
char *
mig_escape(const char *segment)
{
	char	   *e = curl_easy_escape(NULL, segment, 0);
	char	   *copy = strdup(e ? e : "");

	curl_free(e);
	return copy;
}

/* printf into a new malloc'd string */
char *
mig_printf(const char *fmt,...)
{
	va_list		ap;
	char	   *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s == NULL)
	{
		fprintf(stderr, "registry-migrate: out of memory\n");
		exit(MIG_EXIT_TROUBLE);
	}
	return s;
}

/* is this answer a 404 (any Confluent 404xx error code)? */
bool
mig_is_not_found(long status, json_t *answer)
{
	return status == 404;
}

/* one request, no retry: false on a transport error */
static bool
mig_http_once(MigEndpoint *ep, const char *method, const char *url,
			  const char *body, long *status, MigBuffer *buf,
			  char *err, size_t errlen)
{
	CURL	   *c = ep->curl;
	struct curl_slist *headers = NULL;
	char		curl_err[CURL_ERROR_SIZE] = "";
	CURLcode	rc;

	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, mig_http_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, buf);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, ep->timeout);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t) MIG_MAX_ANSWER);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "registry-migrate");
	if (ep->userpwd)
	{
		curl_easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
		curl_easy_setopt(c, CURLOPT_USERPWD, ep->userpwd);
	}
	if (ep->cafile)
		curl_easy_setopt(c, CURLOPT_CAINFO, ep->cafile);
	headers = curl_slist_append(headers, "Accept: application/vnd.schemaregistry.v1+json, application/json");
	if (body)
	{
		headers = curl_slist_append(headers, "Content-Type: application/vnd.schemaregistry.v1+json");
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long) strlen(body));
	}
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	rc = curl_easy_perform(c);
	curl_slist_free_all(headers);
	if (rc != CURLE_OK)
	{
		if (buf->too_big || rc == CURLE_FILESIZE_EXCEEDED)
			snprintf(err, errlen, "%s %s: the answer is larger than %d bytes",
					 method, url, MIG_MAX_ANSWER);
		else
			snprintf(err, errlen, "%s %s: %s", method, url,
					 curl_err[0] ? curl_err : curl_easy_strerror(rc));
		return false;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	return true;
}

/*
 * method path (relative to the endpoint) with an optional JSON body:
 * *status the HTTP status, *answer the parsed JSON answer (NULL when not
 * JSON or empty; the caller owns it).  A transport error or a 5xx is
 * tried three times (every write the tool makes is idempotent); false on a
 * transport error, an oversized or an unparsable 2xx answer.
 */
bool
mig_http(MigEndpoint *ep, const char *method, const char *path,
		 json_t *body, long *status, json_t **answer,
		 char *err, size_t errlen)
{
	char	   *url = mig_printf("%s%s", ep->url, path);
	char	   *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
	bool		ok = false;
	int			attempt;

	*answer = NULL;
	*status = 0;
	for (attempt = 0; attempt < 3; attempt++)
	{
		MigBuffer	buf = {{0}};

		if (attempt > 0)
			usleep(200000 * attempt);
		ep->requests++;
		rg_buf_init(&buf.text);
		ok = mig_http_once(ep, method, url, text, status, &buf, err, errlen);
		if (ok && *status < 500)
		{
			json_error_t jerr;

			if (buf.text.len > 0)
				*answer = json_loadb(buf.text.data, buf.text.len, JSON_DECODE_ANY, &jerr);
			if (*answer == NULL && buf.text.len > 0 && *status >= 200 && *status < 300)
			{
				snprintf(err, errlen, "%s %s: the answer is not JSON (%s)",
						 method, url, jerr.text);
				ok = false;
			}
			rg_buf_free(&buf.text);
			break;
		}
		if (ok)
			snprintf(err, errlen, "%s %s: HTTP %ld: %.200s", method, url, *status,
					 buf.text.data ? buf.text.data : "");
		ok = false;
		rg_buf_free(&buf.text);
		if (buf.too_big)
			break;
	}
	free(url);
	free(text);
	return ok;
}
