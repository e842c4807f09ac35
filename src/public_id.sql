-- public ids: a keyed, reversible face of a UUIDv7 that looks like a random
-- version 4 UUID (src/public_id.c).  STABLE: they read the scheme setting
-- and the keys of the key file uuidv7.public_id_key_file names, for this
-- session's database, the same all through a transaction.  PARALLEL
-- RESTRICTED: a parallel worker takes the keys published when it starts,
-- which a reload may have changed since its leader took them.  The SQL edition cannot keep a key from the roles that use it
-- (a setting it reads is a setting they read), so there they only say so.
--#if sql

CREATE FUNCTION uuidv7_public_ids_unavailable() RETURNS pg_catalog.uuid
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $function$
BEGIN
	RAISE EXCEPTION 'public ids need the C edition of uuidv7'
		USING ERRCODE = 'feature_not_supported',
			  DETAIL = 'The SQL edition cannot keep their keys from the roles that use them.',
			  HINT = 'Install the C edition, and give it a key file (uuidv7.public_id_key_file).';
END
$function$;

COMMENT ON FUNCTION uuidv7_public_ids_unavailable() IS
'the error of the public-id functions, which need the C edition (SQL edition)';
--#endif

CREATE FUNCTION uuidv7_to_public(id pg_catalog.uuid) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_to_public'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
--#else
LANGUAGE sql STABLE STRICT PARALLEL RESTRICTED
AS $function$
SELECT @extschema@.uuidv7_public_ids_unavailable()
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_to_public(pg_catalog.uuid) IS
'the public id of a UUID version 7: a version 4 UUID made with the first key of this database in the key file';

CREATE FUNCTION uuidv7_from_public(public_id pg_catalog.uuid) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_from_public'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
--#else
LANGUAGE sql STABLE STRICT PARALLEL RESTRICTED
AS $function$
SELECT @extschema@.uuidv7_public_ids_unavailable()
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_from_public(pg_catalog.uuid) IS
'the UUID version 7 of a public id, under the first key of this database in the key file';

CREATE FUNCTION uuidv7_from_public_all(public_id pg_catalog.uuid) RETURNS pg_catalog.uuid[]
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_from_public_all'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
--#else
LANGUAGE sql STABLE STRICT PARALLEL RESTRICTED
AS $function$
SELECT ARRAY[@extschema@.uuidv7_public_ids_unavailable()]
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_from_public_all(pg_catalog.uuid) IS
'the UUID version 7 of a public id under each key of this database in the key file, in their order (for = ANY during a rotation)';

CREATE FUNCTION uuidv7_public_id_state(OUT preloaded pg_catalog.bool, OUT key_file pg_catalog.text, OUT scheme pg_catalog.text,
									   OUT fingerprints pg_catalog.text[], OUT refused pg_catalog.text,
									   OUT ff1_available pg_catalog.bool)
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_public_id_state'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
--#else
LANGUAGE sql STABLE STRICT PARALLEL SAFE
AS $function$
SELECT false, ''::pg_catalog.text, NULL::pg_catalog.text, '{}'::pg_catalog.text[], NULL::pg_catalog.text, false
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_public_id_state() IS
'the state of public ids in this session, for superusers and members of pg_read_all_settings (42501 for other roles): uuidv7 preloaded, the key file, the scheme, the fingerprints of this database''s keys (never the keys), why the last reading of the key file was refused, whether the ff1 scheme is built in';
