-- security: a database owner who is not a superuser installs the (trusted)
-- extension, after planting look-alikes of the functions and operators its
-- scripts use; none of them is called, though the scripts run as superuser.
-- The test returns as whichever superuser ran it, to whichever database.
-- (Both editions; it needs a superuser to set up.  That the owner may not
-- change uuidv7.random_pool is test state's; that uuidv7_time_ops is not
-- trusted, test time_ops's.)

-- the settings its output depends on, whatever the server's: the planner's,
-- parallelism, JIT and the client's at their built-in defaults
SELECT count(set_config(name, boot_val, false)) > 0 AS settings_pinned FROM pg_settings
WHERE name ~ '^enable_' OR name IN ('client_min_messages', 'extra_float_digits', 'jit',
	'max_parallel_workers_per_gather', 'plan_cache_mode', 'default_statistics_target', 'effective_cache_size',
	'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost', 'cpu_index_tuple_cost', 'cpu_operator_cost',
	'parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size');
-- (errors without the PL/pgSQL or SQL lines that raised them, which differ
-- between the C and SQL editions)
\set SHOW_CONTEXT never
SELECT current_user AS superuser, current_database() AS regress_db \gset
SET client_min_messages = warning;
CREATE ROLE regress_uuidv7_owner LOGIN;
CREATE DATABASE regress_uuidv7_security OWNER regress_uuidv7_owner;
\c regress_uuidv7_security
-- (the owner through SET SESSION AUTHORIZATION, not a connection of its own: a
-- packager's throwaway server may ask each role for a password)
SET SESSION AUTHORIZATION regress_uuidv7_owner;
SET client_min_messages = warning;
SELECT rolsuper FROM pg_roles WHERE rolname = current_user;

CREATE TABLE public.captured (called text, as_user name, superuser boolean);
CREATE FUNCTION public.trap(what text) RETURNS void LANGUAGE sql AS $$
	INSERT INTO public.captured SELECT what, current_user, rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user
$$;
CREATE FUNCTION public.to_regprocedure(text) RETURNS regprocedure LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('to_regprocedure'); RETURN NULL; END $$;
CREATE FUNCTION public.to_regclass(text) RETURNS regclass LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('to_regclass'); RETURN NULL; END $$;
CREATE FUNCTION public.current_setting(text) RETURNS text LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('current_setting'); RETURN 'UTC'; END $$;
CREATE FUNCTION public.format(text, text) RETURNS text LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('format'); RETURN $1; END $$;
CREATE FUNCTION public.to_char(timestamp, text) RETURNS text LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('to_char'); RETURN 'x'; END $$;
CREATE FUNCTION public.octet_length(text) RETURNS int LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('octet_length'); RETURN 0; END $$;
CREATE FUNCTION public.make_interval(years int, months int, weeks int, days int) RETURNS interval LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('make_interval'); RETURN '0'; END $$;
CREATE FUNCTION public.pg_get_expr(pg_node_tree, oid) RETURNS text LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('pg_get_expr'); RETURN ''; END $$;
CREATE FUNCTION public.hostile_texteq(text, text) RETURNS boolean LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('= (text, text)'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR public.= (LEFTARG = text, RIGHTARG = text, FUNCTION = public.hostile_texteq);
CREATE FUNCTION public.hostile_textcat(text, text) RETURNS text LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('|| (text, text)'); RETURN $1 OPERATOR(pg_catalog.||) $2; END $$;
CREATE OPERATOR public.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = public.hostile_textcat);
CREATE FUNCTION public.hostile_uuidlt(uuid, uuid) RETURNS boolean LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('< (uuid, uuid)'); RETURN $1 OPERATOR(pg_catalog.<) $2; END $$;
CREATE OPERATOR public.< (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = public.hostile_uuidlt);
CREATE FUNCTION public.hostile_count_sfunc(bigint) RETURNS bigint LANGUAGE plpgsql AS
	$$ BEGIN PERFORM public.trap('count(*)'); RETURN $1 + 1; END $$;
CREATE AGGREGATE public.count(*) (SFUNC = public.hostile_count_sfunc, STYPE = bigint, INITCOND = '0');

-- the traps work: an unqualified call with these argument types lands in one
SELECT format('%s', 'caught'::text);
SELECT called, as_user, superuser FROM public.captured;
TRUNCATE public.captured;

-- the database owner installs the trusted extension
CREATE EXTENSION uuidv7;
SELECT extname, extowner::regrole FROM pg_extension WHERE extname = 'uuidv7';

-- and uses every function
SET TimeZone = 'UTC';
CREATE TABLE orders (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int) PARTITION BY RANGE (id);
SELECT pg_catalog.count(*) AS created
FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-03-01', '1 month', 'UTC');
SELECT pg_catalog.count(*) AS skipped
FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-03-01', '1 month');
SELECT pg_catalog.count(*) AS statements FROM uuidv7_partition_ddl('orders', '2025-01-01', '2025-03-01', '1 month');
SELECT pg_catalog.count(*) AS periods FROM uuidv7_partition_bounds('2025-01-01', '2025-03-01', '1 month');
SELECT partition, period_start FROM uuidv7_partitions('orders');
INSERT INTO orders (id, v) VALUES (uuidv7_generate_at('2025-01-15'), 1), (uuidv7_generate_at('2025-02-15'), 2);
SELECT uuidv7_timestamp(id), uuidv7_unix_ms(id), uuidv7_partman_decoder(id::text) = uuidv7_timestamp(id) AS decoded
FROM orders ORDER BY id;
SELECT * FROM uuidv7_drop_partitions('orders', '2025-02-01', detach_only => true);
SELECT uuidv7_from_base32(uuidv7_to_base32(uuidv7_partman_encoder('2025-01-01'))) = uuidv7_min('2025-01-01') AS base32,
	uuidv7_from_base32(uuidv7_to_base32_grouped(uuidv7_max('2025-01-01'))) = uuidv7_max('2025-01-01') AS grouped,
	uuidv7_generate('-1 hour') IS NOT NULL AS shifted, uuidv7_generate() IS NOT NULL AS generated;

-- no look-alike was called, by the superuser script or since
SELECT called, as_user, superuser FROM public.captured;

RESET SESSION AUTHORIZATION;
SET client_min_messages = warning;
\c :"regress_db"
SET client_min_messages = warning;
DROP DATABASE regress_uuidv7_security;
DROP ROLE regress_uuidv7_owner;
