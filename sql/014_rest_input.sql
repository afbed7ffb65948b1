-- Input at the REST edge that must be refused before routing, with nothing
-- stored: a percent-decoded NUL in a path segment (it would cut the subject
-- name short) or in a query parameter.
SELECT regress.counts() AS before \gset
SELECT status, response FROM regress.rest('POST', '/subjects/nul%00cut/versions', NULL,
	'{"schema":"\"int\""}', 'application/vnd.schemaregistry.v1+json');
SELECT status, response FROM regress.rest('POST', '/subjects/nul%00/versions', NULL,
	'{"schema":"\"int\""}', 'application/vnd.schemaregistry.v1+json');
SELECT status, response FROM regress.rest('GET', '/subjects/nul%00cut/versions/latest');
SELECT status, response FROM regress.rest('GET', '/schemas/ids/1%00');
SELECT status, response FROM regress.rest('GET', '/subjects', 'deleted=true%00');
SELECT status, response FROM regress.rest('GET', '/subjects', 'subject%00Prefix=x');
SELECT regress.counts() = :'before' AS nothing_changed;
SELECT count(*) AS subjects_named_nul FROM registry.subjects WHERE subject LIKE 'nul%';
-- %2F and other escapes still decode
SELECT status FROM regress.rest('POST', '/subjects/nul%2Fok/versions', NULL,
	'{"schema":"\"int\""}', 'application/vnd.schemaregistry.v1+json');
SELECT subject FROM registry.subjects WHERE subject LIKE 'nul%';
