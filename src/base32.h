/*-------------------------------------------------------------------------
 *
 * base32.h
 *	  Crockford base32 text of a 128-bit UUID, the text form of ULID.
 *
 * Free of PostgreSQL headers, so that the fuzzer in test/once/fuzz can link
 * the codec on its own.
 *
 * IDENTIFICATION
 *	  src/base32.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDV7_BASE32_H
#define UUIDV7_BASE32_H

#include <stdbool.h>
#include <stddef.h>

/* 128 bits in 5-bit digits: 26 digits, the first holding only 3 bits */
#define UUIDV7_BASE32_DIGITS	26
#define UUIDV7_BASE32_BYTES		16
/* the grouped form: 2 digits, then six groups of 4, hyphen-separated */
#define UUIDV7_BASE32_GROUPED_LEN	(UUIDV7_BASE32_DIGITS + 6)

typedef enum Base32Status
{
	BASE32_OK,
	BASE32_INVALID_CHAR,		/* *offset: the byte offset of the character */
	BASE32_WRONG_LENGTH,		/* *offset: the number of digits found */
	BASE32_OVERFLOW				/* the first digit is above 7 */
} Base32Status;

extern void uuidv7_base32_encode(const unsigned char *bytes, char *out,
								 bool lower_case);
extern void uuidv7_base32_encode_grouped(const unsigned char *bytes, char *out);
extern Base32Status uuidv7_base32_decode(const char *in, size_t len,
										 unsigned char *bytes, size_t *offset);

#endif							/* UUIDV7_BASE32_H */
