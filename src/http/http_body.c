/*-------------------------------------------------------------------------
 *
 * http_body.c
 *	  Request bodies: gathered whole, and bounded per request and for the
 *	  worker.
 *
 * A body is read into malloc'd memory before its request is served.  One
 * body may hold at most registry.http_max_body_size bytes, and all the
 * bodies pending in the worker together at most
 * registry.http_max_body_memory, so that many slow uploads cannot
 * exhaust the process.  A declared body over either bound is refused
 * before it is read (413 or 503, and the connection is closed); a chunked
 * body that grows over one is read on, dropped, and refused once whole.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <microhttpd.h>

#include "http.h"
#include "http_internal.h"

/* bytes of registry.http_max_body_memory the pending bodies hold */
static size_t body_memory_used = 0;

/* the body's share of the worker's registry.http_max_body_memory */
static bool
reserve_body_memory(HttpRequest *hr, size_t bytes)
{
	if (bytes <= hr->reserved)
		return true;
	if (body_memory_used + (bytes - hr->reserved) > (size_t) registry_http_max_body_memory)
		return false;
	body_memory_used += bytes - hr->reserved;
	hr->reserved = bytes;
	return true;
}

/* free the body and give its memory back to the worker's budget */
void
http_body_release(HttpRequest *hr)
{
	free(hr->body);
	hr->body = NULL;
	hr->len = hr->cap = 0;
	body_memory_used -= hr->reserved;
	hr->reserved = 0;
}

/* 413: the body is over registry.http_max_body_size */
static enum MHD_Result
answer_too_large(struct MHD_Connection *conn, HttpConn *hc, bool close)
{
	char	   *msg = psprintf("Request body is larger than registry.http_max_body_size (%d bytes)",
							   registry_http_max_body_size);
	enum MHD_Result ret = http_answer_error(conn, hc, 413, 413, msg, close);

	pfree(msg);
	return ret;
}

/* 503: the worker's body memory cannot hold the body */
static enum MHD_Result
answer_memory_full(struct MHD_Connection *conn, HttpConn *hc, bool close)
{
	return http_answer_error(conn, hc, 503, 503,
							 "Too many request bodies are pending in this worker; retry later",
							 close);
}

/*
 * Before any of the body is read: refuse a declared body over
 * registry.http_max_body_size, or one that the worker's body memory
 * cannot hold, and close the connection (the body will not be read).
 */
enum MHD_Result
http_body_check_declared(struct MHD_Connection *conn, HttpRequest *hr)
{
	const char *cl;

	cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (cl)
		hr->declared = (size_t) strtoull(cl, NULL, 10);
	if (hr->declared > (size_t) registry_http_max_body_size)
		return answer_too_large(conn, hr->hc, true);
	if (hr->declared > 0 && !reserve_body_memory(hr, hr->declared + 1))
		return answer_memory_full(conn, hr->hc, true);
	return MHD_YES;
}

/*
 * Make room for n more bytes and the NUL; false when the worker's body
 * memory cannot hold them, or (*failed) when malloc has none.
 */
static bool
grow_body(HttpRequest *hr, size_t n, bool *failed)
{
	size_t		cap = hr->cap ? hr->cap : 4096;
	char	   *b;

	while (cap < hr->len + n + 1)
		cap *= 2;
	if (hr->declared > 0 && cap > hr->declared + 1)
		cap = Max(hr->declared + 1, hr->len + n + 1);
	if (!reserve_body_memory(hr, cap))
		return false;
	b = realloc(hr->body, cap);
	if (b == NULL)
	{
		*failed = true;
		return false;
	}
	hr->body = b;
	hr->cap = cap;
	return true;
}

/*
 * Add a piece of the body.  A chunked body over the size limit, or over
 * what the worker's body memory can still hold, is read on but dropped,
 * and refused once it has been read.  False: out of memory.
 */
bool
http_body_append(HttpRequest *hr, const char *data, size_t n)
{
	bool		failed = false;

	if (!hr->too_large && !hr->over_memory &&
		hr->len + n > (size_t) registry_http_max_body_size)
	{
		hr->too_large = true;
		http_body_release(hr);
	}
	if (hr->too_large || hr->over_memory)
		return true;
	if (hr->len + n + 1 > hr->cap && !grow_body(hr, n, &failed))
	{
		if (failed)
			return false;
		hr->over_memory = true;
		http_body_release(hr);
		return true;
	}
	memcpy(hr->body + hr->len, data, n);
	hr->len += n;
	hr->body[hr->len] = '\0';
	return true;
}

/* the body was dropped (too large, or no memory): refuse the request */
enum MHD_Result
http_body_refuse_dropped(struct MHD_Connection *conn, HttpRequest *hr)
{
	if (hr->too_large)
		return answer_too_large(conn, hr->hc, false);
	return answer_memory_full(conn, hr->hc, false);
}
