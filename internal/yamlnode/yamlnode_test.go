package yamlnode

import (
	"errors"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		kind     yaml.Kind // of the root; 0: none
		line     int       // of the error; -1: no error
		msg      string
	}{
		{"mapping", "a: 1\nb: [x]\n", yaml.MappingNode, -1, ""},
		{"sequence after a document marker", "---\n- 1\n", yaml.SequenceNode, -1, ""},
		{"scalar", "hello\n", yaml.ScalarNode, -1, ""},
		{"empty", "", 0, -1, ""},
		{"comments only", "# nothing here\n", 0, -1, ""},
		{"two documents", "a: 1\n---\nb: 2\n", 0, 2, "more than one YAML document"},
		{"syntax error", "a: 1\n b: 2\nc\n", 0, 2, "yaml: "},
		{"bad second document", "a: 1\n---\n[\n", 0, 0, "yaml: "},
		{"tab indentation", "a:\n\t- 1\n", 0, 2, "yaml: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := Read([]byte(tc.in))
			if tc.line < 0 {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if tc.kind == 0 {
					if root != nil {
						t.Fatalf("root %v, want none", root.Kind)
					}
					return
				}
				if root == nil || root.Kind != tc.kind {
					t.Fatalf("root %v, want kind %v", root, tc.kind)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			if tc.line > 0 && e.Line != tc.line {
				t.Errorf("line %d, want %d (%v)", e.Line, tc.line, e)
			}
			if !strings.Contains(e.Msg, tc.msg) || strings.Contains(e.Msg, "line ") {
				t.Errorf("message %q, want one with %q and no line", e.Msg, tc.msg)
			}
		})
	}
}
