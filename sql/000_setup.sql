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
SELECT regress.try('SELECT 1'), regress.try('SELECT 1/0');
