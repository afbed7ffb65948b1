/*
 * registry--0.6--0.7.sql: from 0.6 to 0.7.
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION registry UPDATE TO '0.7'" to load this file. \quit

-- issue 33, item 3 (a lookup of the exact text without a parse): whether a
-- schema's stored text is shown to be its own stored form when parsed
-- without references, without normalize (parses_to_itself) and with it
-- (normalizes_to_itself).  The insert trigger sets both from the parse that
-- made the row, never from what an insert says; a row stored before 0.7
-- has neither, and a lookup of its text is parsed as before.
ALTER TABLE registry.schemas
	ADD COLUMN parses_to_itself boolean NOT NULL DEFAULT false,
	ADD COLUMN normalizes_to_itself boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN registry.schemas.parses_to_itself IS 'the schema text, parsed without normalize or references, gives itself back as its stored form (set by the insert trigger)';
COMMENT ON COLUMN registry.schemas.normalizes_to_itself IS 'the same, parsed with normalize (set by the insert trigger)';
