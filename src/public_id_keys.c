/*-------------------------------------------------------------------------
 *
 * public_id_keys.c
 *	  The keys of public ids: the key file read and checked, shared by the
 *	  sessions that use them, and the key set each transaction uses.
 *
 * The keys come from a key file that uuidv7.public_id_key_file names and
 * that only the server's OS user can read, with the permissions PostgreSQL
 * demands of ssl_key_file; one key a line, for a database or for any
 * database ("*").  Keys typed into SQL would be seen by whoever reads
 * pg_stat_activity, pg_stat_statements or the log; a key file is read by
 * the server, after start and after every reload, and by nothing else.  Each
 * session uses its own database's keys, so that a database's owner cannot
 * decode another database's public ids.  What anybody is shown of the keys
 * is a fingerprint, and only superusers and members of
 * pg_read_all_settings are shown even that.  Key bytes are wiped from
 * memory when they are replaced, and no message ever carries one.
 *
 * IDENTIFICATION
 *	  src/public_id_keys.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "commands/dbcommands.h"	/* get_database_name (before 19) */
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "compat.h"
#include "public_id.h"
#include "siphash.h"

/* lines of a key file, and its size */
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

/* GUC uuidv7.public_id_key_file: where the keys are (not a secret) */
static char *public_id_key_file = NULL;

/*
 * The postmaster's verdict on its last reading of the key file: whether it
 * accepted the file, why it refused it if it did, and whether keys it
 * accepted before stay in use.  It keeps no key: what it read is wiped at
 * once.  (Kept to be published again when shared memory is made anew.)
 */
static bool key_file_accepted = false;
static char key_file_refused[256] = "";
static bool keys_accepted_before = false;

/*
 * Was the library loaded by shared_preload_libraries?  Only then is the key
 * file read; a session that loads the library itself reads no key.
 */
static bool public_id_preloaded = false;

#define PUBLIC_ID_TRANCHE "uuidv7 public id keys"

/*
 * What the sessions share, and no key among it.  The postmaster publishes
 * its verdict at start and at each reload, under a sequence lock (odd while
 * it writes: it is the only writer, and never waits for a reader).  The
 * keys are in a dynamic shared memory segment, which the first session to
 * use public ids after a reload makes from the file the verdict names, and
 * which each session using public ids attaches only while it copies its own
 * database's keys: a process that never uses public ids never maps a key,
 * and a session maps no other database's keys but for that copy.  Every
 * session reads the same segment, so that all use the keys of one reading
 * of the file, whenever they handle the reload themselves.
 */
typedef struct PublicIdShared
{
	pg_atomic_uint64 reload;	/* even: the postmaster's last verdict */
	bool		named;			/* a key file is named */
	bool		accepted;		/* and the postmaster accepted it */
	char		path[MAXPGPATH];
	char		refused[sizeof(key_file_refused)];

	/* under the lock: the keys of the verdict of reload segment_reload */
	uint64		segment_reload; /* 0: none read yet */
	dsm_handle	segment;		/* DSM_HANDLE_INVALID: no keys */
} PublicIdShared;

/* the postmaster's verdict, as a session copies it */
typedef struct PublicIdVerdict
{
	uint64		reload;
	bool		named;
	bool		accepted;
	char		path[MAXPGPATH];
	char		refused[sizeof(key_file_refused)];
} PublicIdVerdict;

static PublicIdShared *shared_keys = NULL;
static LWLock *shared_keys_lock = NULL;

#if PG_VERSION_NUM >= 150000
static shmem_request_hook_type prev_shmem_request_hook = NULL;
#endif
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * This session's database's keys, copied from the segment of the verdict
 * of reload database_keys_generation (0: not copied yet), and the refusal
 * published with that verdict.
 */
static PublicIdKeys database_keys;
static uint64 database_keys_generation = 0;
static char session_refused[sizeof(key_file_refused)] = "";

/*
 * The keys this transaction uses: taken at its first public id, from what
 * was published then, and kept until it ends, whatever a reload publishes
 * meanwhile (a STABLE function answers the same all along).  Wiped at its
 * end.
 */
static PublicIdKeys transaction_keys;
static uint64 transaction_keys_generation = 0;
static bool transaction_keys_taken = false;

/* what the mapping of ids forgets of keys replaced (its AES contexts) */
static void (*forget_keys) (void) = NULL;

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
 * The postmaster publishes its verdict (under the sequence lock).
 */
static void
publish_verdict(void)
{
	const char *path = public_id_key_file ? public_id_key_file : "";

	if (shared_keys == NULL)
		return;
	pg_atomic_fetch_add_u64(&shared_keys->reload, 1);
	shared_keys->named = path[0] != '\0' && public_id_preloaded;
	shared_keys->accepted = key_file_accepted;
	snprintf(shared_keys->path, sizeof(shared_keys->path), "%s", path);
	memcpy(shared_keys->refused, key_file_refused, sizeof(key_file_refused));
	pg_atomic_fetch_add_u64(&shared_keys->reload, 1);
}

/*
 * The assign hook, at start and at each reload (also when the file's name is
 * unchanged: a rotation edits the file).  The postmaster reads the file to
 * judge it, wipes what it read and publishes its verdict; a file that is
 * refused leaves the keys in use as they are, and it logs why, once, naming
 * the file and the rule, never what it holds.  A session or a worker
 * forgets its own copy of the keys, which it takes again from the segment
 * of the new verdict when it next needs them.
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
		if (forget_keys)
			forget_keys();
		return;
	}
	key_file_accepted = false;
	key_file_refused[0] = '\0';
	if (newval == NULL || newval[0] == '\0' || !public_id_preloaded)
	{
		keys_accepted_before = false;
		publish_verdict();
		return;
	}
	file = malloc(sizeof(PublicIdKeyFile));
	if (file == NULL)
		snprintf(why, sizeof(why), "out of memory");
	else if (strlen(newval) >= MAXPGPATH)
		snprintf(why, sizeof(why), "its name is longer than %d bytes", MAXPGPATH - 1);
	else
		key_file_accepted = read_key_file(newval, file, why, sizeof(why));
	if (file != NULL)
	{
		explicit_bzero(file, sizeof(PublicIdKeyFile));
		free(file);
	}
	if (!key_file_accepted)
	{
		snprintf(key_file_refused, sizeof(key_file_refused), "%s", why);
		ereport(LOG,
				(errmsg("uuidv7 refused the public id key file \"%s\": %s", newval, why),
				 errdetail(keys_accepted_before ? "The keys read before stay in use." : "Public ids stay off.")));
	}
	keys_accepted_before |= key_file_accepted;
	publish_verdict();
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
	RequestNamedLWLockTranche(PUBLIC_ID_TRANCHE, 1);
}
#endif

/*
 * Shared memory made (at start, after a crash, whose segments are gone with
 * it): publish the verdict.
 */
static void
public_id_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared_keys = ShmemInitStruct("uuidv7 public id keys", sizeof(PublicIdShared), &found);
	shared_keys_lock = &GetNamedLWLockTranche(PUBLIC_ID_TRANCHE)[0].lock;
	if (!found)
	{
		memset(shared_keys, 0, sizeof(PublicIdShared));
		pg_atomic_init_u64(&shared_keys->reload, 0);
		shared_keys->segment = DSM_HANDLE_INVALID;
		publish_verdict();
	}
	LWLockRelease(AddinShmemInitLock);
}

/* Can the current role be shown anything about the keys? */
bool
uuidv7_may_see_key_state(void)
{
	return superuser() || has_privs_of_role(GetUserId(), UUIDV7_ROLE_READ_ALL_SETTINGS);
}

/* Copy the postmaster's last verdict (under the sequence lock). */
static void
read_verdict(PublicIdVerdict *verdict)
{
	for (;;)
	{
		uint64		reload = pg_atomic_read_u64(&shared_keys->reload);

		if (reload % 2 == 0)
		{
			pg_read_barrier();
			verdict->named = shared_keys->named;
			verdict->accepted = shared_keys->accepted;
			memcpy(verdict->path, shared_keys->path, sizeof(verdict->path));
			memcpy(verdict->refused, shared_keys->refused, sizeof(verdict->refused));
			pg_read_barrier();
			if (pg_atomic_read_u64(&shared_keys->reload) == reload)
			{
				verdict->reload = reload;
				return;
			}
		}
		pg_usleep(100);
	}
}

/*
 * A database's keys among a file's lines: its own, in their order, or the
 * "*" lines if it has none (database NULL: the "*" lines).
 */
static void
choose_keys(const PublicIdKeyFile *file, const char *database, PublicIdKeys *keys)
{
	keys->nkeys = 0;
	for (int pass = 0; pass < 2 && keys->nkeys == 0; pass++)
		for (int i = 0; i < file->nlines && keys->nkeys < PUBLIC_ID_MAX_KEYS; i++)
			if (strcmp(file->lines[i].database, pass == 0 && database ? database : "*") == 0)
				keys->keys[keys->nkeys++] = file->lines[i].key;
}

/* A segment is wiped before it is let go. */
static void
drop_segment(dsm_handle handle)
{
	dsm_segment *segment;

	if (handle == DSM_HANDLE_INVALID)
		return;
	segment = dsm_attach(handle);
	if (segment != NULL)
	{
		explicit_bzero(dsm_segment_address(segment), dsm_segment_map_length(segment));
		dsm_detach(segment);
	}
	dsm_unpin_segment(handle);
}

/*
 * The segment of a verdict, made from the file it names (under the lock,
 * held exclusively): no keys if no file is named; if the postmaster refused
 * the file, or it was changed since into one this session refuses, the
 * keys read before stay in use.
 */
static void
renew_segment(const PublicIdVerdict *verdict)
{
	if (!verdict->named)
	{
		drop_segment(shared_keys->segment);
		shared_keys->segment = DSM_HANDLE_INVALID;
	}
	else if (verdict->accepted)
	{
		PublicIdKeyFile *file = palloc(sizeof(PublicIdKeyFile));
		char		why[200];

		if (read_key_file(verdict->path, file, why, sizeof(why)))
		{
			Size		size = offsetof(PublicIdKeyFile, lines) +
				file->nlines * sizeof(PublicIdKeyLine);
			dsm_segment *segment = dsm_create(size, 0);

			memcpy(dsm_segment_address(segment), file, size);
			dsm_pin_segment(segment);
			drop_segment(shared_keys->segment);
			shared_keys->segment = dsm_segment_handle(segment);
			dsm_detach(segment);
		}
		else
			ereport(LOG,
					(errmsg("uuidv7 refused the public id key file \"%s\": %s", verdict->path, why),
					 errdetail("It changed after the reload that accepted it. The keys read before stay in use.")));
		explicit_bzero(file, sizeof(PublicIdKeyFile));
		pfree(file);
	}
	shared_keys->segment_reload = verdict->reload;
}

/*
 * This session's database's keys, from the segment of the postmaster's last
 * verdict (made first if no session has made it yet), copied again only when
 * a reload changed them.  A server without a postmaster (single-user) reads
 * the file itself; the postmaster has no database and no keys.
 */
static const PublicIdKeys *
current_database_keys(void)
{
	static char *database = NULL;
	PublicIdVerdict verdict;
	PublicIdKeys keys;

	if (shared_keys == NULL || (IsPostmasterEnvironment && !IsUnderPostmaster))
		return &database_keys;
	if (database == NULL && OidIsValid(MyDatabaseId))
		database = MemoryContextStrdup(TopMemoryContext, get_database_name(MyDatabaseId));
	read_verdict(&verdict);
	if (verdict.reload == database_keys_generation)
		return &database_keys;

	keys.nkeys = 0;
	if (!IsUnderPostmaster)
	{
		PublicIdKeyFile *file = palloc(sizeof(PublicIdKeyFile));
		char		why[200];

		if (verdict.named && verdict.accepted &&
			read_key_file(verdict.path, file, why, sizeof(why)))
			choose_keys(file, database, &keys);
		explicit_bzero(file, sizeof(PublicIdKeyFile));
		pfree(file);
	}
	else
	{
		LWLockAcquire(shared_keys_lock, LW_SHARED);
		if (shared_keys->segment_reload < verdict.reload)
		{
			LWLockRelease(shared_keys_lock);
			LWLockAcquire(shared_keys_lock, LW_EXCLUSIVE);
			if (shared_keys->segment_reload < verdict.reload)
				renew_segment(&verdict);
		}
		if (shared_keys->segment != DSM_HANDLE_INVALID)
		{
			dsm_segment *segment = dsm_attach(shared_keys->segment);

			if (segment == NULL)
				elog(ERROR, "could not attach to the segment of the public id keys");
			choose_keys(dsm_segment_address(segment), database, &keys);
			dsm_detach(segment);
		}
		LWLockRelease(shared_keys_lock);
	}
	explicit_bzero(&database_keys, sizeof(database_keys));
	memcpy(&database_keys, &keys, sizeof(keys));
	explicit_bzero(&keys, sizeof(keys));
	memcpy(session_refused, verdict.refused, sizeof(session_refused));
	database_keys_generation = verdict.reload;
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

/*
 * At the end of a transaction, the keys it used are wiped: the next one
 * takes those published then.
 */
static void
transaction_keys_release(XactEvent event, void *arg pg_attribute_unused())
{
	if (!transaction_keys_taken)
		return;
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PREPARE || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PARALLEL_ABORT)
	{
		explicit_bzero(&transaction_keys, sizeof(transaction_keys));
		transaction_keys_taken = false;
	}
}

/*
 * The keys this transaction uses, and their generation (which changes when a
 * reload publishes others): taken at its first call, kept to its end.
 */
const PublicIdKeys *
uuidv7_public_id_transaction_keys(uint64 *generation)
{
	if (!transaction_keys_taken)
	{
		const PublicIdKeys *keys = current_database_keys();

		memcpy(&transaction_keys, keys, sizeof(transaction_keys));
		transaction_keys_generation = database_keys_generation;
		transaction_keys_taken = true;
	}
	*generation = transaction_keys_generation;
	return &transaction_keys;
}

/* Whether this transaction has taken its keys already. */
bool
uuidv7_public_id_keys_taken(void)
{
	return transaction_keys_taken;
}

/* The keys published last for this database, and why the last reading of the file was refused ("" if not). */
const PublicIdKeys *
uuidv7_public_id_newest_keys(const char **refused)
{
	const PublicIdKeys *keys = current_database_keys();

	*refused = session_refused;
	return keys;
}

/* Was the library preloaded (only then is the key file read)? */
bool
uuidv7_public_id_preloaded(void)
{
	return public_id_preloaded;
}

/* The setting uuidv7.public_id_key_file ("" if unset). */
const char *
uuidv7_public_id_key_file(void)
{
	return public_id_key_file ? public_id_key_file : "";
}

/*
 * Define uuidv7.public_id_key_file and, when preloaded, ask for the shared
 * memory the verdict and the keys' segment are published in; forget is what the mapping of ids
 * forgets of keys a reload replaced.  Called once per load.
 */
void
uuidv7_public_id_keys_init(void (*forget) (void))
{
	public_id_preloaded = process_shared_preload_libraries_in_progress;
	forget_keys = forget;

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

	if (public_id_preloaded)
	{
#if PG_VERSION_NUM >= 150000
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = public_id_shmem_request;
#else
		RequestAddinShmemSpace(sizeof(PublicIdShared));
		RequestNamedLWLockTranche(PUBLIC_ID_TRANCHE, 1);
#endif
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = public_id_shmem_startup;
	}
}
