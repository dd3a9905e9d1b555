package fieldpath

import (
	"errors"
	"strings"
	"testing"

	"github.com/structmerge/structmerge/value"
)

var pathRoundTrips = []string{
	"",
	".a",
	".a.b.c",
	".",
	"..a",
	`.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"].name`,
	`.spec.finalizers[="a"]`,
	`[="x\ny"][=1][=-2][=1.5][=1e+21][=1e-07][=true][=false][=null]`,
	`[=[]][=[1,"a",[true]]]`,
	`[3][-1][0]`,
	`.a[]`,
	`[a=1,b="]",c=null]`,
	`.a]b=c,`,
	`[x.y=1]`,
	`[=1,b=2][=null,0=""]`,
}

func TestParsePathRoundTrip(t *testing.T) {
	for _, s := range pathRoundTrips {
		p, err := ParsePath(s)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", s, err)
			continue
		}
		if got := p.String(); got != s {
			t.Errorf("ParsePath(%q).String() = %q", s, got)
		}
	}
}

func TestParsePathElements(t *testing.T) {
	p, err := ParsePath(`.spec.ports[name="http",port=80][="v"][2]`)
	if err != nil {
		t.Fatal(err)
	}
	want := Path{FieldName("spec"), FieldName("ports"), KeyByFields("port", 80, "name", "http"), MemberValue(value.NewString("v")), Index(2)}
	if !p.Equal(want) {
		t.Errorf("got %v, want %v", p, want)
	}
	if p[2].keyFields()[1].Value.Kind() != value.Int {
		t.Errorf("port is %v, want an int", p[2].keyFields()[1].Value.Kind())
	}
	f, err := ParsePath("[=2.5][=1e3]")
	if err != nil {
		t.Fatal(err)
	}
	if f[0].Value().Kind() != value.Float || f[1].Value().AsFloat() != 1000 {
		t.Errorf("floats parsed as %v %v", f[0].Value(), f[1].Value())
	}
}

func TestParsePathErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"a", 0, "expected '.' or '['"},
		{".a[", 3, "unterminated"},
		{"[", 1, "unterminated"},
		{`.a[name=]`, 8, "expected a value"},
		{`.a[name="x"`, 11, "unterminated key"},
		{`[=]`, 2, "expected a value"},
		{`[x]`, 2, "expected '='"},
		{`[name=web]`, 6, "cannot parse"},
		{`[="abc]`, 2, "unterminated string"},
		{`[=1 x]`, 2, "cannot parse"},
		{`[="a"x]`, 5, "expected ']'"},
		{`[a=1;b=2]`, 3, "cannot parse"},
		{`[=[1,2]`, 7, "expected ']'"},
		{`[=[1,2`, 6, "unterminated list"},
		{`[=[1;2]]`, 3, "cannot parse"},
		{`[="\q"]`, 2, "bad quoted string"},
		{`[99999999999999999999999]`, 1, "index"},
	}
	for _, tt := range tests {
		_, err := ParsePath(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParsePath(%q) error = %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset || !strings.Contains(err.Error(), tt.msg) || se.Input != "path" {
			t.Errorf("ParsePath(%q) error = %v (offset %d), want offset %d and %q", tt.in, err, se.Offset, tt.offset, tt.msg)
		}
	}
}

func TestParsePathNestingLimit(t *testing.T) {
	s := "[=" + strings.Repeat("[", maxPathValueDepth+1) + strings.Repeat("]", maxPathValueDepth+1) + "]"
	if _, err := ParsePath(s); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Errorf("deep list: error %v", err)
	}
}

func TestMakePath(t *testing.T) {
	p, err := MakePath("spec", "containers", []value.Field{{Name: "name", Value: value.NewString("a")}}, 3, value.NewString("v"), FieldName("x"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.String(), `.spec.containers[name="a"][3][="v"].x`; got != want {
		t.Errorf("MakePath = %s, want %s", got, want)
	}
	for _, bad := range [][]any{{3.5}, {[]value.Field{}}, {PathElement{}}, {nil}} {
		if _, err := MakePath(bad...); err == nil {
			t.Errorf("MakePath(%v) succeeded", bad)
		}
	}
}

func TestPathCompareEqualCopy(t *testing.T) {
	a := Path{FieldName("a")}
	ab := Path{FieldName("a"), FieldName("b")}
	b := Path{FieldName("b")}
	if a.Compare(ab) != -1 || ab.Compare(a) != 1 || ab.Compare(b) != -1 || a.Compare(a.Copy()) != 0 {
		t.Error("Compare order wrong")
	}
	if !ab.Equal(ab.Copy()) || ab.Equal(a) || a.Equal(b) || !Path(nil).Equal(Path{}) {
		t.Error("Equal wrong")
	}
	c := ab.Copy()
	c[0] = FieldName("z")
	if ab[0].FieldName() != "a" {
		t.Error("Copy shares its slice")
	}
	if Path(nil).Copy() != nil {
		t.Error("Copy(nil) != nil")
	}
}

func FuzzParsePath(f *testing.F) {
	for _, s := range pathRoundTrips {
		f.Add(s)
	}
	f.Add(`[name="x",port=80]`)
	f.Add(`[=NaN][=+Inf][=-Inf][=-0]`)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("ParsePath(%q): bad error %v", s, err)
			}
			return
		}
		text := p.String()
		q, err := ParsePath(text)
		if err != nil {
			t.Fatalf("ParsePath(%q) = %q, which does not parse: %v", s, text, err)
		}
		if q.String() != text || q.Compare(p) != 0 {
			t.Fatalf("ParsePath(%q) = %q, reparsed as %q", s, text, q.String())
		}
	})
}
