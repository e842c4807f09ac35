/*-------------------------------------------------------------------------
 *
 * siphash.h
 *	  SipHash-2-4 (Aumasson and Bernstein, 2012), 64-bit output.
 *
 * IDENTIFICATION
 *	  src/siphash.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDV7_SIPHASH_H
#define UUIDV7_SIPHASH_H

/* SipHash-2-4 of len bytes under a 16-byte key */
extern uint64 siphash24(const uint8 *key, const uint8 *msg, size_t len);

#endif							/* UUIDV7_SIPHASH_H */
