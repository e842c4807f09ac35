/*-------------------------------------------------------------------------
 *
 * domain.c
 *	  The check of the uuid7 domain.
 *
 * A CHECK expression that returns false gets only core's generic message,
 * which does not say what is wrong with the value.  This check raises the
 * error itself, in core's wording, and adds a detail that says why the value
 * is not a version 7 UUID.
 *
 * IDENTIFICATION
 *	  src/domain.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

#include "uuidv7.h"

/* True for an RFC 9562 version 7 UUID; a check_violation error otherwise. */
PG_FUNCTION_INFO_V1(uuidv7_domain_check);
Datum
uuidv7_domain_check(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	char	   *printed;

	if (likely(uuidv7_is_v7(uuid)))
		PG_RETURN_BOOL(true);

	printed = DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(uuid)));
	ereport(ERROR,
			(errcode(ERRCODE_CHECK_VIOLATION),
			 errmsg("value for domain uuid7 violates check constraint \"uuid7_check\""),
			 uuidv7_is_rfc_variant(uuid) ?
			 errdetail("\"%s\" is not a version 7 UUID: its version is %d.",
					   printed, uuidv7_version(uuid)) :
			 errdetail("\"%s\" is not a version 7 UUID: it is not of the RFC 9562 variant.",
					   printed)));
	PG_RETURN_BOOL(false);		/* keep the compiler quiet */
}
