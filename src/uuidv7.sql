\echo Use "CREATE EXTENSION uuidv7" to load this file. \quit

-- Every object of core PostgreSQL is named with its schema, so that look-alikes
-- created in the target schema are never picked up while this script runs.
