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
 * The keys come from a key file that uuidv7.public_id_key_file names and
 * that only the server's OS user can read, with the permissions PostgreSQL
 * demands of ssl_key_file; one key a line, for a database or for any
 * database ("*").  Keys typed into SQL would be seen by whoever reads
 * pg_stat_activity, pg_stat_statements or the log; a key file is read by
 * the server, at start and at every reload, and by nothing else.  Each
 * session uses its own database's keys, so that a database's owner cannot
 * decode another database's public ids.  What anybody is shown of the keys
 * is a fingerprint, and only superusers and members of
 * pg_read_all_settings are shown even that.  Key bytes are wiped from
 * memory when they are replaced, and no message ever carries one.
 *
 * IDENTIFICATION
 *	  src/public_id.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/htup_details.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"	/* get_database_name (before 19) */
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "compat.h"
#include "ff1.h"
#include "siphash.h"
#include "uuidv7.h"

#define PUBLIC_ID_KEY_FILE_GUC	"uuidv7.public_id_key_file"
#define PUBLIC_ID_KEY_BYTES		16
/* keys of one database, and lines of a key file */
#define PUBLIC_ID_MAX_KEYS		16
#define PUBLIC_ID_MAX_LINES		1024
#define PUBLIC_ID_MAX_FILE_SIZE	(256 * 1024)

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

/* the keys of one database, in the key file's order */
typedef struct PublicIdKeys
{
	int			nkeys;
	PublicIdKey keys[PUBLIC_ID_MAX_KEYS];
} PublicIdKeys;

/* a line of the key file */
typedef struct PublicIdKeyLine
{
	char		database[NAMEDATALEN];	/* "*": any database without lines */
	PublicIdKey key;
} PublicIdKeyLine;

typedef struct PublicIdKeyFile
{
	int			nlines;
	PublicIdKeyLine lines[PUBLIC_ID_MAX_LINES];
} PublicIdKeyFile;

/* GUC uuidv7.public_id_scheme */
static int	public_id_scheme = PUBLIC_ID_FF1;

/* GUC uuidv7.public_id_key_file: where the keys are (not a secret) */
static char *public_id_key_file = NULL;

/*
 * The key file as the postmaster read it last.  Only the postmaster (or a
 * single-user server) reads the file, at start and at each reload, and
 * publishes what it read in shared memory, so that every session and
 * parallel worker uses the keys of the last reload, whenever it handles
 * the reload itself.  Its own copy serves to publish them again when
 * shared memory is made anew (after a crash).  In this process's memory,
 * never the GUC machinery's, so that the bytes of keys replaced are wiped
 * rather than merely freed.
 */
static PublicIdKeyFile loaded_file;
static bool file_loaded = false;

/* why the last reading of the key file was refused, if it was */
static char key_file_refused[256] = "";

/*
 * Was the library loaded by shared_preload_libraries?  Only then is the key
 * file read; a session that loads the library itself reads no key.
 */
static bool public_id_preloaded = false;

/* what the postmaster published: a sequence lock, odd while it writes */
typedef struct PublicIdShared
{
	pg_atomic_uint64 generation;
	bool		loaded;
	char		refused[sizeof(key_file_refused)];
	PublicIdKeyFile file;
} PublicIdShared;

static PublicIdShared *shared_keys = NULL;

#if PG_VERSION_NUM >= 150000
static shmem_request_hook_type prev_shmem_request_hook = NULL;
#endif
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * This session's database's keys, chosen from what was published last
 * (generation 0: not read yet), and the refusal published with them.
 */
static PublicIdKeys database_keys;
static uint64 database_keys_generation = 0;
static char session_refused[sizeof(key_file_refused)] = "";

static void forget_ff1_keys(void);

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

/* the next whitespace-separated word of a line, NUL-terminated in place */
static char *
next_word(char **line)
{
	char	   *word = *line;
	char	   *end;

	while (*word == ' ' || *word == '\t')
		word++;
	if (*word == '\0')
		return NULL;
	end = word;
	while (*end != '\0' && *end != ' ' && *end != '\t')
		end++;
	*line = *end != '\0' ? end + 1 : end;
	*end = '\0';
	return word;
}

/*
 * Whether the key file may hold secrets: the rules PostgreSQL applies to
 * ssl_key_file (be-secure-common.c).  Owned by the server's OS user, no
 * group or other access; owned by root, group read at most.
 */
static bool
key_file_permissions_ok(const struct stat *st, char *why, size_t whylen)
{
	if (!S_ISREG(st->st_mode))
		snprintf(why, whylen, "it is not a regular file");
	else if (st->st_uid != geteuid() && st->st_uid != 0)
		snprintf(why, whylen, "it must be owned by the database server's user or by root");
	else if (st->st_uid == geteuid() && (st->st_mode & (S_IRWXG | S_IRWXO)))
		snprintf(why, whylen, "it has group or world access; owned by the database server's user, it must be u=rw (0600) or less");
	else if (st->st_uid == 0 && (st->st_mode & (S_IWGRP | S_IXGRP | S_IRWXO)))
		snprintf(why, whylen, "it has more than group read access; owned by root, it must be u=rw,g=r (0640) or less");
	else
		return true;
	return false;
}

/*
 * Parse the key file's text: one key a line, "DATABASE KEY", DATABASE a
 * database's name or "*", KEY 32 hexadecimal digits; blank lines and lines
 * that start with # are skipped.  On a fault, say where and which rule in
 * *why, never what the line holds.
 */
static bool
parse_key_file(char *contents, PublicIdKeyFile *file, char *why, size_t whylen)
{
	char	   *line = contents;
	int			lineno = 0;
	int			lines[PUBLIC_ID_MAX_LINES];

	file->nlines = 0;
	/* (a byte order mark before the first line is no part of it) */
	if (strncmp(line, "\xEF\xBB\xBF", 3) == 0)
		line += 3;
	while (line != NULL)
	{
		char	   *next = strchr(line, '\n');
		char	   *database;
		char	   *hex;
		PublicIdKeyLine *entry;

		if (next != NULL)
			*next++ = '\0';
		lineno++;
		if (strchr(line, '\r') != NULL)
			*strchr(line, '\r') = '\0';
		database = next_word(&line);
		if (database == NULL || database[0] == '#')
		{
			line = next;
			continue;
		}
		hex = next_word(&line);
		if (hex == NULL || next_word(&line) != NULL)
		{
			snprintf(why, whylen, "line %d is not a database name and a key", lineno);
			return false;
		}
		if (strlen(database) >= NAMEDATALEN)
		{
			snprintf(why, whylen, "the database name on line %d is longer than %d bytes", lineno, NAMEDATALEN - 1);
			return false;
		}
		if (file->nlines == PUBLIC_ID_MAX_LINES)
		{
			snprintf(why, whylen, "it has more than %d keys", PUBLIC_ID_MAX_LINES);
			return false;
		}
		entry = &file->lines[file->nlines];
		if (strlen(hex) != 2 * PUBLIC_ID_KEY_BYTES)
		{
			snprintf(why, whylen, "the key on line %d is not 32 hexadecimal digits", lineno);
			return false;
		}
		for (int i = 0; i < 2 * PUBLIC_ID_KEY_BYTES; i++)
		{
			int			digit = hex_value(hex[i]);

			if (digit < 0)
			{
				snprintf(why, whylen, "the key on line %d is not 32 hexadecimal digits", lineno);
				return false;
			}
			if (i % 2 == 0)
				entry->key.bytes[i / 2] = digit << 4;
			else
				entry->key.bytes[i / 2] |= digit;
		}
		snprintf(entry->database, NAMEDATALEN, "%s", database);
		set_fingerprint(&entry->key);
		lines[file->nlines++] = lineno;
		line = next;
	}

	/* no database may have more keys than a session uses */
	for (int i = 0; i < file->nlines; i++)
	{
		int			count = 0;

		for (int j = 0; j < file->nlines; j++)
			if (strcmp(file->lines[i].database, file->lines[j].database) == 0)
				count++;
		if (count > PUBLIC_ID_MAX_KEYS)
		{
			snprintf(why, whylen, "the database of line %d has more than %d keys", lines[i],
					 PUBLIC_ID_MAX_KEYS);
			return false;
		}
	}
	if (file->nlines == 0)
	{
		snprintf(why, whylen, "it holds no key");
		return false;
	}
	return true;
}

/*
 * Read and parse the key file into *file.  Errors come back in *why, not as
 * ERRORs: this runs in the GUC machinery's assign hook, in the postmaster
 * too.  Every copy of the file's text is wiped before it is freed.
 */
static bool
read_key_file(const char *path, PublicIdKeyFile *file, char *why, size_t whylen)
{
	int			fd;
	struct stat st;
	char	   *contents;
	ssize_t		nread = 0;
	bool		ok;

	/* (O_NONBLOCK: a FIFO is refused below rather than waited on) */
	fd = open(path, O_RDONLY | O_NONBLOCK | PG_BINARY, 0);
	if (fd < 0)
	{
		snprintf(why, whylen, "could not open it: %s", strerror(errno));
		return false;
	}
	if (fstat(fd, &st) != 0)
	{
		snprintf(why, whylen, "could not stat it: %s", strerror(errno));
		close(fd);
		return false;
	}
	if (!key_file_permissions_ok(&st, why, whylen))
	{
		close(fd);
		return false;
	}
	if (st.st_size > PUBLIC_ID_MAX_FILE_SIZE)
	{
		snprintf(why, whylen, "it is larger than %d bytes", PUBLIC_ID_MAX_FILE_SIZE);
		close(fd);
		return false;
	}
	contents = malloc(st.st_size + 1);
	if (contents == NULL)
	{
		snprintf(why, whylen, "out of memory");
		close(fd);
		return false;
	}
	while (nread < st.st_size)
	{
		ssize_t		n = read(fd, contents + nread, st.st_size - nread);

		if (n <= 0)
			break;
		nread += n;
	}
	close(fd);
	contents[nread] = '\0';
	if (nread != st.st_size || strlen(contents) != (size_t) nread)
	{
		snprintf(why, whylen, "could not read it whole, or it holds a NUL byte");
		ok = false;
	}
	else
		ok = parse_key_file(contents, file, why, whylen);
	explicit_bzero(contents, st.st_size + 1);
	free(contents);
	return ok;
}

/*
 * The postmaster publishes what it read (under the sequence lock: it is the
 * only writer, and never waits for a reader).
 */
static void
publish_keys(void)
{
	if (shared_keys == NULL)
		return;
	pg_atomic_fetch_add_u64(&shared_keys->generation, 1);
	explicit_bzero(&shared_keys->file, sizeof(shared_keys->file));
	if (file_loaded)
		memcpy(&shared_keys->file, &loaded_file, sizeof(loaded_file));
	shared_keys->loaded = file_loaded;
	memcpy(shared_keys->refused, key_file_refused, sizeof(key_file_refused));
	pg_atomic_fetch_add_u64(&shared_keys->generation, 1);
}

/*
 * The assign hook, at start and at each reload (also when the file's name is
 * unchanged: a rotation edits the file).  The postmaster reads the file; a
 * file that is refused leaves the keys in use as they are, and it logs why,
 * once, naming the file and the rule, never what it holds.  A session or a
 * worker forgets its own copy of the keys, which it takes again from what
 * the postmaster published when it next needs them.
 */
static void
assign_public_id_key_file(const char *newval, void *extra pg_attribute_unused())
{
	PublicIdKeyFile *file;
	char		why[200];

	if (IsUnderPostmaster)
	{
		explicit_bzero(&database_keys, sizeof(database_keys));
		database_keys_generation = 0;
		forget_ff1_keys();
		return;
	}
	if (newval == NULL || newval[0] == '\0' || !public_id_preloaded)
	{
		explicit_bzero(&loaded_file, sizeof(loaded_file));
		file_loaded = false;
		key_file_refused[0] = '\0';
		publish_keys();
		return;
	}
	file = malloc(sizeof(PublicIdKeyFile));
	if (file == NULL)
	{
		snprintf(key_file_refused, sizeof(key_file_refused), "out of memory");
		publish_keys();
		return;
	}
	if (read_key_file(newval, file, why, sizeof(why)))
	{
		explicit_bzero(&loaded_file, sizeof(loaded_file));
		memcpy(&loaded_file, file, sizeof(loaded_file));
		file_loaded = true;
		key_file_refused[0] = '\0';
	}
	else
	{
		snprintf(key_file_refused, sizeof(key_file_refused), "%s", why);
		ereport(LOG,
				(errmsg("uuidv7 refused the public id key file \"%s\": %s", newval, why),
				 errdetail(file_loaded ? "The keys read before stay in use." : "Public ids stay off.")));
	}
	explicit_bzero(file, sizeof(PublicIdKeyFile));
	free(file);
	publish_keys();
}

/*
 * A value of the key file's name on the command line outranks the
 * configuration files, so that a reload would never read the file again: it
 * is refused, as are the places PostgreSQL does not already refuse.
 */
static bool
check_public_id_key_file(char **newval pg_attribute_unused(), void **extra pg_attribute_unused(),
						 GucSource source)
{
	if (source == PGC_S_ARGV || source == PGC_S_ENV_VAR)
	{
		GUC_check_errmsg("%s can be set only in the server's configuration files", PUBLIC_ID_KEY_FILE_GUC);
		GUC_check_errdetail("A value given on the command line is never read again at a reload, so the keys could not be rotated.");
		return false;
	}
	return true;
}

#if PG_VERSION_NUM >= 150000
static void
public_id_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(sizeof(PublicIdShared));
}
#endif

/* shared memory made (at start, after a crash): publish the keys read */
static void
public_id_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared_keys = ShmemInitStruct("uuidv7 public id keys", sizeof(PublicIdShared), &found);
	if (!found)
	{
		memset(shared_keys, 0, sizeof(PublicIdShared));
		pg_atomic_init_u64(&shared_keys->generation, 0);
		publish_keys();
	}
	LWLockRelease(AddinShmemInitLock);
}

/* Can the current role be shown anything about the keys? */
static bool
may_see_key_state(void)
{
	return superuser() || has_privs_of_role(GetUserId(), UUIDV7_ROLE_READ_ALL_SETTINGS);
}

/*
 * This session's database's keys: its own lines of the key file the
 * postmaster published last, in their order, or the "*" lines if it has
 * none.  Copied under the sequence lock, again only when a reload changed
 * them.
 */
static const PublicIdKeys *
current_database_keys(void)
{
	static char *database = NULL;
	static bool inherited_wiped = false;
	PublicIdKeys keys;
	char		refused[sizeof(session_refused)];
	uint64		generation;

	/* the postmaster's own copy, which a forked session inherited unused */
	if (IsUnderPostmaster && !inherited_wiped)
	{
		explicit_bzero(&loaded_file, sizeof(loaded_file));
		inherited_wiped = true;
	}
	if (shared_keys == NULL)
		return &database_keys;
	if (database == NULL && OidIsValid(MyDatabaseId))
		database = MemoryContextStrdup(TopMemoryContext, get_database_name(MyDatabaseId));
	generation = pg_atomic_read_u64(&shared_keys->generation);
	if (generation == database_keys_generation)
		return &database_keys;
	for (;;)
	{
		if (generation % 2 == 0)
		{
			keys.nkeys = 0;
			for (int pass = 0; pass < 2 && keys.nkeys == 0; pass++)
				for (int i = 0; shared_keys->loaded && i < shared_keys->file.nlines &&
					 keys.nkeys < PUBLIC_ID_MAX_KEYS; i++)
					if (strcmp(shared_keys->file.lines[i].database,
							   pass == 0 && database ? database : "*") == 0)
						keys.keys[keys.nkeys++] = shared_keys->file.lines[i].key;
			memcpy(refused, shared_keys->refused, sizeof(refused));
			pg_read_barrier();
			if (pg_atomic_read_u64(&shared_keys->generation) == generation)
				break;
		}
		pg_usleep(100);
		generation = pg_atomic_read_u64(&shared_keys->generation);
	}
	explicit_bzero(&database_keys, sizeof(database_keys));
	memcpy(&database_keys, &keys, sizeof(keys));
	explicit_bzero(&keys, sizeof(keys));
	memcpy(session_refused, refused, sizeof(refused));
	database_keys_generation = generation;
	return &database_keys;
}

/*
 * SHOW and pg_settings (for superusers and pg_read_all_settings members,
 * the setting being GUC_SUPERUSER_ONLY): the file, the fingerprints of this
 * database's keys and the last refusal.
 */
static const char *
show_public_id_key_file(void)
{
	static StringInfo shown = NULL;
	const PublicIdKeys *keys;

	if (public_id_key_file == NULL || public_id_key_file[0] == '\0')
		return "";
	if (shown == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		shown = makeStringInfo();
		MemoryContextSwitchTo(old);
	}
	resetStringInfo(shown);
	keys = current_database_keys();
	appendStringInfo(shown, "%s (", public_id_key_file);
	if (keys->nkeys == 0)
		appendStringInfoString(shown, "no key for this database");
	else
	{
		appendStringInfoString(shown, "fingerprints ");
		for (int i = 0; i < keys->nkeys; i++)
			appendStringInfo(shown, "%s%s", i > 0 ? "," : "", keys->keys[i].fingerprint);
	}
	if (session_refused[0] != '\0')
		appendStringInfo(shown, "; last reading refused: %s", session_refused);
	appendStringInfoChar(shown, ')');
	return shown->data;
}

/* Define the settings; called once per load. */
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
	DefineCustomStringVariable(PUBLIC_ID_KEY_FILE_GUC,
							   "Sets the file of the keys of public ids.",
							   "One key a line: a database name or *, then 32 hexadecimal digits. A relative path is relative to the data directory. Empty: public ids are off.",
							   &public_id_key_file,
							   "",
							   PGC_SIGHUP,
							   GUC_SUPERUSER_ONLY,
							   check_public_id_key_file,
							   assign_public_id_key_file,
							   show_public_id_key_file);

	if (public_id_preloaded)
	{
#if PG_VERSION_NUM >= 150000
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = public_id_shmem_request;
#else
		RequestAddinShmemSpace(sizeof(PublicIdShared));
#endif
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = public_id_shmem_startup;
	}

#ifdef UUIDV7_USE_OPENSSL
	if (!ff1_domain(&public_id_domain, 2, PUBLIC_ID_BITS))
		elog(ERROR, "FF1 cannot take %d binary numerals", PUBLIC_ID_BITS);
#endif
}

/* This database's keys, or an error saying why there are none. */
static const PublicIdKeys *
usable_keys(void)
{
	const PublicIdKeys *keys;

	if (!public_id_preloaded)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("public ids need uuidv7 in shared_preload_libraries"),
				 errdetail("Only then does the server read the key file, at start and at each reload."),
				 errhint("Add uuidv7 to shared_preload_libraries and restart the server.")));
	if (public_id_key_file == NULL || public_id_key_file[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("public ids are off"),
				 errdetail("%s is not set.", PUBLIC_ID_KEY_FILE_GUC),
				 errhint("Write a key file (a line \"* KEY\" or \"DATABASE KEY\", KEY from openssl rand -hex 16), readable only by the server's OS user, set %s to it and reload the configuration.",
						 PUBLIC_ID_KEY_FILE_GUC)));
	keys = current_database_keys();
	if (keys->nkeys == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("no key for public ids in this database"),
				 session_refused[0] != '\0' && may_see_key_state() ?
				 errdetail("The key file was refused: %s.", session_refused) : 0,
				 errhint("Add a line for this database, or for \"*\", to the key file that %s names, and reload the configuration.",
						 PUBLIC_ID_KEY_FILE_GUC)));
#ifndef UUIDV7_USE_OPENSSL
	if (public_id_scheme == PUBLIC_ID_FF1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("public id scheme \"ff1\" is not available"),
				 errdetail("uuidv7 was built without OpenSSL, which provides its AES."),
				 errhint("Build uuidv7 against a PostgreSQL built with OpenSSL.")));
#endif
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
ff1_key(const PublicIdKeys *keys, int i)
{
	if (ff1_keys_generation != database_keys_generation || ff1_nkeys == 0)
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
		ff1_keys_generation = database_keys_generation;
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

/* free this session's AES contexts (EVP_CIPHER_CTX_free wipes their keys) */
static void
forget_ff1_keys(void)
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
	Datum	   *fingerprints;

	if (!may_see_key_state())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to see the state of the keys of public ids"),
				 errdetail("Only superusers and members of pg_read_all_settings may see it.")));
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	keys = current_database_keys();
	fingerprints = palloc(Max(keys->nkeys, 1) * sizeof(Datum));
	for (int i = 0; i < keys->nkeys; i++)
		fingerprints[i] = CStringGetTextDatum(keys->keys[i].fingerprint);
	values[0] = BoolGetDatum(public_id_preloaded);
	values[1] = CStringGetTextDatum(public_id_key_file ? public_id_key_file : "");
	values[2] = CStringGetTextDatum(public_id_scheme == PUBLIC_ID_FF1 ? "ff1" : "uuidv47");
	values[3] = PointerGetDatum(construct_array(fingerprints, keys->nkeys, TEXTOID, -1, false,
												TYPALIGN_INT));
	if (session_refused[0] != '\0')
		values[4] = CStringGetTextDatum(session_refused);
	else
		nulls[4] = true;
#ifdef UUIDV7_USE_OPENSSL
	values[5] = BoolGetDatum(true);
#else
	values[5] = BoolGetDatum(false);
#endif
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
