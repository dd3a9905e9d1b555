package cli

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\ny\n", "x\ny\n", ""},
		{"created", "", "a\nb\n", "--- A\n+++ B\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"deleted", "a\n", "", "--- A\n+++ B\n@@ -1 +0,0 @@\n-a\n"},
		{"one line", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n",
			"--- A\n+++ B\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
			"--- A\n+++ B\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unified("A", "B", tt.a, tt.b); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestDiffLinesProperty checks that the edit script rebuilds both sides
// and keeps a longest common subsequence (no line both removed and added
// where it could have been kept).
func TestDiffLinesProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func() []string {
		n := r.IntN(12)
		out := make([]string, n)
		for i := range out {
			out[i] = string(rune('a' + r.IntN(4)))
		}
		return out
	}
	for i := 0; i < 2000; i++ {
		a, b := gen(), gen()
		var ra, rb []string
		kept := 0
		for _, op := range diffLines(a, b) {
			if op.kind != '+' {
				ra = append(ra, op.line)
			}
			if op.kind != '-' {
				rb = append(rb, op.line)
			}
			if op.kind == ' ' {
				kept++
			}
		}
		if strings.Join(ra, ",") != strings.Join(a, ",") || strings.Join(rb, ",") != strings.Join(b, ",") {
			t.Fatalf("%v -> %v: script does not rebuild the sides", a, b)
		}
		if kept != lcsLen(a, b) {
			t.Fatalf("%v -> %v: kept %d lines, the LCS has %d", a, b, kept, lcsLen(a, b))
		}
	}
}

func lcsLen(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if a[0] == b[0] {
		return 1 + lcsLen(a[1:], b[1:])
	}
	return max(lcsLen(a[1:], b), lcsLen(a, b[1:]))
}

var decodeSeeds = []string{
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
	"apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap}\n",
	`{"apiVersion": "v1", "kind": "Secret"}`,
	"---\n---\napiVersion: v1\n",
	"- a\n- b\n",
	"apiVersion: v1\nkind: List\nitems: 3\n",
	"kind: [\n",
	"[1, 2]",
}

// TestDecodeObjects checks that bad manifests are bad input (exit 2) and
// good ones decode.
func TestDecodeObjects(t *testing.T) {
	wantOK := map[int]int{0: 1, 1: 1, 2: 1}
	for i, s := range decodeSeeds {
		objs, err := decodeObjects("f.yaml", []byte(s))
		if n, ok := wantOK[i]; ok {
			if err != nil || len(objs) != n {
				t.Errorf("%q: got %d objects, %v", s, len(objs), err)
			}
			continue
		}
		var bad badInput
		if !errors.As(err, &bad) || !strings.HasPrefix(err.Error(), "f.yaml") {
			t.Errorf("%q: got %v, want bad input naming the file", s, err)
		}
	}
}

func FuzzDecodeObjects(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := decodeObjects("f", data)
		if err != nil {
			var bad badInput
			if !errors.As(err, &bad) {
				t.Fatalf("error %v is not bad input", err)
			}
			return
		}
		for _, o := range objs {
			if err := checkObject(o); err != nil {
				t.Fatalf("decoded an invalid object: %v", err)
			}
		}
	})
}
