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
 * The keys (uuidv7.public_id_keys) are set only in the server's
 * configuration files and read only by the superuser, and even then SHOW
 * gives fingerprints: members of pg_read_all_settings read superuser-only
 * settings, and values set for a database or role are stored where every
 * role reads them.  Before the library is loaded a setting in
 * postgresql.conf is a placeholder that any role can read, so the functions
 * work only when the library is preloaded.  Messages never carry a key: the
 * check hook words its own, and a log hook rewrites the postmaster's
 * "parameter changed" line and withholds statements that name the setting.
 *
 * IDENTIFICATION
 *	  src/public_id.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "tcop/tcopprot.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "ff1.h"
#include "siphash.h"
#include "uuidv7.h"

#define PUBLIC_ID_KEYS_GUC		"uuidv7.public_id_keys"
#define PUBLIC_ID_KEY_BYTES		16
#define PUBLIC_ID_MAX_KEYS		16

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

typedef struct PublicIdKey
{
	uint8		bytes[PUBLIC_ID_KEY_BYTES];
	char		fingerprint[9]; /* 8 hex digits */
} PublicIdKey;

/* the parsed keys: the setting's "extra" (src/compat.h uuidv7_guc_malloc) */
typedef struct PublicIdKeys
{
	int			nkeys;
	PublicIdKey keys[FLEXIBLE_ARRAY_MEMBER];
} PublicIdKeys;

/* GUC uuidv7.public_id_scheme */
static int	public_id_scheme = PUBLIC_ID_FF1;

/* GUC uuidv7.public_id_keys: the raw string, which nothing here shows */
static char *public_id_keys_string = NULL;

/* the keys in use, and a count of their changes (for the FF1 cache) */
static const PublicIdKeys *public_id_keys = NULL;
static uint64 public_id_keys_generation = 0;

/* why the configuration files' last value was refused, if it was */
static char public_id_keys_refused[128] = "";

/* was the library loaded by shared_preload_libraries? */
static bool public_id_preloaded = false;

static emit_log_hook_type prev_emit_log_hook = NULL;

#ifdef UUIDV7_USE_OPENSSL
/* FF1's domain: 122 binary numerals (set up by uuidv7_public_id_init) */
static FF1Domain public_id_domain;
#endif

/*
 * A fingerprint of a key that reveals nothing of it: the first 32 bits of
 * SipHash-2-4, under the key, of a fixed message.
 */
static void
set_fingerprint(PublicIdKey *key)
{
	static const char message[] = "uuidv7 public id key fingerprint";
	uint64		hash = siphash24(key->bytes, (const uint8 *) message,
								 sizeof(message) - 1);

	snprintf(key->fingerprint, sizeof(key->fingerprint), "%08x",
			 (unsigned int) (hash >> 32));
}

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Parse "key[, key...]" into keys; on a malformed key, say which in *why
 * (never what it holds) and return false.
 */
static bool
parse_public_id_keys(const char *value, PublicIdKeys *keys, char *why, size_t whylen)
{
	const char *p = value;
	int			nkeys = 0;

	keys->nkeys = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0')
		return true;

	for (;;)
	{
		PublicIdKey *key;
		int			digits = 0;

		if (nkeys == PUBLIC_ID_MAX_KEYS)
		{
			snprintf(why, whylen, "more than %d keys are given", PUBLIC_ID_MAX_KEYS);
			return false;
		}
		key = &keys->keys[nkeys++];
		while (*p == ' ' || *p == '\t')
			p++;
		while (hex_value(*p) >= 0)
		{
			if (digits < 2 * PUBLIC_ID_KEY_BYTES)
			{
				if (digits % 2 == 0)
					key->bytes[digits / 2] = hex_value(*p) << 4;
				else
					key->bytes[digits / 2] |= hex_value(*p);
			}
			digits++;
			p++;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (digits != 2 * PUBLIC_ID_KEY_BYTES || (*p != ',' && *p != '\0'))
		{
			snprintf(why, whylen, "key %d is not 32 hexadecimal digits", nkeys);
			return false;
		}
		set_fingerprint(key);
		if (*p == '\0')
			break;
		p++;
	}
	keys->nkeys = nkeys;
	return true;
}

static bool
check_public_id_keys(char **newval, void **extra, GucSource source)
{
	PublicIdKeys *keys;
	char		why[96];

	/* only the configuration files keep a key from other roles */
	if (source != PGC_S_DEFAULT && source != PGC_S_FILE)
	{
		GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
		GUC_check_errmsg("%s can be set only in the server's configuration files",
						 PUBLIC_ID_KEYS_GUC);
		GUC_check_errdetail("Values set for a database, a role or on the command line are visible to other roles.");
		return false;
	}

	keys = uuidv7_guc_malloc(offsetof(PublicIdKeys, keys) +
							 PUBLIC_ID_MAX_KEYS * sizeof(PublicIdKey));
	if (keys == NULL)
		return false;
	if (!parse_public_id_keys(*newval ? *newval : "", keys, why, sizeof(why)))
	{
		explicit_bzero(keys, offsetof(PublicIdKeys, keys) +
					   PUBLIC_ID_MAX_KEYS * sizeof(PublicIdKey));
		uuidv7_guc_free(keys);
		if (source == PGC_S_FILE)
			snprintf(public_id_keys_refused, sizeof(public_id_keys_refused), "%s", why);
		GUC_check_errcode(ERRCODE_INVALID_PARAMETER_VALUE);
		GUC_check_errmsg("invalid value for parameter \"%s\": %s",
						 PUBLIC_ID_KEYS_GUC, why);
		GUC_check_errhint("Give one or more keys of 32 hexadecimal digits, separated by commas.");
		return false;
	}
	if (source == PGC_S_FILE)
		public_id_keys_refused[0] = '\0';
	*extra = keys;
	return true;
}

static void
assign_public_id_keys(const char *newval pg_attribute_unused(), void *extra)
{
	public_id_keys = (const PublicIdKeys *) extra;
	public_id_keys_generation++;
}

/* SHOW, current_setting() and the log: the fingerprints, never the keys */
static const char *
show_public_id_keys(void)
{
	static char shown[PUBLIC_ID_MAX_KEYS * 9 + 32];
	const PublicIdKeys *keys = public_id_keys;
	int			len;

	if (keys == NULL || keys->nkeys == 0)
		return "";
	/* (room for all: 9 bytes a key) */
	len = snprintf(shown, sizeof(shown), "fingerprints ");
	for (int i = 0; i < keys->nkeys; i++)
		len += snprintf(shown + len, sizeof(shown) - len, "%s%s",
						i > 0 ? "," : "", keys->keys[i].fingerprint);
	return shown;
}

/* Does text mention the keys' setting (in any case)? */
static bool
names_public_id_keys(const char *text)
{
	static const char name[] = "public_id_keys";

	for (const char *p = text; *p; p++)
		if (pg_strncasecmp(p, name, sizeof(name) - 1) == 0)
			return true;
	return false;
}

/*
 * Keep keys out of the server log.  On a reload the postmaster logs each
 * changed setting with its new value: give the fingerprints instead.  A
 * statement that names the setting (ALTER SYSTEM) is withheld wherever the
 * log would repeat it.
 */
static void
public_id_emit_log(ErrorData *edata)
{
	if (edata->message_id != NULL && edata->message != NULL &&
		strcmp(edata->message_id, "parameter \"%s\" changed to \"%s\"") == 0 &&
		names_public_id_keys(edata->message))
	{
		edata->message = MemoryContextStrdup(ErrorContext,
											 psprintf("parameter \"%s\" changed to \"%s\"",
													  PUBLIC_ID_KEYS_GUC,
													  show_public_id_keys()));
	}
	else if (debug_query_string != NULL && names_public_id_keys(debug_query_string))
	{
		edata->hide_stmt = true;
		if (edata->message != NULL && strstr(edata->message, debug_query_string) != NULL)
			edata->message = MemoryContextStrdup(ErrorContext,
												 "statement: (it names uuidv7.public_id_keys, so uuidv7 withholds it from the log)");
	}

	if (prev_emit_log_hook)
		prev_emit_log_hook(edata);
}

/* Define the settings and the log hook; called once per load. */
void
uuidv7_public_id_init(void)
{
	public_id_preloaded = process_shared_preload_libraries_in_progress;

	DefineCustomEnumVariable("uuidv7.public_id_scheme",
							 "Sets the scheme that makes public ids of UUIDv7 keys.",
							 "ff1 (FF1 with AES over all variable bits) or uuidv47 (wire-compatible with the uuidv47 libraries).",
							 &public_id_scheme,
							 PUBLIC_ID_FF1,
							 public_id_scheme_options,
							 PGC_SUSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomStringVariable(PUBLIC_ID_KEYS_GUC,
							   "Sets the keys of public ids: 32 hexadecimal digits each, comma-separated, the first making new ones.",
							   "Set only in the server's configuration files; shown as fingerprints.",
							   &public_id_keys_string,
							   "",
							   PGC_SIGHUP,
							   GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							   check_public_id_keys,
							   assign_public_id_keys,
							   show_public_id_keys);

	prev_emit_log_hook = emit_log_hook;
	emit_log_hook = public_id_emit_log;

#ifdef UUIDV7_USE_OPENSSL
	if (!ff1_domain(&public_id_domain, 2, PUBLIC_ID_BITS))
		elog(ERROR, "FF1 cannot take %d binary numerals", PUBLIC_ID_BITS);
#endif
}

/* The keys to use, or an error saying why there are none. */
static const PublicIdKeys *
usable_keys(void)
{
	if (!public_id_preloaded)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("public ids need uuidv7 in shared_preload_libraries"),
				 errdetail("Until the library is loaded, a key in the configuration files is a placeholder that every role can read."),
				 errhint("Add uuidv7 to shared_preload_libraries and restart the server.")));
	if (public_id_keys == NULL || public_id_keys->nkeys == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("no key for public ids is set"),
				 public_id_keys_refused[0] != '\0' ?
				 errdetail("The value of %s in the configuration files was refused: %s.",
						   PUBLIC_ID_KEYS_GUC, public_id_keys_refused) : 0,
				 errhint("Set %s in the server's configuration files (ALTER SYSTEM) and reload them.",
						 PUBLIC_ID_KEYS_GUC)));
#ifndef UUIDV7_USE_OPENSSL
	if (public_id_scheme == PUBLIC_ID_FF1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("public id scheme \"ff1\" is not available"),
				 errdetail("uuidv7 was built without OpenSSL, which provides its AES."),
				 errhint("Build uuidv7 against a PostgreSQL built with OpenSSL.")));
#endif
	return public_id_keys;
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
ff1_key(const PublicIdKeys *keys, int i)
{
	if (ff1_keys_generation != public_id_keys_generation || ff1_nkeys == 0)
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
		ff1_keys_generation = public_id_keys_generation;
	}
	return ff1_keys[i];
}

/* FF1 over the variable bits, from one version to the other */
static void
ff1_map(const PublicIdKeys *keys, int i, const pg_uuid_t *in, pg_uuid_t *out,
		bool decrypt)
{
	uint64		a;
	uint64		b;

	uuid_to_halves(in, &a, &b);
	if (!ff1_crypt(ff1_key(keys, i), &public_id_domain, NULL, 0, &a, &b, decrypt))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not encrypt a public id")));
	halves_to_uuid(a, b, decrypt ? 7 : 4, out);
}
#endif							/* UUIDV7_USE_OPENSSL */

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
public_id_map(const PublicIdKeys *keys, int i, const pg_uuid_t *in,
			  pg_uuid_t *out, bool to_public)
{
	if (public_id_scheme == PUBLIC_ID_UUIDV47)
		uuidv47_map(keys, i, in, out, to_public ? 4 : 7);
	else
#ifdef UUIDV7_USE_OPENSSL
		ff1_map(keys, i, in, out, !to_public);
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

	check_version(in, to_public ? 7 : 4);
	public_id_map(usable_keys(), 0, in, result, to_public);
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
	Datum	   *candidates;

	check_version(public_id, 4);
	keys = usable_keys();
	candidates = palloc(keys->nkeys * sizeof(Datum));
	for (int i = 0; i < keys->nkeys; i++)
	{
		pg_uuid_t  *candidate = palloc(sizeof(pg_uuid_t));

		public_id_map(keys, i, public_id, candidate, false);
		candidates[i] = UUIDPGetDatum(candidate);
	}
	PG_RETURN_ARRAYTYPE_P(construct_array(candidates, keys->nkeys, UUIDOID,
										  UUID_LEN, false, TYPALIGN_CHAR));
}

/*
 * What uuidv7_doctor() reports of public ids: whether the library was
 * preloaded, the scheme, the fingerprints of the keys in use (never the
 * keys), why the configuration files' value was refused, and whether the
 * ff1 scheme can run here.
 */
PG_FUNCTION_INFO_V1(uuidv7_public_id_state);

Datum
uuidv7_public_id_state(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};
	const PublicIdKeys *keys = public_id_keys;
	int			nkeys = keys ? keys->nkeys : 0;
	Datum	   *fingerprints = palloc(Max(nkeys, 1) * sizeof(Datum));

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	for (int i = 0; i < nkeys; i++)
		fingerprints[i] = CStringGetTextDatum(keys->keys[i].fingerprint);
	values[0] = BoolGetDatum(public_id_preloaded);
	values[1] = CStringGetTextDatum(public_id_scheme == PUBLIC_ID_FF1 ? "ff1" : "uuidv47");
	values[2] = PointerGetDatum(construct_array(fingerprints, nkeys, TEXTOID, -1, false,
												TYPALIGN_INT));
	if (public_id_keys_refused[0] != '\0')
		values[3] = CStringGetTextDatum(public_id_keys_refused);
	else
		nulls[3] = true;
#ifdef UUIDV7_USE_OPENSSL
	values[4] = BoolGetDatum(true);
#else
	values[4] = BoolGetDatum(false);
#endif
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
