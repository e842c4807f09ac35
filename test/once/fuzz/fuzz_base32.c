/*
 * test/once/fuzz/fuzz_base32.c: libFuzzer harness for the base32 parser.
 *
 * Any input is parsed as base32 text.  The parser must not read or write out
 * of bounds (AddressSanitizer), must not overflow or shift out of range
 * (UndefinedBehaviorSanitizer), and when it accepts an input, writing the
 * result back in both forms and parsing that again must give the same 16
 * bytes, and the written forms must be well formed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base32.h"

static int
is_digit(char c, int lower)
{
	const char *alphabet = lower ? "0123456789abcdefghjkmnpqrstvwxyz" : "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

	return c != '\0' && strchr(alphabet, c) != NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char bytes[UUIDV7_BASE32_BYTES];
	unsigned char again[UUIDV7_BASE32_BYTES];
	char		text[UUIDV7_BASE32_DIGITS];
	char		grouped[UUIDV7_BASE32_GROUPED_LEN];
	size_t		offset = 0;
	int			i;

	switch (uuidv7_base32_decode((const char *) data, size, bytes, &offset))
	{
		case BASE32_OK:
			break;
		case BASE32_INVALID_CHAR:
			if (offset >= size)
				abort();
			return 0;
		case BASE32_WRONG_LENGTH:
			if (offset == UUIDV7_BASE32_DIGITS || offset > size)
				abort();
			return 0;
		case BASE32_OVERFLOW:
			return 0;
		default:
			abort();
	}

	uuidv7_base32_encode(bytes, text, 0);
	for (i = 0; i < UUIDV7_BASE32_DIGITS; i++)
		if (!is_digit(text[i], 0))
			abort();
	if (text[0] > '7')
		abort();
	if (uuidv7_base32_decode(text, sizeof(text), again, &offset) != BASE32_OK ||
		memcmp(bytes, again, sizeof(bytes)) != 0)
		abort();

	uuidv7_base32_encode_grouped(bytes, grouped);
	for (i = 0; i < UUIDV7_BASE32_GROUPED_LEN; i++)
		if ((i == 2 || (i > 2 && (i - 2) % 5 == 0)) ? grouped[i] != '-' : !is_digit(grouped[i], 1))
			abort();
	if (uuidv7_base32_decode(grouped, sizeof(grouped), again, &offset) != BASE32_OK ||
		memcmp(bytes, again, sizeof(bytes)) != 0)
		abort();
	return 0;
}
