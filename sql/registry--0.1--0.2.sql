/*
 * registry--0.1--0.2.sql: from 0.1 to 0.2.
 *
 * Every change to registry--0.2.sql is made here too, so that ALTER
 * EXTENSION registry UPDATE gives the catalog a fresh 0.2 install has
 * (test/tap/t/090_upgrade.pl compares their pg_dump --schema-only).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.2'" to load this file. \quit
