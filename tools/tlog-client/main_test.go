package main

// The client is tested against a log built here with Go's tlog and note packages and served by
// httptest exactly as the brief says the ledger serves it (C2SP paths, bearer key), so the test
// does not depend on the Swift server; then the same log is served tampered in one way at a time.

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const (
	keyName = "ledger.test"
	apiKey  = "auditor-secret"
)

// testLog is an in-memory log: its records and the stored hashes tlog computes for them.
type testLog struct {
	records [][]byte
	hashes  []tlog.Hash
}

func (l *testLog) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		out[i] = l.hashes[x]
	}
	return out, nil
}

// newLog appends n records; tag makes two logs' records (and so their histories) differ.
func newLog(t *testing.T, n int, tag string) *testLog {
	l := &testLog{}
	for i := 0; i < n; i++ {
		rec := []byte(fmt.Sprintf(`{"event":{"tag":"%s"},"log":"demo","position":%d,"recordedAt":"2025-01-01T00:00:00Z","streamVersion":1}`, tag, i+1))
		hs, err := tlog.StoredHashes(int64(i), rec, l)
		if err != nil {
			t.Fatal(err)
		}
		l.records = append(l.records, rec)
		l.hashes = append(l.hashes, hs...)
	}
	return l
}

// checkpoint signs the tree of the log's first size records with the given keys.
func (l *testLog) checkpoint(t *testing.T, size int64, signers ...note.Signer) []byte {
	root, err := tlog.TreeHash(size, l)
	if err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf("%s/demo\n%d\n%s\n", keyName, size, base64.StdEncoding.EncodeToString(root[:]))
	msg, err := note.Sign(&note.Note{Text: body}, signers...)
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// server serves one log at one size; tamper, when set, may rewrite any response body.
type server struct {
	log    *testLog
	size   int64
	note   []byte
	tamper func(rel string, body []byte) []byte
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+apiKey {
		http.Error(w, "an auditor API key is required", http.StatusUnauthorized)
		return
	}
	rel := strings.TrimPrefix(r.URL.Path, "/v1/logs/demo/")
	body, ok := s.body(rel)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if s.tamper != nil {
		body = s.tamper(rel, append([]byte(nil), body...))
	}
	w.Write(body)
}

func (s *server) body(rel string) ([]byte, bool) {
	if rel == "checkpoint" {
		return s.note, true
	}
	if strings.HasPrefix(rel, "tile/entries/") {
		// Go's tlog spells the C2SP path tile/entries/N with the height and "data".
		t, err := tlog.ParseTilePath("tile/8/data/" + strings.TrimPrefix(rel, "tile/entries/"))
		if err != nil || t.N*256+int64(t.W) > s.size {
			return nil, false
		}
		var b []byte
		for _, rec := range s.log.records[t.N*256 : t.N*256+int64(t.W)] {
			b = append(b, byte(len(rec)>>8), byte(len(rec)))
			b = append(b, rec...)
		}
		return b, true
	}
	t, err := tlog.ParseTilePath("tile/8/" + strings.TrimPrefix(rel, "tile/"))
	// Level L holds size>>(8L) hashes; full tiles and every narrower partial tile exist.
	if err != nil || t.L < 0 || t.N*256+int64(t.W) > s.size>>(8*t.L) {
		return nil, false
	}
	data, err := tlog.ReadTileData(t, s.log)
	return data, err == nil
}

// setup serves log at size, signed by signer (and a witness whose cosignature must be ignored).
func setup(t *testing.T, log *testLog, size int64, signer note.Signer) (*server, string) {
	s := &server{log: log, size: size}
	s.serve(t, log, size, signer)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts.URL + "/v1/logs/demo"
}

func (s *server) serve(t *testing.T, log *testLog, size int64, signer note.Signer) {
	_, witness := newKey(t, "witness.test")
	s.log, s.size, s.note = log, size, log.checkpoint(t, size, signer, witness)
}

func newKey(t *testing.T, name string) (vkey string, signer note.Signer) {
	skey, vkey, err := note.GenerateKey(rand.Reader, name)
	if err != nil {
		t.Fatal(err)
	}
	signer, err = note.NewSigner(skey)
	if err != nil {
		t.Fatal(err)
	}
	return vkey, signer
}

// runClient runs the command in-process and returns its exit code and output.
func runClient(t *testing.T, args ...string) (int, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	t.Logf("tlog-client %s\n-> %d %s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	return code, stdout.String() + stderr.String()
}

func expect(t *testing.T, code int, out string, wantCode int, wantText string) {
	t.Helper()
	if code != wantCode || !strings.Contains(out, wantText) {
		t.Fatalf("got exit %d %q, want exit %d and %q", code, out, wantCode, wantText)
	}
}

func TestHonestLogGrowing(t *testing.T) {
	vkey, signer := newKey(t, keyName)
	log := newLog(t, 777, "a")
	srv, url := setup(t, log, 300, signer)
	state := filepath.Join(t.TempDir(), "state.txt")
	args := []string{"-log-url", url, "-key", vkey, "-api-key", apiKey, "-state", state}

	// 300 leaves: the root combines tile/1/000.p/1 (the hash of full tile/0/000) and the
	// partial tile/0/001.p/44.
	code, out := runClient(t, append(args, "-check-index", "0", "-check-index", "299")...)
	expect(t, code, out, 0, "OK demo: tree of 300 leaves")
	expect(t, code, out, 0, "2 records proven included, "+state+" started at this checkpoint")

	// 777 leaves: the state's 300 must be a prefix (consistency proof from tiles), and every
	// record is proven included (full tiles 0-2, partial level-0 and level-1 tiles).
	srv.serve(t, log, 777, signer)
	code, out = runClient(t, append(args, "-check-all")...)
	expect(t, code, out, 0, "777 records proven included, extends the checkpoint of 300 in "+state)

	code, out = runClient(t, args...)
	expect(t, code, out, 0, "same tree as the checkpoint in "+state)
}

func TestTamperingFails(t *testing.T) {
	vkey, signer := newKey(t, keyName)
	log := newLog(t, 777, "a")
	flip := func(path string, at int) func(string, []byte) []byte {
		return func(rel string, body []byte) []byte {
			if rel == path {
				body[at] ^= 1
			}
			return body
		}
	}
	for _, tc := range []struct {
		name   string
		tamper func(string, []byte) []byte
		args   []string
		want   string
	}{
		// A full level-0 tile: only fetched to prove a leaf in it, and caught against level 1.
		{"level-0 hash tile byte", flip("tile/0/001", 5*32+7), []string{"-check-index", "300"},
			"FAILED: tile/0/001 does not match its parent tile"},
		// The level-1 tile is part of the root itself.
		{"level-1 hash tile byte", flip("tile/1/000.p/3", 40), nil,
			"FAILED: the root recomputed from the hash tiles"},
		// Byte 10 of bundle 1 is inside entry 0's record, leaf 256.
		{"record byte", flip("tile/entries/001", 10), []string{"-check-index", "256"},
			"FAILED: record 256 (entry 0 of tile/entries/001): its leaf hash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, url := setup(t, log, 777, signer)
			srv.tamper = tc.tamper
			code, out := runClient(t, append([]string{"-log-url", url, "-key", vkey, "-api-key", apiKey}, tc.args...)...)
			expect(t, code, out, 1, tc.want)
		})
	}
}

func TestForgedSignatureFails(t *testing.T) {
	vkey, _ := newKey(t, keyName)
	_, forger := newKey(t, keyName) // same name, different key (and so key id)
	_, url := setup(t, newLog(t, 10, "a"), 10, forger)
	code, out := runClient(t, "-log-url", url, "-key", vkey, "-api-key", apiKey)
	expect(t, code, out, 1, "FAILED: the log's checkpoint has no signature by the key "+keyName)
}

func TestRewrittenHistoryFails(t *testing.T) {
	vkey, signer := newKey(t, keyName)
	state := filepath.Join(t.TempDir(), "state.txt")
	srv, url := setup(t, newLog(t, 300, "a"), 300, signer)
	args := []string{"-log-url", url, "-key", vkey, "-api-key", apiKey, "-state", state}
	code, out := runClient(t, args...)
	expect(t, code, out, 0, "OK")

	// Log B: same key and origin, different records, larger: validly signed, but not an extension.
	srv.serve(t, newLog(t, 500, "b"), 500, signer)
	code, out = runClient(t, args...)
	expect(t, code, out, 1, "FAILED: the log's tree of 500 leaves does not extend the checkpoint of 300 leaves")
}

func TestUnusableInput(t *testing.T) {
	vkey, signer := newKey(t, keyName)
	_, url := setup(t, newLog(t, 10, "a"), 10, signer)
	code, out := runClient(t, "-log-url", url, "-key", "not-a-key")
	expect(t, code, out, 2, "ERROR: -key is not a verifier key")
	code, out = runClient(t, "-log-url", url, "-key", vkey) // no API key: the server's 401 is shown
	expect(t, code, out, 2, "401 Unauthorized: an auditor API key is required")
}
