package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/structmerge/structmerge/internal/yamlnode"
)

// Limits that keep a hostile file from exhausting memory or the stack.
const (
	maxFileSize = 64 << 20 // bytes in a scenario, schema or CRD file
	maxDepth    = 512      // nesting of mappings and sequences in a value
	maxNodes    = 1 << 20  // YAML nodes visited while reading one file (aliases count each time they are expanded)
)

// File is a parsed and validated scenario file. LoadFile fills it in; Run
// reads it. A File is never modified after it is returned.
type File struct {
	// Path is the file the scenario was read from, as given to LoadFile.
	Path string
	// Description is the `description:` text ("" when absent).
	Description string
	// Kubernetes is true for the Kubernetes flavour (`kubernetes: true`).
	Kubernetes bool

	// Schema is the schema text of the structured flavour (nil for the
	// Kubernetes flavour).
	Schema *Source
	// Type is the root type name in Schema (structured flavour).
	Type string

	// CRDs are the CustomResourceDefinition files of the Kubernetes flavour.
	CRDs []Source

	// Live is the starting state. HasObject is false when the file gives no
	// live object. For the Kubernetes flavour Live.Object is the whole stored
	// object (metadata.managedFields included) and Live.Managers is nil.
	Live State

	// Steps are the operations, in order; there is at least one.
	Steps []Step

	// Expect is checked after the last step (nil when absent). Its
	// Conflicts and Error are always unset.
	Expect *Expect
}

// Source is a document a scenario refers to: a schema (given inline or as a
// file) or a CRD file.
type Source struct {
	// File is the path the text was read from, resolved against the
	// scenario's directory; "" for inline text.
	File string
	// Text is the document itself.
	Text []byte
	// Line is the line of the scenario file that names the source.
	Line int
}

// Step is one write operation.
type Step struct {
	// Line is the line of the step in the scenario file.
	Line int
	// Op is "apply", "forceApply" or "update".
	Op string
	// Manager is the name of the manager doing the write.
	Manager string
	// APIVersion is the version the object is written at (structured
	// flavour; "v1" when the file does not say).
	APIVersion string
	// Subresource is the subresource written to (Kubernetes flavour; "" for
	// the main resource).
	Subresource string
	// Object is the object sent, in unstructured form (see State).
	Object any
	// Schema, when non-nil, replaces the object's schema before this step
	// and for the following steps (an extension of the published format).
	Schema *Source
	// Expect is checked right after the step (nil when absent).
	Expect *Expect
}

// Expect is a set of expectations checked after a step or after the last
// step.
type Expect struct {
	// Line is the line of the `expect:` key.
	Line int
	// Object is the expected live object, compared semantically; it is only
	// checked when HasObject is true.
	Object    any
	HasObject bool
	// Managers are the expected managers, compared exactly; they are only
	// checked when HasManagers is true. FieldsV1 holds JSON.
	Managers    map[string]Manager
	HasManagers bool
	// Conflicts, when non-empty, is the set of conflicts the step must fail
	// with.
	Conflicts []Conflict
	// Error, when HasError is true, is text the step's error message must
	// contain.
	Error    string
	HasError bool
}

// ParseError is the error LoadFile returns for a file that cannot be read
// or is not a valid scenario.
type ParseError struct {
	File string
	Line int // 0 when the problem is not on a particular line
	Msg  string
	Err  error // the underlying error, if any
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

func (e *ParseError) Unwrap() error { return e.Err }

// LoadFile reads, parses and validates the scenario file at path. Schema
// and CRD files it names are read too, relative to path's directory. Errors
// are *ParseError values naming the file, the line and the reason.
func LoadFile(path string) (*File, error) {
	data, err := readLimited(path)
	if err != nil {
		return nil, &ParseError{File: path, Msg: err.Error(), Err: err}
	}
	return Parse(path, data)
}

// Parse parses and validates a scenario whose text is data; path names it
// in errors and locates the schema and CRD files it refers to.
func Parse(path string, data []byte) (*File, error) {
	return parse(path, data, readLimited)
}

func readLimited(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("file is larger than %d bytes", maxFileSize)
	}
	return data, nil
}

// decoder turns the YAML node tree of one scenario file into a File.
type decoder struct {
	path     string
	dir      string
	readFile func(string) ([]byte, error)
	nodes    int
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &ParseError{File: d.path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func parse(path string, data []byte, readFile func(string) ([]byte, error)) (*File, error) {
	d := &decoder{path: path, dir: filepath.Dir(path), readFile: readFile}
	root, err := yamlnode.Read(data)
	if err != nil {
		var e *yamlnode.Error
		if errors.As(err, &e) {
			return nil, &ParseError{File: path, Line: e.Line, Msg: "invalid YAML: " + e.Msg, Err: err}
		}
		return nil, &ParseError{File: path, Msg: "invalid YAML: " + err.Error(), Err: err}
	}
	if root == nil {
		return nil, &ParseError{File: path, Msg: "invalid YAML: the file is empty"}
	}
	return d.file(root)
}

// entry is one key of a mapping.
type entry struct {
	key, value *yaml.Node
}

// mapping checks that n is a mapping whose keys are all in allowed (and
// appear once) and returns its entries by key. hint, when non-nil, explains
// a key that is not allowed here.
func (d *decoder) mapping(n *yaml.Node, where string, allowed []string, hint func(string) string) (map[string]entry, error) {
	n = d.resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil, d.errorf(n, "%s must be a mapping, not %s", where, describe(n))
	}
	out := make(map[string]entry, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := d.resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, d.errorf(k, "%s: keys must be strings", where)
		}
		if k.ShortTag() == "!!merge" {
			return nil, d.errorf(k, "%s: merge keys (<<) are not supported", where)
		}
		if !slices.Contains(allowed, k.Value) {
			msg := fmt.Sprintf("%s: unknown key %q (expected one of: %s)", where, k.Value, strings.Join(allowed, ", "))
			if hint != nil {
				if h := hint(k.Value); h != "" {
					msg = fmt.Sprintf("%s: key %q %s", where, k.Value, h)
				}
			}
			return nil, d.errorf(k, "%s", msg)
		}
		if _, dup := out[k.Value]; dup {
			return nil, d.errorf(k, "%s: key %q appears twice", where, k.Value)
		}
		out[k.Value] = entry{key: k, value: v}
	}
	return out, nil
}

// resolve follows aliases.
func (d *decoder) resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "null"
		}
		return fmt.Sprintf("the %s %q", strings.TrimPrefix(n.ShortTag(), "!!"), n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "an empty document"
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// str reads a non-empty string scalar.
func (d *decoder) str(n *yaml.Node, where string) (string, error) {
	n = d.resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", d.errorf(n, "%s must be a string, not %s", where, describe(n))
	}
	if n.Value == "" {
		return "", d.errorf(n, "%s must not be empty", where)
	}
	return n.Value, nil
}

// text reads a string scalar that may be empty.
func (d *decoder) text(n *yaml.Node, where string) (string, error) {
	n = d.resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", d.errorf(n, "%s must be a string, not %s", where, describe(n))
	}
	return n.Value, nil
}

func (d *decoder) boolean(n *yaml.Node, where string) (bool, error) {
	n = d.resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, d.errorf(n, "%s must be true or false, not %s", where, describe(n))
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, d.errorf(n, "%s: %v", where, err)
	}
	return b, nil
}

var (
	topStructured = []string{"description", "schema", "type", "live", "steps", "expect", "kubernetes"}
	topKubernetes = []string{"description", "kubernetes", "crds", "live", "steps", "expect"}
	stepKeysS     = []string{"op", "manager", "apiVersion", "object", "schema", "expect"}
	stepKeysK     = []string{"op", "manager", "subresource", "object", "expect"}
	liveKeys      = []string{"object", "managers"}
	managerKeys   = []string{"apiVersion", "applied", "fields"}
	schemaKeys    = []string{"file", "inline"}
	conflictKeys  = []string{"manager", "path"}
)

func (d *decoder) file(root *yaml.Node) (*File, error) {
	root = d.resolve(root)
	if root.Kind != yaml.MappingNode {
		return nil, d.errorf(root, "a scenario must be a mapping, not %s", describe(root))
	}
	f := &File{Path: d.path}
	// The flavour decides which keys are allowed, so read it first.
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := d.resolve(root.Content[i]); k.Kind == yaml.ScalarNode && k.Value == "kubernetes" {
			b, err := d.boolean(root.Content[i+1], "kubernetes")
			if err != nil {
				return nil, err
			}
			f.Kubernetes = b
		}
	}
	allowed, other, flavour := topStructured, topKubernetes, "structured"
	if f.Kubernetes {
		allowed, other, flavour = topKubernetes, topStructured, "kubernetes"
	}
	top, err := d.mapping(root, "scenario", allowed, func(k string) string {
		if slices.Contains(other, k) {
			return fmt.Sprintf("is not valid in a %s scenario", flavour)
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	if e, ok := top["description"]; ok {
		if f.Description, err = d.text(e.value, "description"); err != nil {
			return nil, err
		}
	}
	if f.Kubernetes {
		if e, ok := top["crds"]; ok {
			if f.CRDs, err = d.crds(e.value); err != nil {
				return nil, err
			}
		}
	} else {
		e, ok := top["schema"]
		if !ok {
			return nil, d.errorf(root, "scenario: missing key \"schema\" (a structured scenario needs a schema; set kubernetes: true for whole Kubernetes objects)")
		}
		if f.Schema, err = d.schema(e, "schema"); err != nil {
			return nil, err
		}
		e, ok = top["type"]
		if !ok {
			return nil, d.errorf(root, "scenario: missing key \"type\" (the root type name in the schema)")
		}
		if f.Type, err = d.str(e.value, "type"); err != nil {
			return nil, err
		}
	}
	if e, ok := top["live"]; ok {
		if f.Live, err = d.live(e.value, f.Kubernetes); err != nil {
			return nil, err
		}
	}
	e, ok := top["steps"]
	if !ok {
		return nil, d.errorf(root, "scenario: missing key \"steps\"")
	}
	if f.Steps, err = d.steps(e.value, f.Kubernetes); err != nil {
		return nil, err
	}
	if e, ok := top["expect"]; ok && !isNull(d.resolve(e.value)) {
		if f.Expect, err = d.expect(e, "expect", f.Kubernetes, false); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// schema reads a `schema:` entry: {file: PATH} or {inline: TEXT}.
func (d *decoder) schema(e entry, where string) (*Source, error) {
	m, err := d.mapping(e.value, where, schemaKeys, nil)
	if err != nil {
		return nil, err
	}
	file, hasFile := m["file"]
	inline, hasInline := m["inline"]
	switch {
	case hasFile && hasInline:
		return nil, d.errorf(e.key, "%s: give either file or inline, not both", where)
	case hasFile:
		p, err := d.str(file.value, where+".file")
		if err != nil {
			return nil, err
		}
		return d.readSource(file.value, p, where+".file")
	case hasInline:
		n := d.resolve(inline.value)
		if n.Kind == yaml.MappingNode {
			// The schema written as YAML rather than as a string.
			text, err := yaml.Marshal(n)
			if err != nil {
				return nil, d.errorf(n, "%s.inline: %v", where, err)
			}
			return &Source{Text: text, Line: n.Line}, nil
		}
		s, err := d.str(n, where+".inline")
		if err != nil {
			return nil, err
		}
		return &Source{Text: []byte(s), Line: n.Line}, nil
	}
	return nil, d.errorf(e.key, "%s: give file or inline", where)
}

// readSource reads a file named in the scenario, relative to its directory.
func (d *decoder) readSource(n *yaml.Node, p, where string) (*Source, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.dir, filepath.FromSlash(p))
	}
	text, err := d.readFile(p)
	if err != nil {
		return nil, &ParseError{File: d.path, Line: n.Line, Msg: fmt.Sprintf("%s: cannot read %s: %v", where, p, err), Err: err}
	}
	return &Source{File: p, Text: text, Line: n.Line}, nil
}

func (d *decoder) crds(n *yaml.Node) ([]Source, error) {
	n = d.resolve(n)
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "crds must be a list of file names, not %s", describe(n))
	}
	out := make([]Source, 0, len(n.Content))
	for i, item := range n.Content {
		where := fmt.Sprintf("crds[%d]", i)
		p, err := d.str(item, where)
		if err != nil {
			return nil, err
		}
		s, err := d.readSource(item, p, where)
		if err != nil {
			return nil, err
		}
		out = append(out, *s)
	}
	return out, nil
}

func (d *decoder) live(n *yaml.Node, kube bool) (State, error) {
	n = d.resolve(n)
	if isNull(n) {
		return State{}, nil
	}
	if kube {
		obj, err := d.value(n, 0)
		if err != nil {
			return State{}, err
		}
		return State{Object: obj, HasObject: true}, nil
	}
	m, err := d.mapping(n, "live", liveKeys, nil)
	if err != nil {
		return State{}, err
	}
	var st State
	if e, ok := m["object"]; ok {
		if st.Object, err = d.value(e.value, 0); err != nil {
			return State{}, err
		}
		st.HasObject = true
	}
	if e, ok := m["managers"]; ok {
		if st.Managers, err = d.managers(e.value, "live.managers"); err != nil {
			return State{}, err
		}
	}
	return st, nil
}

// managers reads a mapping from manager name to {apiVersion, applied,
// fields}. Fields are required.
func (d *decoder) managers(n *yaml.Node, where string) (map[string]Manager, error) {
	n = d.resolve(n)
	if isNull(n) {
		return map[string]Manager{}, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errorf(n, "%s must be a mapping from manager name to manager, not %s", where, describe(n))
	}
	out := make(map[string]Manager, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := d.resolve(n.Content[i])
		name, err := d.str(k, where+" key")
		if err != nil {
			return nil, err
		}
		if _, dup := out[name]; dup {
			return nil, d.errorf(k, "%s: manager %q appears twice", where, name)
		}
		mwhere := where + "." + name
		m, err := d.mapping(n.Content[i+1], mwhere, managerKeys, nil)
		if err != nil {
			return nil, err
		}
		mgr := Manager{APIVersion: defaultAPIVersion}
		if e, ok := m["apiVersion"]; ok {
			if mgr.APIVersion, err = d.str(e.value, mwhere+".apiVersion"); err != nil {
				return nil, err
			}
		}
		if e, ok := m["applied"]; ok {
			if mgr.Applied, err = d.boolean(e.value, mwhere+".applied"); err != nil {
				return nil, err
			}
		}
		e, ok := m["fields"]
		if !ok {
			return nil, d.errorf(k, "%s: missing key \"fields\"", mwhere)
		}
		if mgr.FieldsV1, err = d.fields(e.value, mwhere+".fields"); err != nil {
			return nil, err
		}
		out[name] = mgr
	}
	return out, nil
}

// fields reads a FieldsV1 set written as YAML (or JSON, which is YAML) and
// returns it as JSON.
func (d *decoder) fields(n *yaml.Node, where string) ([]byte, error) {
	n = d.resolve(n)
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		// The set written as a JSON document inside a string.
		var obj map[string]any
		if err := json.Unmarshal([]byte(n.Value), &obj); err != nil || obj == nil {
			return nil, d.errorf(n, "%s: a string must hold a FieldsV1 JSON object", where)
		}
		return []byte(n.Value), nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errorf(n, "%s must be a mapping in FieldsV1 form (for example {\"f:spec\": {\"f:replicas\": {}}}), not %s", where, describe(n))
	}
	v, err := d.value(n, 0)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, d.errorf(n, "%s: %v", where, err)
	}
	return out, nil
}

func (d *decoder) steps(n *yaml.Node, kube bool) ([]Step, error) {
	n = d.resolve(n)
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "steps must be a list, not %s", describe(n))
	}
	if len(n.Content) == 0 {
		return nil, d.errorf(n, "steps must not be empty")
	}
	out := make([]Step, 0, len(n.Content))
	for i, item := range n.Content {
		s, err := d.step(item, fmt.Sprintf("steps[%d]", i), kube)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Step operations.
const (
	OpApply      = "apply"
	OpForceApply = "forceApply"
	OpUpdate     = "update"
)

const defaultAPIVersion = "v1"

func (d *decoder) step(n *yaml.Node, where string, kube bool) (Step, error) {
	allowed, other, flavour := stepKeysS, stepKeysK, "structured"
	if kube {
		allowed, other, flavour = stepKeysK, stepKeysS, "kubernetes"
	}
	m, err := d.mapping(n, where, allowed, func(k string) string {
		if slices.Contains(other, k) {
			return fmt.Sprintf("is not valid in a step of a %s scenario", flavour)
		}
		return ""
	})
	if err != nil {
		return Step{}, err
	}
	n = d.resolve(n)
	s := Step{Line: n.Line}
	e, ok := m["op"]
	if !ok {
		return Step{}, d.errorf(n, "%s: missing key \"op\" (apply, forceApply or update)", where)
	}
	if s.Op, err = d.str(e.value, where+".op"); err != nil {
		return Step{}, err
	}
	if s.Op != OpApply && s.Op != OpForceApply && s.Op != OpUpdate {
		return Step{}, d.errorf(e.value, "%s.op: unknown operation %q (expected apply, forceApply or update)", where, s.Op)
	}
	e, ok = m["manager"]
	if !ok {
		return Step{}, d.errorf(n, "%s: missing key \"manager\"", where)
	}
	if s.Manager, err = d.str(e.value, where+".manager"); err != nil {
		return Step{}, err
	}
	if !kube {
		s.APIVersion = defaultAPIVersion
		if e, ok := m["apiVersion"]; ok {
			if s.APIVersion, err = d.str(e.value, where+".apiVersion"); err != nil {
				return Step{}, err
			}
		}
	}
	if e, ok := m["subresource"]; ok {
		if s.Subresource, err = d.str(e.value, where+".subresource"); err != nil {
			return Step{}, err
		}
	}
	e, ok = m["object"]
	if !ok {
		return Step{}, d.errorf(n, "%s: missing key \"object\" (write object: null for a null object)", where)
	}
	if s.Object, err = d.value(e.value, 0); err != nil {
		return Step{}, err
	}
	if e, ok := m["schema"]; ok {
		if s.Schema, err = d.schema(e, where+".schema"); err != nil {
			return Step{}, err
		}
	}
	if e, ok := m["expect"]; ok && !isNull(d.resolve(e.value)) {
		if s.Expect, err = d.expect(e, where+".expect", kube, true); err != nil {
			return Step{}, err
		}
		if len(s.Expect.Conflicts) > 0 && s.Op != OpApply {
			return Step{}, d.errorf(e.key, "%s.conflicts: only a non-forced apply can conflict, this step is %s", where, s.Op)
		}
	}
	return s, nil
}

func (d *decoder) expect(e entry, where string, kube, inStep bool) (*Expect, error) {
	var allowed []string
	switch {
	case kube && inStep:
		allowed = []string{"object", "conflicts", "error"}
	case kube:
		allowed = []string{"object"}
	case inStep:
		allowed = []string{"object", "managers", "conflicts", "error"}
	default:
		allowed = []string{"object", "managers"}
	}
	m, err := d.mapping(e.value, where, allowed, func(k string) string {
		switch k {
		case "conflicts", "error":
			return "is only valid in the expect of a step"
		case "managers":
			return "is not valid in a kubernetes scenario (ownership is in metadata.managedFields)"
		}
		return ""
	})
	if err != nil {
		return nil, err
	}
	x := &Expect{Line: e.key.Line}
	if e, ok := m["object"]; ok {
		if x.Object, err = d.value(e.value, 0); err != nil {
			return nil, err
		}
		x.HasObject = true
	}
	if e, ok := m["managers"]; ok {
		if x.Managers, err = d.managers(e.value, where+".managers"); err != nil {
			return nil, err
		}
		x.HasManagers = true
	}
	if e, ok := m["conflicts"]; ok {
		if x.Conflicts, err = d.conflicts(e.value, where+".conflicts"); err != nil {
			return nil, err
		}
	}
	if e, ok := m["error"]; ok {
		if x.Error, err = d.str(e.value, where+".error"); err != nil {
			return nil, err
		}
		x.HasError = true
	}
	return x, nil
}

func (d *decoder) conflicts(n *yaml.Node, where string) ([]Conflict, error) {
	n = d.resolve(n)
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "%s must be a list of {manager, path}, not %s", where, describe(n))
	}
	if len(n.Content) == 0 {
		return nil, d.errorf(n, "%s must not be empty (a step with no conflicts has no conflicts key)", where)
	}
	out := make([]Conflict, 0, len(n.Content))
	for i, item := range n.Content {
		cwhere := fmt.Sprintf("%s[%d]", where, i)
		m, err := d.mapping(item, cwhere, conflictKeys, nil)
		if err != nil {
			return nil, err
		}
		var c Conflict
		for _, k := range conflictKeys {
			e, ok := m[k]
			if !ok {
				return nil, d.errorf(item, "%s: missing key %q", cwhere, k)
			}
			s, err := d.str(e.value, cwhere+"."+k)
			if err != nil {
				return nil, err
			}
			if k == "manager" {
				c.Manager = s
			} else {
				c.Path = s
			}
		}
		if slices.Contains(out, c) {
			return nil, d.errorf(item, "%s: conflict with %q at %s is listed twice", cwhere, c.Manager, c.Path)
		}
		out = append(out, c)
	}
	return out, nil
}

// value converts a YAML node to an unstructured value: map[string]any,
// []any, string, int64, float64, bool or nil.
func (d *decoder) value(n *yaml.Node, depth int) (any, error) {
	d.nodes++
	if d.nodes > maxNodes {
		return nil, d.errorf(n, "the file has more than %d YAML nodes (counting expanded aliases)", maxNodes)
	}
	if depth > maxDepth {
		return nil, d.errorf(n, "values are nested more than %d levels deep", maxDepth)
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, d.errorf(n, "unresolved alias %q", n.Value)
		}
		return d.value(n.Alias, depth+1)
	case yaml.ScalarNode:
		return d.scalar(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := d.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := d.resolve(n.Content[i])
			if k.Kind != yaml.ScalarNode {
				return nil, d.errorf(k, "mapping keys must be scalars, not %s", describe(k))
			}
			if k.ShortTag() == "!!merge" {
				return nil, d.errorf(k, "merge keys (<<) are not supported")
			}
			if _, dup := out[k.Value]; dup {
				return nil, d.errorf(k, "mapping key %q appears twice", k.Value)
			}
			v, err := d.value(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			out[k.Value] = v
		}
		return out, nil
	}
	return nil, d.errorf(n, "unexpected YAML node")
}

func (d *decoder) scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, d.errorf(n, "invalid boolean %q: %v", n.Value, err)
		}
		return b, nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err != nil {
			return nil, d.errorf(n, "integer %s does not fit in 64 bits", n.Value)
		}
		return i, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, d.errorf(n, "invalid number %q: %v", n.Value, err)
		}
		return f, nil
	case "!!str", "!!timestamp":
		return n.Value, nil
	}
	return nil, d.errorf(n, "unsupported YAML tag %s", n.Tag)
}
