/*-------------------------------------------------------------------------
 *
 * public_id_keys.c
 *	  The keys of public ids: the key file read and checked, and the key set
 *	  each transaction uses.
 *
 * The keys come from a file that uuidv7.public_id_key_file names and that
 * only the server's OS user can read (the rules of ssl_key_file), never
 * from SQL text, which pg_stat_activity, pg_stat_statements and the log
 * would show.  One key a line, for a database or for any database ("*"):
 * a database's owner cannot decode another database's public ids.  What
 * anybody is shown of a key is a fingerprint, and only superusers and
 * members of pg_read_all_settings are shown even that.
 *
 * The keys are kept as PostgreSQL keeps its TLS key: the file is read and
 * checked at start and at each reload, in the postmaster and in every
 * backend, into memory private to the process, and put in use only when it
 * is accepted whole; a process inherits the postmaster's keys when it
 * starts.  Once a backend first needs a key it keeps its database's lines
 * alone.  Keys are wiped wherever they are replaced or dropped, and their
 * memory is left out of core dumps where the platform allows.
 *
 * IDENTIFICATION
 *	  src/public_id_keys.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/parallel.h"
#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "commands/dbcommands.h"	/* get_database_name (before 19) */
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "compat.h"
#include "public_id.h"
#include "siphash.h"

#define PUBLIC_ID_MAX_LINES		1024
#define PUBLIC_ID_MAX_FILE_SIZE	(256 * 1024)

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

/*
 * Every key this process holds, in one mapping left out of core dumps: the
 * file accepted last (wiped once the database's keys are taken out of it),
 * a reading being checked, the database's keys, the transaction's, and the
 * file's text while it is parsed.
 */
typedef struct KeyMemory
{
	PublicIdKeyFile file;
	PublicIdKeyFile reading;
	PublicIdKeys database;
	PublicIdKeys transaction;
	char		contents[PUBLIC_ID_MAX_FILE_SIZE + 1];
} KeyMemory;

/* NULL unless preloaded: only then is the key file read */
static KeyMemory *keys = NULL;

/* GUC uuidv7.public_id_key_file: where the keys are (not a secret) */
static char *public_id_key_file = NULL;

/* why the last reading was refused ("" if it was not) */
static char key_file_refused[256] = "";

/* counts the readings accepted: the mapping of ids sets up its AES again */
static uint64 keys_generation = 0;

/* whether keys->database holds this database's keys, and its name */
static bool database_chosen = false;
static char *database_name = NULL;

/* the generation of the keys this transaction took (keys->transaction) */
static uint64 transaction_keys_generation = 0;

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

/*
 * Whether the key file may hold secrets: the rules PostgreSQL applies to
 * ssl_key_file (be-secure-common.c).  Owned by the server's OS user, no
 * group or other access; owned by root, group read at most.  And whether
 * it is of a size worth reading.
 */
static bool
key_file_acceptable(const struct stat *st, char *why, size_t whylen)
{
	if (!S_ISREG(st->st_mode))
		snprintf(why, whylen, "it is not a regular file");
	else if (st->st_uid != geteuid() && st->st_uid != 0)
		snprintf(why, whylen, "it must be owned by the database server's user or by root");
	else if (st->st_uid == geteuid() && (st->st_mode & (S_IRWXG | S_IRWXO)))
		snprintf(why, whylen, "it has group or world access; owned by the database server's user, it must be u=rw (0600) or less");
	else if (st->st_uid == 0 && (st->st_mode & (S_IWGRP | S_IXGRP | S_IRWXO)))
		snprintf(why, whylen, "it has more than group read access; owned by root, it must be u=rw,g=r (0640) or less");
	else if (st->st_size > PUBLIC_ID_MAX_FILE_SIZE)
		snprintf(why, whylen, "it is larger than %d bytes", PUBLIC_ID_MAX_FILE_SIZE);
	else
		return true;
	return false;
}

/*
 * Parse one line of the key file, "DATABASE KEY" (DATABASE a database's name
 * or "*", KEY 32 hexadecimal digits), into *entry; false, with why, if it is
 * none.
 */
static bool
parse_key_line(const char *line, int lineno, PublicIdKeyLine *entry, char *why, size_t whylen)
{
	char		database[256];
	char		hex[80];
	char		more[2];
	int			words = sscanf(line, "%255s %79s %1s", database, hex, more);
	bool		ok = false;

	if (words != 2)
		snprintf(why, whylen, "line %d is not a database name and a key", lineno);
	else if (strlen(database) >= NAMEDATALEN)
		snprintf(why, whylen, "the database name on line %d is longer than %d bytes", lineno, NAMEDATALEN - 1);
	else if (strlen(hex) != 2 * PUBLIC_ID_KEY_BYTES ||
			 strspn(hex, "0123456789abcdefABCDEF") != 2 * PUBLIC_ID_KEY_BYTES)
		snprintf(why, whylen, "the key on line %d is not 32 hexadecimal digits", lineno);
	else
	{
		for (int i = 0; i < PUBLIC_ID_KEY_BYTES; i++)
		{
			unsigned int byte;

			(void) sscanf(hex + 2 * i, "%2x", &byte);
			entry->key.bytes[i] = byte;
		}
		snprintf(entry->database, NAMEDATALEN, "%s", database);
		set_fingerprint(&entry->key);
		ok = true;
	}
	explicit_bzero(hex, sizeof(hex));
	explicit_bzero(more, sizeof(more));
	return ok;
}

/*
 * Parse the key file's text, skipping blank lines and # comments; on a
 * fault, say where and which rule in *why, never what the line holds.
 */
static bool
parse_key_file(char *contents, PublicIdKeyFile *file, char *why, size_t whylen)
{
	char	   *line = contents;
	int			lineno = 0;
	char		first[2];

	file->nlines = 0;
	/* (a byte order mark before the first line is no part of it) */
	if (strncmp(line, "\xEF\xBB\xBF", 3) == 0)
		line += 3;
	while (line != NULL)
	{
		char	   *next = strchr(line, '\n');
		int			same = 0;

		if (next != NULL)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		lineno++;
		if (sscanf(line, "%1s", first) == 1 && first[0] != '#')
		{
			if (file->nlines == PUBLIC_ID_MAX_LINES)
			{
				snprintf(why, whylen, "it has more than %d keys", PUBLIC_ID_MAX_LINES);
				return false;
			}
			if (!parse_key_line(line, lineno, &file->lines[file->nlines], why, whylen))
				return false;
			/* (no database may have more keys than a session uses) */
			for (int i = 0; i < file->nlines; i++)
				same += strcmp(file->lines[i].database, file->lines[file->nlines].database) == 0;
			if (same >= PUBLIC_ID_MAX_KEYS)
			{
				snprintf(why, whylen, "the database of line %d has more than %d keys", lineno,
						 PUBLIC_ID_MAX_KEYS);
				return false;
			}
			file->nlines++;
		}
		line = next;
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
 * too.  The file's text is read into the keys' memory, and wiped after.
 */
static bool
read_key_file(const char *path, PublicIdKeyFile *file, char *why, size_t whylen)
{
	struct stat st;
	ssize_t		nread = 0;
	ssize_t		n;
	bool		ok = false;

	/* (O_NONBLOCK: a FIFO is refused below rather than waited on) */
	int			fd = open(path, O_RDONLY | O_NONBLOCK | PG_BINARY, 0);

	if (fd < 0 || fstat(fd, &st) != 0)
		snprintf(why, whylen, "could not open it: %s", strerror(errno));
	else if (key_file_acceptable(&st, why, whylen))
	{
		while (nread < st.st_size &&
			   (n = read(fd, keys->contents + nread, st.st_size - nread)) > 0)
			nread += n;
		keys->contents[nread] = '\0';
		if (nread != st.st_size || strlen(keys->contents) != (size_t) nread)
			snprintf(why, whylen, "could not read it whole, or it holds a NUL byte");
		else
			ok = parse_key_file(keys->contents, file, why, whylen);
		explicit_bzero(keys->contents, nread + 1);
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Keep this database's lines (else the "*" lines) and wipe the file. */
static void
keep_database_keys(void)
{
	PublicIdKeys *database = &keys->database;

	database->nkeys = 0;
	for (int pass = 0; pass < 2 && database->nkeys == 0; pass++)
	{
		const char *wanted = pass == 0 && database_name ? database_name : "*";

		for (int i = 0; i < keys->file.nlines && database->nkeys < PUBLIC_ID_MAX_KEYS; i++)
			if (strcmp(keys->file.lines[i].database, wanted) == 0)
				database->keys[database->nkeys++] = keys->file.lines[i].key;
	}
	explicit_bzero(&keys->file, sizeof(keys->file));
	database_chosen = true;
}

/*
 * Read the key file, at start and at each reload (a rotation edits the file
 * under the same name), in the postmaster and in every backend.  A file
 * refused keeps the keys in use; the postmaster logs the file and the rule
 * or the line, never what it holds.
 */
static void
assign_public_id_key_file(const char *newval, void *extra pg_attribute_unused())
{
	char		why[200];

	/* (a parallel worker keeps the keys it inherited: it makes no id) */
	if (keys == NULL || IsParallelWorker())
		return;
	if (newval != NULL && newval[0] != '\0' &&
		!read_key_file(newval, &keys->reading, why, sizeof(why)))
	{
		explicit_bzero(&keys->reading, sizeof(keys->reading));
		snprintf(key_file_refused, sizeof(key_file_refused), "%s", why);
		if (!IsUnderPostmaster)
			ereport(LOG,
					(errmsg("uuidv7 refused the public id key file \"%s\": %s", newval, why),
					 errdetail(keys->file.nlines > 0 ? "The keys read before stay in use." : "Public ids stay off.")));
		return;
	}
	explicit_bzero(&keys->file, sizeof(keys->file));
	explicit_bzero(&keys->database, sizeof(keys->database));
	memcpy(&keys->file, &keys->reading, sizeof(keys->file));
	explicit_bzero(&keys->reading, sizeof(keys->reading));
	key_file_refused[0] = '\0';
	keys_generation++;
	uuidv7_public_id_forget_derived_keys();
	if (database_chosen)
		keep_database_keys();
}

/*
 * Refuse a key file named on the command line: it outranks the
 * configuration files, so a reload would never read another.
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

/* Can the current role be shown anything about the keys? */
bool
uuidv7_may_see_key_state(void)
{
	return superuser() || has_privs_of_role(GetUserId(), UUIDV7_ROLE_READ_ALL_SETTINGS);
}

/*
 * The keys read last for this database, taken out of the file at the first
 * call (a process without a database takes the "*" lines), and why the
 * last reading of the file was refused ("" if it was not).
 */
const PublicIdKeys *
uuidv7_public_id_newest_keys(const char **refused)
{
	static const PublicIdKeys none;

	if (refused != NULL)
		*refused = key_file_refused;
	if (keys == NULL)
		return &none;
	if (!database_chosen)
	{
		char	   *name = OidIsValid(MyDatabaseId) ? get_database_name(MyDatabaseId) : NULL;

		if (name != NULL)
			database_name = MemoryContextStrdup(TopMemoryContext, name);
		keep_database_keys();
	}
	return &keys->database;
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
	const PublicIdKeys *database;

	if (public_id_key_file == NULL || public_id_key_file[0] == '\0')
		return "";
	/* (pg_settings asks for rows it then hides: no key looked at for those) */
	if (!uuidv7_may_see_key_state())
		return public_id_key_file;
	if (shown == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		shown = makeStringInfo();
		MemoryContextSwitchTo(old);
	}
	resetStringInfo(shown);
	database = uuidv7_public_id_newest_keys(NULL);
	appendStringInfo(shown, "%s (", public_id_key_file);
	if (database->nkeys == 0)
		appendStringInfoString(shown, "no key for this database");
	else
	{
		appendStringInfoString(shown, "fingerprints ");
		for (int i = 0; i < database->nkeys; i++)
			appendStringInfo(shown, "%s%s", i > 0 ? "," : "", database->keys[i].fingerprint);
	}
	if (key_file_refused[0] != '\0')
		appendStringInfo(shown, "; last reading refused: %s", key_file_refused);
	appendStringInfoChar(shown, ')');
	return shown->data;
}

/*
 * At the end of a transaction, the keys it used are wiped, and the AES
 * contexts derived from them (in memory a core dump would hold) freed.
 */
static void
transaction_keys_release(XactEvent event, void *arg pg_attribute_unused())
{
	if (uuidv7_public_id_keys_taken() &&
		(event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		 event == XACT_EVENT_PREPARE || event == XACT_EVENT_PARALLEL_COMMIT ||
		 event == XACT_EVENT_PARALLEL_ABORT))
	{
		explicit_bzero(&keys->transaction, sizeof(keys->transaction));
		uuidv7_public_id_forget_derived_keys();
	}
}

/*
 * The keys this transaction uses, and their generation: taken at its first
 * public id and kept to its end, whatever a reload reads meanwhile (a STABLE
 * function answers the same all along).  None is not taken: the caller
 * refuses, and a later call looks again.
 */
const PublicIdKeys *
uuidv7_public_id_transaction_keys(uint64 *generation)
{
	if (keys == NULL)
		return uuidv7_public_id_newest_keys(NULL);
	if (!uuidv7_public_id_keys_taken())
	{
		memcpy(&keys->transaction, uuidv7_public_id_newest_keys(NULL), sizeof(keys->transaction));
		transaction_keys_generation = keys_generation;
	}
	*generation = transaction_keys_generation;
	return &keys->transaction;
}

/* Whether this transaction has taken its keys already. */
bool
uuidv7_public_id_keys_taken(void)
{
	return keys != NULL && keys->transaction.nkeys > 0;
}

/* Was the library preloaded (only then is the key file read)? */
bool
uuidv7_public_id_preloaded(void)
{
	return keys != NULL;
}

/* The setting uuidv7.public_id_key_file ("" if unset). */
const char *
uuidv7_public_id_key_file(void)
{
	return public_id_key_file ? public_id_key_file : "";
}

/* Define uuidv7.public_id_key_file and, when preloaded, map the keys' memory. */
void
uuidv7_public_id_keys_init(void)
{
	if (process_shared_preload_libraries_in_progress)
	{
		void	   *memory = mmap(NULL, sizeof(KeyMemory), PROT_READ | PROT_WRITE,
								  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (memory == MAP_FAILED)
			ereport(FATAL,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("could not map memory for the keys of public ids: %m")));
#ifdef MADV_DONTDUMP
		(void) madvise(memory, sizeof(KeyMemory), MADV_DONTDUMP);
#endif
		keys = memory;
	}

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
	RegisterXactCallback(transaction_keys_release, NULL);
}
