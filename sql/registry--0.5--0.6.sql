/*
 * registry--0.5--0.6.sql: from 0.5 to 0.6.
 *
 * Every change to registry--0.6.sql is made here too
 * (test/tap/t/090_upgrade.pl compares the two catalogs).
 */

\echo Use "ALTER EXTENSION registry UPDATE TO '0.6'" to load this file. \quit
