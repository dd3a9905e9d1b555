package readme

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite README.md's Go blocks from the Examples")

const readmePath = "../../README.md"

// marker names the Example whose body the next Go block is.
var marker = regexp.MustCompile(`^<!-- example: (\S+\.go) (Example\w*) -->$`)

// block is one Go block of the README and the Example it must equal.
type block struct {
	line        int // the line of the opening fence, from 1
	start, end  int // the block's lines, [start, end), as indexes
	file, name  string
	markerFound bool
}

// goBlocks finds the README's Go blocks and their markers.
func goBlocks(t *testing.T, lines []string) []block {
	t.Helper()
	var out []block
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		b := block{line: i + 1, start: i + 1}
		if i > 0 {
			if m := marker.FindStringSubmatch(lines[i-1]); m != nil {
				b.file, b.name, b.markerFound = m[1], m[2], true
			}
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		if j == len(lines) {
			t.Fatalf("README.md:%d: a Go block that does not end", i+1)
		}
		b.end = j
		out = append(out, b)
		i = j
	}
	return out
}

// exampleBody returns the body of the function name in file (relative to
// the module root), one tab of indentation removed from each line.
func exampleBody(file, name string) ([]string, error) {
	path := filepath.Join("../..", file)
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != name || fn.Body == nil {
			continue
		}
		body := src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset]
		lines := strings.Split(strings.Trim(string(body), "\n"), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(l, "\t")
		}
		return lines, nil
	}
	return nil, fmt.Errorf("%s: no function %s", file, name)
}

// TestReadmeBlocksAreExamples: every Go block of the README has a marker
// and equals the body of the Example it names.
func TestReadmeBlocksAreExamples(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	blocks := goBlocks(t, lines)
	if len(blocks) < 3 {
		t.Fatalf("README.md has %d Go blocks; the library section shows three Examples", len(blocks))
	}
	var out []string
	last := 0
	for _, b := range blocks {
		if !b.markerFound {
			t.Errorf("README.md:%d: a Go block without a marker <!-- example: FILE ExampleName --> on the line before", b.line)
			continue
		}
		if !strings.HasSuffix(b.file, "_test.go") {
			t.Errorf("README.md:%d: %s is not a test file", b.line-1, b.file)
			continue
		}
		want, err := exampleBody(b.file, b.name)
		if err != nil {
			t.Errorf("README.md:%d: %v", b.line-1, err)
			continue
		}
		got := lines[b.start:b.end]
		out = append(append(out, lines[last:b.start]...), want...)
		last = b.end
		if *update {
			continue
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("README.md:%d: the block is not the body of %s in %s (go test ./internal/readme -update copies it):\n%s", b.line, b.name, b.file, lineDiff(want, got))
		}
	}
	out = append(out, lines[last:]...)
	if *update && !t.Failed() {
		text := []byte(strings.Join(out, "\n"))
		if !bytes.Equal(text, data) {
			if err := os.WriteFile(readmePath, text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// lineDiff shows the first line where got differs from want.
func lineDiff(want, got []string) string {
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g || i >= len(want) || i >= len(got) {
			return fmt.Sprintf("line %d of the block:\n  Example: %q\n  README:  %q", i+1, w, g)
		}
	}
	return ""
}
