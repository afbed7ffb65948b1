/*-------------------------------------------------------------------------
 *
 * http_cache.h
 *	  The HTTP worker's caches of answers: GET /schemas/ids/{id}, and the
 *	  subject reads GET /subjects/{s}/versions/{v}[/schema] and POST
 *	  /subjects/{s} (lookup).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HTTP_CACHE_H
#define HTTP_CACHE_H

#include "lib/stringinfo.h"

#include "rest.h"

/* which cache a request's answer may come from */
typedef enum HttpCacheClass
{
	HTTP_CACHE_NONE = 0,		/* none: not cacheable */
	HTTP_CACHE_SCHEMA,			/* schema content by id */
	HTTP_CACHE_SUBJECT			/* a subject's versions, a lookup */
} HttpCacheClass;

/* a cached answer, as stored and as found */
typedef struct HttpCachedAnswer
{
	const char *body;
	size_t		len;
	const char *content_type;
	int			route;			/* the route that made it */
	RegistryRead read;			/* what it answered about (usage.h) */
} HttpCachedAnswer;

extern HttpCacheClass http_cache_key(const RestRequest *req, Oid role, StringInfo key);
extern bool http_cache_lookup(HttpCacheClass cls, const StringInfoData *key,
							  HttpCachedAnswer *answer);
extern void http_cache_store(HttpCacheClass cls, const StringInfoData *key,
							 const HttpCachedAnswer *answer, uint64 generation);
extern uint64 http_cache_generation(HttpCacheClass cls);
extern void http_cache_reset(void);

#endif							/* HTTP_CACHE_H */
