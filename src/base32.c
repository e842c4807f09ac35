/*-------------------------------------------------------------------------
 *
 * base32.c
 *	  Crockford base32 text of a 128-bit UUID, the text form of ULID.
 *
 * A UUID is written as one 130-bit big-endian number (two zero bits, then the
 * 128 bits) in 26 digits of Crockford's alphabet, 0-9 and A-Z without I, L, O
 * and U.  The alphabet is in ASCII order, so the text sorts bytewise as the
 * UUID does.  Decoding is case-insensitive, skips hyphens, and reads I and L
 * as 1 and O as 0, as Crockford specifies.
 *
 * IDENTIFICATION
 *	  src/base32.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>

#include "base32.h"

static const char upper_digits[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
static const char lower_digits[] = "0123456789abcdefghjkmnpqrstvwxyz";

/* value of each ASCII character as a digit, -1 if it is none */
static const int8_t digit_value[128] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	/* 0-9 */
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	/* @ A-O: I and L read as 1, O as 0 */
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 1, 18, 19, 1, 20, 21, 0,
	/* P-Z: no U */
	22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1,
	/* ` a-o */
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 1, 18, 19, 1, 20, 21, 0,
	/* p-z */
	22, 23, 24, 25, 26, -1, 27, 28, 29, 30, 31, -1, -1, -1, -1, -1,
};

/* Write the 26 digits of 16 bytes. */
void
uuidv7_base32_encode(const unsigned char *bytes, char *out, bool lower_case)
{
	const char *alphabet = lower_case ? lower_digits : upper_digits;
	uint64_t	hi = 0;
	uint64_t	lo = 0;
	int			i;

	for (i = 0; i < 8; i++)
	{
		hi = (hi << 8) | bytes[i];
		lo = (lo << 8) | bytes[i + 8];
	}

	/* the last digit holds the lowest 5 bits; shift the 128 bits right by 5 */
	for (i = UUIDV7_BASE32_DIGITS - 1; i >= 0; i--)
	{
		out[i] = alphabet[lo & 0x1f];
		lo = (lo >> 5) | (hi << 59);
		hi >>= 5;
	}
}

/* Write the grouped form: lower case, groups of four from the right. */
void
uuidv7_base32_encode_grouped(const unsigned char *bytes, char *out)
{
	char		digits[UUIDV7_BASE32_DIGITS];
	int			from = 0;
	int			to = 0;

	uuidv7_base32_encode(bytes, digits, true);
	while (from < UUIDV7_BASE32_DIGITS)
	{
		/* a hyphen before every group of four counted from the end */
		if (from > 0 && (UUIDV7_BASE32_DIGITS - from) % 4 == 0)
			out[to++] = '-';
		out[to++] = digits[from++];
	}
}

/*
 * Read 16 bytes from text.  On failure nothing is promised about bytes, and
 * *offset says where (an invalid character) or how many digits there were.
 */
Base32Status
uuidv7_base32_decode(const char *in, size_t len, unsigned char *bytes,
					 size_t *offset)
{
	uint64_t	hi = 0;
	uint64_t	lo = 0;
	size_t		ndigits = 0;
	size_t		i;
	int			first = 0;

	for (i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) in[i];
		int			value;

		if (c == '-')
			continue;
		value = c < 128 ? digit_value[c] : -1;
		if (value < 0)
		{
			*offset = i;
			return BASE32_INVALID_CHAR;
		}
		if (ndigits == 0)
			first = value;
		/* shift in 5 bits; past 26 digits the length check below fails */
		hi = (hi << 5) | (lo >> 59);
		lo = (lo << 5) | (uint64_t) value;
		ndigits++;
	}

	if (ndigits != UUIDV7_BASE32_DIGITS)
	{
		*offset = ndigits;
		return BASE32_WRONG_LENGTH;
	}
	/* 26 digits hold 130 bits; the top two must be zero */
	if (first > 7)
		return BASE32_OVERFLOW;

	for (i = 0; i < 8; i++)
	{
		bytes[7 - i] = (unsigned char) (hi >> (8 * i));
		bytes[15 - i] = (unsigned char) (lo >> (8 * i));
	}
	return BASE32_OK;
}
