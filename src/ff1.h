/*-------------------------------------------------------------------------
 *
 * ff1.h
 *	  NIST SP 800-38G FF1 format-preserving encryption, with AES from
 *	  OpenSSL, for numeral strings whose halves fit in 64 bits.
 *
 * IDENTIFICATION
 *	  src/ff1.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDV7_FF1_H
#define UUIDV7_FF1_H

/* the most bytes of tweak accepted */
#define FF1_MAX_TWEAK	64

typedef struct FF1Key FF1Key;

/*
 * A key of 16, 24 or 32 bytes (AES-128, -192 or -256); NULL if OpenSSL
 * fails.  The caller frees it with ff1_free_key().
 */
extern FF1Key *ff1_new_key(const uint8 *key, int keylen);
extern void ff1_free_key(FF1Key *key);

/*
 * Can FF1 take n numerals of this radix here?  (radix 2 to 2^16, n at
 * least 2, radix^n at least 1,000,000 as SP 800-38G requires, and each half
 * below 2^64.)
 */
extern bool ff1_supports(unsigned int radix, int n);

/*
 * Encrypt, or decrypt, in place a numeral string of n numerals given by its
 * two halves as numbers: *a = NUM_radix of its first floor(n/2) numerals,
 * *b = NUM_radix of the others.  Returns false only when OpenSSL fails.
 */
extern bool ff1_crypt(const FF1Key *key, unsigned int radix, int n,
					  const uint8 *tweak, int tweaklen,
					  uint64 *a, uint64 *b, bool decrypt);

#endif							/* UUIDV7_FF1_H */
