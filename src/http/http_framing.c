/*-------------------------------------------------------------------------
 *
 * http_framing.c
 *	  Checks of a request head's framing, before any of its body is read.
 *
 * A head whose framing two parsers could read differently (a proxy in
 * front and this worker) could smuggle a second request inside the first,
 * so such heads are refused as RFC 9112 requires: a NUL byte in the
 * target, HTTP/1.1 without exactly one Host, differing Content-Lengths,
 * Content-Length with Transfer-Encoding, or a transfer coding other than
 * chunked.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <microhttpd.h>

#include "http_internal.h"

/* what the request head says about its framing */
typedef struct HeadScan
{
	int			hosts;
	int			content_lengths;
	const char *content_length;
	bool		content_lengths_differ;
	int			transfer_encodings;
	const char *transfer_encoding;
} HeadScan;

/* header iterator: count Host, Content-Length and Transfer-Encoding */
static enum MHD_Result
scan_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	HeadScan   *hs = (HeadScan *) cls;

	if (key == NULL)
		return MHD_YES;
	if (value == NULL)
		value = "";
	if (pg_strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0)
		hs->hosts++;
	else if (pg_strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
	{
		if (hs->content_lengths++ == 0)
			hs->content_length = value;
		else if (strcmp(value, hs->content_length) != 0)
			hs->content_lengths_differ = true;
	}
	else if (pg_strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0)
	{
		hs->transfer_encodings++;
		hs->transfer_encoding = value;
	}
	return MHD_YES;
}

/* where the query arguments lie in the parsed request line */
typedef struct ArgumentSpan
{
	const char *first;			/* where the first argument starts */
	const char *end;			/* where the last one ends */
} ArgumentSpan;

/* argument iterator: where the query arguments start and end */
static enum MHD_Result
argument_span(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	ArgumentSpan *span = (ArgumentSpan *) cls;
	const char *end = value ? value + strlen(value) : key + strlen(key);

	if (span->first == NULL || key < span->first)
		span->first = key;
	if (span->end == NULL || end > span->end)
		span->end = end;
	return MHD_YES;
}

/*
 * Did the request target hold a NUL byte?  libmicrohttpd 0.9.75 parses the
 * request line in place: the target runs from url to the '\0' just before
 * version, the path ends at its first '\0' (the '?' or a NUL byte), and
 * the query arguments, their separators turned to '\0' (our unescape
 * callback keeps their lengths), fill the rest.  So a NUL byte shows as
 * bytes not accounted for by the path and the arguments.  Where the
 * strings do not lie that way there is nothing to check.
 */
static bool
target_has_nul(struct MHD_Connection *conn, const char *url, const char *version)
{
	size_t		path_len = strlen(url);
	const char *end;
	ArgumentSpan span = {NULL, NULL};

	if (version == NULL || version <= url + path_len || version - url > 1024 * 1024)
		return false;
	end = version - 1;
	MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, argument_span, &span);
	if (span.first == NULL)
		return (size_t) (end - url) > path_len + 1;
	if (span.first < url || span.end > end)
		return false;
	return span.first != url + path_len + 1 || span.end != end;
}

/*
 * Refuse a head whose framing is ambiguous, as RFC 9112 requires (the
 * status in *status, the reason as the result), or NULL when it is sound:
 * a NUL byte in the target, HTTP/1.1 without exactly one Host, differing
 * Content-Lengths, Content-Length with Transfer-Encoding, or a transfer
 * coding other than chunked (501).
 */
const char *
http_framing_error(struct MHD_Connection *conn, const char *url, const char *version,
				   int *status)
{
	HeadScan	hs;
	bool		http11 = version && strcmp(version, MHD_HTTP_VERSION_1_1) == 0;

	memset(&hs, 0, sizeof(hs));
	MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_header, &hs);
	*status = 400;
	if (target_has_nul(conn, url, version))
		return "Bad request: NUL byte or empty query parameter in the request target";
	if (http11 && hs.hosts == 0)
		return "Bad request: HTTP/1.1 request without a Host header";
	if (hs.hosts > 1)
		return "Bad request: more than one Host header";
	if (hs.content_lengths_differ)
		return "Bad request: Content-Length headers that differ";
	if (hs.transfer_encodings > 0 && hs.content_lengths > 0)
		return "Bad request: both Content-Length and Transfer-Encoding";
	if (hs.transfer_encodings > 0 && !http11)
		return "Bad request: Transfer-Encoding in an HTTP/1.0 request";
	if (hs.transfer_encodings > 1 || (hs.transfer_encodings == 1 &&
									  pg_strcasecmp(hs.transfer_encoding, "chunked") != 0))
	{
		*status = 501;
		return "Transfer-Encoding other than chunked is not implemented";
	}
	return NULL;
}
