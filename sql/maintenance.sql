-- maintenance runs a table's policy as the table's owner (C edition): its
-- triggers never get the rights of the role that runs maintenance (a
-- superuser's, a scheduler's), and cannot SET ROLE back to it
SET client_min_messages = warning;
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
-- (the periods below are counted from now(), in statements apart: begin
-- after a day that ends within a minute, so that none turns meanwhile)
DO $$ BEGIN PERFORM pg_sleep(extract(epoch FROM t - clock_timestamp())) FROM date_trunc('day', clock_timestamp() + interval '1 minute', 'UTC') AS t WHERE t > clock_timestamp(); END $$;
CREATE ROLE regress_maint_owner;
CREATE SCHEMA maint AUTHORIZATION regress_maint_owner;
CREATE TABLE maint.audit (who text, superuser bool, role_back text, escalation text);
ALTER TABLE maint.audit OWNER TO regress_maint_owner;
SET ROLE regress_maint_owner;
CREATE TABLE maint.t (id uuid PRIMARY KEY, v text) PARTITION BY RANGE (id);
-- (a partitioned DEFAULT: its waiting rows move by DELETE and INSERT, which fire triggers)
CREATE TABLE maint.t_default PARTITION OF maint.t DEFAULT PARTITION BY HASH (id);
CREATE TABLE maint.t_default0 PARTITION OF maint.t_default FOR VALUES WITH (MODULUS 1, REMAINDER 0);
CREATE FUNCTION maint.note() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE back text; escalation text := 'done';
BEGIN
	BEGIN
		RESET ROLE;
		back := current_user;
	EXCEPTION WHEN OTHERS THEN
		back := SQLERRM;
	END;
	BEGIN
		ALTER ROLE regress_maint_owner SUPERUSER;
	EXCEPTION WHEN OTHERS THEN
		escalation := SQLSTATE;
	END;
	INSERT INTO maint.audit VALUES (current_user, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user), back, escalation);
	RETURN NEW;
END $$;
INSERT INTO maint.t VALUES (uuidv7_generate_at(now() + interval '2 days'), 'waiting');
CREATE TRIGGER note AFTER INSERT ON maint.t FOR EACH ROW EXECUTE FUNCTION maint.note();
RESET ROLE;
-- a policy given by a superuser makes its periods at once: the row moves,
-- the trigger runs as the owner; then a run by a superuser has nothing to do
SELECT current_setting('is_superuser') AS caller_is_superuser;
SELECT uuidv7_set_partition_policy('maint.t', ahead => '3 days', step => '1 day', zone => 'UTC');
CALL uuidv7_run_maintenance();
SELECT parent, created > 0 AS created, moved, error FROM uuidv7_maintenance_runs WHERE parent = 'maint.t' ORDER BY started_at;
SELECT who, superuser, role_back, escalation FROM maint.audit;
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_maint_owner';
SELECT count(*) AS in_default FROM maint.t_default;

-- a table dropped between the listing and its turn: skipped, the run goes on
SELECT uuidv7_internal.uuidv7_maintain_as_owner(0, '1 minute', 'create', now()) IS NULL AS skipped;

DROP SCHEMA maint CASCADE;
DELETE FROM uuidv7_maintenance_history WHERE NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = parent_oid);
DELETE FROM uuidv7_partition_config WHERE NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = parent_oid);
DROP ROLE regress_maint_owner;
