/*-------------------------------------------------------------------------
 *
 * public_id.c
 *	  Public ids: a keyed, reversible face of a UUIDv7 that looks like a
 *	  random version 4 UUID and hides when the row was made.
 *
 * Two schemes, chosen by uuidv7.public_id_scheme:
 *
 *	 ff1	  FF1 (NIST SP 800-38G) with AES-128 over all 122 variable bits of
 *			  the v7 (radix 2), written into the variable bits of a version 4
 *			  layout: no bit of the stored id shows through, and ids made
 *			  under two keys cannot be linked.
 *	 uuidv47  the uuidv47 reference's scheme, for applications that use its
 *			  libraries: the 48-bit time XORed with a SipHash-2-4 of the 74
 *			  other variable bits, which go out as they are.
 *
 * The keys, and the key set each transaction uses, are src/public_id_keys.c's.
 * The functions are PARALLEL RESTRICTED: a parallel worker could take its
 * keys after a reload the leader's transaction had not seen.
 *
 * IDENTIFICATION
 *	  src/public_id.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "compat.h"
#include "ff1.h"
#include "public_id.h"
#include "siphash.h"
#include "uuidv7.h"

/* FF1 over the 122 variable bits: two halves of 61 */
#define PUBLIC_ID_BITS			122
#define HALF_BITS				61
#define HALF_MASK				((UINT64CONST(1) << HALF_BITS) - 1)

typedef enum PublicIdScheme
{
	PUBLIC_ID_FF1,
	PUBLIC_ID_UUIDV47
} PublicIdScheme;

static const struct config_enum_entry public_id_scheme_options[] = {
	{"ff1", PUBLIC_ID_FF1, false},
	{"uuidv47", PUBLIC_ID_UUIDV47, false},
	{NULL, 0, false}
};

/* GUC uuidv7.public_id_scheme */
static int	public_id_scheme = PUBLIC_ID_FF1;

/*
 * The scheme of this transaction's ids: the setting's at its first public
 * id, taken with its keys.
 */
static int	transaction_scheme = PUBLIC_ID_FF1;

static const char *
scheme_name(int scheme)
{
	return scheme == PUBLIC_ID_FF1 ? "ff1" : "uuidv47";
}

#ifdef UUIDV7_USE_OPENSSL
/* FF1's domain: 122 binary numerals (set up by uuidv7_public_id_init) */
static FF1Domain public_id_domain;
#endif

/* Define the settings; called once per load. */
void
uuidv7_public_id_init(void)
{
	DefineCustomEnumVariable("uuidv7.public_id_scheme",
							 "Sets the scheme that makes public ids of UUIDv7 keys.",
							 "ff1 (FF1 with AES over all variable bits) or uuidv47 (wire-compatible with the uuidv47 libraries).",
							 &public_id_scheme,
							 PUBLIC_ID_FF1,
							 public_id_scheme_options,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);
	uuidv7_public_id_keys_init();

#ifdef UUIDV7_USE_OPENSSL
	if (!ff1_domain(&public_id_domain, 2, PUBLIC_ID_BITS))
		elog(ERROR, "FF1 cannot take %d binary numerals", PUBLIC_ID_BITS);
#endif
}

/*
 * This transaction's keys of this database, and their generation, or an
 * error saying why there are none.  Once it has taken them, they are its
 * keys to its end, whatever a reload does to the settings meanwhile.
 */
static const PublicIdKeys *
usable_keys(uint64 *generation)
{
	const PublicIdKeys *keys;

	/*
	 * (the functions are PARALLEL RESTRICTED, so that a statement's ids are
	 * made on the keys of one transaction; a function of the user's marked
	 * PARALLEL SAFE that calls them would let a worker take others)
	 */
	if (IsParallelWorker())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("cannot make or read public ids in a parallel worker"),
				 errhint("Mark a function that calls the public id functions PARALLEL RESTRICTED, as they are.")));
	if (!uuidv7_public_id_preloaded())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("public ids need uuidv7 in shared_preload_libraries"),
				 errdetail("Only then does the server read the key file, at start and at each reload."),
				 errhint("Add uuidv7 to shared_preload_libraries and restart the server.")));
	if (!uuidv7_public_id_keys_taken() && uuidv7_public_id_key_file()[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("public ids are off"),
				 errdetail("%s is not set.", PUBLIC_ID_KEY_FILE_GUC),
				 errhint("Write a key file (a line \"* KEY\" or \"DATABASE KEY\", KEY from openssl rand -hex 16), readable only by the server's OS user, set %s to it and reload the configuration.",
						 PUBLIC_ID_KEY_FILE_GUC)));
#ifndef UUIDV7_USE_OPENSSL
	if (public_id_scheme == PUBLIC_ID_FF1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("public id scheme \"ff1\" is not available"),
				 errdetail("uuidv7 was built without OpenSSL, which provides its AES."),
				 errhint("Build uuidv7 against a PostgreSQL built with OpenSSL.")));
#endif

	/*
	 * A scheme other than the one the transaction's ids were made or read
	 * with (a reload, a SET, a function's SET clause, a SET LOCAL rolled back
	 * since) is refused rather than followed or ignored: either way an id
	 * would not read back.
	 */
	if (!uuidv7_public_id_keys_taken())
		transaction_scheme = public_id_scheme;
	else if (transaction_scheme != public_id_scheme)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uuidv7.public_id_scheme changed in the middle of a transaction"),
				 errdetail("This transaction took scheme \"%s\" at its first public id (made, read, or evaluated by the planner), which ids of scheme \"%s\" would not match.",
						   scheme_name(transaction_scheme), scheme_name(public_id_scheme)),
				 errhint("Change the scheme between transactions.")));
	keys = uuidv7_public_id_transaction_keys(generation);
	if (keys->nkeys == 0)
	{
		const char *refused;

		(void) uuidv7_public_id_newest_keys(&refused);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("no key for public ids in this database"),
				 refused[0] != '\0' && uuidv7_may_see_key_state() ?
				 errdetail("The key file was refused: %s.", refused) : 0,
				 errhint("Add a line for this database, or for \"*\", to the key file that %s names, and reload the configuration.",
						 PUBLIC_ID_KEY_FILE_GUC)));
	}
	return keys;
}

#ifdef UUIDV7_USE_OPENSSL
/*
 * The 122 variable bits of a UUID of version 4 or 7, the number
 * unix_ts_ms || rand_a || rand_b (the tick, then rand_b), as FF1's two
 * halves of 61 bits.
 */
static void
uuid_to_halves(const pg_uuid_t *uuid, uint64 *a, uint64 *b)
{
	uint64		tick;
	uint64		rand_b;

	uuidv7_unpack(uuid, &tick, &rand_b);
	*a = (tick << 1) | (rand_b >> HALF_BITS);
	*b = rand_b & HALF_MASK;
}

/* the inverse, as a UUID of the version given */
static void
halves_to_uuid(uint64 a, uint64 b, int version, pg_uuid_t *uuid)
{
	uuidv7_pack_version(uuid, version, a >> 1, ((a & 1) << HALF_BITS) | b);
}

/* this backend's AES contexts of the keys in use */
static FF1Key *ff1_keys[PUBLIC_ID_MAX_KEYS];
static int	ff1_nkeys = 0;
static uint64 ff1_keys_generation = 0;

static FF1Key *
ff1_key(const PublicIdKeys *keys, uint64 generation, int i)
{
	if (ff1_keys_generation != generation || ff1_nkeys == 0)
	{
		for (int k = 0; k < ff1_nkeys; k++)
			ff1_free_key(ff1_keys[k]);
		ff1_nkeys = 0;
		for (int k = 0; k < keys->nkeys; k++)
		{
			ff1_keys[k] = ff1_new_key(keys->keys[k].bytes, PUBLIC_ID_KEY_BYTES);
			if (ff1_keys[k] == NULL)
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("could not set up AES for public ids")));
			ff1_nkeys = k + 1;
		}
		ff1_keys_generation = generation;
	}
	return ff1_keys[i];
}

/* FF1 over the variable bits, from one version to the other */
static void
ff1_map(const PublicIdKeys *keys, uint64 generation, int i, const pg_uuid_t *in, pg_uuid_t *out,
		bool decrypt)
{
	uint64		a;
	uint64		b;

	uuid_to_halves(in, &a, &b);
	if (!ff1_crypt(ff1_key(keys, generation, i), &public_id_domain, NULL, 0, &a, &b, decrypt))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not encrypt a public id")));
	halves_to_uuid(a, b, decrypt ? 7 : 4, out);
}
#endif							/* UUIDV7_USE_OPENSSL */

/*
 * Free this session's AES contexts (EVP_CIPHER_CTX_free wipes their keys),
 * when a transaction ends or a reload replaces the keys.
 */
void
uuidv7_public_id_forget_derived_keys(void)
{
#ifdef UUIDV7_USE_OPENSSL
	for (int k = 0; k < ff1_nkeys; k++)
		ff1_free_key(ff1_keys[k]);
	ff1_nkeys = 0;
#endif
}

/* uuidv47: the time XORed with a SipHash of the other variable bits */
static void
uuidv47_map(const PublicIdKeys *keys, int i, const pg_uuid_t *in, pg_uuid_t *out,
			int version)
{
	uint8		msg[10];
	uint64		mask;
	uint64		tick;
	uint64		rand_b;

	/* the 74 bits that stay, as the reference hashes them */
	msg[0] = in->data[6] & 0x0f;
	msg[1] = in->data[7];
	msg[2] = in->data[8] & 0x3f;
	memcpy(msg + 3, in->data + 9, 7);
	mask = siphash24(keys->keys[i].bytes, msg, sizeof(msg));

	/* the low 48 bits of the hash XORed into unix_ts_ms */
	uuidv7_unpack(in, &tick, &rand_b);
	tick ^= (mask & UUIDV7_MAX_UNIX_MS) << UUIDV7_SUBMS_BITS;
	uuidv7_pack_version(out, version, tick, rand_b);
}

static void
public_id_map(const PublicIdKeys *keys, uint64 generation pg_attribute_unused(), int i,
			  const pg_uuid_t *in, pg_uuid_t *out, bool to_public)
{
	if (transaction_scheme == PUBLIC_ID_UUIDV47)
		uuidv47_map(keys, i, in, out, to_public ? 4 : 7);
	else
#ifdef UUIDV7_USE_OPENSSL
		ff1_map(keys, generation, i, in, out, !to_public);
#else
		pg_unreachable();		/* usable_keys() refused the scheme */
#endif
}

/* refuse a UUID that is not of this version and the RFC variant */
static void
check_version(const pg_uuid_t *uuid, int version)
{
	char	   *printed;

	if (uuidv7_is_rfc_variant(uuid) && uuidv7_version(uuid) == version)
		return;
	printed = DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(uuid)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 version == 7 ?
			 errmsg("only a version 7 UUID has a public id") :
			 errmsg("a public id is a version 4 UUID"),
			 uuidv7_is_rfc_variant(uuid) ?
			 errdetail("\"%s\" is of version %d.", printed, uuidv7_version(uuid)) :
			 errdetail("\"%s\" is not of the RFC 9562 variant.", printed)));
}

/* the public id of a v7, or the v7 of a public id, under the first key */
static pg_uuid_t *
map_under_first_key(const pg_uuid_t *in, bool to_public)
{
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));
	const PublicIdKeys *keys;
	uint64		generation;

	check_version(in, to_public ? 7 : 4);
	keys = usable_keys(&generation);
	public_id_map(keys, generation, 0, in, result, to_public);
	return result;
}

PG_FUNCTION_INFO_V1(uuidv7_to_public);

Datum
uuidv7_to_public(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(map_under_first_key(PG_GETARG_UUID_P(0), true));
}

PG_FUNCTION_INFO_V1(uuidv7_from_public);

Datum
uuidv7_from_public(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(map_under_first_key(PG_GETARG_UUID_P(0), false));
}

PG_FUNCTION_INFO_V1(uuidv7_from_public_all);

Datum
uuidv7_from_public_all(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *public_id = PG_GETARG_UUID_P(0);
	const PublicIdKeys *keys;
	uint64		generation;
	Datum	   *candidates;

	check_version(public_id, 4);
	keys = usable_keys(&generation);
	candidates = palloc(keys->nkeys * sizeof(Datum));
	for (int i = 0; i < keys->nkeys; i++)
	{
		pg_uuid_t  *candidate = palloc(sizeof(pg_uuid_t));

		public_id_map(keys, generation, i, public_id, candidate, false);
		candidates[i] = UUIDPGetDatum(candidate);
	}
	PG_RETURN_ARRAYTYPE_P(construct_array(candidates, keys->nkeys, UUIDOID,
										  UUID_LEN, false, TYPALIGN_CHAR));
}

/*
 * What uuidv7_doctor() reports of public ids, to superusers and members of
 * pg_read_all_settings only: whether uuidv7 was preloaded, the key file, the scheme, the fingerprints of
 * this database's keys (never the keys), why the last reading of the file
 * was refused, and whether the ff1 scheme can run here.
 */
PG_FUNCTION_INFO_V1(uuidv7_public_id_state);

Datum
uuidv7_public_id_state(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[6];
	bool		nulls[6] = {false, false, false, false, false, false};
	const PublicIdKeys *keys;
	const char *refused;
	Datum	   *fingerprints;

	if (!uuidv7_may_see_key_state())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to see the state of the keys of public ids"),
				 errdetail("Only superusers and members of pg_read_all_settings may see it.")));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	keys = uuidv7_public_id_newest_keys(&refused);
	fingerprints = palloc(Max(keys->nkeys, 1) * sizeof(Datum));
	for (int i = 0; i < keys->nkeys; i++)
		fingerprints[i] = CStringGetTextDatum(keys->keys[i].fingerprint);
	values[0] = BoolGetDatum(uuidv7_public_id_preloaded());
	values[1] = CStringGetTextDatum(uuidv7_public_id_key_file());
	values[2] = CStringGetTextDatum(scheme_name(public_id_scheme));
	values[3] = PointerGetDatum(construct_array(fingerprints, keys->nkeys, TEXTOID, -1, false,
												TYPALIGN_INT));
	if (refused[0] != '\0')
		values[4] = CStringGetTextDatum(refused);
	else
		nulls[4] = true;
#ifdef UUIDV7_USE_OPENSSL
	values[5] = BoolGetDatum(true);
#else
	values[5] = BoolGetDatum(false);
#endif
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
