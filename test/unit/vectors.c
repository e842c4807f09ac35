/*
 * test/unit/vectors.c: src/ff1.c against NIST's published FF1 samples, and
 * src/siphash.c's output for test/t/008_public_id.pl to compare with an
 * independent implementation.
 *
 *	 vectors ff1		checks the nine samples of NIST's FF1samples.pdf
 *						(AES-128, -192 and -256; radix 10 and 36, with and
 *						without a tweak), both ways; exit 1 on a mismatch
 *	 vectors siphash	prints SipHash-2-4 under the key 00 01 .. 0f of the
 *						messages 00 01 .. (len - 1), len 0 to 63, as the
 *						reference implementation's vectors.h lists them
 *
 * Built without the server (-DFRONTEND), from the same source files.
 */
#include "postgres_fe.h"

#include "../../src/ff1.h"
#include "../../src/siphash.h"

/* (libc's own: this program links nothing of PostgreSQL's) */
#undef printf
#undef fprintf

typedef struct Sample
{
	const char *key;
	const char *tweak;
	unsigned int radix;
	const char *plaintext;
	const char *ciphertext;
} Sample;

/* NIST SP 800-38G FF1 samples 1 to 9 */
static const Sample samples[] = {
	{"2B7E151628AED2A6ABF7158809CF4F3C", "", 10, "0123456789", "2433477484"},
	{"2B7E151628AED2A6ABF7158809CF4F3C", "39383736353433323130", 10, "0123456789", "6124200773"},
	{"2B7E151628AED2A6ABF7158809CF4F3C", "3737373770717273373737", 36, "0123456789abcdefghi", "a9tv40mll9kdu509eum"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "", 10, "0123456789", "2830668132"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "39383736353433323130", 10, "0123456789", "2496655549"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "3737373770717273373737", 36, "0123456789abcdefghi", "xbj3kv35jrawxv32ysr"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "", 10, "0123456789", "6657667009"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "39383736353433323130", 10, "0123456789", "1001623463"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "3737373770717273373737", 36, "0123456789abcdefghi", "xs8a0azh2avyalyzuwd"},
};

static const char numerals[] = "0123456789abcdefghijklmnopqrstuvwxyz";

static int
unhex(const char *hex, uint8 *out)
{
	int			len = strlen(hex) / 2;

	for (int i = 0; i < len; i++)
		sscanf(hex + 2 * i, "%2hhx", &out[i]);
	return len;
}

/* NUM_radix of len numerals */
static uint64
num(const char *s, int len, unsigned int radix)
{
	uint64		x = 0;

	for (int i = 0; i < len; i++)
		x = x * radix + (strchr(numerals, s[i]) - numerals);
	return x;
}

/* STR_radix^len of x */
static void
str(uint64 x, int len, unsigned int radix, char *out)
{
	for (int i = len - 1; i >= 0; i--)
	{
		out[i] = numerals[x % radix];
		x /= radix;
	}
}

static int
check_ff1(void)
{
	int			failed = 0;

	for (int s = 0; s < (int) lengthof(samples); s++)
	{
		const Sample *sample = &samples[s];
		uint8		key[32];
		uint8		tweak[FF1_MAX_TWEAK];
		int			keylen = unhex(sample->key, key);
		int			tweaklen = unhex(sample->tweak, tweak);
		int			n = strlen(sample->plaintext);
		int			u = n / 2;
		FF1Key	   *ff1 = ff1_new_key(key, keylen);
		FF1Domain	domain;
		uint64		a = num(sample->plaintext, u, sample->radix);
		uint64		b = num(sample->plaintext + u, n - u, sample->radix);
		char		encrypted[64] = "";
		char		decrypted[64] = "";

		if (ff1 == NULL || !ff1_domain(&domain, sample->radix, n) ||
			!ff1_crypt(ff1, &domain, tweak, tweaklen, &a, &b, false))
		{
			printf("sample %d: could not run\n", s + 1);
			failed = 1;
			continue;
		}
		str(a, u, sample->radix, encrypted);
		str(b, n - u, sample->radix, encrypted + u);
		ff1_crypt(ff1, &domain, tweak, tweaklen, &a, &b, true);
		str(a, u, sample->radix, decrypted);
		str(b, n - u, sample->radix, decrypted + u);
		ff1_free_key(ff1);

		printf("FF1 sample %d (AES-%d, radix %u, tweak of %d bytes): %s -> %s, back %s: %s\n",
			   s + 1, keylen * 8, sample->radix, tweaklen, sample->plaintext,
			   encrypted, decrypted,
			   strcmp(encrypted, sample->ciphertext) == 0 &&
			   strcmp(decrypted, sample->plaintext) == 0 ? "ok" : "WRONG");
		if (strcmp(encrypted, sample->ciphertext) != 0 ||
			strcmp(decrypted, sample->plaintext) != 0)
			failed = 1;
	}
	return failed;
}

static void
print_siphash(void)
{
	uint8		key[16];
	uint8		msg[64];

	for (int i = 0; i < 16; i++)
		key[i] = i;
	for (int len = 0; len < 64; len++)
	{
		uint64		hash;

		msg[len] = len;
		hash = siphash24(key, msg, len);
		/* the 64-bit result as its 8 little-endian bytes */
		for (int i = 0; i < 8; i++)
			printf("%02x", (unsigned int) ((hash >> (8 * i)) & 0xff));
		printf("\n");
	}
}

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "ff1") == 0)
		return check_ff1();
	if (argc == 2 && strcmp(argv[1], "siphash") == 0)
	{
		print_siphash();
		return 0;
	}
	fprintf(stderr, "usage: %s ff1|siphash\n", argv[0]);
	return 2;
}
