#!/usr/bin/python3
"""test/unit/public_id_reference.py: public ids computed independently of the
extension's C, for test/t/008_public_id.pl and test/shell/public_id.sh to compare with.

    public_id_reference.py nist
        FF1 here against NIST's nine FF1 samples (exit 1 on a mismatch)
    public_id_reference.py ff1|uuidv47 KEYHEX < ids
        the public id of each UUIDv7 read, one per line

FF1 is written from SP 800-38G's Algorithm 7 over numeral lists and Python
integers, with AES from python3-cryptography; SipHash-2-4 is libsodium's,
through python3-nacl.  Debian's /usr/bin/python3 has both.
"""
import sys
import uuid

import nacl.hash
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def num(numerals, radix):
    x = 0
    for d in numerals:
        x = x * radix + d
    return x


def numerals_of(x, radix, m):
    out = []
    for _ in range(m):
        out.append(x % radix)
        x //= radix
    return out[::-1]


def ff1_encrypt(key, tweak, radix, x):
    """SP 800-38G Algorithm 7, FF1.Encrypt(K, T, X)."""
    aes = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    n, t = len(x), len(tweak)
    u = n // 2
    v = n - u
    a, b = x[:u], x[u:]
    beta = -(-((radix ** v - 1).bit_length()) // 8)
    d = 4 * -(-beta // 4) + 4
    p = bytes([1, 2, 1]) + radix.to_bytes(3, "big") + bytes([10, u % 256]) \
        + n.to_bytes(4, "big") + t.to_bytes(4, "big")
    for i in range(10):
        q = tweak + bytes((-t - beta - 1) % 16) + bytes([i]) + num(b, radix).to_bytes(beta, "big")
        # PRF: CBC-MAC with a zero IV, the last block
        r = bytes(16)
        data = p + q
        for j in range(0, len(data), 16):
            r = aes.update(bytes(c ^ k for c, k in zip(r, data[j:j + 16])))
        s = r
        j = 1
        while len(s) < d:
            s += aes.update(bytes(c ^ k for c, k in zip(r, j.to_bytes(16, "big"))))
            j += 1
        y = int.from_bytes(s[:d], "big")
        m = u if i % 2 == 0 else v
        c = (num(a, radix) + y) % radix ** m
        a, b = b, numerals_of(c, radix, m)
    return a + b


NIST = [
    ("2B7E151628AED2A6ABF7158809CF4F3C", "", 10, "0123456789", "2433477484"),
    ("2B7E151628AED2A6ABF7158809CF4F3C", "39383736353433323130", 10, "0123456789", "6124200773"),
    ("2B7E151628AED2A6ABF7158809CF4F3C", "3737373770717273373737", 36, "0123456789abcdefghi", "a9tv40mll9kdu509eum"),
    ("2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "", 10, "0123456789", "2830668132"),
    ("2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "39383736353433323130", 10, "0123456789", "2496655549"),
    ("2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "3737373770717273373737", 36, "0123456789abcdefghi", "xbj3kv35jrawxv32ysr"),
    ("2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "", 10, "0123456789", "6657667009"),
    ("2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "39383736353433323130", 10, "0123456789", "1001623463"),
    ("2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "3737373770717273373737", 36, "0123456789abcdefghi", "xs8a0azh2avyalyzuwd"),
]
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def nist():
    failed = 0
    for number, (key, tweak, radix, plain, cipher) in enumerate(NIST, 1):
        got = "".join(DIGITS[d] for d in ff1_encrypt(bytes.fromhex(key), bytes.fromhex(tweak), radix,
                                                     [DIGITS.index(c) for c in plain]))
        print(f"reference FF1 sample {number}: {got} {'ok' if got == cipher else 'WRONG'}")
        failed |= got != cipher
    return failed


# the variable bits of a version 4 or 7 UUID: 48 + 12 + 62, most significant first
def variable_bits(u):
    x = u.int
    return ((x >> 80) << 74) | (((x >> 64) & 0xFFF) << 62) | (x & ((1 << 62) - 1))


def with_variable_bits(bits, version):
    x = ((bits >> 74) << 80) | (version << 76) | (((bits >> 62) & 0xFFF) << 64) \
        | (0b10 << 62) | (bits & ((1 << 62) - 1))
    return uuid.UUID(int=x)


def ff1_public(key, v7):
    bits = ff1_encrypt(key, b"", 2, numerals_of(variable_bits(v7), 2, 122))
    return with_variable_bits(num(bits, 2), 4)


def uuidv47_public(key, v7):
    b = v7.bytes
    msg = bytes([b[6] & 0x0F, b[7], b[8] & 0x3F]) + b[9:16]
    mask = int.from_bytes(bytes.fromhex(nacl.hash.siphash24(msg, key=key).decode()), "little") & ((1 << 48) - 1)
    ts = int.from_bytes(b[0:6], "big") ^ mask
    out = bytearray(ts.to_bytes(6, "big") + b[6:])
    out[6] = (out[6] & 0x0F) | 0x40
    out[8] = (out[8] & 0x3F) | 0x80
    return uuid.UUID(bytes=bytes(out))


def main():
    if sys.argv[1:] == ["nist"]:
        return nist()
    scheme, key = sys.argv[1], bytes.fromhex(sys.argv[2])
    public = ff1_public if scheme == "ff1" else uuidv47_public
    for line in sys.stdin:
        if line.strip():
            print(public(key, uuid.UUID(line.strip())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
