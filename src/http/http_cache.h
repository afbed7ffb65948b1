/*-------------------------------------------------------------------------
 *
 * http_cache.h
 *	  The HTTP worker's cache of GET /schemas/ids/{id} responses.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HTTP_CACHE_H
#define HTTP_CACHE_H

extern bool http_cache_key(const char *method, const char *path, const char *query,
						   char *key, size_t keylen);
extern bool http_cache_lookup(const char *key, const char **body, size_t *len);
extern void http_cache_store(const char *key, const char *body, size_t len,
							 uint64 generation);
extern uint64 http_cache_generation(void);

#endif							/* HTTP_CACHE_H */
