-- Helpers shared by the regression tests (they run in order, in one database).
CREATE SCHEMA regress;
-- run a statement; 'ok', or its SQLSTATE, message and detail
CREATE FUNCTION regress.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE d text;
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || SQLERRM || COALESCE(E'\n  detail: ' || NULLIF(d, ''), '');
END $$;
-- row counts of the registry's tables, to show that a refused request changed nothing
CREATE FUNCTION regress.counts() RETURNS text LANGUAGE sql AS $$
	SELECT format('schemas=%s subjects=%s versions=%s refs=%s',
		(SELECT count(*) FROM registry.schemas), (SELECT count(*) FROM registry.subjects),
		(SELECT count(*) FROM registry.subject_versions), (SELECT count(*) FROM registry.schema_references))
$$;
-- registry.rest() with the registration times in its answer ("ts":<ms>) shown as "ts":"TS"
CREATE FUNCTION regress.rest(method text, path text, query text DEFAULT NULL, body text DEFAULT NULL,
	content_type text DEFAULT NULL, accept text DEFAULT NULL, OUT status integer, OUT response text)
	LANGUAGE sql AS $$
	SELECT r.status, regexp_replace(r.response, '"ts":[0-9]{13}([,}])', '"ts":"TS"\1', 'g')
	  FROM registry.rest(method, path, query, body, content_type, accept) r
$$;
-- index scans of registry.schemas and registry.subject_versions between
-- regress.scans_mark() and regress.scans_since(), from the statistics: a
-- transaction's counts reach them when it ends, so each of the two follows
-- a statement of its own calling pg_stat_force_next_flush()
CREATE TABLE regress.scan_mark (indexrelname name, idx_scan bigint);
CREATE FUNCTION regress.scans_mark() RETURNS void LANGUAGE sql AS $$
	SELECT pg_stat_clear_snapshot();
	DELETE FROM regress.scan_mark;
	INSERT INTO regress.scan_mark
		SELECT indexrelname, idx_scan FROM pg_stat_user_indexes WHERE schemaname = 'registry';
$$;
CREATE FUNCTION regress.scans_since(tables name[] DEFAULT ARRAY['schemas', 'subject_versions'])
	RETURNS TABLE (indexrelname name, scans bigint) LANGUAGE sql AS $$
	SELECT pg_stat_clear_snapshot();
	SELECT i.indexrelname, i.idx_scan - m.idx_scan
	  FROM pg_stat_user_indexes i JOIN regress.scan_mark m USING (indexrelname)
	 WHERE i.schemaname = 'registry' AND i.relname = ANY (tables)
	   AND i.idx_scan <> m.idx_scan ORDER BY 1;
$$;
SELECT regress.try('SELECT 1'), regress.try('SELECT 1/0');
