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
 * the server, at start and at every reload, and by nothing else.  Each
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "commands/dbcommands.h"	/* get_database_name (before 19) */
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
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

/* why the postmaster's last reading of the key file was refused, if it was */
static char key_file_refused[256] = "";

/*
 * Was the library loaded by shared_preload_libraries?  Only then is the key
 * file read; a session that loads the library itself reads no key.
 */
static bool public_id_preloaded = false;

/*
 * The keys the postmaster accepted last are in a POSIX shared memory object
 * of their own: not in PostgreSQL's shared memory, which every process of
 * the server maps, nor in its dynamic shared memory, which may be carved out
 * of it (min_dynamic_shared_memory) or kept in a file of the data directory
 * (dynamic_shared_memory_type = mmap).  The postmaster writes the object
 * with write(), never mapping it, so no process it forks inherits a key; a
 * session reads its own database's lines out of it with pread(), only when
 * it needs them.  Each reading the postmaster accepts gets an object of its
 * own, under a random name that nobody can take first (O_EXCL, as
 * PostgreSQL names its dynamic shared memory); it is published before the
 * one before is wiped and unlinked, and only an object the postmaster made
 * (a regular file of the server's OS user, of the size it wrote) is ever
 * wiped.  Objects outlive a crash of a backend (the postmaster publishes the
 * one in use again in the new shared memory); the postmaster removes its
 * object at its exit, and at its start the one a killed postmaster left,
 * whose name and size it finds in KEY_OBJECT_RECORD in the data directory
 * with the directory's device and inode numbers.
 */
#define KEY_OBJECT_RECORD "uuidv7_key_object"
#define KEY_OBJECT_NAME_LEN 32

/* an object of keys: its name ("" if none) and the size written */
typedef struct KeyObject
{
	char		name[KEY_OBJECT_NAME_LEN];
	off_t		size;
} KeyObject;

static KeyObject key_object;	/* the postmaster's, in use */

/*
 * What the postmaster publishes at start and at each reload, and no key: a
 * sequence lock (odd while it writes: it is the only writer, and never waits
 * for a reader), the keys' object, and why the last reading was refused.
 */
typedef struct PublicIdShared
{
	pg_atomic_uint64 reload;
	char		object[KEY_OBJECT_NAME_LEN];	/* "": no keys */
	off_t		object_size;
	char		refused[sizeof(key_file_refused)];
} PublicIdShared;

/* the postmaster's last verdict, as a session copies it */
typedef struct PublicIdVerdict
{
	uint64		reload;
	char		object[KEY_OBJECT_NAME_LEN];
	off_t		object_size;
	char		refused[sizeof(key_file_refused)];
} PublicIdVerdict;

static PublicIdShared *shared_keys = NULL;

#if PG_VERSION_NUM >= 150000
static shmem_request_hook_type prev_shmem_request_hook = NULL;
#endif
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/*
 * This session's database's keys, read from the object of the verdict of
 * reload database_keys_generation (0: not read yet), and the refusal
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
 * Whether an open object of keys is one the postmaster made: a regular file
 * of the server's OS user, no other access, one link, of the size written.
 */
static bool
key_object_is_ours(int fd, off_t size)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		(st.st_mode & (S_IRWXG | S_IRWXO)) == 0 && st.st_nlink == 1 && st.st_size == size;
}

/* Wipe and unlink an object of keys, if it is one the postmaster made. */
static void
remove_key_object(const KeyObject *object)
{
	int			fd;
	char		zeros[1024] = {0};

	if (object->name[0] == '\0')
		return;
	fd = shm_open(object->name, O_RDWR | O_NOFOLLOW, 0);
	if (fd < 0)
		return;
	if (!key_object_is_ours(fd, object->size))
	{
		close(fd);
		return;
	}
	for (off_t done = 0; done < object->size; done += sizeof(zeros))
		if (pwrite(fd, zeros, Min((off_t) sizeof(zeros), object->size - done), done) < 0)
			break;
	close(fd);
	shm_unlink(object->name);
}

/*
 * Record objects of keys in the data directory (their names and sizes: no
 * secret), with the directory's device and inode numbers, before they are
 * made and until they are removed, so that a postmaster started after one
 * was killed removes them; no record if there are none.  False if it could
 * not be written.
 */
static bool
record_key_objects(const KeyObject *first, const KeyObject *second)
{
	const KeyObject *objects[2] = {first, second};
	FILE	   *record;
	struct stat data_directory;
	bool		any = false;

	for (int i = 0; i < 2; i++)
		any |= objects[i] != NULL && objects[i]->name[0] != '\0';
	if (!any)
		return unlink(KEY_OBJECT_RECORD) == 0 || errno == ENOENT;
	if (stat(".", &data_directory) != 0 ||
		(record = fopen(KEY_OBJECT_RECORD ".tmp", "w")) == NULL)
		return false;
	for (int i = 0; i < 2; i++)
		if (objects[i] != NULL && objects[i]->name[0] != '\0')
			fprintf(record, "%s %lld %llu %llu\n", objects[i]->name, (long long) objects[i]->size,
					(unsigned long long) data_directory.st_dev,
					(unsigned long long) data_directory.st_ino);
	return fclose(record) == 0 && rename(KEY_OBJECT_RECORD ".tmp", KEY_OBJECT_RECORD) == 0;
}

/* Is this a name the postmaster gives objects of keys ("/uuidv7." and 16 hexadecimal digits)? */
static bool
is_key_object_name(const char *name)
{
	return strlen(name) == 24 && strncmp(name, "/uuidv7.", 8) == 0 &&
		strspn(name + 8, "0123456789abcdef") == 16;
}

/*
 * At start: remove the objects a killed postmaster left, if their record
 * says so and was written for this very data directory (a copy of it, a
 * standby made by a base backup, names objects of its origin's, which may
 * be in use on the same machine).
 */
static void
remove_recorded_key_objects(void)
{
	FILE	   *record = fopen(KEY_OBJECT_RECORD, "r");
	KeyObject	left;
	long long	size;
	unsigned long long dev;
	unsigned long long ino;
	struct stat data_directory;

	if (record == NULL)
		return;
	memset(&left, 0, sizeof(left));
	while (fscanf(record, "%31s %lld %llu %llu", left.name, &size, &dev, &ino) == 4)
		if (is_key_object_name(left.name) && stat(".", &data_directory) == 0 &&
			dev == (unsigned long long) data_directory.st_dev &&
			ino == (unsigned long long) data_directory.st_ino)
		{
			left.size = (off_t) size;
			remove_key_object(&left);
		}
	fclose(record);
	unlink(KEY_OBJECT_RECORD);
}

/*
 * Write the lines of a key file into a new object of keys, under a random
 * name, recorded beside the one in use before it is made; its space taken
 * whole first, so that a full /dev/shm fails before any key is written.  On
 * a fault, say why in *why and leave nothing (an object made is ours: made
 * with O_EXCL, it is unlinked by its name, emptied).
 */
static bool
write_key_object(const PublicIdKeyFile *file, KeyObject *object, char *why, size_t whylen)
{
	size_t		size = offsetof(PublicIdKeyFile, lines) + file->nlines * sizeof(PublicIdKeyLine);
	int			fd = -1;
	int			failure;

	object->size = size;
	for (int tries = 0; fd < 0 && tries < 16; tries++)
	{
		uint64		random;

		if (!pg_strong_random(&random, sizeof(random)))
		{
			snprintf(why, whylen, "could not name shared memory for its keys: no random bytes");
			object->name[0] = '\0';
			record_key_objects(&key_object, NULL);
			return false;
		}
		snprintf(object->name, sizeof(object->name), "/uuidv7.%016llx", (unsigned long long) random);
		if (!record_key_objects(&key_object, object))
		{
			snprintf(why, whylen, "could not record its shared memory in the data directory: %s",
					 strerror(errno));
			object->name[0] = '\0';
			record_key_objects(&key_object, NULL);
			return false;
		}
		fd = shm_open(object->name, O_CREAT | O_EXCL | O_RDWR, S_IRUSR | S_IWUSR);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0)
	{
		snprintf(why, whylen, "could not create shared memory for its keys: %s", strerror(errno));
		object->name[0] = '\0';
		record_key_objects(&key_object, NULL);
		return false;
	}
#if defined(HAVE_POSIX_FALLOCATE) && defined(__linux__)
	failure = posix_fallocate(fd, 0, size);
#else
	failure = ftruncate(fd, size) == 0 ? 0 : errno;
#endif
	errno = 0;
	if (failure == 0 && pwrite(fd, file, size, 0) != (ssize_t) size)
		failure = errno != 0 ? errno : ENOSPC;
	if (failure != 0)
	{
		snprintf(why, whylen, "could not write shared memory for its keys: %s", strerror(failure));
		/* (what was written, gone with the pages; unlinked whatever) */
		if (ftruncate(fd, 0) != 0)
			elog(LOG, "could not empty shared memory \"%s\": %m", object->name);
		close(fd);
		shm_unlink(object->name);
		object->name[0] = '\0';
		record_key_objects(&key_object, NULL);
		return false;
	}
	close(fd);
	return true;
}

/* At the exit of the postmaster (or of a single-user server). */
static void
remove_key_object_at_exit(int code pg_attribute_unused(), Datum arg pg_attribute_unused())
{
	if (IsUnderPostmaster)
		return;
	remove_key_object(&key_object);
	key_object.name[0] = '\0';
	record_key_objects(NULL, NULL);
}

/* The postmaster publishes its verdict (under the sequence lock). */
static void
publish_verdict(void)
{
	if (shared_keys == NULL)
		return;
	pg_atomic_fetch_add_u64(&shared_keys->reload, 1);
	memcpy(shared_keys->object, key_object.name, sizeof(key_object.name));
	shared_keys->object_size = key_object.size;
	memcpy(shared_keys->refused, key_file_refused, sizeof(key_file_refused));
	pg_atomic_fetch_add_u64(&shared_keys->reload, 1);
}

/* Put a new object of keys (or none) in use, then remove the one before. */
static void
use_key_object(const KeyObject *object)
{
	KeyObject	before = key_object;

	key_object = *object;
	publish_verdict();
	remove_key_object(&before);
	record_key_objects(&key_object, NULL);
}

/*
 * The assign hook, at start and at each reload (also when the file's name is
 * unchanged: a rotation edits the file).  The postmaster reads the file,
 * writes its keys into a new object, publishes it, and then wipes and
 * unlinks the one in use before; a file that is refused leaves the keys in
 * use as they are, and it logs why, once, naming the file and the rule,
 * never what it holds.  A session or a worker forgets its own copy of the
 * keys, which it reads again from the object published when it next needs
 * them.
 */
static void
assign_public_id_key_file(const char *newval, void *extra pg_attribute_unused())
{
	static bool left_removed = false;
	PublicIdKeyFile *file;
	KeyObject	object;
	char		why[200];
	bool		ok = false;

	if (IsUnderPostmaster)
	{
		explicit_bzero(&database_keys, sizeof(database_keys));
		database_keys_generation = 0;
		if (forget_keys)
			forget_keys();
		return;
	}
	if (!public_id_preloaded)
		return;
	if (!left_removed)
	{
		remove_recorded_key_objects();
		left_removed = true;
	}
	key_file_refused[0] = '\0';
	memset(&object, 0, sizeof(object));
	if (newval == NULL || newval[0] == '\0')
	{
		use_key_object(&object);
		return;
	}
	/* (zeroed: no byte of the postmaster's heap goes into the object) */
	file = calloc(1, sizeof(PublicIdKeyFile));
	if (file == NULL)
		snprintf(why, sizeof(why), "out of memory");
	else
		ok = read_key_file(newval, file, why, sizeof(why)) &&
			write_key_object(file, &object, why, sizeof(why));
	if (file != NULL)
	{
		explicit_bzero(file, sizeof(PublicIdKeyFile));
		free(file);
	}
	if (ok)
	{
		use_key_object(&object);
		return;
	}
	snprintf(key_file_refused, sizeof(key_file_refused), "%s", why);
	ereport(LOG,
			(errmsg("uuidv7 refused the public id key file \"%s\": %s", newval, why),
			 errdetail(key_object.name[0] != '\0' ? "The keys read before stay in use." : "Public ids stay off.")));
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
}
#endif

/* shared memory made (at start, after a crash): publish the verdict */
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
		pg_atomic_init_u64(&shared_keys->reload, 0);
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

/*
 * Copy the postmaster's last verdict (under the sequence lock).  While it
 * writes one the session waits, as any wait in PostgreSQL: it can be
 * cancelled or terminated, and exits if the postmaster dies meanwhile.
 */
static void
read_verdict(PublicIdVerdict *verdict)
{
	for (;;)
	{
		uint64		reload = pg_atomic_read_u64(&shared_keys->reload);

		if (reload % 2 == 0)
		{
			pg_read_barrier();
			memcpy(verdict->object, shared_keys->object, sizeof(verdict->object));
			verdict->object_size = shared_keys->object_size;
			memcpy(verdict->refused, shared_keys->refused, sizeof(verdict->refused));
			pg_read_barrier();
			if (pg_atomic_read_u64(&shared_keys->reload) == reload)
			{
				verdict->reload = reload;
				return;
			}
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * A database's keys out of an object of keys (none for ""): its own lines,
 * in their order, or the "*" lines if it has none (database NULL: the "*"
 * lines), read one at a time and each wiped after.  Only an object the
 * postmaster made is read (key_object_is_ours: one that another program
 * put under its name after removing it is not).  False, errno set (EPERM
 * for an object not the postmaster's), if it could not be read whole.  (Its
 * descriptor counted among the server's, as PostgreSQL counts those of its
 * own shared memory.)
 */
static bool
read_key_object(const char *name, off_t size, const char *database, PublicIdKeys *keys)
{
	int			fd;
	int			nlines;
	bool		ok = true;
	PublicIdKeyLine line;

	keys->nkeys = 0;
	if (name[0] == '\0')
		return true;
	ReserveExternalFD();
	/* (O_NONBLOCK: a FIFO put under the name is refused, not waited on) */
	fd = shm_open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, 0);
	if (fd < 0)
	{
		int			save_errno = errno;

		ReleaseExternalFD();
		errno = save_errno;
		return false;
	}
	if (!key_object_is_ours(fd, size))
	{
		close(fd);
		ReleaseExternalFD();
		errno = EPERM;
		return false;
	}
	if (pread(fd, &nlines, sizeof(nlines), offsetof(PublicIdKeyFile, nlines)) != sizeof(nlines) ||
		nlines < 0 || nlines > PUBLIC_ID_MAX_LINES)
		ok = false;
	for (int pass = 0; ok && pass < 2 && keys->nkeys == 0; pass++)
		for (int i = 0; ok && i < nlines && keys->nkeys < PUBLIC_ID_MAX_KEYS; i++)
		{
			off_t		at = offsetof(PublicIdKeyFile, lines) + i * sizeof(PublicIdKeyLine);

			/* (the line's database first: another database's key is not read) */
			ok = pread(fd, line.database, sizeof(line.database),
					   at + offsetof(PublicIdKeyLine, database)) == sizeof(line.database);
			if (!ok || strncmp(line.database, pass == 0 && database ? database : "*",
							   sizeof(line.database)) != 0)
				continue;
			ok = pread(fd, &line.key, sizeof(line.key),
					   at + offsetof(PublicIdKeyLine, key)) == sizeof(line.key);
			line.key.fingerprint[sizeof(line.key.fingerprint) - 1] = '\0';
			if (ok)
				keys->keys[keys->nkeys++] = line.key;
		}
	explicit_bzero(&line, sizeof(line));
	close(fd);
	ReleaseExternalFD();
	if (!ok)
		errno = EIO;
	return ok;
}

/*
 * This session's database's keys, from the object of the postmaster's last
 * verdict, read again only when a reload changed them; NULL if the object
 * cannot be read (removed from /dev/shm by another program) and quietly is
 * set, else an ERROR.  A reading counts if no reload was published while it
 * read.  The postmaster has no database and no keys.
 */
static const PublicIdKeys *
current_database_keys(bool quietly)
{
	static char *database = NULL;
	PublicIdVerdict verdict;
	PublicIdKeys keys;

	if (shared_keys == NULL || (IsPostmasterEnvironment && !IsUnderPostmaster))
		return &database_keys;
	if (database == NULL && OidIsValid(MyDatabaseId))
		database = MemoryContextStrdup(TopMemoryContext, get_database_name(MyDatabaseId));
	for (;;)
	{
		bool		read;
		int			read_errno;

		read_verdict(&verdict);
		if (verdict.reload == database_keys_generation)
			return &database_keys;
		read = read_key_object(verdict.object, verdict.object_size, database, &keys);
		read_errno = errno;
		pg_read_barrier();
		if (pg_atomic_read_u64(&shared_keys->reload) != verdict.reload)
		{
			/* a reload meanwhile: read what it published */
			explicit_bzero(&keys, sizeof(keys));
			continue;
		}
		if (read)
			break;
		explicit_bzero(&keys, sizeof(keys));
		if (quietly)
			return NULL;
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not read the public id keys the server published: %s",
						read_errno == EPERM ? "they are not the server's" : strerror(read_errno)),
				 read_errno == ENOENT || read_errno == EPERM ?
				 errdetail("The server keeps them in shared memory \"%s\", which another program removed.",
						   verdict.object) : 0,
				 read_errno == ENOENT || read_errno == EPERM ?
				 errhint("Reload the configuration: the server reads the key file again.") : 0));
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
	/* (pg_settings asks for rows it then hides: no key read for those) */
	if (!uuidv7_may_see_key_state())
		return public_id_key_file;
	keys = current_database_keys(true);
	appendStringInfo(shown, "%s (", public_id_key_file);
	if (keys == NULL)
		appendStringInfoString(shown, "its keys could not be read: reload the configuration");
	else if (keys->nkeys == 0)
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
	uuidv7_public_id_forget_unused_keys();
	return shown->data;
}

/*
 * Whether this session has made or read a public id: only then does it keep
 * its database's keys between uses.
 */
static bool session_uses_keys = false;

/*
 * Wipe the keys read only for their fingerprints (SHOW, pg_settings, the
 * state function): a session that never makes or reads a public id holds
 * no key after.
 */
void
uuidv7_public_id_forget_unused_keys(void)
{
	if (!session_uses_keys)
	{
		explicit_bzero(&database_keys, sizeof(database_keys));
		database_keys_generation = 0;
	}
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
		const PublicIdKeys *keys = current_database_keys(false);

		memcpy(&transaction_keys, keys, sizeof(transaction_keys));
		transaction_keys_generation = database_keys_generation;
		/* (no key: nothing taken; the caller refuses, a later call reads) */
		transaction_keys_taken = transaction_keys.nkeys > 0;
		session_uses_keys = true;
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
	static const PublicIdKeys none;
	const PublicIdKeys *keys = current_database_keys(true);

	*refused = session_refused;
	if (keys == NULL)
	{
		/* (the doctor and the state function say so, and go on) */
		*refused = "its keys could not be read: reload the configuration";
		return &none;
	}
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
 * memory the verdict is published in; forget is what the mapping of ids
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
#endif
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = public_id_shmem_startup;
		on_proc_exit(remove_key_object_at_exit, (Datum) 0);
	}
}
