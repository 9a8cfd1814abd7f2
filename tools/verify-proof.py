#!/usr/bin/env python3
"""Independent offline verifier for ConsentLedger proof bundles (docs/proofs.md).

Written from RFC 9162 (sections 2.1.3.2 and 2.1.4.2) and the C2SP signed-note
and tlog-checkpoint formats, not from the ledger's Swift code, so that an
auditor can check a proof without trusting that code. Needs Python 3 and the
`cryptography` package (for Ed25519); everything else is the standard library.

Usage
-----
    verify-proof.py BUNDLE --public-key K [--trusted OLDER_CHECKPOINT]
    verify-proof.py --rfc9162-vectors DIR

BUNDLE is a proof bundle file (`consent-ledger prove ...`), or `-` for stdin.
K is the ledger's verifier key text (`<name>+<8 hex digit key id>+<base64>`,
as printed by `consent-ledger signing-key show`) or a path to a file holding it.
OLDER_CHECKPOINT is a file holding a signed checkpoint you already trust
(for example one you saved earlier with `consent-ledger checkpoint --out F`).

Answers (bundle mode)
---------------------
    exit 0  first line on stdout starts with `OK`        everything checked
    exit 1  first line on stdout starts with `FAILED: `  names the first check
                                                         that did not pass
    exit 2  first line on stderr starts with `ERROR: `   unusable input: a file
                                                         that cannot be read, not
                                                         UTF-8 JSON, JSON that is
                                                         not a consent-ledger-proof/1
                                                         bundle (wrong format or
                                                         kind, a missing, unknown
                                                         or wrongly typed member),
                                                         a key that does not parse,
                                                         bad arguments

A bundle whose members have the right JSON types but whose values do not
check (a malformed checkpoint note, a hash that is not 64 lowercase hex
digits, a negative size, a wrong path ...) is a FAILED proof, exit 1. A
--trusted file that cannot be read is an ERROR; one that is not a valid note
signed by the key is FAILED.

What is checked, in this order (the first failure is reported)
--------------------------------------------------------------
1. `format` is `consent-ledger-proof/1` and `kind` is `inclusion` or
   `consistency`; the members are exactly those of docs/proofs.md.
2. The checkpoint is a C2SP signed note: valid UTF-8, no control characters but
   newline, body of exactly three lines (origin, tree size in decimal without
   sign or leading zeros, root as canonical padded base64 of 32 bytes), a blank
   line, then one or more signature lines `U+2014 SPACE name SPACE base64`. A
   signature line whose key name and key id both match K must carry a valid
   Ed25519 signature over the body (every such line must verify, and at least
   one must exist); other signature lines are ignored. The origin must be
   `<key name>/<log>`. A checkpoint of size 0 must have root SHA-256("").
3. Inclusion: leafIndex == position - 1; treeSize == checkpoint size;
   leafIndex < treeSize; leafHash == SHA-256(0x00 || record); the record is a
   UTF-8 JSON object (no duplicate keys) whose `log` is the bundle's `log` and
   whose `position` is `position`; the audit path (every element 32 bytes, the
   exact number of elements the RFC algorithm consumes) leads from leafHash to
   the checkpoint's root (RFC 9162 section 2.1.3.2).
4. Consistency (when present): toSize == checkpoint size; 0 < fromSize <=
   toSize; fromRoot and every path element 32 bytes; the path verifies from
   fromRoot to the checkpoint's root (RFC 9162 section 2.1.4.2); for equal
   sizes the path is empty and the roots are equal.
5. With --trusted: the older checkpoint is signed by the same key and has the
   same origin; it is not larger than the bundle's checkpoint; at equal sizes
   the roots are equal; otherwise the bundle's consistency member starts at
   the older checkpoint's size and root (and verified in step 4).

Vector mode
-----------
`--rfc9162-vectors DIR` runs the transparency-dev/merkle vectors under
DIR/inclusion and DIR/consistency (subtree* folders are ignored) through the
same verify_inclusion / verify_consistency functions. It prints one line per
vector, `<path relative to DIR> accept|reject`, sorted by path, then
`N vectors: A accepted, R rejected, M disagree with wantErr`; each
disagreement is also described on stderr. Exit 0 only if M is 0 (1 otherwise,
2 if DIR holds no vectors or a vector file is unusable).
"""

import argparse
import base64
import binascii
import hashlib
import json
import os
import re
import sys

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:  # pragma: no cover - reported at run time
    Ed25519PublicKey = None
    InvalidSignature = Exception

BUNDLE_FORMAT = "consent-ledger-proof/1"
HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()
ED25519_ALG = 0x01
MAX_SIGNATURE_LINES = 100
MAX_KEY_NAME = 100
UINT64_MAX = (1 << 64) - 1
EM_DASH_PREFIX = "\u2014 "
DECIMAL_RE = re.compile(r"0|[1-9][0-9]*", re.ASCII)
HEX_HASH_RE = re.compile(r"[0-9a-f]{64}", re.ASCII)
HEX_KEY_ID_RE = re.compile(r"[0-9a-f]{8}", re.ASCII)


class ProofFailed(Exception):
    """A proof, signature or checkpoint did not check (exit 1)."""


class UnusableInput(Exception):
    """Input that cannot be used at all (exit 2); the message says how to fix it."""


# ---------------------------------------------------------------------------
# Hashing (RFC 9162 section 2.1.1)
# ---------------------------------------------------------------------------

def leaf_hash(data):
    """SHA-256(0x00 || data)."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left, right):
    """SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def hx(data):
    return data.hex()


# ---------------------------------------------------------------------------
# RFC 9162 section 2.1.3.2: verifying an inclusion proof
# ---------------------------------------------------------------------------

def inclusion_path_length(leaf_index, tree_size):
    """Number of audit path elements the section 2.1.3.2 loop consumes."""
    fn, sn, count = leaf_index, tree_size - 1, 0
    while sn != 0:
        if fn & 1 or fn == sn:
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        fn >>= 1
        sn >>= 1
        count += 1
    return count


def verify_inclusion(leaf_index, tree_size, leaf, path, root):
    """Check that `leaf` (a leaf hash) is leaf `leaf_index` of the tree of
    `tree_size` leaves whose root is `root`, by the audit path `path` (a list
    of 32-byte hashes, the sibling nearest the leaf first). Raises ProofFailed
    naming what did not check."""
    if not isinstance(leaf_index, int) or not isinstance(tree_size, int) or leaf_index < 0 or tree_size < 0:
        raise ProofFailed("leaf index and tree size must be non-negative integers")
    if leaf_index >= tree_size:
        raise ProofFailed(f"leaf index {leaf_index} is not less than the tree size {tree_size}")
    if len(leaf) != HASH_SIZE:
        raise ProofFailed(f"leaf hash is {len(leaf)} bytes, not {HASH_SIZE}")
    for i, p in enumerate(path):
        if len(p) != HASH_SIZE:
            raise ProofFailed(f"audit path element {i} is {len(p)} bytes, not {HASH_SIZE}")
    want = inclusion_path_length(leaf_index, tree_size)
    if len(path) != want:
        raise ProofFailed(f"audit path has {len(path)} elements; leaf {leaf_index} of a tree of "
                          f"{tree_size} leaves needs exactly {want}")
    # The algorithm exactly as RFC 9162 section 2.1.3.2 states it.
    fn, sn = leaf_index, tree_size - 1
    r = leaf
    for p in path:
        if sn == 0:
            raise ProofFailed("audit path is longer than the tree is deep")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofFailed("audit path is shorter than the tree is deep")
    if r != root:
        raise ProofFailed(f"audit path leads from leaf hash {hx(leaf)} to root {hx(r)}, "
                          f"not to the expected root {hx(root)}")


# ---------------------------------------------------------------------------
# RFC 9162 section 2.1.4.2: verifying a consistency proof
# ---------------------------------------------------------------------------

def _is_power_of_two(n):
    return n > 0 and n & (n - 1) == 0


def consistency_path_length(first, second):
    """Number of elements PROOF(first, D[second]) has (0 < first < second)."""
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    count = 1  # the first value (fr = sr = path[0])
    while sn != 0:
        if fn & 1 or fn == sn:
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        fn >>= 1
        sn >>= 1
        count += 1
    if _is_power_of_two(first):
        count -= 1  # the verifier prepends first_hash itself
    return count


def verify_consistency(first, second, first_root, second_root, path):
    """Check that the tree of `second` leaves with root `second_root` extends
    the tree of `first` leaves with root `first_root`, by the consistency
    proof `path` (a list of 32-byte hashes). Raises ProofFailed naming what
    did not check. Roots are compared, not length-checked, here; callers that
    parse roots from a bundle or checkpoint require 32 bytes themselves."""
    if not isinstance(first, int) or not isinstance(second, int) or first < 0 or second < 0:
        raise ProofFailed("tree sizes must be non-negative integers")
    if first > second:
        raise ProofFailed(f"the older size {first} is larger than the newer size {second}")
    if first == 0:
        raise ProofFailed("a consistency proof from the empty tree (size 0) is meaningless and refused")
    for i, p in enumerate(path):
        if len(p) != HASH_SIZE:
            raise ProofFailed(f"consistency path element {i} is {len(p)} bytes, not {HASH_SIZE}")
    if first == second:
        if path:
            raise ProofFailed(f"sizes are equal ({first}) but the consistency path has {len(path)} "
                              "elements instead of none")
        if first_root != second_root:
            raise ProofFailed(f"sizes are equal ({first}) but the roots differ: {hx(first_root)} "
                              f"and {hx(second_root)}")
        return
    # Step 1.
    if not path:
        raise ProofFailed(f"consistency path from size {first} to size {second} is empty")
    want = consistency_path_length(first, second)
    if len(path) != want:
        raise ProofFailed(f"consistency path has {len(path)} elements; a proof from size {first} "
                          f"to size {second} has exactly {want}")
    # Step 2.
    if _is_power_of_two(first):
        path = [first_root] + list(path)
    # Steps 3 and 4.
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    # Step 5.
    fr = sr = path[0]
    # Step 6.
    for c in path[1:]:
        if sn == 0:
            raise ProofFailed("consistency path is longer than the proof needs")
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while not fn & 1 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    # Step 7.
    if sn != 0:
        raise ProofFailed("consistency path is shorter than the proof needs")
    if fr != first_root:
        raise ProofFailed(f"consistency path gives root {hx(fr)} for the tree of {first} leaves, "
                          f"not the older root {hx(first_root)}")
    if sr != second_root:
        raise ProofFailed(f"consistency path gives root {hx(sr)} for the tree of {second} leaves, "
                          f"not the newer root {hx(second_root)}")


# ---------------------------------------------------------------------------
# Encodings
# ---------------------------------------------------------------------------

def strict_b64decode(text):
    """Standard base64 with padding, canonical (re-encodes to the same text);
    returns bytes or None."""
    if not isinstance(text, str):
        return None
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return None
    if base64.b64encode(raw).decode("ascii") != text:
        return None
    return raw


def parse_hex_hash(value, what):
    """A 32-byte hash written as 64 lowercase hex digits."""
    if not isinstance(value, str) or not HEX_HASH_RE.fullmatch(value):
        shown = value if isinstance(value, str) and len(value) <= 80 else (
            value[:77] + "..." if isinstance(value, str) else json.dumps(value)[:80])
        raise ProofFailed(f"{what} is not a 32-byte hash (64 lowercase hex digits): {shown!r}")
    return bytes.fromhex(value)


def is_valid_key_name(name):
    """1 to 100 characters, no whitespace (Unicode spaces) and no '+'."""
    return (0 < len(name) <= MAX_KEY_NAME and "+" not in name
            and not any(ch.isspace() for ch in name))


class VerifierKey:
    def __init__(self, name, key_id, public_key):
        self.name = name
        self.key_id = key_id  # int, 32 bits
        self.public_key = public_key  # 32 bytes

    @property
    def key_id_hex(self):
        return f"{self.key_id:08x}"

    def describe(self):
        return f"{self.name} (key {self.key_id_hex})"


def compute_key_id(name, public_key):
    digest = hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([ED25519_ALG]) + public_key).digest()
    return int.from_bytes(digest[:4], "big")


def parse_verifier_key(text):
    """Parse `<name>+<8 lowercase hex digit key id>+<base64(0x01 || 32-byte
    Ed25519 public key)>`; the key id must be the one the name and key give.
    Raises UnusableInput."""
    fix = "pass the text printed by `consent-ledger signing-key show`, or a file holding it"
    if text.startswith("PRIVATE+KEY+"):
        raise UnusableInput("the key given is a PRIVATE signing key; pass the public verifier key "
                            "(`consent-ledger signing-key show`) and keep the private key secret")
    # The name and the key id contain no '+'; the base64 after them may.
    parts = text.split("+", 2)
    if len(parts) != 3:
        raise UnusableInput(f"the public key is not of the form <name>+<key id>+<base64 key>; {fix}")
    name, id_hex, key_b64 = parts
    if not is_valid_key_name(name):
        raise UnusableInput(f"the public key's name {name!r} is not 1 to 100 characters without "
                            f"whitespace; {fix}")
    if not HEX_KEY_ID_RE.fullmatch(id_hex):
        raise UnusableInput(f"the public key's id {id_hex!r} is not 8 lowercase hex digits; {fix}")
    raw = strict_b64decode(key_b64)
    if raw is None:
        raise UnusableInput(f"the public key's last part is not canonical padded standard base64; {fix}")
    if len(raw) != 1 + 32 or raw[0] != ED25519_ALG:
        raise UnusableInput("the public key's last part does not decode to 0x01 followed by a "
                            f"32-byte Ed25519 public key ({len(raw)} bytes); {fix}")
    public_key = raw[1:]
    key_id = int(id_hex, 16)
    computed = compute_key_id(name, public_key)
    if computed != key_id:
        raise UnusableInput(f"the public key's id {id_hex} does not match its name and key "
                            f"(they give {computed:08x}); the key text is damaged; {fix}")
    try:
        Ed25519PublicKey.from_public_bytes(public_key)
    except ValueError as e:
        raise UnusableInput(f"the public key is not a usable Ed25519 key ({e}); {fix}")
    return VerifierKey(name, key_id, public_key)


# ---------------------------------------------------------------------------
# C2SP signed note and tlog-checkpoint
# ---------------------------------------------------------------------------

class Signature:
    def __init__(self, name, key_id, signature, line_number):
        self.name = name
        self.key_id = key_id
        self.signature = signature  # bytes after the 4-byte key id
        self.line_number = line_number


class Note:
    def __init__(self, body, signatures):
        self.body = body  # str, the signed text, ending in "\n"
        self.signatures = signatures


def parse_note(text, what="checkpoint"):
    """Split a C2SP signed note into its body (the signed text, ending in a
    newline) and its signature lines. Raises ProofFailed."""
    try:
        text = text.decode("utf-8") if isinstance(text, bytes) else text.encode("utf-8").decode("utf-8")
    except UnicodeError:
        raise ProofFailed(f"{what} is not valid UTF-8")
    for i, ch in enumerate(text):
        if ch < " " and ch != "\n":
            raise ProofFailed(f"{what} contains the control character U+{ord(ch):04X} at offset {i} "
                              "(only newline is allowed)")
    if not text.endswith("\n"):
        raise ProofFailed(f"{what} does not end in a newline")
    split = text.rfind("\n\n")
    if split < 0:
        raise ProofFailed(f"{what} has no blank line between its text and its signature lines")
    body = text[:split + 1]
    block = text[split + 2:]
    if body.startswith("\n") or body == "":
        raise ProofFailed(f"{what} has an empty text")
    if block == "":
        raise ProofFailed(f"{what} has no signature lines after its blank line")
    lines = block[:-1].split("\n")
    if len(lines) > MAX_SIGNATURE_LINES:
        raise ProofFailed(f"{what} has {len(lines)} signature lines (at most {MAX_SIGNATURE_LINES} are accepted)")
    signatures = []
    for n, line in enumerate(lines, 1):
        if not line.startswith(EM_DASH_PREFIX):
            raise ProofFailed(f"{what} signature line {n} does not start with U+2014 EM DASH and a space: {line[:40]!r}")
        rest = line[len(EM_DASH_PREFIX):].split(" ")
        if len(rest) != 2 or not rest[0] or not rest[1]:
            raise ProofFailed(f"{what} signature line {n} is not '\u2014 <key name> <base64 signature>'")
        name, sig_b64 = rest
        if not is_valid_key_name(name):
            raise ProofFailed(f"{what} signature line {n} has an invalid key name {name!r}")
        raw = strict_b64decode(sig_b64)
        if raw is None:
            raise ProofFailed(f"{what} signature line {n} is not canonical padded standard base64")
        if len(raw) < 5:
            raise ProofFailed(f"{what} signature line {n} decodes to {len(raw)} bytes; it needs a "
                              "4-byte key id and a signature")
        signatures.append(Signature(name, int.from_bytes(raw[:4], "big"), raw[4:], n))
    return Note(body, signatures)


def verify_note_signature(note, key, what="checkpoint"):
    """Require at least one signature line by `key` (same name and key id),
    and every such line to be a valid Ed25519 signature over the body. Other
    keys' lines are ignored. Raises ProofFailed."""
    mine = [s for s in note.signatures if s.name == key.name and s.key_id == key.key_id]
    if not mine:
        seen = ", ".join(f"{s.name} (key {s.key_id:08x})" for s in note.signatures)
        raise ProofFailed(f"{what} has no signature by {key.describe()}; it is signed by: {seen}")
    public = Ed25519PublicKey.from_public_bytes(key.public_key)
    body = note.body.encode("utf-8")
    for s in mine:
        if len(s.signature) != 64:
            raise ProofFailed(f"{what} signature line {s.line_number} by {key.describe()} holds "
                              f"{len(s.signature)} signature bytes, not 64")
        try:
            public.verify(s.signature, body)
        except InvalidSignature:
            raise ProofFailed(f"{what} signature line {s.line_number} by {key.describe()} does not "
                              "verify over the checkpoint text (the text or the signature was changed)")


class Checkpoint:
    def __init__(self, origin, size, root, note):
        self.origin = origin
        self.size = size
        self.root = root
        self.note = note


def parse_checkpoint(text, key, what="checkpoint"):
    """Parse a signed checkpoint note, check its signature by `key`, and
    return Checkpoint. Raises ProofFailed."""
    note = parse_note(text, what)
    lines = note.body[:-1].split("\n")
    if len(lines) != 3:
        raise ProofFailed(f"{what} text has {len(lines)} lines; it must have exactly 3 "
                          "(origin, tree size, root hash)")
    origin, size_text, root_text = lines
    if origin == "":
        raise ProofFailed(f"{what} origin line is empty")
    if not DECIMAL_RE.fullmatch(size_text):
        raise ProofFailed(f"{what} tree size {size_text!r} is not a decimal number without sign "
                          "or leading zeros")
    size = int(size_text)
    if size > UINT64_MAX:
        raise ProofFailed(f"{what} tree size {size_text} does not fit in 64 bits")
    root = strict_b64decode(root_text)
    if root is None:
        raise ProofFailed(f"{what} root hash {root_text!r} is not canonical padded standard base64")
    if len(root) != HASH_SIZE:
        raise ProofFailed(f"{what} root hash is {len(root)} bytes, not {HASH_SIZE}")
    verify_note_signature(note, key, what)
    if size == 0 and root != EMPTY_ROOT:
        raise ProofFailed(f"{what} is for the empty tree but its root is {hx(root)}, not "
                          f"SHA-256(\"\") = {hx(EMPTY_ROOT)}")
    return Checkpoint(origin, size, root, note)


# ---------------------------------------------------------------------------
# Bundles
# ---------------------------------------------------------------------------

def _reject_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise ValueError(f"duplicate member {k!r}")
        seen[k] = v
    return seen


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def strict_json_loads(data):
    """UTF-8 JSON with no duplicate object members and no NaN/Infinity."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return json.loads(text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant)


BUNDLE_MEMBERS = {"format", "kind", "log", "checkpoint"}
BUNDLE_OPTIONAL = {"inclusion", "consistency"}
INCLUSION_MEMBERS = {"position": int, "leafIndex": int, "treeSize": int, "record": str,
                     "leafHash": str, "path": list}
CONSISTENCY_MEMBERS = {"fromSize": int, "fromRoot": str, "toSize": int, "path": list}


def _json_type(value):
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "non-integer number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def _check_members(obj, required, optional, where):
    fix = "give the file exactly as `consent-ledger prove` wrote it"
    missing = [m for m in sorted(required) if m not in obj]
    if missing:
        raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: {where} lacks {', '.join(missing)}; {fix}")
    unknown = [m for m in sorted(obj) if m not in required and m not in optional]
    if unknown:
        raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: {where} has unknown member(s) "
                            f"{', '.join(unknown)}; {fix}")


def _check_types(obj, types, where):
    for member, typ in types.items():
        value = obj[member]
        ok = isinstance(value, typ) and not (typ is int and isinstance(value, bool))
        if not ok:
            wanted = {int: "an integer", str: "a string", list: "an array"}[typ]
            raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: {where}.{member} is a "
                                f"{_json_type(value)}, not {wanted}")


def parse_bundle(data):
    """Decode and shape-check a bundle (bytes). Raises UnusableInput."""
    try:
        bundle = strict_json_loads(data)
    except UnicodeDecodeError:
        raise UnusableInput("the bundle is not UTF-8 text; give the .json file `consent-ledger prove` wrote")
    except ValueError as e:
        raise UnusableInput(f"the bundle is not valid JSON ({e}); give the .json file `consent-ledger prove` wrote")
    if not isinstance(bundle, dict):
        raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: the JSON is a {_json_type(bundle)}, not an object")
    if bundle.get("format") != BUNDLE_FORMAT:
        raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: format is {json.dumps(bundle.get('format'))}; "
                            "this verifier reads only consent-ledger-proof/1")
    kind = bundle.get("kind")
    if kind not in ("inclusion", "consistency"):
        raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: kind is {json.dumps(kind)}, not "
                            "\"inclusion\" or \"consistency\"")
    if kind == "inclusion":
        required, optional = BUNDLE_MEMBERS | {"inclusion"}, {"consistency"}
    else:
        required, optional = BUNDLE_MEMBERS | {"consistency"}, set()
    if kind == "consistency" and "inclusion" in bundle:
        raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: a consistency bundle has no inclusion "
                            "member; give the file exactly as `consent-ledger prove` wrote it")
    _check_members(bundle, required, optional, "the bundle")
    _check_types(bundle, {"log": str, "checkpoint": str}, "bundle")
    if kind == "inclusion":
        inc = bundle["inclusion"]
        if not isinstance(inc, dict):
            raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: inclusion is a {_json_type(inc)}, not an object")
        _check_members(inc, set(INCLUSION_MEMBERS), set(), "inclusion")
        _check_types(inc, INCLUSION_MEMBERS, "inclusion")
    if "consistency" in bundle:
        con = bundle["consistency"]
        if not isinstance(con, dict):
            raise UnusableInput(f"not a {BUNDLE_FORMAT} bundle: consistency is a {_json_type(con)}, not an object")
        _check_members(con, set(CONSISTENCY_MEMBERS), set(), "consistency")
        _check_types(con, CONSISTENCY_MEMBERS, "consistency")
    return bundle


def _hash_list(values, where):
    return [parse_hex_hash(v, f"{where}[{i}]") for i, v in enumerate(values)]


def _non_negative(value, where):
    if value < 0:
        raise ProofFailed(f"{where} is {value}, a negative number")
    if value > UINT64_MAX:
        raise ProofFailed(f"{where} is {value}, which does not fit in 64 bits")


def check_inclusion(bundle, checkpoint):
    """Step 3. Returns a description for the OK line."""
    inc = bundle["inclusion"]
    position, index, size = inc["position"], inc["leafIndex"], inc["treeSize"]
    _non_negative(position, "inclusion.position")
    _non_negative(index, "inclusion.leafIndex")
    _non_negative(size, "inclusion.treeSize")
    if position < 1:
        raise ProofFailed(f"inclusion.position is {position}; positions start at 1")
    if index != position - 1:
        raise ProofFailed(f"inclusion.leafIndex is {index} but the record at position {position} "
                          f"is leaf {position - 1}")
    if size != checkpoint.size:
        raise ProofFailed(f"inclusion.treeSize is {size} but the checkpoint is for {checkpoint.size} leaves")
    if index >= size:
        raise ProofFailed(f"inclusion.leafIndex {index} is not less than the tree size {size}")
    record = strict_b64decode(inc["record"])
    if record is None:
        raise ProofFailed("inclusion.record is not canonical padded standard base64")
    stated = parse_hex_hash(inc["leafHash"], "inclusion.leafHash")
    computed = leaf_hash(record)
    if stated != computed:
        raise ProofFailed(f"inclusion.leafHash is {hx(stated)} but SHA-256(0x00 || record) is {hx(computed)}")
    try:
        obj = strict_json_loads(record)
    except (UnicodeDecodeError, ValueError) as e:
        raise ProofFailed(f"inclusion.record is not UTF-8 JSON ({e})")
    if not isinstance(obj, dict):
        raise ProofFailed(f"inclusion.record is a JSON {_json_type(obj)}, not an object")
    if obj.get("log") != bundle["log"] or not isinstance(obj.get("log"), str):
        raise ProofFailed(f"the record's log is {json.dumps(obj.get('log'))}, not the bundle's "
                          f"{json.dumps(bundle['log'])}")
    rec_pos = obj.get("position")
    if not isinstance(rec_pos, int) or isinstance(rec_pos, bool) or rec_pos != position:
        raise ProofFailed(f"the record's position is {json.dumps(rec_pos)}, not {position}")
    path = _hash_list(inc["path"], "inclusion.path")
    try:
        verify_inclusion(index, size, computed, path, checkpoint.root)
    except ProofFailed as e:
        raise ProofFailed(f"inclusion proof: {e}")
    return position, index, size


def check_consistency(bundle, checkpoint):
    """Step 4. Returns (fromSize, fromRoot)."""
    con = bundle["consistency"]
    from_size, to_size = con["fromSize"], con["toSize"]
    _non_negative(from_size, "consistency.fromSize")
    _non_negative(to_size, "consistency.toSize")
    if to_size != checkpoint.size:
        raise ProofFailed(f"consistency.toSize is {to_size} but the checkpoint is for {checkpoint.size} leaves")
    if from_size == 0:
        raise ProofFailed("consistency.fromSize is 0; a proof from the empty tree is meaningless and refused")
    if from_size > to_size:
        raise ProofFailed(f"consistency.fromSize {from_size} is larger than toSize {to_size}")
    from_root = parse_hex_hash(con["fromRoot"], "consistency.fromRoot")
    path = _hash_list(con["path"], "consistency.path")
    try:
        verify_consistency(from_size, to_size, from_root, checkpoint.root, path)
    except ProofFailed as e:
        raise ProofFailed(f"consistency proof: {e}")
    return from_size, from_root


def verify_bundle(bundle, key, trusted_text=None):
    """Run steps 2 to 5 on a shape-checked bundle; returns the OK lines.
    Raises ProofFailed."""
    log = bundle["log"]
    checkpoint = parse_checkpoint(bundle["checkpoint"], key, "the bundle's checkpoint")
    expected_origin = f"{key.name}/{log}"
    if not checkpoint.origin.endswith("/" + log):
        raise ProofFailed(f"the checkpoint's origin {checkpoint.origin!r} does not end in "
                          f"{'/' + log!r} (it is for another log)")
    if checkpoint.origin != expected_origin:
        raise ProofFailed(f"the checkpoint's origin is {checkpoint.origin!r}, not {expected_origin!r} "
                          "(<key name>/<log>)")
    signer = key.describe()
    lines = []
    if bundle["kind"] == "inclusion":
        position, index, size = check_inclusion(bundle, checkpoint)
        lines.append(f"OK: record at position {position} is leaf {index} of the tree of {size} "
                     f"leaves signed by {signer}")
    consistency = None
    if "consistency" in bundle:
        consistency = check_consistency(bundle, checkpoint)
        line = (f"the tree of {checkpoint.size} leaves signed by {signer} extends the tree of "
                f"{consistency[0]} leaves with root {hx(consistency[1])}")
        lines.append(f"OK: {line}" if bundle["kind"] == "consistency" else f"  and {line}")
    if trusted_text is not None:
        older = parse_checkpoint(trusted_text, key, "the trusted checkpoint")
        if older.origin != checkpoint.origin:
            raise ProofFailed(f"the trusted checkpoint's origin {older.origin!r} is not the bundle "
                              f"checkpoint's {checkpoint.origin!r}")
        if older.size > checkpoint.size:
            raise ProofFailed(f"the trusted checkpoint ({older.size} leaves) is larger than the bundle's "
                              f"({checkpoint.size} leaves); ask for a proof against a newer checkpoint")
        if older.size == checkpoint.size:
            if older.root != checkpoint.root:
                raise ProofFailed(f"the trusted checkpoint and the bundle's are both for {older.size} "
                                  f"leaves but their roots differ: {hx(older.root)} and "
                                  f"{hx(checkpoint.root)} (the log was forked or rewritten)")
        else:
            if consistency is None:
                raise ProofFailed(f"the trusted checkpoint is for {older.size} leaves but the bundle has "
                                  f"no consistency proof from there to {checkpoint.size} leaves (ask for "
                                  f"`prove inclusion ... --since {older.size}`)")
            if consistency[0] != older.size:
                raise ProofFailed(f"the bundle's consistency proof starts at {consistency[0]} leaves, not "
                                  f"at the trusted checkpoint's {older.size}")
            if consistency[1] != older.root:
                raise ProofFailed(f"the bundle's consistency.fromRoot {hx(consistency[1])} is not the "
                                  f"trusted checkpoint's root {hx(older.root)} (the log was forked or rewritten)")
        lines.append(f"  and it is consistent with the trusted checkpoint of {older.size} leaves")
    return lines


# ---------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------

def read_input(path, what, fix):
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise UnusableInput(f"cannot read {what} {path!r}: {e.strerror or e}; {fix}")


def load_verifier_key(arg):
    """K is the key text itself or a path to a file holding it."""
    if os.path.exists(arg):
        if not os.path.isfile(arg):
            raise UnusableInput(f"--public-key {arg!r} is not a regular file; pass the verifier key "
                                "text or a file holding it")
        data = read_input(arg, "the public key file", "check the path")
        try:
            text = data.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise UnusableInput(f"the public key file {arg!r} is not UTF-8 text")
        return parse_verifier_key(text)
    if "+" not in arg:
        raise UnusableInput(f"--public-key {arg!r} is neither an existing file nor verifier key text "
                            "(<name>+<key id>+<base64>); pass `consent-ledger signing-key show` output "
                            "or a file holding it")
    return parse_verifier_key(arg.strip())


# ---------------------------------------------------------------------------
# Vector mode
# ---------------------------------------------------------------------------

def _vector_bytes(value):
    if value is None:
        return None
    return strict_b64decode(value)


def run_vector(kind, data):
    """True when the vector's proof verifies. Undecodable base64 is a reject."""
    proof = data.get("proof")
    if proof is None:
        proof = []
    if not isinstance(proof, list):
        raise UnusableInput("proof is neither a list nor null")
    path = [_vector_bytes(p) for p in proof]
    if any(p is None for p in path):
        return False
    try:
        if kind == "inclusion":
            idx, size = data["leafIdx"], data["treeSize"]
            root, leaf = _vector_bytes(data["root"]), _vector_bytes(data["leafHash"])
            if root is None or leaf is None:
                return False
            verify_inclusion(idx, size, leaf, path, root)
        else:
            s1, s2 = data["size1"], data["size2"]
            r1, r2 = _vector_bytes(data["root1"]), _vector_bytes(data["root2"])
            if r1 is None or r2 is None:
                return False
            verify_consistency(s1, s2, r1, r2, path)
    except ProofFailed:
        return False
    return True


def run_vectors(directory):
    if not os.path.isdir(directory):
        raise UnusableInput(f"{directory!r} is not a directory; pass the rfc9162 vector folder "
                            "(with inclusion/ and consistency/)")
    found = []
    for kind in ("inclusion", "consistency"):
        top = os.path.join(directory, kind)
        if not os.path.isdir(top):
            continue
        for root, _dirs, files in os.walk(top):
            for name in files:
                if name.endswith(".json"):
                    full = os.path.join(root, name)
                    rel = os.path.relpath(full, directory).replace(os.sep, "/")
                    found.append((rel, kind, full))
    if not found:
        raise UnusableInput(f"no vectors under {directory!r}/inclusion or /consistency")
    found.sort()
    accepted = rejected = disagree = 0
    for rel, kind, full in found:
        try:
            with open(full, "rb") as f:
                data = json.loads(f.read().decode("utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("wantErr"), bool):
                raise UnusableInput("no boolean wantErr")
            ok = run_vector(kind, data)
        except (OSError, ValueError, KeyError, UnusableInput) as e:
            raise UnusableInput(f"vector {rel} is unusable: {e}")
        if ok:
            accepted += 1
        else:
            rejected += 1
        print(f"{rel} {'accept' if ok else 'reject'}")
        if ok == data["wantErr"]:
            disagree += 1
            print(f"disagreement: {rel} was {'accepted' if ok else 'rejected'} but wantErr is "
                  f"{str(data['wantErr']).lower()}", file=sys.stderr)
    print(f"{len(found)} vectors: {accepted} accepted, {rejected} rejected, "
          f"{disagree} disagree with wantErr")
    return 0 if disagree == 0 else 1


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"ERROR: {message}; see --help\n")


def main(argv=None):
    parser = _Parser(
        description="Verify a ConsentLedger proof bundle offline (docs/proofs.md).",
        epilog="Exit 0 and 'OK...' when everything checks, 1 and 'FAILED: ...' when something "
               "does not, 2 and 'ERROR: ...' (on stderr) for unusable input.")
    parser.add_argument("bundle", nargs="?", metavar="BUNDLE", help="proof bundle file, or - for stdin")
    parser.add_argument("--public-key", metavar="K", help="verifier key text, or a file holding it")
    parser.add_argument("--trusted", metavar="OLDER_CHECKPOINT",
                        help="a file holding an older signed checkpoint you trust")
    parser.add_argument("--rfc9162-vectors", metavar="DIR",
                        help="run the RFC 9162 inclusion/consistency vectors in DIR instead")
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = parser.parse_args(argv)

    try:
        if Ed25519PublicKey is None and args.rfc9162_vectors is None:
            raise UnusableInput("the Python package 'cryptography' is not installed; "
                                "install it (pip install cryptography)")
        if args.rfc9162_vectors is not None:
            if args.bundle is not None or args.public_key is not None or args.trusted is not None:
                raise UnusableInput("--rfc9162-vectors takes no BUNDLE, --public-key or --trusted")
            return run_vectors(args.rfc9162_vectors)
        if args.bundle is None:
            raise UnusableInput("give a BUNDLE file (or - for stdin); see --help")
        if args.public_key is None:
            raise UnusableInput("give --public-key K: the ledger's verifier key "
                                "(`consent-ledger signing-key show`) or a file holding it")
        key = load_verifier_key(args.public_key)
        data = read_input(args.bundle, "the bundle", "check the path")
        bundle = parse_bundle(data)
        trusted = None
        if args.trusted is not None:
            if args.trusted == "-" and args.bundle == "-":
                raise UnusableInput("BUNDLE and --trusted cannot both be stdin")
            trusted = read_input(args.trusted, "the trusted checkpoint", "check the path")
        lines = verify_bundle(bundle, key, trusted)
    except UnusableInput as e:
        print(f"ERROR: {e}", file=sys.stderr)
        return 2
    except ProofFailed as e:
        print(f"FAILED: {e}")
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
