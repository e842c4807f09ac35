/*-------------------------------------------------------------------------
 *
 * public_id.h
 *	  The keys of public ids (src/public_id_keys.c), as the mapping of ids
 *	  (src/public_id.c) uses them.
 *
 * IDENTIFICATION
 *	  src/public_id.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef UUIDV7_PUBLIC_ID_H
#define UUIDV7_PUBLIC_ID_H

#define PUBLIC_ID_KEY_FILE_GUC	"uuidv7.public_id_key_file"
#define PUBLIC_ID_KEY_BYTES		16
/* the keys of one database */
#define PUBLIC_ID_MAX_KEYS		16

typedef struct PublicIdKey
{
	uint8		bytes[PUBLIC_ID_KEY_BYTES];
	char		fingerprint[9]; /* 8 hex digits */
} PublicIdKey;

/* the keys of one database, in the key file's order */
typedef struct PublicIdKeys
{
	int			nkeys;
	PublicIdKey keys[PUBLIC_ID_MAX_KEYS];
} PublicIdKeys;

extern void uuidv7_public_id_keys_init(void);
extern void uuidv7_public_id_forget_derived_keys(void);
extern bool uuidv7_public_id_preloaded(void);
extern const char *uuidv7_public_id_key_file(void);
extern bool uuidv7_may_see_key_state(void);
extern const PublicIdKeys *uuidv7_public_id_newest_keys(const char **refused);
extern bool uuidv7_public_id_keys_taken(void);
extern const PublicIdKeys *uuidv7_public_id_transaction_keys(uint64 *generation);

#endif							/* UUIDV7_PUBLIC_ID_H */
