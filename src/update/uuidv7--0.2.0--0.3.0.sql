\echo Use "ALTER EXTENSION uuidv7 UPDATE TO '0.3.0'" to load this file. \quit

-- LEAKPROOF where a function raises no error for any input, as core marks
-- its own uuid functions, so that the planner may still use an index on
-- them under row-level security

ALTER FUNCTION @extschema@.uuidv7_timestamp(pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_unix_ms(pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_to_base32(pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_to_base32_grouped(pg_catalog.uuid) LEAKPROOF;

-- the compatibility versions of core's extraction functions, on servers
-- where this extension created them (a function of the user's by that name
-- is left alone)
DO $leakproof$
DECLARE
	fn pg_catalog.regprocedure;
BEGIN
	FOR fn IN
		SELECT d.objid::pg_catalog.regprocedure
		FROM pg_catalog.pg_depend d
		WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
			AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
			AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
												   WHERE e.extname OPERATOR(pg_catalog.=) 'uuidv7')
			AND d.deptype OPERATOR(pg_catalog.=) 'e'
			AND d.objid OPERATOR(pg_catalog.=) ANY (ARRAY[
				pg_catalog.to_regprocedure('@extschema@.uuid_extract_timestamp(pg_catalog.uuid)'),
				pg_catalog.to_regprocedure('@extschema@.uuid_extract_version(pg_catalog.uuid)')]::pg_catalog.oid[])
	LOOP
		EXECUTE pg_catalog.format('ALTER FUNCTION %s LEAKPROOF', fn);
	END LOOP;
END
$leakproof$;

-- The extension's helpers, which its own functions call and nobody else
-- needs to: a schema of their own, uuidv7_internal, out of the search path,
-- so that \df and the extension's schema show the API alone.  Each checks
-- what it relies on (the caller's ownership and locks, the state of the
-- tables it is given) and does nothing its caller could not do by hand:
-- the functions that call them run as their caller, who therefore has
-- USAGE on the schema.
--#object uuidv7_internal_schema

-- partitioning: one check of the parent for every partition function, one
-- creator at a time per parent, and the list of a parent's partitions

--#object uuidv7_internal.uuidv7_is_uuid_type
--#object uuidv7_internal.uuidv7_partitioned_parent

-- partition grids: a table's step, time zone and anchor, recorded (kept by
-- pg_dump) or read from its partitions, which every partition call follows

--#object uuidv7_internal.uuidv7_grid_start

--#object uuidv7_internal.uuidv7_grid_index

--#object uuidv7_internal.uuidv7_grid_periods

--#object uuidv7_internal.uuidv7_calendar_anchor

--#object uuidv7_internal.uuidv7_on_calendar

--#object uuidv7_internal.uuidv7_has_negative_part

--#object uuidv7_internal.uuidv7_partition_config_check

--#object uuidv7_partition_config

--#object uuidv7_internal.uuidv7_grid_misfit

--#object uuidv7_internal.uuidv7_read_grid

--#object uuidv7_internal.uuidv7_table_grid

--#object uuidv7_internal.uuidv7_call_grid

--#object uuidv7_internal.uuidv7_must_own

--#object uuidv7_internal.uuidv7_forget_dropped

--#object uuidv7_internal.uuidv7_rename_record

--#object uuidv7_internal.uuidv7_record_grid

--#object uuidv7_partition_grid

--#object uuidv7_set_partition_grid

--#object uuidv7_internal.uuidv7_period_ddl

-- (the SQL edition's periods are those of src/grid.sql)
--#object uuidv7_partition_bounds replace

--#object uuidv7_partition_ddl replace

-- uuidv7_create_partitions reports how many rows each period took from the
-- DEFAULT partition: a new OUT column, so the function is made anew
DROP FUNCTION @extschema@.uuidv7_create_partitions(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.timestamptz,
												 pg_catalog.interval, pg_catalog.text);

--#object uuidv7_internal.uuidv7_lock_for_upkeep

--#object uuidv7_internal.uuidv7_copy_waiting_rows

--#object uuidv7_internal.uuidv7_attach_period_decodable

--#object uuidv7_internal.uuidv7_attach_period

--#object uuidv7_internal.uuidv7_plan_span

--#object uuidv7_internal.uuidv7_make_period_table

--#object uuidv7_internal.uuidv7_attach_periods

--#object uuidv7_create_partitions

--#object uuidv7_partitions

--#object uuidv7_internal.uuidv7_referencing_rows

--#object uuidv7_internal.uuidv7_archive_target

--#object uuidv7_internal.uuidv7_retire_period

--#object uuidv7_internal.uuidv7_refuse_rows_before

--#object uuidv7_drop_partitions

--#object uuidv7_archive_partitions

--#object uuidv7_internal.uuidv7_forbid_transaction_block

--#object uuidv7_internal.uuidv7_adopt_publication_blockers
--#object uuidv7_internal.uuidv7_adopt_blockers

--#object uuidv7_internal.uuidv7_adopt_check

--#object uuidv7_internal.uuidv7_adopt_require_grid
--#object uuidv7_internal.uuidv7_adopt_unit
--#object uuidv7_internal.uuidv7_adopt_span

--#object uuidv7_internal.uuidv7_adopt_rename_indexes

--#object uuidv7_internal.uuidv7_adopt_carry_access

--#object uuidv7_internal.uuidv7_adopt_default_partition

--#object uuidv7_internal.uuidv7_adopt_swap

--#object uuidv7_internal.uuidv7_adopt_require_version7

--#object uuidv7_internal.uuidv7_adopt_carried

--#object uuidv7_internal.uuidv7_adopt_hand_over_sequence

--#object uuidv7_internal.uuidv7_adopt_hand_over_sequences

--#object uuidv7_internal.uuidv7_adopt_validate_foreign_keys

--#object uuidv7_adopt_table

-- progress: how far a long call of upkeep is

--#object uuidv7_internal.uuidv7_progress_step

--#object uuidv7_internal.uuidv7_progress

--#object uuidv7_progress_view

-- policies: periods kept ahead and retired by one call a table, run by one
-- entry point that records each run

--#object uuidv7_maintenance_history

--#object uuidv7_set_partition_policy

--#object uuidv7_internal.uuidv7_archive_name

--#object uuidv7_internal.uuidv7_archive_table

--#object uuidv7_internal.uuidv7_period_runs

--#object uuidv7_internal.uuidv7_periods_to_make

--#object uuidv7_internal.uuidv7_make_span

--#object uuidv7_internal.uuidv7_make_policy_periods

--#object uuidv7_internal.uuidv7_record_maintenance_step

--#object uuidv7_internal.uuidv7_maintain

--#object uuidv7_internal.uuidv7_maintain_as_owner

--#object uuidv7_internal.uuidv7_policy_tables

--#object uuidv7_internal.uuidv7_worker_interval

--#object uuidv7_run_maintenance

--#object uuidv7_policy_views

-- metrics for monitoring

--#object uuidv7_internal.uuidv7_default_rows

--#object uuidv7_internal.uuidv7_table_metrics

--#object uuidv7_metrics_view

-- the doctor: one function a check, and their union

--#object uuidv7_internal.uuidv7_oldest_default_row
--#object uuidv7_internal.uuidv7_doctor_partitions_ahead

--#object uuidv7_internal.uuidv7_doctor_default_rows

--#object uuidv7_internal.uuidv7_doctor_stopped_adoptions

--#object uuidv7_internal.uuidv7_doctor_not_valid_keys

--#object uuidv7_internal.uuidv7_doctor_statistics

--#object uuidv7_internal.uuidv7_doctor_time_ops

--#object uuidv7_internal.uuidv7_doctor_public_ids

--#object uuidv7_internal.uuidv7_doctor_policies

--#object uuidv7_internal.uuidv7_doctor_worker_databases

--#object uuidv7_internal.uuidv7_doctor_archive_pending

--#object uuidv7_internal.uuidv7_doctor_grids

--#object uuidv7_internal.uuidv7_doctor_citus

--#object uuidv7_doctor

--#object uuidv7_uuid_smaller

--#object uuidv7_uuid_larger

--#object minmax

-- time comparisons for every role: inlinable SQL operators

--#object uuidv7_first_not_before

--#object uuidv7_last_before

--#object uuidv7_last_not_after
--#if c

--#object uuidv7_internal.uuidv7_time_support
--#endif

--#object uuidv7_time_lt

--#object uuidv7_time_le

--#object uuidv7_time_ge

--#object uuidv7_time_gt

-- uuidv7_time_ops 0.2.0's operators, where it made them in this schema, move
-- into a schema of that extension's own, uuidv7_time_ops, where its 0.3.0
-- puts them when these names are taken: this extension then makes its own
-- here (below), which outlive a later DROP EXTENSION uuidv7_time_ops, as on
-- a fresh install.  Views and rules that use the moved ones keep them (they
-- refer to operators by oid), and they stay in PostgreSQL's operator
-- families, where uuidv7_time_ops_status() finds them by their functions.
DO $time_ops_aside$
DECLARE
	op pg_catalog.regoperator;
BEGIN
	FOR op IN
		SELECT o.oid::pg_catalog.regoperator
		FROM pg_catalog.pg_operator o
			JOIN pg_catalog.pg_depend d ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass
				AND d.objid OPERATOR(pg_catalog.=) o.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
			JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
				AND e.extname OPERATOR(pg_catalog.=) 'uuidv7_time_ops'
		WHERE o.oprnamespace OPERATOR(pg_catalog.=) '@extschema@'::pg_catalog.regnamespace
		ORDER BY o.oid
	LOOP
		IF pg_catalog.to_regnamespace('uuidv7_time_ops') IS NULL THEN
			CREATE SCHEMA uuidv7_time_ops;
			COMMENT ON SCHEMA uuidv7_time_ops IS
			'the operators of uuidv7_time_ops, where uuidv7''s own time comparisons take their names in the extension''s schema';
			GRANT USAGE ON SCHEMA uuidv7_time_ops TO PUBLIC;
			-- (the schema is uuidv7_time_ops's, dropped with it)
			ALTER EXTENSION uuidv7 DROP SCHEMA uuidv7_time_ops;
			ALTER EXTENSION uuidv7_time_ops ADD SCHEMA uuidv7_time_ops;
		END IF;
		EXECUTE pg_catalog.format('ALTER OPERATOR %s SET SCHEMA uuidv7_time_ops', op);
	END LOOP;
END
$time_ops_aside$;

--#object time_operators

-- public ids

--#object uuidv7_to_public

--#object uuidv7_from_public

--#object uuidv7_from_public_all

--#object uuidv7_public_id_state
