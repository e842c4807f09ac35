-- adoption of a live table

-- Raise 25001 inside a transaction block, with a hint, for the procedures
-- that commit between their steps (their own COMMIT would fail there with a
-- message that does not say what to do)
CREATE FUNCTION uuidv7_internal.uuidv7_forbid_transaction_block(procedure_name pg_catalog.text) RETURNS void
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_forbid_transaction_block'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
--#else
-- (SQL cannot ask whether a transaction block is open.  A CALL outside one
-- is a transaction of its own, begun with the statement; in one, the
-- transaction began with an earlier statement.  A block sent in the same
-- query string as the CALL goes unseen: the procedure's first COMMIT then
-- fails with 2D000, having changed nothing.)
LANGUAGE plpgsql VOLATILE STRICT PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
	IF transaction_timestamp() <> statement_timestamp() THEN
		RAISE EXCEPTION '% cannot run inside a transaction block', procedure_name
			USING ERRCODE = 'active_sql_transaction',
				  HINT = 'It commits between its steps: CALL it on its own, outside BEGIN and COMMIT '
						 '(in a migration tool, in a migration marked as not transactional).';
	END IF;
END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_internal.uuidv7_forbid_transaction_block(pg_catalog.text) IS
'raise 25001 if called inside a transaction block (used by the procedures that commit between their steps)';

-- Adopting a live table keyed by UUIDv7: turning it into a table
-- range-partitioned on that key, of the same name, without rewriting its
-- rows.  The table itself becomes the partition of the periods its rows fall
-- in, up to the end of the current one, and the next periods are made ahead.
-- The procedure uuidv7_adopt_table runs the steps below and commits between
-- them: the scans (keys that are not version 7, the CHECK of the v7 rule for
-- a plain uuid key, the CHECK of the bounds that spares ATTACH a scan) run
-- under SHARE UPDATE EXCLUSIVE, beside reads and writes, and ACCESS EXCLUSIVE
-- is held only for the catalog swap.

-- The publications that keep a table from adoption on PostgreSQL 15 and
-- later: those that publish some of its rows or columns only, or its
-- schema's tables under the partitions' names; NULL if none.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_publication_blockers(tbl pg_catalog.regclass)
RETURNS pg_catalog.text
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	published text;
BEGIN
	IF current_setting('server_version_num')::int < 150000 THEN
		RETURN NULL;
	END IF;
	EXECUTE 'SELECT string_agg(what, ''; '' ORDER BY what) FROM (
			 SELECT format(''publication %I (a row filter or a column list)'', p.pubname) AS what
			 FROM pg_publication_rel r JOIN pg_publication p ON p.oid = r.prpubid
			 WHERE r.prrelid = $1 AND (r.prqual IS NOT NULL OR r.prattrs IS NOT NULL)
			 UNION
			 SELECT format(''publication %I (publish_via_partition_root = false)'', p.pubname)
			 FROM pg_publication_namespace n JOIN pg_publication p ON p.oid = n.pnpubid
			 WHERE NOT p.pubviaroot AND n.pnnspid = (SELECT relnamespace FROM pg_class WHERE oid = $1)) w'
		INTO published USING tbl;
	RETURN published;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_publication_blockers(pg_catalog.regclass) IS
'the publications that keep a table from adoption by uuidv7_adopt_table on PostgreSQL 15 and later (a row filter or a column list, or its schema published under the partitions'' names), named, or NULL (used by uuidv7_adopt_blockers)';

-- What of adoption's refusal rules a table breaks: the objects that point
-- at it and cannot follow it to the partitioned table (uuidv7_adopt_swap
-- carries views, triggers, foreign keys either way, owned sequences,
-- publications and the replica identity), each named, '; '-separated;
-- NULL where there are none.  rule_name is the adoption's own CHECK of
-- version 7, which a stopped call leaves.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_blockers(tbl pg_catalog.regclass, rule_name pg_catalog.text)
RETURNS pg_catalog.text
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	blockers text;
BEGIN
	SELECT string_agg(what, '; ' ORDER BY what) INTO blockers FROM (
		-- a materialized view holds rows read from the table, and a rule of
		-- another relation cannot be written again here
		SELECT format('%s %s', CASE v.relkind WHEN 'm' THEN 'materialized view' ELSE 'rule ' || quote_ident(r.rulename) || ' of' END,
					  v.oid::regclass) AS what
		FROM pg_depend d
			JOIN pg_rewrite r ON r.oid = d.objid
			JOIN pg_class v ON v.oid = r.ev_class
		WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass AND d.refobjid = tbl
			AND v.oid <> tbl AND (v.relkind = 'm' OR (v.relkind = 'v' AND r.rulename <> '_RETURN') OR v.relkind NOT IN ('v', 'm'))
		UNION
		-- a view the caller may not replace
		SELECT format('view %s (owned by %s)', v.oid::regclass, pg_get_userbyid(v.relowner))
		FROM pg_depend d
			JOIN pg_rewrite r ON r.oid = d.objid
			JOIN pg_class v ON v.oid = r.ev_class
		WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass AND d.refobjid = tbl
			AND v.relkind = 'v' AND r.rulename = '_RETURN' AND NOT pg_has_role(v.relowner, 'USAGE')
		UNION
		-- a foreign key of another role's table, which the swap must drop and
		-- make again
		SELECT format('foreign key %I of %s (owned by %s)', c.conname, c.conrelid::regclass, pg_get_userbyid(r.relowner))
		FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
		WHERE c.contype = 'f' AND c.confrelid = tbl AND c.conparentid = 0 AND NOT pg_has_role(r.relowner, 'USAGE')
		UNION
		-- rules of the table itself
		SELECT format('rule %I of %s', r.rulename, tbl) FROM pg_rewrite r WHERE r.ev_class = tbl
		UNION
		-- functions whose SQL body names it, and policies of other tables
		SELECT format('function %s (its SQL body)', d.objid::regprocedure)
		FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_class'::regclass AND d.refobjid = tbl
		UNION
		SELECT format('policy %I of %s', p.polname, p.polrelid::regclass)
		FROM pg_depend d JOIN pg_policy p ON p.oid = d.objid
		WHERE d.classid = 'pg_policy'::regclass AND d.refclassid = 'pg_class'::regclass AND d.refobjid = tbl
			AND p.polrelid <> tbl
		UNION
		-- a row trigger with transition tables, which a partitioned table
		-- cannot have
		SELECT format('trigger %I of %s (a row trigger with transition tables)', t.tgname, tbl)
		FROM pg_trigger t
		WHERE t.tgrelid = tbl AND NOT t.tgisinternal AND (t.tgtype & 1) = 1
			AND (t.tgoldtable IS NOT NULL OR t.tgnewtable IS NOT NULL)
		UNION
		-- a foreign key of the table to itself: re-made on the partitioned
		-- table, it would be validated by a scan under the swap's lock
		SELECT format('foreign key %I of %s, to itself', c.conname, tbl)
		FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = tbl AND c.confrelid = tbl
		UNION
		-- a foreign key of a partitioned table to it: PostgreSQL before 18
		-- cannot add one NOT VALID, to validate it beside writers
		SELECT format('foreign key %I of %s (a partitioned table)', c.conname, c.conrelid::regclass)
		FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
		WHERE c.contype = 'f' AND c.confrelid = tbl AND c.conrelid <> tbl AND c.conparentid = 0
			AND r.relkind = 'p' AND current_setting('server_version_num')::int < 180000
		UNION
		-- a NOT VALID foreign key of its own: PostgreSQL before 18 cannot add
		-- one to a partitioned table
		SELECT format('foreign key %I of %s (NOT VALID)', c.conname, tbl)
		FROM pg_constraint c
		WHERE c.contype = 'f' AND c.conrelid = tbl AND NOT c.convalidated
			AND current_setting('server_version_num')::int < 180000
		UNION
		-- a CHECK constraint NO INHERIT, which a partitioned table cannot have,
		-- one NOT VALID, which its partition would have to match, and one of
		-- the whole row, which PostgreSQL cannot carry over to another table
		SELECT format('check constraint %I of %s (%s)', c.conname, tbl,
					  CASE WHEN c.connoinherit THEN 'NO INHERIT' WHEN NOT c.convalidated THEN 'NOT VALID'
						   ELSE 'of the whole row' END)
		FROM pg_constraint c
		WHERE c.contype = 'c' AND c.conrelid = tbl
			-- (not the adoption's own, which a stopped call left NOT VALID)
			AND c.conname <> 'uuidv7_adopt_bounds' AND c.conname <> rule_name
			AND (c.connoinherit OR NOT c.convalidated
				 OR EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_constraint'::regclass AND d.objid = c.oid
							AND d.refclassid = 'pg_class'::regclass AND d.refobjid = tbl AND d.refobjsubid = 0))
		UNION
		-- row security forced on its owner: the span would be read from the
		-- rows the policies show, and the bounds checked against them all
		SELECT format('forced row security of %s', tbl)
		FROM pg_class c WHERE c.oid = tbl AND c.relrowsecurity AND c.relforcerowsecurity
		UNION
		-- what uses its row type (a column, a view's column, a function),
		-- which would go on naming the adopted table's
		SELECT format('%s (of type %s)', pg_describe_object(d.classid, d.objid, d.objsubid), format_type(t.oid, NULL))
		FROM pg_depend d JOIN pg_type t ON t.oid = d.refobjid
		WHERE d.refclassid = 'pg_type'::regclass AND d.deptype = 'n'
			AND t.oid IN (SELECT c.reltype FROM pg_class c WHERE c.oid = tbl
						  UNION SELECT ty.typarray FROM pg_class c JOIN pg_type ty ON ty.oid = c.reltype WHERE c.oid = tbl)
		UNION
		-- a publication that publishes changes under the partitions' names:
		-- its subscribers would get them under the adopted table's
		SELECT format('publication %I (publish_via_partition_root = false)', p.pubname)
		FROM pg_publication p
		WHERE NOT p.pubviaroot
			AND (p.puballtables OR EXISTS (SELECT FROM pg_publication_rel r WHERE r.prpubid = p.oid AND r.prrelid = tbl))
		UNION
		-- a replica identity on an index of its own
		SELECT format('replica identity of %s (an index: %s)', tbl, i.indexrelid::regclass)
		FROM pg_index i WHERE i.indrelid = tbl AND i.indisreplident
	) refused;
	RETURN nullif(concat_ws('; ', blockers, uuidv7_internal.uuidv7_adopt_publication_blockers(tbl)), '');
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_blockers(pg_catalog.regclass, pg_catalog.text) IS
'what keeps a table from adoption by uuidv7_adopt_table: the objects that point at it and cannot follow it to a partitioned table, named, or NULL (used by uuidv7_adopt_check)';

-- Step 1: what the table is checked for before anything changes, and what
-- the other steps need to know of it.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_check(tbl pg_catalog.regclass,
								   OUT table_name pg_catalog.name,
								   OUT key_column pg_catalog.name,
								   OUT plain_uuid pg_catalog.bool)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	rule_name text;
	schema_name name;
	relkind "char";
	key_type oid;
	kept_name text;
BEGIN
	SELECT n.nspname, c.relname, c.relkind INTO schema_name, table_name, relkind
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = tbl;
	IF relkind <> 'r' OR EXISTS (SELECT FROM pg_inherits WHERE inhrelid = tbl OR inhparent = tbl) THEN
		RAISE EXCEPTION 'table "%" is not a plain table', table_name
			USING ERRCODE = 'wrong_object_type',
				  DETAIL = 'Only a table that is neither partitioned nor a partition nor in an inheritance tree can be adopted.';
	END IF;
	SELECT a.attname, a.atttypid INTO key_column, key_type
	FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
	WHERE i.indrelid = tbl AND i.indisprimary AND i.indnatts = 1;
	plain_uuid := key_type = 'pg_catalog.uuid'::regtype;
	WHILE key_type IS NOT NULL AND key_type <> 'pg_catalog.uuid'::regtype LOOP
		SELECT nullif(typbasetype, 0) INTO key_type FROM pg_type WHERE oid = key_type;
	END LOOP;
	IF key_type IS NULL THEN
		RAISE EXCEPTION 'table "%" has no primary key of a single uuid column', table_name
			USING ERRCODE = 'wrong_object_type',
				  HINT = 'A table keyed by bigserial or by version 4 UUIDs takes UUIDv7 keys first: see "From bigserial or version 4 keys" in docs/migrating.md.';
	END IF;
	-- (the partitioned table would number its rows anew: an identity column
	-- becomes a column with a sequence default of its own first)
	SELECT a.attname INTO kept_name FROM pg_attribute a
	WHERE a.attrelid = tbl AND a.attidentity <> '' AND NOT a.attisdropped ORDER BY a.attnum LIMIT 1;
	IF kept_name IS NOT NULL THEN
		RAISE EXCEPTION 'table "%" has an identity column', table_name
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = format('Column %I is an identity column.', kept_name),
				  HINT = format('Give it a sequence of its own first (DROP IDENTITY drops the identity''s sequence): '
								'CREATE SEQUENCE %1$s; SELECT setval(%2$L, (SELECT max(%3$I) FROM %4$s)); '
								'ALTER TABLE %4$s ALTER COLUMN %3$I DROP IDENTITY, ALTER COLUMN %3$I SET DEFAULT nextval(%2$L); '
								'ALTER SEQUENCE %1$s OWNED BY %4$s.%3$I;',
								format('%I.%I', schema_name, left(table_name || '_' || kept_name, 52) || '_serial_seq'),
								format('%I.%I', schema_name, left(table_name || '_' || kept_name, 52) || '_serial_seq'),
								kept_name, tbl);
	END IF;
	IF (SELECT c.reloftype <> 0 OR c.relpersistence = 't' FROM pg_class c WHERE c.oid = tbl) THEN
		RAISE EXCEPTION 'table "%" is a typed or temporary table', table_name
			USING ERRCODE = 'wrong_object_type',
				  DETAIL = 'Such a table cannot be a partition.';
	END IF;
	-- a partitioned table's unique indexes must hold its key, and (before
	-- PostgreSQL 17) it can have no exclusion constraint: refused here, before
	-- anything changes, rather than by the swap, after the bounds are set
	SELECT string_agg(format('%I', c.relname), ', ' ORDER BY c.relname) INTO kept_name
	FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid
		JOIN pg_attribute a ON a.attrelid = tbl AND a.attname = key_column
	WHERE i.indrelid = tbl AND NOT i.indisprimary AND (i.indisunique OR i.indisexclusion)
		AND (i.indisexclusion OR i.indpred IS NOT NULL OR i.indexprs IS NOT NULL
			 OR NOT a.attnum = ANY ((i.indkey::int2[])[0:i.indnkeyatts - 1]));
	IF kept_name IS NOT NULL THEN
		RAISE EXCEPTION 'table "%" has unique or exclusion indexes that a table partitioned on "%" cannot have', table_name, key_column
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = format('Indexes: %s.', kept_name),
				  HINT = format('A unique index of a partitioned table must hold its partition key "%s" as a column, with no predicate or expression; an exclusion constraint is not supported. Add the key to them, or drop them, first.', key_column);
	END IF;
	-- (the name of the CHECK of version 7 adoption gives a plain uuid key:
	-- uuidv7_adopt_table's)
	rule_name := table_name || '_uuidv7_key';
	WHILE octet_length(rule_name) > 63 LOOP
		rule_name := left(rule_name, -1);
	END LOOP;

	-- what points at the table follows it to the partitioned table
	-- (uuidv7_adopt_swap): views, triggers, foreign keys either way, owned
	-- sequences, publications, the replica identity.  What cannot is
	-- refused here, before anything changes, each object named.
	kept_name := uuidv7_internal.uuidv7_adopt_blockers(tbl, rule_name);
	IF kept_name IS NOT NULL THEN
		RAISE EXCEPTION 'table "%" has objects that cannot follow it to a partitioned table', table_name
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = format('%s.', kept_name),
				  HINT = 'Drop each of them first (a replica identity on an index: set REPLICA IDENTITY DEFAULT or FULL; a publication: ALTER PUBLICATION ... SET (publish_via_partition_root = true); a NOT VALID check: VALIDATE it; forced row security: ALTER TABLE ... NO FORCE ROW LEVEL SECURITY, which the adoption carries back; another role''s view or foreign key: its owner drops it, or a role that has the rights of both owners adopts the table), adopt the table, then make them again on it: views, foreign keys and triggers of the table follow it by themselves.';
	END IF;

	kept_name := table_name || '_adopted';
	IF octet_length(kept_name) > 63 OR to_regclass(format('%I.%I', schema_name, kept_name)) IS NOT NULL THEN
		RAISE EXCEPTION 'cannot name the adopted table "%"', kept_name
			USING ERRCODE = 'duplicate_table',
				  DETAIL = 'The name is taken or longer than 63 bytes.';
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_check(pg_catalog.regclass) IS
'step 1 of uuidv7_adopt_table: the checks of the table before anything changes (42809, 0A000, 42P07), and its name, key column and whether the key is a plain uuid';

-- Refuse to finish a stopped adoption with another step or zone than the
-- one its bounds were set on: the grid recorded counts from their end.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_require_grid(tbl pg_catalog.regclass,
														  lower_bound pg_catalog.uuid, upper_bound pg_catalog.uuid,
														  step pg_catalog.interval, zone pg_catalog.text)
RETURNS void
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	lower_time timestamptz := @extschema@.uuidv7_timestamp(lower_bound);
	upper_time timestamptz := @extschema@.uuidv7_timestamp(upper_bound);
BEGIN
	IF date_trunc(uuidv7_internal.uuidv7_adopt_unit(step), lower_time, zone) <> lower_time
	   OR (SELECT max(b.period_end) FROM @extschema@.uuidv7_partition_bounds(lower_time, upper_time, step, zone) b)
		  <> upper_time THEN
		RAISE EXCEPTION 'the stopped adoption of % was begun with another step or zone', tbl
			USING ERRCODE = 'invalid_parameter_value',
				DETAIL = format('Its bounds, %s to %s, are not periods of %s in %s.', lower_time, upper_time, step, zone),
				HINT = 'Call it again with the step and zone of the call that stopped.';
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_require_grid(pg_catalog.regclass, pg_catalog.uuid, pg_catalog.uuid, pg_catalog.interval, pg_catalog.text) IS
'refuses (22023) to finish a stopped adoption by uuidv7_adopt_table with a step or zone other than the one its bounds were set on';

-- The calendar unit an adopted table's span starts on, as fits its step:
-- the start of a year, quarter, month, week, day, hour or minute.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_unit(step pg_catalog.interval)
RETURNS pg_catalog.text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	months int := extract(year FROM step) * 12 + extract(month FROM step);
	days int := extract(day FROM step);
	seconds numeric := extract(epoch FROM step - make_interval(months => months, days => days));
BEGIN
	RETURN CASE
			   WHEN months > 0 AND months % 12 = 0 AND days = 0 AND seconds = 0 THEN 'year'
			   WHEN months > 0 AND months % 3 = 0 AND days = 0 AND seconds = 0 THEN 'quarter'
			   WHEN months > 0 THEN 'month'
			   WHEN days > 0 AND days % 7 = 0 AND seconds = 0 THEN 'week'
			   WHEN days > 0 OR seconds >= 3600 THEN 'day'
			   WHEN seconds >= 60 THEN 'hour'
			   ELSE 'minute'
		   END;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_unit(pg_catalog.interval) IS
'the calendar unit an adopted table''s span starts on for a step (year, quarter, month, week, day, hour or minute; used by uuidv7_adopt_span and uuidv7_adopt_table)';

-- Step 2: the span the table becomes the partition of, counted from the
-- start of the oldest row's year, quarter, month, week, day, hour or minute
-- (as fits the step) up to the end of the period after that of now, or of
-- the newest row if later; its bounds and the end of its last period.  (One
-- period more than the rows need: the bounds are a CHECK of the table from
-- step 3 on, and a table whose adoption was stopped there must go on taking
-- the application's rows for a whole period before it refuses any.)
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_span(tbl pg_catalog.regclass, key_column pg_catalog.name,
								  step pg_catalog.interval, zone pg_catalog.text,
								  OUT lower_bound pg_catalog.uuid,
								  OUT upper_bound pg_catalog.uuid,
								  OUT upper_time pg_catalog.timestamptz)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	oldest timestamptz;
	newest timestamptz;
	anchor timestamptz;
BEGIN
	EXECUTE format('SELECT @extschema@.uuidv7_timestamp((SELECT %1$I FROM %2$s ORDER BY %1$I LIMIT 1)), '
				   '@extschema@.uuidv7_timestamp((SELECT %1$I FROM %2$s ORDER BY %1$I DESC LIMIT 1))', key_column, tbl)
		INTO oldest, newest;
	anchor := date_trunc(uuidv7_internal.uuidv7_adopt_unit(step), least(coalesce(oldest, now()), now()), zone);
	SELECT b.lower_bound INTO lower_bound
	FROM @extschema@.uuidv7_partition_bounds(anchor, anchor + step, step, zone) b;
	SELECT b.upper_bound, b.period_end INTO upper_bound, upper_time
	FROM @extschema@.uuidv7_partition_bounds(anchor, greatest(now(), newest) + step + interval '1 microsecond', step, zone) b
	ORDER BY b.period_start DESC LIMIT 1;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_span(pg_catalog.regclass, pg_catalog.name, pg_catalog.interval, pg_catalog.text) IS
'step 2 of uuidv7_adopt_table: the partition bounds of the periods the table''s rows fall in, up to the end of the period after the current one, and when the last one ends';

-- Step 3's indexes: each index of the adopted table (renamed to
-- <name>_adopted already) renamed after it, so that the partitioned table's
-- take the old names: <name>_x becomes <name>_adopted_x, any other name
-- gains _adopted, cut to 63 bytes between characters, and numbered where
-- that name is taken, as PostgreSQL numbers the names it makes.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_rename_indexes(kept pg_catalog.regclass, table_name pg_catalog.name)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	schema_name name;
	kept_name text := table_name || '_adopted';
	idx record;
	new_name text;
	candidate text;
	n int;
BEGIN
	SELECT n.nspname INTO schema_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = kept;
	FOR idx IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = kept
			   ORDER BY c.relname LOOP
		new_name := CASE WHEN starts_with(idx.relname, table_name || '_')
						 THEN kept_name || substr(idx.relname, length(table_name) + 1)
						 ELSE idx.relname || '_adopted' END;
		candidate := new_name;
		n := 0;
		LOOP
			WHILE octet_length(candidate) > 63 LOOP
				new_name := left(new_name, -1);
				candidate := new_name || CASE WHEN n > 0 THEN n::text ELSE '' END;
			END LOOP;
			EXIT WHEN to_regclass(format('%I.%I', schema_name, candidate)) IS NULL;
			n := n + 1;
			candidate := new_name || n::text;
		END LOOP;
		EXECUTE format('ALTER INDEX %I.%I RENAME TO %I', schema_name, idx.relname, candidate);
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_rename_indexes(pg_catalog.regclass, pg_catalog.name) IS
'part of step 3 of uuidv7_adopt_table: the adopted table''s indexes renamed after it (<name>_adopted...), cut to 63 bytes and numbered where taken, so that the partitioned table''s take the old names';

-- Step 3's access: the adopted table's owner, comment, grants (of the table
-- and of its columns), row security (enabled, forced) and policies, given
-- to the partitioned table.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_carry_access(kept pg_catalog.regclass, parent pg_catalog.regclass)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	acl record;
	pol record;
BEGIN
	EXECUTE format('ALTER TABLE %s OWNER TO %I', parent, (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = kept));
	EXECUTE format('COMMENT ON TABLE %s IS %L', parent, obj_description(kept, 'pg_class'));
	FOR acl IN
		SELECT a.grantee, a.privilege_type, a.is_grantable
		FROM pg_class c, LATERAL aclexplode(c.relacl) a WHERE c.oid = kept
	LOOP
		EXECUTE format('GRANT %s ON %s TO %s%s', acl.privilege_type, parent,
					   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END,
					   CASE WHEN acl.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
	END LOOP;
	FOR acl IN
		SELECT t.attname, a.grantee, a.privilege_type, a.is_grantable
		FROM pg_attribute t, LATERAL aclexplode(t.attacl) a WHERE t.attrelid = kept AND t.attnum > 0
	LOOP
		EXECUTE format('GRANT %s (%I) ON %s TO %s%s', acl.privilege_type, acl.attname, parent,
					   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END,
					   CASE WHEN acl.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
	END LOOP;
	IF (SELECT relrowsecurity FROM pg_class WHERE oid = kept) THEN
		EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', parent);
	END IF;
	IF (SELECT relforcerowsecurity FROM pg_class WHERE oid = kept) THEN
		EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', parent);
	END IF;
	FOR pol IN SELECT * FROM pg_policy WHERE polrelid = kept LOOP
		EXECUTE format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s', pol.polname, parent,
					   CASE WHEN pol.polpermissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END,
					   CASE pol.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE'
									   WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
					   (SELECT string_agg(CASE WHEN r = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(r)) END, ', ')
						FROM unnest(pol.polroles) r),
					   ' USING (' || pg_get_expr(pol.polqual, pol.polrelid) || ')',
					   ' WITH CHECK (' || pg_get_expr(pol.polwithcheck, pol.polrelid) || ')');
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_carry_access(pg_catalog.regclass, pg_catalog.regclass) IS
'part of step 3 of uuidv7_adopt_table: the adopted table''s owner, comment, grants, row security and policies given to the partitioned table';

-- Step 3's DEFAULT partition: <name>_default (the name cut to 63 bytes
-- between characters), for rows past the last period, made where that name
-- is free; where it is taken, a NOTICE says so and how to make one.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_default_partition(parent pg_catalog.regclass)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	schema_name name;
	default_name text;
BEGIN
	SELECT n.nspname, c.relname INTO schema_name, default_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent;
	WHILE octet_length(default_name || '_default') > 63 LOOP
		default_name := left(default_name, -1);
	END LOOP;
	default_name := default_name || '_default';
	IF to_regclass(format('%I.%I', schema_name, default_name)) IS NULL THEN
		EXECUTE format('CREATE TABLE %I.%I PARTITION OF %s DEFAULT', schema_name, default_name, parent);
	ELSE
		RAISE NOTICE 'uuidv7_adopt_table: no DEFAULT partition made for %: the name %.% is taken', parent,
			quote_ident(schema_name), quote_ident(default_name)
			USING HINT = format('Make one with CREATE TABLE ... PARTITION OF %s DEFAULT, so that rows past the last period do not fail.', parent);
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_default_partition(pg_catalog.regclass) IS
'part of step 3 of uuidv7_adopt_table: the DEFAULT partition <name>_default of the partitioned table, for rows past the last period, or a NOTICE where the name is taken';

-- Step 3: the catalog swap, under ACCESS EXCLUSIVE on the table (taken in
-- short tries, giving up after lock_wait) until the caller commits: the
-- table and its indexes renamed to <name>_adopted (so that the parent's
-- indexes take the old names), the partitioned table of its name made LIKE
-- it, the table attached as the partition of [lower_bound, upper_bound) (its
-- validated CHECK uuidv7_adopt_bounds spares the scan, and is dropped),
-- owner, comment, grants, row security and policies carried over, and what
-- points at the table moved to the partitioned table: views (written again,
-- as they were), triggers, the table's foreign keys (those of the adopted
-- table attached to them, nothing scanned), other tables' foreign keys to
-- it (NOT VALID: the caller validates them after, beside writers), the
-- sequences its columns own, its publications and its replica identity; and
-- a DEFAULT partition, <name>_default, for rows past the last period.  The
-- tables whose foreign keys are re-made and those the table's reference
-- are locked in the same short tries.  Returns the partitioned table.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_swap(tbl pg_catalog.regclass, key_column pg_catalog.name,
								  lower_bound pg_catalog.uuid, upper_bound pg_catalog.uuid,
								  lock_wait pg_catalog.interval DEFAULT '1 minute')
RETURNS pg_catalog.regclass
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	schema_name name;
	table_name name;
	kept_name text;
	parent regclass;
	kept regclass := tbl;
	related regclass[];
	modes text[];
	obj record;
	-- what points at the table, as written before the swap: views (name,
	-- options, query), triggers (name, state, definition), the table's
	-- foreign keys (name, definition), other tables' (table, name,
	-- definition)
	views text[][] := '{}';
	triggers text[][] := '{}';
	own_keys text[][] := '{}';
	their_keys text[][] := '{}';
	identity "char";
BEGIN
	SELECT n.nspname, c.relname, c.relreplident INTO schema_name, table_name, identity
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = tbl;
	kept_name := table_name || '_adopted';
	-- the tables whose foreign keys point at it, and those its own point at
	-- (those whose foreign keys are dropped and made again: ACCESS EXCLUSIVE,
	-- as DROP CONSTRAINT takes it; those the table's own reference: SHARE
	-- ROW EXCLUSIVE, as ADD FOREIGN KEY takes it; all in the same short tries)
	SELECT coalesce(array_agg(t.rel ORDER BY t.rel), '{}'), coalesce(array_agg(t.mode ORDER BY t.rel), '{}')
	INTO related, modes
	FROM (SELECT DISTINCT ON (rel) rel, mode
		  FROM (SELECT t.relid AS rel, 'ACCESS EXCLUSIVE' AS mode, 0 AS rank
				-- (the referencing table and, partitioned, its partitions)
				FROM pg_constraint c,
					LATERAL (SELECT c.conrelid AS relid UNION SELECT p.relid FROM pg_partition_tree(c.conrelid) p) t
				WHERE c.contype = 'f' AND c.confrelid = tbl AND c.conparentid = 0
				UNION ALL SELECT c.confrelid, 'SHARE ROW EXCLUSIVE', 1 FROM pg_constraint c
				WHERE c.contype = 'f' AND c.conrelid = tbl) r
		  WHERE rel <> tbl ORDER BY rel, rank) t;
	PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[tbl] || related, ARRAY['ACCESS EXCLUSIVE'] || modes, lock_wait);

	-- what points at it, as written now, naming the table by its name (the
	-- search path is pg_catalog's: every name comes qualified)
	SELECT coalesce(array_agg(ARRAY[v.oid::regclass::text, coalesce(array_to_string(v.reloptions, ', '), ''),
									pg_get_viewdef(v.oid)] ORDER BY v.oid), '{}') INTO views
	FROM (SELECT DISTINCT c.oid, c.reloptions
		  FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid JOIN pg_class c ON c.oid = r.ev_class
		  WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass AND d.refobjid = tbl
			  AND c.relkind = 'v' AND c.oid <> tbl) v;
	SELECT coalesce(array_agg(ARRAY[t.tgname::text, t.tgenabled::text, pg_get_triggerdef(t.oid)] ORDER BY t.tgname), '{}')
	INTO triggers
	FROM pg_trigger t WHERE t.tgrelid = tbl AND NOT t.tgisinternal;
	SELECT coalesce(array_agg(ARRAY[c.conname::text, pg_get_constraintdef(c.oid)] ORDER BY c.conname), '{}') INTO own_keys
	FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = tbl AND c.confrelid <> tbl;
	SELECT coalesce(array_agg(ARRAY[c.conrelid::regclass::text, c.conname::text,
									regexp_replace(pg_get_constraintdef(c.oid), ' NOT VALID$', '')]
							  ORDER BY c.conrelid, c.conname), '{}') INTO their_keys
	FROM pg_constraint c WHERE c.contype = 'f' AND c.confrelid = tbl AND c.conrelid <> tbl AND c.conparentid = 0;

	EXECUTE format('ALTER TABLE %s RENAME TO %I', tbl, kept_name);
	PERFORM uuidv7_internal.uuidv7_adopt_rename_indexes(kept, table_name);
	EXECUTE format('CREATE TABLE %I.%I (LIKE %s INCLUDING ALL) PARTITION BY RANGE (%I)',
				   schema_name, table_name, kept, key_column);
	parent := format('%I.%I', schema_name, table_name)::regclass;
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT uuidv7_adopt_bounds', parent);
	EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%L) TO (%L)',
				   parent, kept, lower_bound, upper_bound);
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT uuidv7_adopt_bounds', kept);

	PERFORM uuidv7_internal.uuidv7_adopt_carry_access(kept, parent);

	-- what pointed at the table now points at the partitioned table
	-- (a view of "ONLY the table" meant the table without children, which it
	-- had none of: the partitioned table, whose rows are in its partitions)
	FOR i IN 1..coalesce(array_length(views, 1), 0) LOOP
		EXECUTE format('CREATE OR REPLACE VIEW %s%s AS %s', views[i][1],
					   CASE WHEN views[i][2] <> '' THEN format(' WITH (%s)', views[i][2]) ELSE '' END,
					   regexp_replace(views[i][3], E'\\mONLY ' || regexp_replace(parent::text, '([^A-Za-z0-9_])', E'\\\\\\1', 'g')
												   || '(?![A-Za-z0-9_$"])', parent::text, 'g'));
	END LOOP;
	FOR i IN 1..coalesce(array_length(triggers, 1), 0) LOOP
		EXECUTE format('DROP TRIGGER %I ON %s', triggers[i][1], kept);
		EXECUTE triggers[i][3];
		IF triggers[i][2] <> 'O' THEN
			EXECUTE format('ALTER TABLE %s %s TRIGGER %I', parent,
						   CASE triggers[i][2] WHEN 'D' THEN 'DISABLE' WHEN 'R' THEN 'ENABLE REPLICA'
											   ELSE 'ENABLE ALWAYS' END, triggers[i][1]);
		END IF;
	END LOOP;
	FOR i IN 1..coalesce(array_length(own_keys, 1), 0) LOOP
		EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', parent, own_keys[i][1], own_keys[i][2]);
	END LOOP;
	FOR i IN 1..coalesce(array_length(their_keys, 1), 0) LOOP
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', their_keys[i][1], their_keys[i][2]);
		EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s NOT VALID', their_keys[i][1], their_keys[i][2], their_keys[i][3]);
	END LOOP;
	FOR obj IN
		SELECT p.pubname FROM pg_publication_rel r JOIN pg_publication p ON p.oid = r.prpubid WHERE r.prrelid = kept
	LOOP
		EXECUTE format('ALTER PUBLICATION %I ADD TABLE %s', obj.pubname, parent);
	END LOOP;
	IF identity IN ('f', 'n') THEN
		EXECUTE format('ALTER TABLE %s REPLICA IDENTITY %s', parent, CASE identity WHEN 'f' THEN 'FULL' ELSE 'NOTHING' END);
	END IF;

	-- rows past the last period (ids made by clients, a scheduler that fell
	-- behind) wait in DEFAULT rather than fail
	PERFORM uuidv7_internal.uuidv7_adopt_default_partition(parent);
	RETURN parent;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_swap(pg_catalog.regclass, pg_catalog.name, pg_catalog.uuid, pg_catalog.uuid, pg_catalog.interval) IS
'step 3 of uuidv7_adopt_table: the catalog swap that makes the table the partition of [lower_bound, upper_bound) of a new partitioned table of its name, with its owner, comment, grants, row security and policies, the views, triggers, foreign keys, owned sequences, publications and replica identity that pointed at it, and a DEFAULT partition; returns the new table';

-- After step 1, a plain uuid key read for version 7 (a uuid7 key is a
-- UUIDv7 by its type): every key read for version 7 (a scan, beside reads and writes),
-- then kept so by a CHECK <name>_uuidv7_key (cut to 63 bytes between
-- characters, as PostgreSQL cuts the name it makes, so that a call again
-- after a stop finds it), added NOT VALID under ACCESS EXCLUSIVE (taken in
-- short tries for lock_wait) and validated beside reads and writes.  A
-- procedure: it commits after each of the three, as uuidv7_adopt_table does
-- (no SET clause, which would forbid that; each transaction sets its
-- search_path).
CREATE PROCEDURE uuidv7_internal.uuidv7_adopt_require_version7(tbl pg_catalog.regclass, table_name pg_catalog.name,
															  key_column pg_catalog.name, lock_wait pg_catalog.interval)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	rule_check text;
	not_v7 bigint;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	rule_check := table_name || '_uuidv7_key';
	WHILE octet_length(rule_check) > 63 LOOP
		rule_check := left(rule_check, -1);
	END LOOP;
	PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_adopt_table', tbl, 'reading every key for version 7');
	RAISE NOTICE 'uuidv7_adopt_table: reading every key of % for version 7 (a scan, beside reads and writes)', tbl;
	EXECUTE format('SELECT count(*) FROM %s WHERE @extschema@.uuidv7_timestamp(%I) IS NULL', tbl, key_column)
		INTO not_v7;
	IF not_v7 > 0 THEN
		RAISE EXCEPTION 'table "%" has % keys that are not version 7 UUIDs', table_name, not_v7
			USING ERRCODE = 'check_violation',
				  HINT = format('List them with SELECT %I FROM %s WHERE uuidv7_timestamp(%I) IS NULL; a time-partitioned table cannot hold them (see "From bigserial or version 4 keys" in docs/migrating.md).',
								key_column, tbl, key_column);
	END IF;
	COMMIT;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = tbl AND conname = rule_check) THEN
		PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[tbl], ARRAY['ACCESS EXCLUSIVE'], lock_wait);
		EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (@extschema@.uuidv7_timestamp(%I) IS NOT NULL) NOT VALID',
					   tbl, rule_check, key_column);
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	END IF;
	PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[tbl], ARRAY['SHARE UPDATE EXCLUSIVE'], lock_wait);
	PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_adopt_table', tbl, format('validating %I', rule_check));
	RAISE NOTICE 'uuidv7_adopt_table: validating % of % (a scan, beside reads and writes)', quote_ident(rule_check), tbl;
	EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT %I', tbl, rule_check);
	COMMIT;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$procedure$;

COMMENT ON PROCEDURE uuidv7_internal.uuidv7_adopt_require_version7(pg_catalog.regclass, pg_catalog.name, pg_catalog.name, pg_catalog.interval) IS
'after step 1 of uuidv7_adopt_table: every plain uuid key of the table read for version 7, then kept so by a validated CHECK <name>_uuidv7_key, committing after each part';

-- What of the table the swap will move to the partitioned table, for
-- uuidv7_adopt_table's NOTICE: the views, triggers and foreign keys that
-- point at it, counted ('views: 2, triggers: 1'), '' where none.
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_carried(tbl pg_catalog.regclass)
RETURNS pg_catalog.text
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
	RETURN concat_ws(', ',
		nullif(format('views: %s', (SELECT count(DISTINCT r.ev_class) FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
									WHERE d.classid = 'pg_rewrite'::regclass AND d.refobjid = tbl AND r.ev_class <> tbl)), 'views: 0'),
		nullif(format('triggers: %s', (SELECT count(*) FROM pg_trigger WHERE tgrelid = tbl AND NOT tgisinternal)), 'triggers: 0'),
		nullif(format('foreign keys: %s', (SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND (conrelid = tbl OR confrelid = tbl)
											AND conparentid = 0)), 'foreign keys: 0'));
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_carried(pg_catalog.regclass) IS
'what the swap of uuidv7_adopt_table moves to the partitioned table: the views, triggers and foreign keys that point at the table, counted, for its NOTICE';

-- Give a sequence of the adopted table to the partitioned table: ALTER
-- SEQUENCE ... OWNED BY waits for a transaction that took a value of it, so
-- it is tried in tries of 20 ms until lock_wait has passed, and a sequence
-- not had by then is named in a WARNING for later.  (Not by
-- uuidv7_lock_for_upkeep: LOCK TABLE refuses sequences, and a sequence not
-- had is no error.)
CREATE FUNCTION uuidv7_internal.uuidv7_adopt_hand_over_sequence(seq pg_catalog.regclass, parent pg_catalog.regclass,
																column_name pg_catalog.name, lock_wait pg_catalog.interval)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	give_up timestamptz;
	caller_timeout text := current_setting('lock_timeout');
BEGIN
	give_up := clock_timestamp() + lock_wait;
	LOOP
		BEGIN
			PERFORM pg_catalog.set_config('lock_timeout', '20ms', true);
			EXECUTE format('ALTER SEQUENCE %s OWNED BY %s.%I', seq, parent, column_name);
			PERFORM pg_catalog.set_config('lock_timeout', caller_timeout, true);
			EXIT;
		EXCEPTION WHEN lock_not_available THEN
			IF clock_timestamp() >= give_up THEN
				PERFORM pg_catalog.set_config('lock_timeout', caller_timeout, true);
				RAISE WARNING 'uuidv7_adopt_table: sequence % is still owned by the adopted table', seq
					USING DETAIL = 'A transaction that took a value of it held it past lock_wait.',
						  HINT = format('Run ALTER SEQUENCE %s OWNED BY %s.%I; later, before the adopted table is retired.',
										seq, parent, column_name);
				EXIT;
			END IF;
			PERFORM pg_sleep(0.01);
		END;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_adopt_hand_over_sequence(pg_catalog.regclass, pg_catalog.regclass, pg_catalog.name, pg_catalog.interval) IS
'step 4 of uuidv7_adopt_table: a sequence of the adopted table''s columns owned by the partitioned table''s column, tried in short tries for lock_wait, else a WARNING that names it';

-- Step 4: the sequences the adopted table's columns own, owned by the
-- partitioned table (which its defaults use, and which outlives the
-- adopted table's retirement), each by uuidv7_adopt_hand_over_sequence and
-- committed on its own.  A procedure, as it commits (no SET clause; each
-- transaction sets its search_path).
CREATE PROCEDURE uuidv7_internal.uuidv7_adopt_hand_over_sequences(parent pg_catalog.regclass, lock_wait pg_catalog.interval)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	owned record;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	FOR owned IN
		SELECT d.objid::regclass AS seq, a.attname
		FROM pg_depend d
			JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
			JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
			JOIN pg_class k ON k.oid = d.refobjid AND k.relname = (SELECT relname FROM pg_class WHERE oid = parent) || '_adopted'
				AND k.relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = parent)
		WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype = 'a'
	LOOP
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		PERFORM uuidv7_internal.uuidv7_adopt_hand_over_sequence(owned.seq, parent, owned.attname, lock_wait);
		COMMIT;
	END LOOP;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$procedure$;

COMMENT ON PROCEDURE uuidv7_internal.uuidv7_adopt_hand_over_sequences(pg_catalog.regclass, pg_catalog.interval) IS
'step 4 of uuidv7_adopt_table: each sequence the adopted table''s columns own given to the partitioned table, committed one by one';

-- Step 5: the foreign keys of other tables that the swap re-made NOT VALID
-- (their_keys: table, name), validated one by one, beside writers (SHARE
-- UPDATE EXCLUSIVE on the table that holds one, taken in short tries for
-- lock_wait, ROW SHARE on the partitioned table), each committed.  A
-- procedure, as it commits (no SET clause; each transaction sets its
-- search_path).
CREATE PROCEDURE uuidv7_internal.uuidv7_adopt_validate_foreign_keys(parent pg_catalog.regclass, their_keys pg_catalog.text[],
																	lock_wait pg_catalog.interval)
LANGUAGE plpgsql
AS $procedure$
BEGIN
	FOR i IN 1..coalesce(array_length(their_keys, 1), 0) LOOP
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[their_keys[i][1]::regclass], ARRAY['SHARE UPDATE EXCLUSIVE'], lock_wait);
		PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_adopt_table', parent,
													 format('validating foreign key %I of %s', their_keys[i][2], their_keys[i][1]));
		RAISE NOTICE 'uuidv7_adopt_table: validating foreign key % of % (a scan beside writers)', quote_ident(their_keys[i][2]), their_keys[i][1];
		EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT %I', their_keys[i][1], their_keys[i][2]);
		COMMIT;
	END LOOP;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$procedure$;

COMMENT ON PROCEDURE uuidv7_internal.uuidv7_adopt_validate_foreign_keys(pg_catalog.regclass, pg_catalog.text[], pg_catalog.interval) IS
'step 5 of uuidv7_adopt_table: the foreign keys of other tables that the swap re-made NOT VALID validated one by one beside writers, each committed';

-- The steps, committing between them.  (No SET clause: a procedure with one
-- cannot commit; each transaction sets its own search_path.)  Every lock
-- that blocks the application is taken in short tries, giving up after
-- lock_wait (55P03) with nothing of that step done.  Stopped anywhere (an
-- error, a cancel, a crash), the table keeps taking the application's rows
-- (for a period at least, see step 2), and calling it again finishes the
-- adoption: the bounds already set are kept, and a table already swapped
-- gets its periods ahead.
CREATE PROCEDURE uuidv7_adopt_table(tbl pg_catalog.regclass, step pg_catalog.interval,
									zone pg_catalog.text DEFAULT pg_catalog.current_setting('TimeZone'),
									periods_ahead pg_catalog.int4 DEFAULT 3,
									lock_wait pg_catalog.interval DEFAULT '1 minute')
LANGUAGE plpgsql
AS $procedure$
DECLARE
	table_name name;
	key_column name;
	plain_uuid boolean;
	their_keys text[][];
	carried text;
	made bigint;
	lower_bound uuid;
	upper_bound uuid;
	upper_time timestamptz;
	bounds text[];
	parent regclass;
BEGIN
	-- (before anything else: the caller's search_path must not choose the
	-- functions and operators this calls)
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	PERFORM uuidv7_internal.uuidv7_forbid_transaction_block('uuidv7_adopt_table');
	IF tbl IS NULL OR step IS NULL OR zone IS NULL OR periods_ahead IS NULL OR lock_wait IS NULL THEN
		RAISE EXCEPTION 'uuidv7_adopt_table() takes no NULL argument'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF periods_ahead < 0 THEN
		RAISE EXCEPTION 'periods_ahead must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the step and zone are checked before anything changes
	PERFORM @extschema@.uuidv7_partition_bounds(now(), now() + step, step, zone);

	-- called again after the swap: only the periods ahead may be missing
	SELECT p.oid INTO parent
	FROM pg_class p JOIN pg_inherits i ON i.inhparent = p.oid JOIN pg_class c ON c.oid = i.inhrelid
	WHERE p.oid = tbl AND p.relkind = 'p' AND c.relnamespace = p.relnamespace AND c.relname = p.relname || '_adopted';
	IF parent IS NULL THEN
		SELECT * INTO table_name, key_column, plain_uuid FROM uuidv7_internal.uuidv7_adopt_check(tbl);
		RAISE NOTICE 'uuidv7_adopt_table: % checked, keyed by %', tbl, quote_ident(key_column);

		-- every key must be a UUIDv7: a plain uuid key is read for it (a uuid7
		-- key has it)
		IF plain_uuid THEN
			CALL uuidv7_internal.uuidv7_adopt_require_version7(tbl, table_name, key_column, lock_wait);
			PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		END IF;

		-- the bounds as a CHECK, validated beside reads and writes, so that
		-- ATTACH need not scan under its lock (uuidv7_adopt_swap drops it);
		-- set by a call that stopped, they are kept
		SELECT regexp_match(pg_get_constraintdef(c.oid), '''([0-9a-f-]{36})''.*''([0-9a-f-]{36})''') INTO bounds
		FROM pg_constraint c WHERE c.conrelid = tbl AND c.conname = 'uuidv7_adopt_bounds';
		IF bounds IS NULL THEN
			SELECT * INTO lower_bound, upper_bound, upper_time
			FROM uuidv7_internal.uuidv7_adopt_span(tbl, key_column, step, zone);
			PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[tbl], ARRAY['ACCESS EXCLUSIVE'], lock_wait);
			EXECUTE format('ALTER TABLE %s ADD CONSTRAINT uuidv7_adopt_bounds CHECK (%I >= %L AND %I < %L) NOT VALID',
						   tbl, key_column, lower_bound, key_column, upper_bound);
			COMMIT;
			PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		ELSE
			lower_bound := bounds[1]::uuid;
			upper_bound := bounds[2]::uuid;
			upper_time := @extschema@.uuidv7_timestamp(upper_bound);
			PERFORM uuidv7_internal.uuidv7_adopt_require_grid(tbl, lower_bound, upper_bound, step, zone);
		END IF;
		PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[tbl], ARRAY['SHARE UPDATE EXCLUSIVE'], lock_wait);
		PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_adopt_table', tbl, 'validating the bounds (uuidv7_adopt_bounds)');
		RAISE NOTICE 'uuidv7_adopt_table: validating the bounds of % (a scan, beside reads and writes)', tbl;
		EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT uuidv7_adopt_bounds', tbl);
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);

		-- other tables' foreign keys to it, re-made NOT VALID by the swap and
		-- validated after it (those that were valid)
		SELECT coalesce(array_agg(ARRAY[c.conrelid::regclass::text, c.conname::text] ORDER BY c.conrelid, c.conname), '{}')
		INTO their_keys
		FROM pg_constraint c
		WHERE c.contype = 'f' AND c.confrelid = tbl AND c.conrelid <> tbl AND c.conparentid = 0 AND c.convalidated;
		carried := uuidv7_internal.uuidv7_adopt_carried(tbl);
		PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_adopt_table', tbl, 'swapping in the partitioned table');
		parent := uuidv7_internal.uuidv7_adopt_swap(tbl, key_column, lower_bound, upper_bound, lock_wait);
		RAISE NOTICE '%', format('uuidv7_adopt_table: %s is partitioned by %I, its rows the partition %s%s',
								 parent, key_column, tbl, coalesce('; moved to it: ' || nullif(carried, ''), ''));
	ELSE
		SELECT p.period_end INTO upper_time
		FROM @extschema@.uuidv7_partitions(parent) p JOIN pg_class c ON c.oid = p.partition
		WHERE c.relname = (SELECT relname FROM pg_class WHERE oid = parent) || '_adopted';
	END IF;

	-- the next periods, ahead of the rows that will need them, in the
	-- swap's transaction: the table is never without them
	-- the table's grid, recorded: its periods count from the end of the
	-- adopted table's span, on the step in the zone adoption was given
	IF upper_time IS NOT NULL THEN
		PERFORM uuidv7_internal.uuidv7_record_grid(parent, step, zone, upper_time);
	END IF;
	IF periods_ahead > 0 AND upper_time IS NOT NULL THEN
		SELECT count(*) FILTER (WHERE c.created) INTO made
		FROM @extschema@.uuidv7_create_partitions(parent, upper_time, upper_time + step * periods_ahead,
												  step, zone, lock_wait) c;
		RAISE NOTICE 'uuidv7_adopt_table: % periods made ahead', made;
	END IF;
	COMMIT;

	-- the sequences the adopted table's columns own, owned by the
	-- partitioned table, then the foreign keys re-made NOT VALID validated
	-- (each committed on its own)
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	CALL uuidv7_internal.uuidv7_adopt_hand_over_sequences(parent, lock_wait);
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	CALL uuidv7_internal.uuidv7_adopt_validate_foreign_keys(parent, their_keys, lock_wait);
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	RAISE NOTICE 'uuidv7_adopt_table: % adopted', parent;
END
$procedure$;

COMMENT ON PROCEDURE uuidv7_adopt_table(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.int4, pg_catalog.interval) IS
'turn a table keyed by UUIDv7 into a table of the same name range-partitioned on that key, without rewriting its rows: it becomes the partition of its periods, and the next ones are made; waits for each lock at most lock_wait; called again after a stop, it finishes';
