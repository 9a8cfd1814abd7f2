#!/usr/bin/env python3
"""Independent offline verifier for ConsentLedger proof bundles (docs/proofs.md).

Written from RFC 9162 (sections 2.1.3.2 and 2.1.4.2) and the C2SP signed-note,
tlog-checkpoint and tlog-cosignature formats, not from the ledger's Swift code. Needs Python 3
and the `cryptography` package (Ed25519); everything else is the standard library.

    verify-proof.py BUNDLE --public-key K [--trusted OLDER_CHECKPOINT] [--witness W]... [--min-witnesses N]
    verify-proof.py --rfc9162-vectors DIR

BUNDLE is a file written by `consent-ledger prove`, or `-` for stdin. K is the verifier key
text `<name>+<key id>+<base64>` (`consent-ledger signing-key show`) or a file holding it.
OLDER_CHECKPOINT is a file holding a signed checkpoint you already trust. W is a witness's
cosignature key (`consent-ledger witness create-key`, type 0x04), as text or a file; the
checkpoint must carry valid cosignatures by N of them (default: all).

Exit 0, stdout `OK...`: everything checks. Exit 1, stdout `FAILED: <first failed check>`.
Exit 2, stderr `ERROR: ...`: unusable input - a file that cannot be read, not UTF-8 JSON,
not a consent-ledger-proof/1 bundle (format, kind, a missing, unknown or wrongly typed
member), a key that does not parse, bad arguments. Members of the right type whose values
do not check are FAILED, as is a --trusted file that reads but is not a note signed by K.
The checks are numbered as in docs/proofs.md: 1 in parse_bundle, 2 to 5 in verify_bundle
(2b, the witnesses' cosignatures, in check_witnesses).

--rfc9162-vectors DIR runs the transparency-dev/merkle vectors in DIR/inclusion and
DIR/consistency through the same RFC functions: one `<path> accept|reject` line per vector,
sorted, then `N vectors: A accepted, R rejected, M disagree with wantErr`; exit 0 if M is 0.
"""

import argparse, base64, binascii, hashlib, json, os, pathlib, re, sys

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:  # only bundle mode needs it; main() says so
    Ed25519PublicKey = None

FORMAT = "consent-ledger-proof/1"
FIX = "give the file exactly as `consent-ledger prove` wrote it"
KEY_FIX = "pass the text printed by `consent-ledger signing-key show`, or a file holding it"
WITNESS_FIX = "pass the text printed by `consent-ledger witness create-key` (or show-key), or a file holding it"
ED25519, COSIGNATURE_V1 = 0x01, 0x04  # the signature-type bytes of a log's key and a witness's key

class Failed(Exception): pass  # a check did not pass (exit 1)

class Unusable(Exception): pass  # input that cannot be used at all (exit 2)

def check(ok, message, error=Failed):
    if not ok:
        raise error(message)

def usable(ok, message):
    check(ok, message, Unusable)

def sha256(data):
    return hashlib.sha256(data).digest()

def node_hash(left, right):  # RFC 9162 2.1.1; a leaf hash is sha256(b"\x00" + data)
    return sha256(b"\x01" + left + right)

def verify_inclusion(leaf_index, tree_size, leaf, path, root):
    """RFC 9162 2.1.3.2: `leaf` (a leaf hash) is leaf `leaf_index` of the tree of `tree_size`
    leaves whose root is `root`, by the audit path `path` (nearest sibling first)."""
    # 1. leaf_index must be less than tree_size (and the hashes 32 bytes).
    check(all(isinstance(n, int) for n in (leaf_index, tree_size)) and 0 <= leaf_index < tree_size,
          f"inclusion proof: leaf index {leaf_index} is not below the tree size {tree_size}")
    check(len(leaf) == 32 and all(len(p) == 32 for p in path),
          "inclusion proof: the leaf hash and every path element must be 32 bytes")
    # 2. Set fn to leaf_index and sn to tree_size - 1.  3. Set r to the leaf hash.
    fn, sn, r = leaf_index, tree_size - 1, leaf
    # 4. For each value p in the path:
    for p in path:
        # a. If sn is 0, fail (the path is longer than the tree is deep).
        check(sn != 0, f"inclusion proof: the audit path is too long for leaf {leaf_index} of {tree_size}")
        # b. If LSB(fn) is set or fn == sn: r = HASH(0x01 || p || r), then, if LSB(fn) is not
        #    set, right-shift fn and sn until LSB(fn) is set or fn is 0.
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:  # Otherwise r = HASH(0x01 || r || p).
            r = node_hash(r, p)
        # c. Right-shift fn and sn once.
        fn, sn = fn >> 1, sn >> 1
    # 5. sn must be 0 (the path was not too short) and r must be the root.
    check(sn == 0, f"inclusion proof: the audit path is too short for leaf {leaf_index} of {tree_size}")
    check(r == root, f"inclusion proof: the audit path leads to root {r.hex()}, not {root.hex()}")

def verify_consistency(first, second, first_hash, second_hash, path):
    """RFC 9162 2.1.4.2: the tree of `second` leaves with root `second_hash` extends the tree
    of `first` leaves with root `first_hash`, by the consistency proof `path`."""
    check(all(isinstance(n, int) for n in (first, second)) and 0 < first <= second,
          f"consistency proof: sizes {first} and {second} are not 0 < first <= second")
    check(all(len(c) == 32 for c in path), "consistency proof: every path element must be 32 bytes")
    if first == second:  # the same tree: nothing to prove but equal roots
        check(not path and first_hash == second_hash,
              f"consistency proof: equal sizes ({first}) need an empty path and equal roots")
        return
    # 1. An empty path fails.
    check(path, f"consistency proof: the path from {first} to {second} leaves is empty")
    # 2. If first is an exact power of 2, prepend first_hash to the path.
    if first & (first - 1) == 0:
        path = [first_hash] + list(path)
    # 3. Set fn to first - 1 and sn to second - 1.  4. While LSB(fn) is set, right-shift fn and sn.
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    # 5. Set both fr and sr to the first value in the path.
    fr = sr = path[0]
    # 6. For each subsequent value c in the path:
    for c in path[1:]:
        # a. If sn is 0, fail (the path is too long).
        check(sn != 0, f"consistency proof: the path from {first} to {second} leaves is too long")
        # b. If LSB(fn) is set or fn == sn: fr = HASH(0x01 || c || fr), sr = HASH(0x01 || c || sr),
        #    then, if LSB(fn) is not set, right-shift fn and sn until LSB(fn) is set or fn is 0.
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:  # Otherwise sr = HASH(0x01 || sr || c).
            sr = node_hash(sr, c)
        # c. Right-shift fn and sn once.
        fn, sn = fn >> 1, sn >> 1
    # 7. sn must be 0 (the path was not too short), fr must be first_hash and sr second_hash.
    check(sn == 0, f"consistency proof: the path from {first} to {second} leaves is too short")
    check(fr == first_hash, f"consistency proof: the path gives older root {fr.hex()}, not {first_hash.hex()}")
    check(sr == second_hash, f"consistency proof: the path gives newer root {sr.hex()}, not {second_hash.hex()}")

def b64(text):
    """Canonical padded standard base64 (it re-encodes to the same text) -> bytes, else None."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError, TypeError):
        return None
    return raw if base64.b64encode(raw).decode() == text else None

def hex_hash(value, what):
    check(isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value),
          f"{what} is not a 32-byte hash in 64 lowercase hex digits")
    return bytes.fromhex(value)

def strict_json(data):
    """UTF-8 JSON with no duplicate object members and no NaN or Infinity."""
    def members(pairs):
        check(len({k for k, _ in pairs}) == len(pairs), "an object has a duplicate member", ValueError)
        return dict(pairs)
    def constant(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(data.decode("utf-8"), object_pairs_hook=members, parse_constant=constant)

def key_name_ok(name):  # 1 to 100 characters, no whitespace, no '+'
    return 0 < len(name) <= 100 and "+" not in name and not any(c.isspace() for c in name)

def load_key(arg, option="--public-key", key_type=ED25519):
    """K is `<name>+<8 hex digit key id>+<base64(type || Ed25519 public key)>` or a file holding
    it, type being 0x01 for the log's key and 0x04 for a witness's; returns (name, 4-byte key
    id, public key)."""
    fix = KEY_FIX if key_type == ED25519 else WITNESS_FIX
    source = f"the {option} file {arg!r}" if os.path.exists(arg) else f"the {option} text"
    try:
        text = (read(arg, f"the {option} file").decode("utf-8") if os.path.exists(arg) else arg).strip()
    except UnicodeDecodeError:
        raise Unusable(f"{source} is not UTF-8 text")
    usable(not text.startswith("PRIVATE+KEY+"), f"that is a PRIVATE key (keep it secret); {fix}")
    parts = text.split("+", 2)  # the base64 may hold '+', the name and key id do not
    raw = b64(parts[2]) if len(parts) == 3 else None
    usable(raw and len(raw) == 33 and raw[0] == key_type and key_name_ok(parts[0])
           and re.fullmatch(r"[0-9a-f]{8}", parts[1]),
           f"{source} is not <name>+<8 hex digit key id>+<base64(0x{key_type:02x} || 32-byte key)>; {fix}")
    name, key_id = parts[0], bytes.fromhex(parts[1])
    # The key id is the first 4 bytes of SHA-256(name || 0x0A || type || public key).
    usable(sha256(name.encode() + b"\n" + raw)[:4] == key_id, f"the key id does not match the key; {fix}")
    try:
        return name, key_id, Ed25519PublicKey.from_public_bytes(raw[1:])
    except ValueError as e:
        raise Unusable(f"the {option} key is not a usable Ed25519 key ({e}); {fix}")

def check_witnesses(text, witnesses, minimum):
    """Step 2b: C2SP tlog-cosignature/v1 on a checkpoint that passed parse_checkpoint. A line by a
    witness (same name and key id) is base64(key id || 8-byte big-endian time || Ed25519
    signature) over "cosignature/v1\ntime <time>\n" + the note's text. Every such line must
    verify, and at least `minimum` witnesses must have one. Returns the OK line, or None."""
    if not witnesses:
        return None
    text = text.decode() if isinstance(text, bytes) else text
    split = text.rfind("\n\n")
    body, lines = text[:split + 1], text[split + 2:-1].split("\n")
    cosigned, missing = [], []
    for name, key_id, public in witnesses:
        who = f"witness {name} (key {key_id.hex()})"
        claims = [raw[4:] for raw in (b64(line[2:].split(" ")[-1]) for line in lines
                                       if line[2:].split(" ")[0] == name) if raw[:4] == key_id]
        if not claims:
            missing.append(name)
            continue
        for signature in claims:
            check(len(signature) == 72, f"the cosignature by {who} is {len(signature)} bytes, not 72 "
                  "(an 8-byte time and a 64-byte Ed25519 signature)")
            time = int.from_bytes(signature[:8], "big")
            check(time < 2**63, f"the cosignature by {who} has a time beyond 2^63 - 1")
            try:
                public.verify(signature[8:], b"cosignature/v1\ntime %d\n" % time + body.encode())
            except InvalidSignature:
                raise Failed(f"the cosignature by {who} does not verify: the checkpoint or the cosignature "
                             "was changed or forged")
        cosigned.append(name)
    check(len(cosigned) >= minimum, f"the checkpoint is cosigned by {len(cosigned)} of the {len(witnesses)} "
          f"witnesses given, {minimum} required; not cosigned by {', '.join(missing)}")
    return (f"  and it is cosigned by {len(cosigned)} of {len(witnesses)} witnesses ({minimum} required)"
            + (": " + ", ".join(cosigned) if cosigned else ""))

def parse_checkpoint(text, key, what):
    """A C2SP tlog-checkpoint in a C2SP signed note with a valid signature by `key`;
    returns (origin, size, root)."""
    name, key_id, public = key
    try:  # bytes from a file, or a str from JSON (which may hold lone surrogates)
        text = text.decode() if isinstance(text, bytes) else text.encode().decode()
    except UnicodeError:
        raise Failed(f"{what} is not valid UTF-8")
    check(all(c >= " " or c == "\n" for c in text), f"{what} holds a control character other than newline")
    # The note: text lines, a blank line, signature lines, each line ending in "\n". The body
    # (the signed text, ending in "\n") runs up to the last blank line.
    split = text.rfind("\n\n")
    body, block = text[:split + 1], text[split + 2:]
    check(split >= 0 and text.endswith("\n") and not body.startswith("\n") and block,
          f"{what} is not a signed note (text, a blank line, signature lines, each ending in a newline)")
    lines = block[:-1].split("\n")
    check(len(lines) <= 100, f"{what} has {len(lines)} signature lines (at most 100 are accepted)")
    mine, seen = [], []
    for n, line in enumerate(lines, 1):  # "— <key name> <base64(4-byte key id || signature)>"
        parts = line[2:].split(" ")
        raw = b64(parts[-1])
        check(line.startswith("\u2014 ") and len(parts) == 2 and key_name_ok(parts[0]) and raw and len(raw) >= 5,
              f"{what} signature line {n} is not '\u2014 <key name> <base64(key id || signature)>'")
        seen.append(f"{parts[0]} (key {raw[:4].hex()})")
        if parts[0] == name and raw[:4] == key_id:
            mine.append((n, raw[4:]))
    # The body: origin, tree size (decimal, no sign or leading zero, below 2^64), root hash.
    fields = body[:-1].split("\n")
    check(len(fields) == 3, f"{what} text has {len(fields)} lines, not 3 (origin, tree size, root hash)")
    origin, size, root = fields[0], fields[1], b64(fields[2])
    check(origin, f"{what} origin line is empty")
    check(re.fullmatch(r"0|[1-9][0-9]{0,19}", size) and int(size) < 2**64,
          f"{what} tree size {size[:30]!r} is not a decimal below 2^64 without sign or leading zeros")
    check(root and len(root) == 32, f"{what} root hash {fields[2][:60]!r} is not canonical base64 of 32 bytes")
    # At least one signature line by the key, and every one of them valid; others are ignored.
    signer = f"{name} (key {key_id.hex()})"
    check(mine, f"{what} has no signature by {signer}; it is signed by: {', '.join(seen)}")
    for n, signature in mine:
        try:
            public.verify(signature, body.encode())
        except InvalidSignature:
            raise Failed(f"{what} signature line {n} by {signer} does not verify over its text")
    check(size != "0" or root == sha256(b""), f"{what} is for the empty tree but its root is not SHA-256(\"\")")
    return origin, int(size), root

SHAPES = {"inclusion": {"position": int, "leafIndex": int, "treeSize": int, "record": str,
                        "leafHash": str, "path": list},
          "consistency": {"fromSize": int, "fromRoot": str, "toSize": int, "path": list}}
JSON_TYPES = {int: "an integer", str: "a string", list: "an array", dict: "an object"}

def check_members(obj, types, where, optional=()):
    """`obj` has exactly the members in `types` (those in `optional` may be absent), each of its
    JSON type; object members are checked against SHAPES in turn."""
    missing, unknown = sorted(set(types) - set(obj) - set(optional)), sorted(set(obj) - set(types))
    usable(not missing, f"not a {FORMAT} bundle: {where} lacks {', '.join(missing)}; {FIX}")
    usable(not unknown, f"not a {FORMAT} bundle: {where} has unknown member(s) {', '.join(unknown)}; {FIX}")
    for member, value in sorted(obj.items()):
        want = types[member]
        usable(isinstance(value, want) and not isinstance(value, bool),
               f"not a {FORMAT} bundle: {where}.{member} is not {JSON_TYPES[want]}; {FIX}")
        if want is dict:
            check_members(value, SHAPES[member], member)

def parse_bundle(data):
    """Step 1: format, kind, and exactly the members of docs/proofs.md (no duplicate keys)."""
    try:
        bundle = strict_json(data)
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError is a ValueError
        raise Unusable(f"the bundle is not UTF-8 JSON ({str(e)[:100]}); {FIX}")
    usable(isinstance(bundle, dict) and bundle.get("format") == FORMAT, f"not a {FORMAT} bundle (format); {FIX}")
    kind = bundle.get("kind")
    usable(kind in ("inclusion", "consistency"), f"not a {FORMAT} bundle: kind is not inclusion or consistency")
    types = {"format": str, "kind": str, "log": str, "checkpoint": str, kind: dict, "consistency": dict}
    # An inclusion bundle may carry a consistency proof (`prove inclusion --since N`).
    check_members(bundle, types, "bundle", optional=("consistency",) if kind == "inclusion" else ())
    return bundle

def verify_bundle(bundle, key, trusted, witnesses=(), minimum=0):
    """Steps 2 to 5 on a bundle that passed step 1; returns the OK lines."""
    # 2. The checkpoint: a valid note signed by the key, for the origin <key name>/<log>.
    log, signer = bundle["log"], f"{key[0]} (key {key[1].hex()})"
    origin, size, root = parse_checkpoint(bundle["checkpoint"], key, "the bundle's checkpoint")
    check(origin == f"{key[0]}/{log}", f"the checkpoint's origin {origin!r} is not {key[0] + '/' + log!r}")
    cosigned = check_witnesses(bundle["checkpoint"], witnesses, minimum)  # 2b. Its witnesses.
    lines = []
    if bundle["kind"] == "inclusion":  # 3. Inclusion of the record as leaf position - 1.
        inc = bundle["inclusion"]
        position, index = inc["position"], inc["leafIndex"]
        check(position >= 1 and index == position - 1,
              f"inclusion.leafIndex {index} is not inclusion.position {position} - 1 (positions start at 1)")
        check(inc["treeSize"] == size, f"inclusion.treeSize {inc['treeSize']} is not the checkpoint's size {size}")
        check(index < size, f"inclusion.leafIndex {index} is not below the tree size {size}")
        record = b64(inc["record"])
        check(record is not None, "inclusion.record is not canonical padded base64")
        leaf = sha256(b"\x00" + record)
        check(hex_hash(inc["leafHash"], "inclusion.leafHash") == leaf,
              f"inclusion.leafHash is not SHA-256(0x00 || record) = {leaf.hex()}")
        try:
            fields = strict_json(record)
        except (ValueError, RecursionError):
            fields = None
        check(isinstance(fields, dict), "inclusion.record is not a UTF-8 JSON object (without duplicate members)")
        check(fields.get("log") == log, f"the record's log is {json.dumps(fields.get('log'))[:80]}, not the bundle's")
        check(type(fields.get("position")) is int and fields["position"] == position,
              f"the record's position is {json.dumps(fields.get('position'))[:40]}, not {position}")
        path = [hex_hash(p, f"inclusion.path[{i}]") for i, p in enumerate(inc["path"])]
        verify_inclusion(index, size, leaf, path, root)
        lines.append(f"OK: record at position {position} is leaf {index} of the tree of {size} leaves "
                     f"signed by {signer}")
    con = bundle.get("consistency")
    if con is not None:  # 4. Consistency from fromSize (fromRoot) to the checkpoint's size.
        from_size = con["fromSize"]
        check(con["toSize"] == size, f"consistency.toSize {con['toSize']} is not the checkpoint's size {size}")
        check(0 < from_size <= size, f"consistency.fromSize {from_size} is not between 1 and toSize {size}")
        from_root = hex_hash(con["fromRoot"], "consistency.fromRoot")
        path = [hex_hash(p, f"consistency.path[{i}]") for i, p in enumerate(con["path"])]
        verify_consistency(from_size, size, from_root, root, path)
        line = (f"the tree of {size} leaves signed by {signer} extends the tree of {from_size} leaves "
                f"with root {from_root.hex()}")
        lines.append(("OK: " if bundle["kind"] == "consistency" else "  and ") + line)
    if trusted is not None:  # 5. The bundle's checkpoint extends an older one the user trusts.
        old_origin, old_size, old_root = parse_checkpoint(trusted, key, "the trusted checkpoint")
        check(old_origin == origin, f"the trusted checkpoint's origin {old_origin!r} is not the bundle's {origin!r}")
        check(old_size <= size, f"the trusted checkpoint ({old_size} leaves) is larger than the bundle's ({size})")
        check(old_size < size or old_root == root, f"the trusted checkpoint has {size} leaves too but another root "
              "(the log was forked or rewritten)")
        if old_size < size:
            check(con is not None, f"the bundle has no consistency proof from the trusted checkpoint's {old_size} "
                  f"leaves (ask for `prove inclusion ... --since {old_size}`)")
            check(from_size == old_size, f"consistency.fromSize {from_size} is not the trusted size {old_size}")
            check(from_root == old_root, "consistency.fromRoot is not the trusted checkpoint's root (a forked log)")
        lines.append(f"  and it is consistent with the trusted checkpoint of {old_size} leaves")
    return lines + ([cosigned] if cosigned else [])

def read(path, what):
    try:
        return sys.stdin.buffer.read() if path == "-" else pathlib.Path(path).read_bytes()
    except OSError as e:
        raise Unusable(f"cannot read {what} {path!r}: {e.strerror or e}; check the path")

def run_vector(kind, v):
    """True when the vector's proof verifies; undecodable base64 is a reject."""
    proof = [] if v.get("proof") is None else v["proof"]
    check(isinstance(proof, list), "proof is neither a list nor null", ValueError)
    path = [b64(p) for p in proof]
    if None in path:
        return False
    if kind == "inclusion":
        a, b, x, y = v["leafIdx"], v["treeSize"], b64(v["leafHash"]), b64(v["root"])
    else:
        a, b, x, y = v["size1"], v["size2"], b64(v["root1"]), b64(v["root2"])
    try:
        check(x is not None and y is not None, "a hash is not canonical base64")
        verify_inclusion(a, b, x, path, y) if kind == "inclusion" else verify_consistency(a, b, x, y, path)
        return True
    except Failed:
        return False

def run_vectors(directory):
    usable(os.path.isdir(directory), f"{directory!r} is not a directory (with inclusion/ and consistency/)")
    found = sorted((os.path.relpath(os.path.join(top, f), directory).replace(os.sep, "/"), kind)
                   for kind in ("inclusion", "consistency")
                   for top, _, files in os.walk(os.path.join(directory, kind)) for f in files if f.endswith(".json"))
    usable(found, f"no vectors under {directory!r}/inclusion or /consistency")
    accepted = disagree = 0
    for rel, kind in found:
        try:
            v = json.loads(read(os.path.join(directory, rel), "the vector").decode("utf-8"))
            check(isinstance(v, dict) and isinstance(v.get("wantErr"), bool), "no boolean wantErr", ValueError)
            ok = run_vector(kind, v)
        except (OSError, ValueError, KeyError) as e:
            raise Unusable(f"vector {rel} is unusable: {e}")
        print(f"{rel} {'accept' if ok else 'reject'}")
        accepted += ok
        if ok == v["wantErr"]:
            disagree += 1
            print(f"disagreement: {rel} {'accept' if ok else 'reject'}ed, wantErr {v['wantErr']}", file=sys.stderr)
    rejected = len(found) - accepted
    print(f"{len(found)} vectors: {accepted} accepted, {rejected} rejected, {disagree} disagree with wantErr")
    return 0 if disagree == 0 else 1

def main(argv=None):
    parser = argparse.ArgumentParser(description="Verify a ConsentLedger proof bundle offline (docs/proofs.md).",
                                     epilog="Exit 0 'OK...', 1 'FAILED: ...' (a check did not pass), "
                                            "2 'ERROR: ...' on stderr (unusable input).")
    parser.add_argument("bundle", nargs="?", metavar="BUNDLE", help="proof bundle file, or - for stdin")
    parser.add_argument("--public-key", metavar="K", help="verifier key text, or a file holding it")
    parser.add_argument("--trusted", metavar="OLDER_CHECKPOINT", help="a file holding an older checkpoint you trust")
    parser.add_argument("--witness", metavar="W", action="append", default=[],
                        help="a witness's cosignature key (type 0x04), text or file; repeatable")
    parser.add_argument("--min-witnesses", metavar="N", type=int,
                        help="how many of the --witness keys must have cosigned (default: all)")
    parser.add_argument("--rfc9162-vectors", metavar="DIR", help="run the RFC 9162 vectors in DIR instead")
    parser.error = lambda message: parser.exit(2, f"ERROR: {message}; see --help\n")
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    args = parser.parse_args(argv)
    try:
        if args.rfc9162_vectors is not None:
            usable(args.bundle is args.public_key is args.trusted is None, "--rfc9162-vectors takes no BUNDLE, "
                   "--public-key or --trusted")
            return run_vectors(args.rfc9162_vectors)
        usable(Ed25519PublicKey, "the Python package 'cryptography' is not installed (pip install cryptography)")
        usable(args.bundle and args.public_key, "give a BUNDLE file (or - for stdin) and --public-key K; see --help")
        usable(args.bundle != "-" or args.trusted != "-", "BUNDLE and --trusted cannot both be stdin")
        key = load_key(args.public_key)
        witnesses = [load_key(w, "--witness", COSIGNATURE_V1) for w in args.witness]
        usable(len({(w[0], w[1]) for w in witnesses}) == len(witnesses), "a witness is given twice; give each once")
        usable(args.min_witnesses is None or witnesses, "--min-witnesses needs the witnesses' keys (--witness W)")
        minimum = len(witnesses) if args.min_witnesses is None else args.min_witnesses
        usable(0 <= minimum <= len(witnesses), f"--min-witnesses {minimum} is not between 0 and the "
               f"{len(witnesses)} witnesses given")
        bundle = parse_bundle(read(args.bundle, "the bundle"))
        trusted = None if args.trusted is None else read(args.trusted, "the trusted checkpoint")
        lines = verify_bundle(bundle, key, trusted, witnesses, minimum)
    except Unusable as e:
        print(f"ERROR: {e}", file=sys.stderr)
        return 2
    except Failed as e:
        print(f"FAILED: {e}")
        return 1
    print("\n".join(lines))
    return 0

if __name__ == "__main__":
    sys.exit(main())
