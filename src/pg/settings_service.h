/*-------------------------------------------------------------------------
 *
 * settings_service.h
 *	  Confluent's config and mode operations, for the REST routes and the
 *	  SQL functions alike (settings_service.c).  A scope is named as
 *	  Confluent names it: NULL global, ":.ctx:" a context, else a subject.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SETTINGS_SERVICE_H
#define SETTINGS_SERVICE_H

extern char *registry_get_config(const char *named, bool default_to_global);
extern char *registry_set_config(const char *named, const char *request, char **stored);
extern char *registry_delete_config(const char *named);
extern const char *registry_get_compatibility(const char *named, bool default_to_global);
extern const char *registry_set_compatibility(const char *level, const char *named);
extern const char *registry_delete_compatibility(const char *named);
extern const char *registry_get_mode(const char *named, bool default_to_global);
extern const char *registry_set_mode(const char *mode, const char *named, bool force);
extern const char *registry_delete_mode(const char *named, bool recursive);

#endif							/* SETTINGS_SERVICE_H */
