\echo Use "ALTER EXTENSION uuidv7_time_ops UPDATE TO '0.3.0'" to load this file. \quit

-- LEAKPROOF, as core's uuid comparisons: the comparison functions behind the
-- operators and the btree support raise no error for any input, so that
-- under row-level security the planner may still use them as index
-- conditions

ALTER FUNCTION @extschema@.uuidv7_lt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_le_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_ge_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_gt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_lt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_le_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_gt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_ge_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_cmp_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_cmp_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
