/*-------------------------------------------------------------------------
 *
 * ff1.c
 *	  NIST SP 800-38G FF1 format-preserving encryption, with AES from
 *	  OpenSSL.
 *
 * FF1 is a ten-round Feistel network over a string of n numerals of some
 * radix; its round function is AES-CBC-MAC over a block P describing the
 * input and a block Q holding the tweak, the round number and one half.  The
 * algorithm below is SP 800-38G's Algorithm 7 (encryption) and 8 (decryption)
 * step for step, with each half kept as the number NUM_radix of its
 * numerals, which is all the algorithm uses of them.  That limits each half
 * to 64 bits (2^61 for the public ids' 122 bits, 36^10 for NIST's largest
 * sample), which also keeps the byte strings S that a round draws from the
 * MAC within one AES block (d <= 12).
 *
 * The file also builds without the server (FRONTEND), so that
 * test/unit/vectors.c checks it against NIST's published samples.
 *
 * IDENTIFICATION
 *	  src/ff1.c
 *
 *-------------------------------------------------------------------------
 */
#ifndef FRONTEND
#include "postgres.h"
#else
#include "postgres_fe.h"
#endif

#ifdef UUIDV7_USE_OPENSSL

#include <openssl/evp.h>

#include "port/pg_bitutils.h"

#include "ff1.h"

#define AES_BLOCK	16

struct FF1Key
{
	EVP_CIPHER_CTX *aes;		/* AES-ECB, encrypting, without padding */
};

FF1Key *
ff1_new_key(const uint8 *key, int keylen)
{
	const EVP_CIPHER *cipher;
	FF1Key	   *ff1;

	switch (keylen)
	{
		case 16:
			cipher = EVP_aes_128_ecb();
			break;
		case 24:
			cipher = EVP_aes_192_ecb();
			break;
		case 32:
			cipher = EVP_aes_256_ecb();
			break;
		default:
			return NULL;
	}

	ff1 = malloc(sizeof(FF1Key));
	if (ff1 == NULL)
		return NULL;
	ff1->aes = EVP_CIPHER_CTX_new();
	if (ff1->aes == NULL ||
		EVP_EncryptInit_ex(ff1->aes, cipher, NULL, key, NULL) != 1 ||
		EVP_CIPHER_CTX_set_padding(ff1->aes, 0) != 1)
	{
		ff1_free_key(ff1);
		return NULL;
	}
	return ff1;
}

/* (EVP_CIPHER_CTX_free() wipes the expanded key) */
void
ff1_free_key(FF1Key *key)
{
	if (key == NULL)
		return;
	EVP_CIPHER_CTX_free(key->aes);
	free(key);
}

/* radix^m, or 0 if it does not fit in 64 bits */
static uint64
radix_power(unsigned int radix, int m)
{
	uint64		power = 1;

	for (int i = 0; i < m; i++)
	{
		if (power > PG_UINT64_MAX / radix)
			return 0;
		power *= radix;
	}
	return power;
}

bool
ff1_domain(FF1Domain *domain, unsigned int radix, int n)
{
	uint64		whole;

	if (radix < 2 || radix > 65536 || n < 2)
		return false;
	/* SP 800-38G: radix^minlen >= 1,000,000 */
	whole = radix_power(radix, n);
	if (whole != 0 && whole < 1000000)
		return false;

	domain->radix = radix;
	domain->n = n;
	domain->u = n / 2;
	domain->modulus_u = radix_power(radix, domain->u);
	domain->modulus_v = radix_power(radix, n - domain->u);
	if (domain->modulus_v == 0)
		return false;
	/* b = ceil(ceil(v * log2(radix)) / 8); d = 4 * ceil(b / 4) + 4 */
	domain->b = (pg_leftmost_one_pos64(domain->modulus_v - 1) + 1 + 7) / 8;
	domain->d = 4 * ((domain->b + 3) / 4) + 4;
	return true;
}

/* one AES block: out = AES_K(in) */
static bool
aes_block(const FF1Key *key, const uint8 *in, uint8 *out)
{
	int			outlen;

	return EVP_EncryptUpdate(key->aes, out, &outlen, in, AES_BLOCK) == 1 &&
		outlen == AES_BLOCK;
}

/* NUM(S) mod m, for the first len (<= 12) bytes of S as a big-endian number */
static uint64
num_mod(const uint8 *s, int len, uint64 m)
{
#if defined(HAVE_INT128) && !defined(FF1_WITHOUT_INT128)
	uint128		y = 0;

	for (int i = 0; i < len; i++)
		y = (y << 8) | s[i];
	return (uint64) (y % m);
#else
	uint64		r = 0;

	/* bit by bit, r < m < 2^64 throughout */
	for (int i = 0; i < len; i++)
		for (int bit = 7; bit >= 0; bit--)
		{
			uint64		top = r >> 63;

			r = (r << 1) | ((s[i] >> bit) & 1);
			if (top || r >= m)
				r -= m;
		}
	return r;
#endif
}

bool
ff1_crypt(const FF1Key *key, const FF1Domain *domain,
		  const uint8 *tweak, int tweaklen,
		  uint64 *a, uint64 *b, bool decrypt)
{
	int			bbytes = domain->b;
	int			pad = ((-tweaklen - bbytes - 1) % AES_BLOCK + AES_BLOCK) % AES_BLOCK;
	int			qlen = tweaklen + pad + 1 + bbytes;
	uint8		p[AES_BLOCK];
	uint8		p_mac[AES_BLOCK];
	uint8		q[FF1_MAX_TWEAK + 2 * AES_BLOCK];

	if (tweaklen < 0 || tweaklen > FF1_MAX_TWEAK)
		return false;

	/*
	 * P = [1]^1 || [2]^1 || [1]^1 || [radix]^3 || [10]^1 || [u mod 256]^1 ||
	 * [n]^4 || [t]^4
	 */
	p[0] = 1;
	p[1] = 2;
	p[2] = 1;
	p[3] = (domain->radix >> 16) & 0xff;
	p[4] = (domain->radix >> 8) & 0xff;
	p[5] = domain->radix & 0xff;
	p[6] = 10;
	p[7] = domain->u & 0xff;
	for (int i = 0; i < 4; i++)
	{
		p[8 + i] = ((uint32) domain->n >> (24 - 8 * i)) & 0xff;
		p[12 + i] = ((uint32) tweaklen >> (24 - 8 * i)) & 0xff;
	}
	/* the MAC's first block is the same in every round */
	if (!aes_block(key, p, p_mac))
		return false;

	/* Q = T || [0]^pad || [i]^1 || [NUM_radix(B)]^b */
	if (tweaklen > 0)
		memcpy(q, tweak, tweaklen);
	memset(q + tweaklen, 0, pad);

	for (int step = 0; step < 10; step++)
	{
		int			i = decrypt ? 9 - step : step;
		uint64		half = decrypt ? *a : *b;
		uint64		modulus = (i % 2 == 0) ? domain->modulus_u : domain->modulus_v;
		uint8		r[AES_BLOCK];
		uint64		y;
		uint64		c;

		q[tweaklen + pad] = (uint8) i;
		for (int j = 0; j < bbytes; j++)
			q[qlen - 1 - j] = (half >> (8 * j)) & 0xff;

		/* R = PRF(P || Q): AES-CBC-MAC, P's block already taken */
		memcpy(r, p_mac, AES_BLOCK);
		for (int block = 0; block < qlen; block += AES_BLOCK)
		{
			for (int j = 0; j < AES_BLOCK; j++)
				r[j] ^= q[block + j];
			if (!aes_block(key, r, r))
				return false;
		}

		/* S = the first d bytes of R (d <= 16 here); y = NUM(S) mod radix^m */
		y = num_mod(r, domain->d, modulus);

		if (!decrypt)
		{
			/* C = (NUM_radix(A) + y) mod radix^m; A = B; B = C */
			c = (*a >= modulus - y) ? *a - (modulus - y) : *a + y;
			*a = *b;
			*b = c;
		}
		else
		{
			/* C = (NUM_radix(B) - y) mod radix^m; B = A; A = C */
			c = (*b >= y) ? *b - y : *b + (modulus - y);
			*b = *a;
			*a = c;
		}
	}
	return true;
}

#endif							/* UUIDV7_USE_OPENSSL */
