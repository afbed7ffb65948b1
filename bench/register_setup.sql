-- bench/register_setup.sql: what the registration benchmarks (http_register.sh,
-- register_profile.sh) set up: register_tables.sql, and a "seed" subject
-- of 2,000 versions analyzed, so that the tables have real statistics.
\ir register_tables.sql
DO $$
BEGIN
  PERFORM registry.set_compatibility('NONE', 'seed');
  FOR k IN 1 .. 2000 LOOP
    PERFORM registry.register_schema('seed', bench.reg_schema('seed' || k));
  END LOOP;
END $$;
VACUUM ANALYZE;
