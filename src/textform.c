/*-------------------------------------------------------------------------
 *
 * textform.c
 *	  Text forms of a UUID people can read and type: Crockford base32 (the
 *	  text form of ULID) and its grouped, lower-case variant.
 *
 * These work for any UUID, not only version 7; the codec is in base32.c.
 *
 * IDENTIFICATION
 *	  src/textform.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

#include "base32.h"
#include "uuidv7.h"

/* The 26 upper-case digits of a UUID: its ULID text, sorting as the UUID. */
PG_FUNCTION_INFO_V1(uuidv7_to_base32);
Datum
uuidv7_to_base32(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	char		out[UUIDV7_BASE32_DIGITS];

	uuidv7_base32_encode(uuid->data, out, false);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out, sizeof(out)));
}

/* The lower-case digits in hyphenated groups of four from the right. */
PG_FUNCTION_INFO_V1(uuidv7_to_base32_grouped);
Datum
uuidv7_to_base32_grouped(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = PG_GETARG_UUID_P(0);
	char		out[UUIDV7_BASE32_GROUPED_LEN];

	uuidv7_base32_encode_grouped(uuid->data, out);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out, sizeof(out)));
}

/* The UUID of base32 text in either form; an error says what is wrong where. */
PG_FUNCTION_INFO_V1(uuidv7_from_base32);
Datum
uuidv7_from_base32(PG_FUNCTION_ARGS)
{
	text	   *in = PG_GETARG_TEXT_PP(0);
	const char *str = VARDATA_ANY(in);
	int			len = VARSIZE_ANY_EXHDR(in);
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));
	size_t		offset = 0;

	switch (uuidv7_base32_decode(str, len, uuid->data, &offset))
	{
		case BASE32_OK:
			PG_RETURN_UUID_P(uuid);
		case BASE32_INVALID_CHAR:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid base32 UUID: \"%s\"", text_to_cstring(in)),
					 errdetail("Character \"%.*s\" at position %d is not a Crockford base32 digit.",
							   pg_mblen(str + offset), str + offset,
							   pg_mbstrlen_with_len(str, offset) + 1)));
			break;
		case BASE32_WRONG_LENGTH:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid base32 UUID: \"%s\"", text_to_cstring(in)),
					 errdetail("It has %zu base32 digits; a UUID has %d.",
							   offset, UUIDV7_BASE32_DIGITS)));
			break;
		case BASE32_OVERFLOW:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid base32 UUID: \"%s\"", text_to_cstring(in)),
					 errdetail("Its value exceeds 128 bits: the first of its 26 digits must be 0 to 7.")));
			break;
	}
	pg_unreachable();
}
