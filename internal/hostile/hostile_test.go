package hostile_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/internal/testfixture"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/manifest"
)

// Bounds every case must stay within. The time bound is multiplied by
// raceSlowdown in race-enabled builds (race_test.go), which run code several
// times slower; memory is measured as bytes allocated during the case.
const (
	timeLimit  = time.Second
	allocLimit = 512 << 20
	// maxErrorLen bounds the length of an error message: an error must say
	// where and what, not repeat the input.
	maxErrorLen = 8 << 10
)

// A hostile case. prepare builds the input (not measured) and returns the
// operation to run on it (measured). The operation returns the error the
// library gave, or, for a case that must succeed, an error of its own when
// the result is not what it must be.
type hostileCase struct {
	name    string
	prepare func(t *testing.T) func() error
	// want is a substring of the error the operation must return; "" means
	// it must succeed.
	want string
	// is, when set, must be matched by errors.Is.
	is error
	// child runs the case in a child process: for inputs that may crash the
	// process (a stack overflow cannot be recovered from).
	child bool
	// longError allows an error message longer than maxErrorLen: one that
	// names a path 10,000 levels deep, or lists every repeated item as the
	// reference does.
	longError bool
	// bug, when set, says the case fails today because of a reported bug.
	// It is skipped with that note (HOSTILE_STRICT=1 runs it anyway), and
	// fails as soon as it passes, so that the note is removed.
	bug string
}

// TestHostileInput runs every case and checks its error, time and memory.
func TestHostileInput(t *testing.T) {
	cases := hostileCases()
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		if seen[tc.name] || strings.ContainsAny(tc.name, " /()[]^$.*+?|\\") {
			t.Fatalf("case name %q is repeated or not usable in -run", tc.name)
		}
		seen[tc.name] = true
	}
	child := os.Getenv("HOSTILE_CHILD")
	strict := os.Getenv("HOSTILE_STRICT") == "1"
	for _, tc := range cases {
		if child != "" && child != tc.name {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			if tc.child && child == "" {
				runInChild(t, tc, strict)
				return
			}
			if tc.bug != "" && !strict && child == "" {
				t.Skipf("known bug: %s (HOSTILE_STRICT=1 runs it)", tc.bug)
			}
			if ok := runCase(t, tc); ok && tc.bug != "" && child == "" {
				t.Errorf("case passes now: remove its bug note %q", tc.bug)
			}
		})
	}
}

// runCase runs one case in this process and reports whether it passed.
func runCase(t *testing.T, tc hostileCase) bool {
	t.Helper()
	op := tc.prepare(t)
	limit := timeLimit * raceSlowdown
	var err error
	var took time.Duration
	var alloc uint64
	// The machine may be busy: a case is within its time bound if one of
	// three runs is.
	for attempt := range 3 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		err = op()
		took = time.Since(start)
		runtime.ReadMemStats(&after)
		alloc = after.TotalAlloc - before.TotalAlloc
		if took <= limit || attempt == 2 {
			break
		}
	}
	msg := "<nil>"
	if err != nil {
		msg = err.Error()
	}
	t.Logf("%v, %.1f MiB allocated: %s", took.Round(time.Millisecond), float64(alloc)/(1<<20), shorten(msg))
	ok := true
	switch {
	case tc.want == "" && err != nil:
		t.Errorf("want success, got %s", shorten(msg))
		ok = false
	case tc.want != "" && err == nil:
		t.Errorf("want an error containing %q, got success", tc.want)
		ok = false
	case tc.want != "" && !strings.Contains(msg, tc.want):
		t.Errorf("want an error containing %q, got %s", tc.want, shorten(msg))
		ok = false
	}
	if tc.is != nil && !errors.Is(err, tc.is) {
		t.Errorf("error %s does not wrap %v", shorten(msg), tc.is)
		ok = false
	}
	if len(msg) > maxErrorLen && !tc.longError {
		t.Errorf("error message of %d bytes (limit %d): %s", len(msg), maxErrorLen, shorten(msg))
		ok = false
	}
	if took > limit {
		t.Errorf("took %v (limit %v)", took, limit)
		ok = false
	}
	if alloc > allocLimit {
		t.Errorf("allocated %d MiB (limit %d MiB)", alloc>>20, allocLimit>>20)
		ok = false
	}
	return ok
}

// runInChild runs one case in a child process (this test binary), so that
// a crash is that case's failure rather than the end of the test run.
func runInChild(t *testing.T, tc hostileCase, strict bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileInput$/^"+tc.name+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "HOSTILE_CHILD="+tc.name, "HOSTILE_STRICT=1")
	out, err := cmd.CombinedOutput()
	report := string(out)
	if i := strings.Index(report, "fatal error:"); i >= 0 {
		report = report[i:]
	}
	passed := err == nil && strings.Contains(string(out), "--- PASS: TestHostileInput/"+tc.name)
	switch {
	case passed && tc.bug != "":
		t.Errorf("case passes now: remove its bug note %q", tc.bug)
	case passed:
		t.Logf("in a child process:\n%s", shorten(string(out)))
	case tc.bug != "" && !strict:
		t.Skipf("known bug: %s (HOSTILE_STRICT=1 fails on it); the child process said:\n%s", tc.bug, shorten(report))
	default:
		t.Errorf("the child process failed (%v):\n%s", err, shorten(report))
	}
}

// shorten keeps long messages readable: long runs of repeated path
// elements are folded and the rest is cut.
func shorten(s string) string {
	s = repeated.ReplaceAllString(s, "$1...$1")
	if len(s) > 600 {
		return s[:600] + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return s
}

var repeated = regexp.MustCompile(`((?:/[^/\s)]{1,3}){1})(?:/[^/\s)]{1,3}){8,}`)

// Inputs.

func nested(open, leaf, close string, n int) []byte {
	return []byte(strings.Repeat(open, n) + leaf + strings.Repeat(close, n))
}

// garbage returns n random bytes (the same every run).
func garbage(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// laughs is the billion laughs attack: ten levels of nine aliases each.
func laughs() []byte {
	var b strings.Builder
	b.WriteString("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := range 9 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return []byte(b.String())
}

// schemaBomb is a schema whose one field's default is the billion laughs.
func schemaBomb() []byte {
	var b strings.Builder
	b.WriteString("types:\n- name: a\n  map:\n    fields:\n    - name: x\n      type: {scalar: untyped}\n      default:\n")
	for _, line := range strings.Split(strings.TrimSpace(string(laughs())), "\n") {
		b.WriteString("        " + line + "\n")
	}
	return []byte(b.String())
}

func decodeJSON(data []byte, opts ...value.DecodeOption) func() error {
	return func() error {
		_, err := value.FromJSON(data, opts...)
		return err
	}
}

func decodeYAML(data []byte, opts ...value.DecodeOption) func() error {
	return func() error {
		_, err := value.FromYAML(data, opts...)
		return err
	}
}

// decodeJSONTo decodes and checks the value against want (compact JSON).
func decodeJSONTo(data []byte, want string) func() error {
	return func() error {
		v, err := value.FromJSON(data)
		if err != nil {
			return err
		}
		return expectJSON(v, want)
	}
}

func decodeYAMLTo(data []byte, want string) func() error {
	return func() error {
		v, err := value.FromYAML(data)
		if err != nil {
			return err
		}
		return expectJSON(v, want)
	}
}

func expectJSON(v value.Value, want string) error {
	if got := string(value.ToJSON(v)); got != want {
		return fmt.Errorf("decoded to %s, want %s", shorten(got), want)
	}
	return nil
}

func fromUnstructured(x any) func() error {
	return func() error {
		_, err := value.FromUnstructured(x)
		return err
	}
}

func parseFieldsV1(data string) func() error {
	return func() error {
		_, err := fieldpath.ParseFieldsV1([]byte(data))
		return err
	}
}

func parsePath(s string) func() error {
	return func() error {
		_, err := fieldpath.ParsePath(s)
		return err
	}
}

func compileSchema(data []byte) func() error {
	return func() error {
		_, err := schema.CompileYAML(data)
		return err
	}
}

func constant(f func() error) func(*testing.T) func() error {
	return func(*testing.T) func() error { return f }
}

// widget compiles the basic test schema's root type.
func widget(t *testing.T) *schema.Type { return testfixture.Widget(t) }

// selfSchema is a type that refers to itself through a field, a keyed list
// and an atomic override of itself.
const selfSchema = `types:
- name: node
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: next
      type: {namedType: node}
    - name: frozen
      type: {namedType: node, elementRelationship: atomic}
    - name: items
      type:
        list:
          elementType: {namedType: node}
          elementRelationship: associative
          keys: [name]
`

func selfNode(t *testing.T) *schema.Type {
	t.Helper()
	s, err := schema.CompileYAML([]byte(selfSchema))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := s.Type("node")
	return n
}

// deepNode builds {next: {next: ... {name: leaf}}} n levels deep.
func deepNode(n int, field string) value.Value {
	v := value.NewMap([]value.Field{{Name: "name", Value: value.NewString("leaf")}})
	for range n {
		v = value.NewMap([]value.Field{{Name: field, Value: v}})
	}
	return v
}

// manyTypes is a schema of n named types, each with a field of the next.
func manyTypes(n int) []byte {
	var b strings.Builder
	b.WriteString("types:\n")
	for i := range n {
		fmt.Fprintf(&b, "- name: t%d\n  map:\n    fields:\n    - name: s\n      type: {scalar: string}\n", i)
		if i+1 < n {
			fmt.Fprintf(&b, "    - name: next\n      type: {namedType: t%d}\n", i+1)
		}
	}
	return []byte(b.String())
}

// duplicateItems is {containers: [{name: a}, ... n times]}.
func duplicateItems(n int) value.Value {
	items := make([]value.Value, n)
	item := value.NewMap([]value.Field{{Name: "name", Value: value.NewString("a")}})
	for i := range items {
		items[i] = item
	}
	return value.NewMap([]value.Field{{Name: "containers", Value: value.NewList(items)}})
}

// distinctItems is {containers: [{name: c0, image: tag}, ...]} with n items.
func distinctItems(n int, tag string) value.Value {
	items := make([]value.Value, n)
	for i := range items {
		items[i] = value.NewMap([]value.Field{
			{Name: "name", Value: value.NewString("c" + strconv.Itoa(i))},
			{Name: "image", Value: value.NewString(tag)},
		})
	}
	return value.NewMap([]value.Field{{Name: "containers", Value: value.NewList(items)}})
}

// manyManagers returns an object with n labels and n managers, manager i
// owning label i by update.
func manyManagers(n int) (value.Value, fieldpath.Managers) {
	labels := make([]value.Field, n)
	managers := make(fieldpath.Managers, n)
	for i := range n {
		k := "l" + strconv.Itoa(i)
		labels[i] = value.Field{Name: k, Value: value.NewString("v")}
		managers["m"+strconv.Itoa(i)] = fieldpath.VersionedSet{
			Set:        fieldpath.NewSet(fieldpath.Path{fieldpath.FieldName("labels"), fieldpath.FieldName(k)}),
			APIVersion: "v1",
		}
	}
	return value.NewMap([]value.Field{{Name: "labels", Value: value.NewMap(labels)}}), managers
}

// relabel is {labels: {l0: to, ...}} with n labels.
func relabel(n int, to string) value.Value {
	labels := make([]value.Field, n)
	for i := range n {
		labels[i] = value.Field{Name: "l" + strconv.Itoa(i), Value: value.NewString(to)}
	}
	return value.NewMap([]value.Field{{Name: "labels", Value: value.NewMap(labels)}})
}

// configMap is a ConfigMap with the given managedFields (JSON).
func configMap(t *testing.T, managedFieldsJSON string) value.Value {
	t.Helper()
	v, err := value.FromJSON([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","managedFields":` + managedFieldsJSON + `},"data":{"a":"b"}}`))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// managedFields is a managedFields list of one entry by manager "a".
func managedFields(operation, fieldsType, fieldsV1 string) string {
	return `[{"manager":"a","operation":` + operation + `,"apiVersion":"v1","fieldsType":` + fieldsType + `,"fieldsV1":` + fieldsV1 + `,"time":"2024-01-01T00:00:00Z"}]`
}

func withField(obj value.Value, name string, v value.Value) value.Value {
	fields := append([]value.Field(nil), own.Value.Fields(obj)...)
	for i := range fields {
		if fields[i].Name == name {
			fields[i].Value = v
		}
	}
	return value.NewMap(fields)
}

func fieldManager(t *testing.T) *kube.FieldManager {
	t.Helper()
	fm, err := kube.NewFieldManager(kube.BuiltinTypes())
	if err != nil {
		t.Fatal(err)
	}
	return fm
}

// kubeApply applies (or, with update, updates) {data: {a: c}} to a
// ConfigMap carrying the given managedFields.
func kubeApply(managedFieldsJSON string, update bool) func(*testing.T) func() error {
	return func(t *testing.T) func() error {
		live := configMap(t, managedFieldsJSON)
		obj := withField(configMap(t, `[]`), "data", value.NewMap([]value.Field{{Name: "a", Value: value.NewString("c")}}))
		obj = withField(obj, "metadata", value.NewMap([]value.Field{{Name: "name", Value: value.NewString("x")}}))
		fm := fieldManager(t)
		if update {
			return func() error {
				out, err := fm.Update(live, obj, "ctl")
				if err != nil {
					return err
				}
				entries, err := kube.DecodeManagedFields(out)
				if err == nil && (len(entries) != 1 || entries[0].Manager != "ctl") {
					return fmt.Errorf("managedFields after the update: %v", entries)
				}
				return err
			}
		}
		return func() error {
			_, err := fm.Apply(live, obj, "kubectl")
			return err
		}
	}
}

// compareItemChain compares a value of n keyed lists nested in each other
// with the empty object: every item and its name are removed.
func compareItemChain(n *schema.Type, depth int) func() error {
	v := value.NewMap([]value.Field{{Name: "name", Value: value.NewString("leaf")}})
	for range depth {
		v = value.NewMap([]value.Field{{Name: "name", Value: value.NewString("x")}, {Name: "items", Value: value.NewList([]value.Value{v})}})
	}
	return func() error {
		c, err := typed.Compare(n, v, value.NewMap(nil))
		if err == nil && c.Removed.Size() != 3*depth+1 {
			return fmt.Errorf("%d removed paths, want %d", c.Removed.Size(), 3*depth+1)
		}
		return err
	}
}

func hostileCases() []hostileCase {
	return []hostileCase{
		// JSON.
		{name: "json-arrays-nested-past-the-limit", prepare: constant(decodeJSON(nested("[", "", "]", value.DefaultMaxDepth+1))),
			want: "nesting exceeds the maximum depth of 1000", is: value.ErrTooDeep},
		{name: "json-objects-nested-past-the-limit", prepare: constant(decodeJSON(nested(`{"a":`, "1", "}", value.DefaultMaxDepth+1))),
			want: "nesting exceeds the maximum depth of 1000", is: value.ErrTooDeep},
		{name: "json-million-unclosed-brackets", prepare: constant(decodeJSON([]byte(strings.Repeat("[", 1_000_000)))),
			want: "nesting exceeds the maximum depth", is: value.ErrTooDeep},
		{name: "json-nesting-past-a-small-MaxDepth", prepare: constant(decodeJSON(nested("[", "", "]", 11), value.MaxDepth(10))),
			want: "maximum depth of 10", is: value.ErrTooDeep},
		{name: "json-past-MaxBytes", prepare: constant(decodeJSON([]byte(`"`+strings.Repeat("x", 2<<20)+`"`), value.MaxBytes(1<<20))),
			want: "exceeds the limit of 1048576 bytes", is: value.ErrTooLarge},
		{name: "json-65-MiB-past-the-default-MaxBytes", prepare: func(*testing.T) func() error {
			return decodeJSON(make([]byte, value.DefaultMaxBytes+1<<20))
		}, want: "exceeds the limit of 67108864 bytes", is: value.ErrTooLarge},
		{name: "json-number-1e400", prepare: constant(decodeJSON([]byte(`{"a":1e400}`))), want: "number 1e400 is out of the range of a float64"},
		{name: "json-number-minus-1e400", prepare: constant(decodeJSON([]byte(`[-1e400]`))), want: "out of the range of a float64"},
		{name: "json-exponent-of-100000-digits", prepare: constant(decodeJSON([]byte("1e" + strings.Repeat("9", 100_000)))),
			want: "(100002 characters) is out of the range of a float64"},
		{name: "json-number-1e-400-underflows-to-0", prepare: constant(decodeJSONTo([]byte(`[1e-400]`), `[0]`))},
		{name: "json-100-digit-integer-is-a-float", prepare: constant(decodeJSONTo([]byte(strings.Repeat("9", 100)), `1e+100`))},
		{name: "json-invalid-UTF-8-is-replaced", prepare: constant(decodeJSONTo([]byte("{\"a\xff\":\"\xfe\xed\"}"), `{"a�":"��"}`))},
		{name: "json-lone-surrogate-is-replaced", prepare: constant(decodeJSONTo([]byte(`"\ud800x"`), `"�x"`))},
		{name: "json-duplicate-keys", prepare: constant(decodeJSON([]byte(`{"a":1,"b":2,"a":3}`))), want: `duplicate key "a"`},
		{name: "json-100000-duplicate-keys", prepare: constant(decodeJSON([]byte("{" + strings.Repeat(`"a":1,`, 100_000) + `"a":1}`))), want: `duplicate key "a"`},
		{name: "json-NaN-literal", prepare: constant(decodeJSON([]byte(`{"a":NaN}`))), want: "invalid character 'N'"},
		{name: "json-trailing-data", prepare: constant(decodeJSON([]byte(`{} {}`))), want: "after top-level value"},
		{name: "json-empty-input", prepare: constant(decodeJSON(nil)), want: "unexpected end of JSON input"},
		{name: "json-1-MiB-of-binary-garbage", prepare: constant(decodeJSON(garbage(1 << 20))), want: "invalid character"},
		{name: "json-500000-element-array", prepare: constant(decodeJSON([]byte("[" + strings.Repeat("1,", 499_999) + "1]")))},

		// YAML.
		{name: "yaml-flow-nested-past-the-limit", prepare: constant(decodeYAML(nested("[", "", "]", value.DefaultMaxDepth+1))),
			want: "nesting exceeds the maximum depth of 1000", is: value.ErrTooDeep},
		{name: "yaml-block-nested-past-the-limit", prepare: constant(decodeYAML([]byte(strings.Repeat("- ", value.DefaultMaxDepth+1) + "x"))),
			want: "nesting exceeds the maximum depth of 1000", is: value.ErrTooDeep},
		{name: "yaml-mappings-nested-past-the-limit", prepare: constant(decodeYAML(nested("{a: ", "1", "}", value.DefaultMaxDepth+1))),
			want: "nesting exceeds the maximum depth of 1000", is: value.ErrTooDeep},
		{name: "yaml-past-MaxBytes", prepare: constant(decodeYAML([]byte("a: "+strings.Repeat("x", 2<<20)), value.MaxBytes(1<<20))),
			want: "exceeds the limit of 1048576 bytes", is: value.ErrTooLarge},
		{name: "yaml-billion-laughs", prepare: constant(decodeYAML(laughs())), want: "alias expansion exceeds the limit", is: value.ErrTooLarge},
		{name: "yaml-billion-laughs-in-a-stream", prepare: constant(func() error {
			_, err := value.FromYAMLDocuments(append([]byte("a: 1\n---\n"), laughs()...))
			return err
		}), want: "alias expansion exceeds the limit", is: value.ErrTooLarge},
		{name: "manifest-billion-laughs", prepare: constant(func() error {
			_, err := manifest.Decode(append([]byte("a: 1\n---\n"), laughs()...))
			return err
		}), want: "excessive aliasing", is: value.ErrTooLarge},
		{name: "manifest-nested-past-the-limit", prepare: constant(func() error {
			// Flow YAML that starts with {: not JSON, so read as YAML.
			_, err := manifest.Decode(nested("{a: ", "1", "}", value.DefaultMaxDepth+1))
			return err
		}), want: "nesting exceeds the maximum depth of 1000", is: value.ErrTooDeep},
		{name: "manifest-alias-inside-its-anchor", prepare: constant(func() error {
			_, err := manifest.Decode([]byte("a: &x [1, *x]"))
			return err
		}), want: "anchor"},
		{name: "manifest-5000-documents", prepare: constant(func() error {
			docs, err := manifest.Decode([]byte(strings.Repeat("a: 1\n---\n", 5_000)))
			if err == nil && len(docs) != 5_000 {
				return fmt.Errorf("%d documents", len(docs))
			}
			return err
		})},
		{name: "yaml-alias-inside-its-anchor", prepare: constant(decodeYAML([]byte("a: &x [1, *x]"))), want: "refers to a value that contains it"},
		{name: "yaml-duplicate-keys", prepare: constant(decodeYAML([]byte("a: 1\nb: 2\na: 3\n"))), want: `mapping key "a" already defined at line 1`},
		{name: "yaml-duplicate-keys-by-merge-are-fine", prepare: constant(decodeYAMLTo([]byte("base: &b {x: 1, y: 2}\nd: {<<: *b, x: 3}\n"), `{"base":{"x":1,"y":2},"d":{"x":3,"y":2}}`))},
		{name: "yaml-mapping-as-key", prepare: constant(decodeYAML([]byte("? {a: 1}\n: 2\n"))), want: "a mapping cannot be a mapping key"},
		{name: "yaml-sequence-as-key", prepare: constant(decodeYAML([]byte("[1, 2]: 3\n"))), want: "a sequence cannot be a mapping key"},
		{name: "yaml-scalar-keys-become-strings", prepare: constant(decodeYAMLTo([]byte("1: a\ntrue: b\n~: c\n1.5: d\n"), `{"1":"a","1.5":"d","null":"c","true":"b"}`))},
		{name: "yaml-nan", prepare: constant(decodeYAML([]byte("a: .nan"))), want: ".nan cannot be represented in JSON"},
		{name: "yaml-infinity", prepare: constant(decodeYAML([]byte("a: [-.inf]"))), want: "-.inf cannot be represented in JSON"},
		{name: "yaml-1e400-stays-a-string", prepare: constant(decodeYAMLTo([]byte("a: 1e400"), `{"a":"1e400"}`))},
		{name: "yaml-100-digit-integer-is-a-float", prepare: constant(decodeYAMLTo([]byte("a: "+strings.Repeat("9", 100)), `{"a":1e+100}`))},
		{name: "yaml-invalid-UTF-8", prepare: constant(decodeYAML([]byte("a: \"\xff\"\n"))), want: "invalid leading UTF-8 octet"},
		{name: "yaml-empty-input-is-null", prepare: constant(decodeYAMLTo(nil, `null`))},
		{name: "yaml-binary-garbage", prepare: constant(decodeYAML([]byte("\x00\x01\x02\xff"))), want: "control characters are not allowed"},
		{name: "yaml-1-MiB-of-binary-garbage", prepare: constant(decodeYAML(garbage(1 << 20))), want: "yaml:"},
		{name: "yaml-50000-documents", prepare: constant(func() error {
			docs, err := value.FromYAMLDocuments([]byte(strings.Repeat("a: 1\n---\n", 50_000)))
			if err == nil && len(docs) != 50_000 {
				return fmt.Errorf("%d documents", len(docs))
			}
			return err
		})},

		// Plain Go data.
		{name: "unstructured-NaN", prepare: constant(fromUnstructured(map[string]any{"spec": map[string]any{"x": math.NaN()}})), want: "value: .spec.x: unsupported float value NaN"},
		{name: "unstructured-infinity", prepare: constant(fromUnstructured([]any{1, math.Inf(-1)})), want: "unsupported float value -Inf"},
		{name: "unstructured-unsupported-type", prepare: constant(fromUnstructured(map[string]any{"c": make(chan int)})), want: "unsupported type chan int"},
		{name: "unstructured-uint64-past-int64", prepare: constant(fromUnstructured(uint64(math.MaxUint64))), want: "overflows int64"},
		{name: "unstructured-nested-a-million-deep", child: true, prepare: func(*testing.T) func() error {
			var x any = "leaf"
			for range 1_000_000 {
				x = map[string]any{"a": x}
			}
			return fromUnstructured(x)
		}, want: "nesting deeper than 1000 levels"},
		{name: "unstructured-map-that-contains-itself", child: true, prepare: func(*testing.T) func() error {
			m := map[string]any{}
			m["self"] = m
			return fromUnstructured(m)
		}, want: "nesting deeper than 1000 levels"},

		// FieldsV1.
		{name: "fieldsv1-nested-past-the-limit", prepare: constant(parseFieldsV1(string(nested(`{"f:a":`, "{}", "}", fieldpath.MaxFieldsV1Depth+1)))),
			want: "objects nested more than 10000 deep"},
		{name: "fieldsv1-truncated", prepare: constant(parseFieldsV1(`{"f:a":{"f:b"`)), want: "want ':' after the object key"},
		{name: "fieldsv1-number-for-an-object", prepare: constant(parseFieldsV1(`{"f:a":1}`)), want: "want an object or null"},
		{name: "fieldsv1-array-for-an-object", prepare: constant(parseFieldsV1(`{"f:a":[{}]}`)), want: "want an object or null"},
		{name: "fieldsv1-top-level-array", prepare: constant(parseFieldsV1(`[]`)), want: "want an object or null"},
		{name: "fieldsv1-bad-k-JSON", prepare: constant(parseFieldsV1(`{"k:{bad":{}}`)), want: `key "k:{bad"`},
		{name: "fieldsv1-k-not-an-object", prepare: constant(parseFieldsV1(`{"k:[1]":{}}`)), want: "want an object of key fields"},
		{name: "fieldsv1-k-with-1e400", prepare: constant(parseFieldsV1(`{"k:{\"a\":1e400}":{}}`)), want: "out of the range of a float64"},
		{name: "fieldsv1-bad-v-JSON", prepare: constant(parseFieldsV1(`{"v:nope":{}}`)), want: "invalid literal"},
		{name: "fieldsv1-bad-index", prepare: constant(parseFieldsV1(`{"i:x":{}}`)), want: "the index is not a decimal integer"},
		{name: "fieldsv1-no-type-letter", prepare: constant(parseFieldsV1(`{"abc":{}}`)), want: "missing ':' after the type letter"},
		{name: "fieldsv1-unknown-type-letter-is-skipped", prepare: constant(func() error {
			s, err := fieldpath.ParseFieldsV1([]byte(`{"z:a":{"f:b":{}},"f:c":{}}`))
			if err == nil && s.Size() != 1 {
				return fmt.Errorf("set of %d paths, want 1", s.Size())
			}
			return err
		})},
		{name: "fieldsv1-empty-input", prepare: constant(parseFieldsV1(``)), want: "empty input"},
		{name: "fieldsv1-binary-garbage", prepare: constant(parseFieldsV1(string(garbage(1 << 20)))), want: "bad FieldsV1 at byte 0"},
		{name: "fieldsv1-300000-siblings", prepare: func(*testing.T) func() error {
			var b strings.Builder
			b.WriteString("{")
			for i := range 300_000 {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"f:%d":{}`, i)
			}
			b.WriteString("}")
			data := b.String()
			return func() error {
				s, err := fieldpath.ParseFieldsV1([]byte(data))
				if err == nil && s.Size() != 300_000 {
					return fmt.Errorf("set of %d paths", s.Size())
				}
				return err
			}
		}},

		// Paths.
		{name: "path-unterminated-element", prepare: constant(parsePath(`.a[`)), want: "unterminated path element"},
		{name: "path-unterminated-string", prepare: constant(parsePath(`.a[name="x]`)), want: "unterminated string"},
		{name: "path-no-leading-dot", prepare: constant(parsePath(`spec.x`)), want: "expected '.' or '[' to start a path element"},
		{name: "path-key-without-value", prepare: constant(parsePath(`[name=]`)), want: "expected a value"},
		{name: "path-value-1e400", prepare: constant(parsePath(`[=1e400]`)), want: `cannot parse "1e400" as a value`},
		{name: "path-value-nested-10000-deep", prepare: constant(parsePath(`[=` + strings.Repeat("[", 10_000) + `]`)), want: "values nested more than 100 deep"},
		{name: "path-binary-garbage", prepare: constant(parsePath(string(garbage(1 << 16)))), want: "bad path at byte 0"},
		{name: "path-of-100000-elements", prepare: constant(func() error {
			p, err := fieldpath.ParsePath(strings.Repeat(".a[0]", 50_000))
			if err == nil && len(p) != 100_000 {
				return fmt.Errorf("%d elements", len(p))
			}
			return err
		})},

		// Schemas.
		{name: "schema-self-referencing-type-value-10000-deep", prepare: func(t *testing.T) func() error {
			n := selfNode(t)
			v := deepNode(10_000, "next")
			return func() error {
				if err := typed.Validate(n, v); err != nil {
					return err
				}
				s, err := typed.FieldSet(n, v)
				if err != nil {
					return err
				}
				if s.Size() != 1 {
					return fmt.Errorf("field set of %d paths, want the leaf", s.Size())
				}
				mT, err := typed.NewUnvalidated(n, v).Merge(typed.NewUnvalidated(n, v))
				m := mT.Value()
				if err == nil && !value.Equal(m, v) {
					return errors.New("merging a value with itself changed it")
				}
				return err
			}
		}},
		{name: "schema-self-referencing-list-value-1000-deep", prepare: func(t *testing.T) func() error {
			return compareItemChain(selfNode(t), 1000)
		}},
		{name: "schema-self-referencing-list-value-10000-deep", prepare: func(t *testing.T) func() error {
			return compareItemChain(selfNode(t), 10_000)
		}},
		{name: "schema-self-referencing-value-10000-deep-with-an-error-at-the-bottom", prepare: func(t *testing.T) func() error {
			n := selfNode(t)
			v := value.NewMap([]value.Field{{Name: "name", Value: value.NewInt(1)}})
			for range 10_000 {
				v = value.NewMap([]value.Field{{Name: "next", Value: v}})
			}
			return func() error { return typed.Validate(n, v) }
		}, want: ".name: expected string, got int", longError: true},
		{name: "schema-with-10000-types", prepare: constant(func() error {
			s, err := schema.CompileYAML(manyTypes(10_000))
			if err == nil && len(s.TypeNames()) != 10_000 {
				return fmt.Errorf("%d types", len(s.TypeNames()))
			}
			return err
		})},
		{name: "schema-type-overriding-itself", prepare: constant(compileSchema([]byte("types:\n- name: a\n  map:\n    fields:\n    - name: a\n      type: {namedType: a, elementRelationship: atomic}\n")))},
		{name: "schema-inline-types-nested-past-the-limit", prepare: constant(compileSchema([]byte("types:\n- name: a\n  " +
			string(nested("list: {elementType: {", "scalar: string", "}}", schema.MaxDepth+1)) + "\n"))), want: "exceeded max depth of 10000"},
		{name: "schema-billion-laughs-in-a-default", prepare: constant(compileSchema(schemaBomb())), want: "input expands to too many nodes"},
		{name: "schema-unknown-named-type", prepare: constant(compileSchema([]byte("types:\n- name: a\n  map: {fields: [{name: x, type: {namedType: b}}]}\n"))), want: `unknown named type "b"`},
		{name: "schema-binary-garbage", prepare: constant(compileSchema([]byte("\x00\xff"))), want: "control characters are not allowed"},

		// The engine.
		{name: "engine-forced-apply-over-5000-managers", prepare: func(t *testing.T) func() error {
			w := widget(t)
			live, managers := manyManagers(5000)
			config := relabel(5000, "new")
			u, err := merge.NewUpdater()
			if err != nil {
				t.Fatal(err)
			}
			return func() error {
				_, after, err := u.Apply(typed.NewUnvalidated(w, live), typed.NewUnvalidated(w, config), managers, merge.Writer{Manager: "kubectl", APIVersion: "v1"}, merge.Force())
				if err == nil && (len(after) != 1 || after["kubectl"].Set.Size() != 5000) {
					return fmt.Errorf("%d managers after forcing, kubectl owns %d fields", len(after), after["kubectl"].Set.Size())
				}
				return err
			}
		}},
		{name: "engine-apply-conflicting-with-5000-managers", prepare: func(t *testing.T) func() error {
			w := widget(t)
			live, managers := manyManagers(5000)
			config := relabel(5000, "new")
			u, _ := merge.NewUpdater()
			return func() error {
				_, _, err := u.Apply(typed.NewUnvalidated(w, live), typed.NewUnvalidated(w, config), managers, merge.Writer{Manager: "kubectl", APIVersion: "v1"})
				var cs merge.Conflicts
				if errors.As(err, &cs) && len(cs) != 5000 {
					return fmt.Errorf("%d conflicts", len(cs))
				}
				if err != nil {
					// The message lists 5,000 fields; check its start only.
					return errors.New(err.Error()[:40])
				}
				return nil
			}
		}, want: `conflicts with "m0":`},
		{name: "engine-update-among-5000-managers", prepare: func(t *testing.T) func() error {
			w := widget(t)
			live, managers := manyManagers(5000)
			u, _ := merge.NewUpdater()
			obj := relabel(5000, "v")
			return func() error {
				_, after, err := u.Update(typed.NewUnvalidated(w, live), typed.NewUnvalidated(w, obj), managers, merge.Writer{Manager: "kubectl", APIVersion: "v1"})
				if err == nil && len(after) != 5000 {
					return fmt.Errorf("an update that changes nothing left %d managers", len(after))
				}
				return err
			}
		}},
		{name: "engine-list-with-1000-duplicate-keys", prepare: func(t *testing.T) func() error {
			w := widget(t)
			v := duplicateItems(1000)
			return func() error { return typed.Validate(w, v) }
		}, want: `.containers: duplicate entries for key [name="a"]`, longError: true},
		{name: "engine-list-with-100000-duplicate-keys", prepare: func(t *testing.T) func() error {
			w := widget(t)
			v := duplicateItems(100_000)
			return func() error { return typed.Validate(w, v) }
		}, want: `.containers: duplicate entries for key [name="a"]`, longError: true},
		{name: "engine-list-with-100000-duplicate-keys-allowed", prepare: func(t *testing.T) func() error {
			w := widget(t)
			v := duplicateItems(100_000)
			return func() error {
				if err := typed.Validate(w, v, typed.AllowDuplicates()); err != nil {
					return err
				}
				s, err := typed.FieldSet(w, v)
				if err == nil && s.Size() != 1 {
					return fmt.Errorf("field set of %d paths, want the item as a whole", s.Size())
				}
				return err
			}
		}},
		{name: "engine-config-with-100000-duplicate-keys", prepare: func(t *testing.T) func() error {
			w := widget(t)
			v := duplicateItems(100_000)
			return func() error {
				_, err := typed.NewUnvalidated(w, value.NewMap(nil)).Merge(typed.NewUnvalidated(w, v))
				return err
			}
		}, want: "duplicate entries", longError: true},
		{name: "engine-apply-to-a-live-list-with-100000-duplicate-keys", prepare: func(t *testing.T) func() error {
			w := widget(t)
			live := duplicateItems(100_000)
			u, _ := merge.NewUpdater()
			config := value.NewMap([]value.Field{{Name: "name", Value: value.NewString("x")}})
			return func() error {
				res, _, err := u.Apply(typed.NewUnvalidated(w, live), typed.NewUnvalidated(w, config), nil, merge.Writer{Manager: "kubectl", APIVersion: "v1"})
				if err == nil {
					if c, _ := res.Value().Get("containers"); len(own.Value.Items(c)) != 100_000 {
						return fmt.Errorf("the list has %d items after an apply that did not touch it", len(own.Value.Items(c)))
					}
				}
				return err
			}
		}},
		// Kubernetes objects: metadata.managedFields.
		{name: "kube-managedFields-not-a-list", prepare: kubeApply(`"garbage"`, false),
			want: ".metadata.managedFields: expected list, got string"},
		{name: "kube-managedFields-entry-not-a-map", prepare: kubeApply(`[1]`, false),
			want: ".metadata.managedFields[0]: expected map, got int"},
		{name: "kube-managedFields-bad-fieldsV1", prepare: kubeApply(managedFields(`"Apply"`, `"FieldsV1"`, `{"f:data":1}`), false),
			want: `failed to decode managed fields: error decoding versioned set of managed fields entry 0: error decoding set: fieldpath: bad FieldsV1 at byte 10, key "f:data"`},
		{name: "kube-managedFields-bad-k-key", prepare: kubeApply(managedFields(`"Apply"`, `"FieldsV1"`, `{"k:{bad":{}}`), false),
			want: `bad FieldsV1 at byte 1, key "k:{bad"`},
		{name: "kube-managedFields-unknown-operation", prepare: kubeApply(managedFields(`"Bogus"`, `"FieldsV1"`, `{}`), false),
			want: "operation must be `Apply` or `Update`"},
		{name: "kube-managedFields-unknown-fieldsType", prepare: kubeApply(managedFields(`"Apply"`, `"FieldsV2"`, `{}`), false),
			want: `invalid fieldsType "FieldsV2" in managed fields entry 0`},
		{name: "kube-managedFields-malformed-are-dropped-by-an-update", prepare: kubeApply(managedFields(`"Apply"`, `"FieldsV1"`, `{"f:data":1}`), true)},
		{name: "kube-managedFields-fieldsV1-nested-past-the-limit", prepare: func(t *testing.T) func() error {
			deep := value.NewMap(nil)
			for range fieldpath.MaxFieldsV1Depth + 1 {
				deep = value.NewMap([]value.Field{{Name: "f:a", Value: deep}})
			}
			entry := value.NewMap([]value.Field{
				{Name: "apiVersion", Value: value.NewString("v1")},
				{Name: "fieldsType", Value: value.NewString("FieldsV1")},
				{Name: "fieldsV1", Value: deep},
				{Name: "manager", Value: value.NewString("a")},
				{Name: "operation", Value: value.NewString("Apply")},
			})
			obj := configMap(t, `[]`)
			meta, _ := obj.Get("metadata")
			fields := append([]value.Field(nil), own.Value.Fields(meta)...)
			for i := range fields {
				if fields[i].Name == "managedFields" {
					fields[i].Value = value.NewList([]value.Value{entry})
				}
			}
			obj = withField(obj, "metadata", value.NewMap(fields))
			return func() error {
				_, err := kube.DecodeManagedFields(obj)
				return err
			}
		}, want: "nested more than 10000 deep"},
		{name: "kube-managedFields-truncated-JSON", prepare: constant(func() error {
			_, err := kube.UnmarshalManagedFields([]byte(`[{"manager":`))
			return err
		}), want: "unexpected end of JSON input"},
		{name: "kube-forced-apply-over-5000-managedFields-entries", prepare: func(t *testing.T) func() error {
			var b strings.Builder
			b.WriteString("[")
			for i := range 5000 {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"manager":"m%d","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k%d":{}}},"time":"2024-01-01T00:00:00Z"}`, i, i)
			}
			b.WriteString("]")
			live := configMap(t, b.String())
			cfg := configMap(t, `[]`)
			fm := fieldManager(t)
			return func() error {
				out, err := fm.Apply(live, withField(cfg, "metadata", value.NewMap([]value.Field{{Name: "name", Value: value.NewString("x")}})), "kubectl", kube.Force())
				if err != nil {
					return err
				}
				entries, err := kube.DecodeManagedFields(out)
				if err == nil && len(entries) != 5001 {
					return fmt.Errorf("%d managedFields entries after the apply", len(entries))
				}
				return err
			}
		}},

		{name: "engine-merge-of-two-100000-item-lists", prepare: func(t *testing.T) func() error {
			w := widget(t)
			live, config := distinctItems(100_000, "old"), distinctItems(100_000, "new")
			return func() error {
				mT, err := typed.NewUnvalidated(w, live).Merge(typed.NewUnvalidated(w, config))
				m := mT.Value()
				if err == nil && !value.Equal(m, config) {
					return errors.New("merged list is not the configuration")
				}
				return err
			}
		}},
	}
}
