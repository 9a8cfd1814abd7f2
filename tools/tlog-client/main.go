// Command tlog-client is an independent verifier of a ConsentLedger transparency log, written
// against the C2SP tlog-checkpoint, signed-note and tlog-tiles specifications and Go's reference
// packages golang.org/x/mod/sumdb/{note,tlog} (all hashing, proofs and signature checks are
// theirs), not against the ledger's Swift code. See README.md.
//
// Exit 0 and stdout "OK ..." when every check passes; exit 1 and stdout "FAILED: ..." naming the
// first check that did not; exit 2 and stderr "ERROR: ..." for unusable input (bad flags, a key
// that does not parse, an unreachable server, an unexpected HTTP status).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// failed is a check that did not pass (exit 1); unusable is input we cannot work with (exit 2).
type failed struct{ msg string }
type unusable struct{ msg string }

func (e *failed) Error() string   { return e.msg }
func (e *unusable) Error() string { return e.msg }

func failf(format string, a ...interface{}) error {
	return &failed{fmt.Sprintf(format, a...)}
}
func unusablef(format string, a ...interface{}) error {
	return &unusable{fmt.Sprintf(format, a...)}
}

// indexList is the repeatable -check-index flag.
type indexList []int64

func (l *indexList) String() string { return fmt.Sprint([]int64(*l)) }
func (l *indexList) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("want a leaf index (0 or more), not %q", s)
	}
	*l = append(*l, n)
	return nil
}

type options struct {
	logURL, key, apiKey, state, origin string
	indexes                            indexList
	checkAll                           bool
	timeout                            time.Duration
}

const usageText = `usage: tlog-client -log-url URL -key VKEY [-api-key K] [-state FILE] [-check-index N]... [-check-all] [-origin O] [-timeout D]

Verifies a C2SP tlog-tiles log (e.g. https://ledger.example/v1/logs/demo): the checkpoint's
signature, its root recomputed from the hash tiles, the inclusion of the chosen records
(leaf index N = position N+1) and, with -state, that the tree extends the checkpoint saved
by the previous run (the file is then updated). Exit 0 OK, 1 FAILED, 2 unusable input.
`

func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("tlog-client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usageText, "\nflags:\n"); fs.PrintDefaults() }
	fs.StringVar(&o.logURL, "log-url", "", "the log's tlog-tiles prefix, `URL` <base>/v1/logs/<log>")
	fs.StringVar(&o.key, "key", "", "the verifier key `VKEY` (name+keyid+base64, as `consent-ledger signing-key show` prints it) or a file holding it")
	fs.StringVar(&o.apiKey, "api-key", "", "API key `K`, sent as Authorization: Bearer K (not needed with --public-proofs --public-entries)")
	fs.StringVar(&o.state, "state", "", "`FILE` holding the checkpoint of the previous run; the new tree must extend it, and it is replaced by the new checkpoint")
	fs.StringVar(&o.origin, "origin", "", "expected checkpoint origin `O` (default <key name>/<last path element of -log-url>)")
	fs.Var(&o.indexes, "check-index", "prove leaf index `N` (position N+1) included; repeatable")
	fs.BoolVar(&o.checkAll, "check-all", false, "prove every leaf of the tree included")
	fs.DurationVar(&o.timeout, "timeout", 60*time.Second, "timeout of each HTTP request")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ERROR: unexpected argument %q; see -help\n", fs.Arg(0))
		return 2
	}
	line, err := verify(o)
	var f *failed
	switch {
	case err == nil:
		fmt.Fprintln(stdout, line)
		return 0
	case errors.As(err, &f):
		fmt.Fprintln(stdout, "FAILED: "+oneLine(f.msg))
		return 1
	default:
		fmt.Fprintln(stderr, "ERROR: "+oneLine(err.Error()))
		return 2
	}
}

// checkpoint is a verified C2SP tlog-checkpoint.
type checkpoint struct {
	origin string
	size   int64
	root   tlog.Hash
	note   []byte // the whole signed note, as served
}

func verify(o options) (string, error) {
	if o.logURL == "" || o.key == "" {
		return "", unusablef("-log-url and -key are required; see -help")
	}
	u, err := url.Parse(o.logURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", unusablef("-log-url %q is not an http(s) URL", o.logURL)
	}
	logID := path.Base(strings.TrimRight(u.Path, "/"))
	if logID == "." || logID == "/" || logID == "" {
		return "", unusablef("-log-url %q does not end in a log id (<base>/v1/logs/<log>)", o.logURL)
	}
	verifier, err := loadVerifier(o.key)
	if err != nil {
		return "", err
	}
	origin := o.origin
	if origin == "" {
		origin = verifier.Name() + "/" + logID
	}
	c := &client{base: strings.TrimRight(o.logURL, "/"), apiKey: o.apiKey, http: &http.Client{Timeout: o.timeout}}

	// 1. The checkpoint: signature (note.Open), then our own parse of the body.
	body, err := c.get("checkpoint", false)
	if err != nil {
		return "", err
	}
	cp, err := openCheckpoint(body, verifier, "the log's checkpoint")
	if err != nil {
		return "", err
	}
	if cp.origin != origin {
		return "", failf("the checkpoint's origin is %q, want %q", cp.origin, origin)
	}

	// 2. The root, recomputed from the hash tiles. TileHashReader checks the tiles of the root
	// against cp.root (and, mostly, other tiles against their parents: see localize); every
	// proof built from it below is checked against cp.root anyway.
	tr := &tileReader{c: c, data: map[tlog.Tile][]byte{}}
	hr := &memoReader{hr: tlog.TileHashReader(tlog.Tree{N: cp.size, Hash: cp.root}, tr), size: cp.size, known: map[int64]tlog.Hash{}}
	if cp.size == 0 {
		// tlog defines the empty tree's hash as all zeros; RFC 9162 (and the ledger) as SHA-256("").
		if cp.root != tlog.Hash(sha256.Sum256(nil)) {
			return "", failf("the checkpoint's tree is empty but its root %s is not SHA-256(\"\")", cp.root)
		}
	} else {
		root, err := tlog.TreeHash(cp.size, hr)
		if err != nil {
			return "", tr.explain(err, cp, "recomputing the root")
		}
		if root != cp.root { // TileHashReader already refuses such tiles; kept as the explicit check
			return "", failf("the root recomputed from the tiles is %s, the checkpoint's is %s", root, cp.root)
		}
	}
	rootTiles := tr.fetched

	// 3. The previous run's checkpoint: the new tree must extend it.
	stateNote, stateWhat := []byte(nil), ""
	if o.state != "" {
		stateNote, err = readState(o.state)
		if err != nil {
			return "", err
		}
		stateWhat = ", " + o.state + " started at this checkpoint"
		if stateNote != nil {
			old, err := openCheckpoint(stateNote, verifier, "the checkpoint in "+o.state)
			if err != nil {
				return "", err
			}
			if old.origin != cp.origin {
				return "", failf("the checkpoint in %s is of origin %q, the log's is %q", o.state, old.origin, cp.origin)
			}
			if err := checkExtends(old, cp, hr, tr, o.state); err != nil {
				return "", err
			}
			if old.size == cp.size {
				stateWhat = fmt.Sprintf(", same tree as the checkpoint in %s", o.state)
			} else {
				stateWhat = fmt.Sprintf(", extends the checkpoint of %d in %s", old.size, o.state)
			}
		}
	}

	// 4. Records: from the entry bundles, proven included from the tiles alone.
	var indexes []int64
	if o.checkAll {
		for i := int64(0); i < cp.size; i++ {
			indexes = append(indexes, i)
		}
	} else {
		seen := map[int64]bool{}
		for _, n := range o.indexes {
			if !seen[n] {
				seen[n] = true
				indexes = append(indexes, n)
			}
		}
		sort.Slice(indexes, func(a, b int) bool { return indexes[a] < indexes[b] }) // one bundle fetch each
	}
	bundles := &bundleReader{c: c, size: cp.size}
	for _, n := range indexes {
		if n >= cp.size {
			return "", unusablef("-check-index %d: the checkpoint's tree has only %d leaves (indexes 0 to %d)", n, cp.size, cp.size-1)
		}
		if err := checkRecord(n, cp, hr, tr, bundles, logID); err != nil {
			return "", err
		}
	}

	// 5. Everything checked: remember this checkpoint for the next run.
	if o.state != "" {
		if err := writeAtomic(o.state, cp.note); err != nil {
			return "", unusablef("writing %s: %v", o.state, err)
		}
	}
	return fmt.Sprintf("OK %s: tree of %d leaves, root %s, signature by %s verified, root recomputed from %d tiles, %d records proven included%s",
		logID, cp.size, cp.root, verifier.Name(), rootTiles, len(indexes), stateWhat), nil
}

// loadVerifier parses the verifier key text, or the text of the file it names.
func loadVerifier(key string) (note.Verifier, error) {
	v, err := note.NewVerifier(strings.TrimSpace(key))
	if err == nil {
		return v, nil
	}
	if text, ferr := os.ReadFile(key); ferr == nil {
		if v, err = note.NewVerifier(strings.TrimSpace(string(text))); err == nil {
			return v, nil
		}
		return nil, unusablef("-key file %s does not hold a verifier key name+keyid+base64: %v", key, err)
	}
	return nil, unusablef("-key is not a verifier key name+keyid+base64 (nor a readable file): %v", err)
}

// openCheckpoint checks the note's signature by v (other signatures, such as witness
// cosignatures, are ignored by note.Open) and parses its body as a C2SP tlog-checkpoint.
func openCheckpoint(msg []byte, v note.Verifier, what string) (*checkpoint, error) {
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		var unverified *note.UnverifiedNoteError
		var invalid *note.InvalidSignatureError
		switch {
		case errors.As(err, &invalid):
			return nil, failf("%s: the signature by %s+%08x does not verify", what, invalid.Name, invalid.Hash)
		case errors.As(err, &unverified):
			var by []string
			for _, s := range unverified.Note.UnverifiedSigs {
				by = append(by, fmt.Sprintf("%s+%08x", s.Name, s.Hash))
			}
			return nil, failf("%s has no signature by the key %s+%08x (signed only by %s)", what, v.Name(), v.KeyHash(), strings.Join(by, ", "))
		default:
			return nil, failf("%s is not a signed note: %v", what, err)
		}
	}
	lines := strings.Split(n.Text, "\n") // n.Text ends in "\n", so the last element is ""
	if len(lines) < 4 {
		return nil, failf("%s has %d body lines, want origin, size, root", what, len(lines)-1)
	}
	// Lines after the root are C2SP extension lines, which this client ignores.
	cp := &checkpoint{origin: lines[0], note: msg}
	if cp.origin == "" {
		return nil, failf("%s has an empty origin line", what)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return nil, failf("%s: tree size %q is not a decimal number without leading zeros", what, lines[1])
	}
	cp.size = size
	if cp.root, err = tlog.ParseHash(lines[2]); err != nil {
		return nil, failf("%s: root %q is not 32 bytes in standard base64", what, lines[2])
	}
	return cp, nil
}

// checkExtends proves, from the new tree's (authenticated) tiles, that the new tree's first
// old.size leaves are the old tree.
func checkExtends(old, cp *checkpoint, hr tlog.HashReader, tr *tileReader, file string) error {
	switch {
	case old.size > cp.size:
		return failf("the log's checkpoint has %d leaves, fewer than the %d of the checkpoint in %s: the log lost leaves", cp.size, old.size, file)
	case old.size == cp.size:
		if old.root != cp.root {
			return failf("the log's tree of %d leaves has root %s, but the checkpoint of the same size in %s has root %s: the history was rewritten", cp.size, cp.root, file, old.root)
		}
		return nil
	case old.size == 0:
		return nil // every tree extends the empty tree
	}
	proof, err := tlog.ProveTree(cp.size, old.size, hr)
	if err != nil {
		return tr.explain(err, cp, "proving consistency")
	}
	if err := tlog.CheckTree(proof, cp.size, cp.root, old.size, old.root); err != nil {
		// A tile that does not authenticate is the server's fault; otherwise it is the history.
		oldRoot, err := tlog.TreeHash(old.size, hr)
		if err != nil {
			return tr.explain(err, cp, "recomputing the root at the older size")
		}
		if bad := tr.localize(cp); bad != nil {
			return bad
		}
		return failf("the log's tree of %d leaves does not extend the checkpoint of %d leaves in %s (the history was rewritten): its first %d leaves hash to %s, the checkpoint in %s has root %s",
			cp.size, old.size, file, old.size, oldRoot, file, old.root)
	}
	return nil
}

// checkRecord proves record n included in cp's tree from the tiles alone, and checks its position.
func checkRecord(n int64, cp *checkpoint, hr tlog.HashReader, tr *tileReader, b *bundleReader, logID string) error {
	record, where, err := b.record(n)
	if err != nil {
		return err
	}
	leaf := tlog.RecordHash(record)
	proof, err := tlog.ProveRecord(cp.size, n, hr)
	if err != nil {
		return tr.explain(err, cp, fmt.Sprintf("proving leaf %d", n))
	}
	if err := tlog.CheckRecord(proof, cp.size, cp.root, n, leaf); err != nil {
		// Either a tile the proof came from is altered (see localize) or the record is.
		if bad := tr.localize(cp); bad != nil {
			return bad
		}
		detail := ""
		x := tlog.StoredHashIndex(0, n)
		if t, ok := tr.holder(x); ok {
			if h, err := tlog.HashFromTile(t, tr.data[t], x); err == nil {
				detail = fmt.Sprintf("; the tree's leaf %d (hash %d of %s) is %s", n, n%(1<<tileHeight), c2spPath(t), h)
			}
		}
		return failf("record %d (%s): its leaf hash %s is not included in the tree of %d leaves%s", n, where, leaf, cp.size, detail)
	}
	// The record is RFC 8785 JSON {"event","log","position","recordedAt","streamVersion"}.
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(record))
	if err := dec.Decode(&members); err != nil || members == nil || dec.More() {
		return failf("record %d (%s) is not one JSON object", n, where)
	}
	var position json.Number
	if err := json.Unmarshal(members["position"], &position); err != nil || position.String() != strconv.FormatInt(n+1, 10) {
		return failf("record %d (%s): position is %s, want %d", n, where, orMissing(members["position"]), n+1)
	}
	var log string
	if err := json.Unmarshal(members["log"], &log); err != nil || log != logID {
		return failf("record %d (%s): log is %s, want %q", n, where, orMissing(members["log"]), logID)
	}
	return nil
}

func orMissing(raw json.RawMessage) string {
	if raw == nil {
		return "missing"
	}
	return string(raw)
}

// readState returns the note in the state file, or nil when there is none yet.
func readState(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(bytes.TrimSpace(data)) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, unusablef("reading -state: %v", err)
	}
	return data, nil
}

// writeAtomic replaces file with data by renaming a synced temporary file beside it.
func writeAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
