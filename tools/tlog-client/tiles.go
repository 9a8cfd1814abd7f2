package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"golang.org/x/mod/sumdb/tlog"
)

// tileHeight is the C2SP tlog-tiles height: 256 hashes (or entries) per full tile.
const tileHeight = 8

// c2spPath is the C2SP tlog-tiles path of t: Go's Tile.Path() is "tile/<H>/<L>/<N>[.p/<W>]"
// (and "tile/<H>/data/..." for data tiles); C2SP drops the height and calls data "entries".
// N's x001/x234/067 encoding is the same in both.
func c2spPath(t tlog.Tile) string {
	p := strings.TrimPrefix(t.Path(), fmt.Sprintf("tile/%d/", t.H))
	if strings.HasPrefix(p, "data/") {
		return "tile/entries/" + strings.TrimPrefix(p, "data/")
	}
	return "tile/" + p
}

// client fetches resources below the log's prefix.
type client struct {
	base, apiKey string
	http         *http.Client
}

// get returns the body of base/rel when the status is 200. With missingFails, a 404 is a failed
// check (the checkpoint commits to data the log does not serve); any other status is unusable.
func (c *client) get(rel string, missingFails bool) ([]byte, error) {
	body, status, err := c.fetch(rel)
	if err != nil {
		return nil, err
	}
	switch {
	case status == http.StatusOK:
		return body, nil
	case status == http.StatusNotFound && missingFails:
		return nil, failf("%s, which the checkpoint's tree needs: the server answers 404: %s", rel, snippet(body))
	default:
		return nil, unusablef("GET %s/%s: %d %s: %s", c.base, rel, status, http.StatusText(status), snippet(body))
	}
}

func (c *client) fetch(rel string) ([]byte, int, error) {
	req, err := http.NewRequest("GET", c.base+"/"+rel, nil)
	if err != nil {
		return nil, 0, unusablef("GET %s/%s: %v", c.base, rel, err)
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	req.Header.Set("User-Agent", "tlog-client")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, 0, unusablef("GET %s/%s: %v", c.base, rel, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, 0, unusablef("GET %s/%s: reading the body: %v", c.base, rel, err)
	}
	return body, resp.StatusCode, nil
}

func snippet(body []byte) string {
	s := oneLine(string(body))
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}

// getTile fetches tile t (hash or entry tile). A partial tile the server no longer has may be
// served from the full tile that replaced it (C2SP tlog-tiles): then full is true and the
// caller keeps t.W of its hashes or entries.
func (c *client) getTile(t tlog.Tile) (data []byte, full bool, err error) {
	data, err = c.get(c2spPath(t), true)
	var f *failed
	if t.W < 1<<tileHeight && errors.As(err, &f) {
		whole := t
		whole.W = 1 << tileHeight
		if data, err2 := c.get(c2spPath(whole), true); err2 == nil {
			return data, true, nil
		}
	}
	return data, false, err
}

// tileReader is the tlog.TileReader over HTTP. It keeps every tile it fetched, authenticated
// or not: TileHashReader authenticates them on every read, and explain needs the raw data.
type tileReader struct {
	c       *client
	data    map[tlog.Tile][]byte
	fetched int
}

func (r *tileReader) Height() int                                { return tileHeight }
func (r *tileReader) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

func (r *tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		if d, ok := r.data[t]; ok {
			out[i] = d
			continue
		}
		d, full, err := r.c.getTile(t)
		if err != nil {
			return nil, err
		}
		if want := t.W * tlog.HashSize; full && len(d) == (1<<tileHeight)*tlog.HashSize {
			d = d[:want]
		}
		if len(d) != t.W*tlog.HashSize {
			return nil, failf("%s is %d bytes, want %d (%d hashes)", c2spPath(t), len(d), t.W*tlog.HashSize, t.W)
		}
		r.fetched++
		r.data[t] = d
		out[i] = d
	}
	return out, nil
}

// explain turns an error of the TileHashReader into a precise FAILED line: its own message for
// tiles that do not authenticate is only "downloaded inconsistent tile".
func (r *tileReader) explain(err error, cp *checkpoint, doing string) error {
	var f *failed
	var u *unusable
	if errors.As(err, &f) || errors.As(err, &u) {
		return err
	}
	if bad := r.localize(cp); bad != nil {
		return bad
	}
	return failf("%s: the hash tiles do not agree with the checkpoint's root %s (%v)", doing, cp.root, err)
}

// localize names the fetched tile that does not agree with the checkpoint, if any: first the
// root recomputed from the raw tiles, then each full tile against its hash in its parent tile,
// top level first (the first mismatch there is below tiles that did authenticate).
//
// It is also needed after a proof fails to check: tlog.TileHashReader (x/mod 0.7.0 up to at
// least mid-2026) skips the parent check of the first few tiles it fetches beyond those of the
// root ("for i := len(stx)" counts root hashes, not root tiles), so it can return hashes from
// an altered full tile; CheckRecord/CheckTree against the signed root still reject the proof.
func (r *tileReader) localize(cp *checkpoint) error {
	raw := tlog.HashReaderFunc(r.rawHashes)
	if root, err := tlog.TreeHash(cp.size, raw); err == nil && root != cp.root {
		return failf("the root recomputed from the hash tiles %s is %s, but the checkpoint's root is %s",
			strings.Join(r.tilePaths(), ", "), root, cp.root)
	}
	tiles := r.sortedTiles()
	for _, t := range tiles {
		if t.W != 1<<tileHeight {
			continue // only full tiles have a hash in a parent tile
		}
		k := int(t.N % (1 << tileHeight))
		for _, p := range tiles {
			if p.L != t.L+1 || p.N != t.N>>tileHeight || p.W <= k {
				continue
			}
			var want tlog.Hash
			copy(want[:], r.data[p][k*tlog.HashSize:])
			if got := subtreeRoot(r.data[t]); got != want {
				return failf("%s does not match its parent tile: its 256 hashes combine to %s, but hash %d of %s is %s",
					c2spPath(t), got, k, c2spPath(p), want)
			}
		}
	}
	return nil
}

// rawHashes reads stored hashes from the fetched tiles without authenticating them.
func (r *tileReader) rawHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		t, ok := r.holder(x)
		if !ok {
			return nil, fmt.Errorf("%s not fetched", c2spPath(tlog.TileForIndex(tileHeight, x)))
		}
		h, err := tlog.HashFromTile(t, r.data[t], x)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// holder is a fetched tile that holds (or can compute) the stored hash x.
func (r *tileReader) holder(x int64) (tlog.Tile, bool) {
	need := tlog.TileForIndex(tileHeight, x)
	for t := range r.data {
		if t.L == need.L && t.N == need.N && t.W >= need.W {
			return t, true
		}
	}
	return tlog.Tile{}, false
}

// sortedTiles lists the fetched tiles, highest level first.
func (r *tileReader) sortedTiles() []tlog.Tile {
	var tiles []tlog.Tile
	for t := range r.data {
		tiles = append(tiles, t)
	}
	sort.Slice(tiles, func(i, j int) bool {
		a, b := tiles[i], tiles[j]
		if a.L != b.L {
			return a.L > b.L
		}
		if a.N != b.N {
			return a.N < b.N
		}
		return a.W < b.W
	})
	return tiles
}

func (r *tileReader) tilePaths() []string {
	var paths []string
	for _, t := range r.sortedTiles() {
		paths = append(paths, c2spPath(t))
	}
	return paths
}

// subtreeRoot is the Merkle root of the hashes in data, computed with tlog by taking them as
// the leaf hashes of a small tree (a full tile's root is its hash in the parent tile).
func subtreeRoot(data []byte) tlog.Hash {
	var stored []tlog.Hash
	mem := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			out[i] = stored[x]
		}
		return out, nil
	})
	n := int64(len(data) / tlog.HashSize)
	for i := int64(0); i < n; i++ {
		var leaf tlog.Hash
		copy(leaf[:], data[i*tlog.HashSize:])
		hs, err := tlog.StoredHashesForRecordHash(i, leaf, mem)
		if err != nil {
			panic(err) // mem never fails
		}
		stored = append(stored, hs...)
	}
	root, _ := tlog.TreeHash(n, mem)
	return root
}

// bundleReader reads records from the C2SP entry bundles, keeping the last bundle read
// (records are checked in index order).
type bundleReader struct {
	c       *client
	size    int64
	n       int64
	entries [][]byte
}

// record returns leaf n's record bytes and where they came from.
func (b *bundleReader) record(n int64) ([]byte, string, error) {
	t := tlog.Tile{H: tileHeight, L: -1, N: n >> tileHeight, W: 1 << tileHeight}
	if rest := b.size - t.N<<tileHeight; rest < int64(t.W) {
		t.W = int(rest)
	}
	where := fmt.Sprintf("entry %d of %s", n%(1<<tileHeight), c2spPath(t))
	if b.entries == nil || b.n != t.N {
		data, full, err := b.c.getTile(t)
		if err != nil {
			return nil, where, err
		}
		want := t.W
		if full {
			want = 1 << tileHeight
		}
		entries, err := parseBundle(data, want)
		if err != nil {
			return nil, where, failf("%s: %v", c2spPath(t), err)
		}
		b.n, b.entries = t.N, entries[:t.W]
	}
	return b.entries[n%(1<<tileHeight)], where, nil
}

// parseBundle splits an entry bundle: want entries, each a 2-byte big-endian length and the bytes.
func parseBundle(data []byte, want int) ([][]byte, error) {
	var entries [][]byte
	for len(data) > 0 {
		if len(data) < 2 {
			return nil, fmt.Errorf("entry %d: 1 byte left where a 2-byte length belongs", len(entries))
		}
		n := int(binary.BigEndian.Uint16(data))
		if len(data)-2 < n {
			return nil, fmt.Errorf("entry %d has length %d but only %d bytes follow", len(entries), n, len(data)-2)
		}
		entries = append(entries, data[2:2+n])
		data = data[2+n:]
	}
	if len(entries) != want {
		return nil, fmt.Errorf("holds %d entries, want %d", len(entries), want)
	}
	return entries, nil
}

// memoReader remembers the hashes the TileHashReader returned. On a miss it asks for every
// stored hash of the tile holding it, so one (authenticating) read serves the proofs of all
// 256 leaves below: -check-all costs about one read per tile instead of one per leaf. Soundness
// does not rest on this cache: every proof is checked against the signed root.
type memoReader struct {
	hr    tlog.HashReader
	size  int64
	known map[int64]tlog.Hash
}

func (m *memoReader) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	var missing []int64
	asked := map[int64]bool{}
	for _, x := range indexes {
		if _, ok := m.known[x]; ok || asked[x] {
			continue
		}
		for _, y := range append(m.tileIndexes(x), x) {
			if _, ok := m.known[y]; !ok && !asked[y] {
				asked[y] = true
				missing = append(missing, y)
			}
		}
	}
	if len(missing) > 0 {
		hashes, err := m.hr.ReadHashes(missing)
		if err != nil {
			return nil, err
		}
		for i, y := range missing {
			m.known[y] = hashes[i]
		}
	}
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		out[i] = m.known[x]
	}
	return out, nil
}

// tileIndexes lists the stored hashes of the tile holding x, as far as the tree has them: at
// level 8L+k, the nodes n whose 2^k hashes of level 8L all lie in the tile's width.
func (m *memoReader) tileIndexes(x int64) []int64 {
	t := tlog.TileForIndex(tileHeight, x)
	first := t.N << tileHeight
	end := m.size >> uint(tileHeight*t.L)
	if end > first+1<<tileHeight {
		end = first + 1<<tileHeight
	}
	var out []int64
	for k := 0; k < tileHeight; k++ {
		for n := first >> uint(k); n < end>>uint(k); n++ {
			out = append(out, tlog.StoredHashIndex(t.L*tileHeight+k, n))
		}
	}
	return out
}
