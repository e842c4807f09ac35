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
 * The numeral strings FF1 works on: n numerals of a radix, with the numbers
 * of the algorithm that depend on them alone, worked out once.
 */
typedef struct FF1Domain
{
	unsigned int radix;
	int			n;
	int			u;				/* numerals in the first half: n / 2 */
	uint64		modulus_u;		/* radix^u */
	uint64		modulus_v;		/* radix^(n - u) */
	int			b;				/* bytes of NUM_radix of a half in Q */
	int			d;				/* bytes of S taken from the MAC */
} FF1Domain;

/*
 * Set up the domain of n numerals of a radix; false where FF1 cannot take
 * it here (radix 2 to 2^16, n at least 2, radix^n at least 1,000,000 as
 * SP 800-38G requires, and each half below 2^64).
 */
extern bool ff1_domain(FF1Domain *domain, unsigned int radix, int n);

/*
 * Encrypt, or decrypt, in place a numeral string of the domain given by its
 * two halves as numbers: *a = NUM_radix of its first floor(n/2) numerals,
 * *b = NUM_radix of the others.  Returns false only when OpenSSL fails.
 */
extern bool ff1_crypt(const FF1Key *key, const FF1Domain *domain,
					  const uint8 *tweak, int tweaklen,
					  uint64 *a, uint64 *b, bool decrypt);

#endif							/* UUIDV7_FF1_H */
