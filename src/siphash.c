/*-------------------------------------------------------------------------
 *
 * siphash.c
 *	  SipHash-2-4 (Aumasson and Bernstein, 2012), 64-bit output.
 *
 * The uuidv47 public-id scheme hashes ten bytes with it.  PostgreSQL has no
 * SipHash, and OpenSSL's (an EVP_MAC, from 3.0 on) would tie the scheme to
 * OpenSSL, which it does not otherwise need; the algorithm is a few lines.
 * test/t/008_public_id.pl checks it (through test/unit/vectors.c) against
 * libsodium's SipHash-2-4.
 *
 * IDENTIFICATION
 *	  src/siphash.c
 *
 *-------------------------------------------------------------------------
 */
#ifndef FRONTEND
#include "postgres.h"
#else
#include "postgres_fe.h"
#endif

#include "siphash.h"

#define ROTL64(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND(v0, v1, v2, v3) \
	do { \
		v0 += v1; v1 = ROTL64(v1, 13); v1 ^= v0; v0 = ROTL64(v0, 32); \
		v2 += v3; v3 = ROTL64(v3, 16); v3 ^= v2; \
		v0 += v3; v3 = ROTL64(v3, 21); v3 ^= v0; \
		v2 += v1; v1 = ROTL64(v1, 17); v1 ^= v2; v2 = ROTL64(v2, 32); \
	} while (0)

/* eight bytes as a little-endian number */
static uint64
read_le64(const uint8 *p)
{
	uint64		x = 0;

	for (int i = 7; i >= 0; i--)
		x = (x << 8) | p[i];
	return x;
}

uint64
siphash24(const uint8 *key, const uint8 *msg, size_t len)
{
	uint64		k0 = read_le64(key);
	uint64		k1 = read_le64(key + 8);
	uint64		v0 = k0 ^ UINT64CONST(0x736f6d6570736575);
	uint64		v1 = k1 ^ UINT64CONST(0x646f72616e646f6d);
	uint64		v2 = k0 ^ UINT64CONST(0x6c7967656e657261);
	uint64		v3 = k1 ^ UINT64CONST(0x7465646279746573);
	size_t		whole = len - len % 8;
	uint64		last = (uint64) (len & 0xff) << 56;

	for (size_t i = 0; i < whole; i += 8)
	{
		uint64		m = read_le64(msg + i);

		v3 ^= m;
		SIPROUND(v0, v1, v2, v3);
		SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}

	/* the last 0 to 7 bytes, with the length in the top byte */
	for (size_t i = whole; i < len; i++)
		last |= (uint64) msg[i] << (8 * (i - whole));
	v3 ^= last;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= last;

	v2 ^= 0xff;
	for (int i = 0; i < 4; i++)
		SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}
