package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/manifest"
)

// badInput is an error in what the user gave (exit status 2).
type badInput struct{ msg string }

func (e badInput) Error() string { return e.msg }

func badf(format string, args ...any) error { return badInput{fmt.Sprintf(format, args...)} }

// object is one Kubernetes object read from a file, with where it came from.
type object struct {
	Value value.Value
	File  string // "-" for standard input
	Doc   int    // 1-based document index in the file
	Line  int    // line of the document (0 for JSON)
	Item  int    // 1-based index in a List, 0 when not in one

	// src is the document the object was read from (positions of its
	// fields); ptr is the JSON pointer of the object in it ("" or
	// "/items/3" for a List item).
	src *manifest.Document
	ptr string
	// dups are the repeated mapping keys of the document, set on the
	// document's first object only.
	dups []manifest.DuplicateKey
}

// where names the object's place: "web.yaml: document 2 (line 7)".
func (o object) where() string {
	if o.Doc == 0 {
		return o.File // not read from a file: "cluster admin"
	}
	s := o.File + ": document " + fmt.Sprint(o.Doc)
	if o.Line > 0 {
		s += fmt.Sprintf(" (line %d)", o.Line)
	}
	if o.Item > 0 {
		s += fmt.Sprintf(", List item %d", o.Item)
	}
	return s
}

func str(v value.Value, names ...string) string {
	for _, n := range names {
		if v.Kind() != value.Map {
			return ""
		}
		v, _ = v.Get(n)
	}
	if v.Kind() != value.String {
		return ""
	}
	return v.AsString()
}

// gvk returns the object's apiVersion and kind.
func (o object) gvk() kube.GroupVersionKind { return kube.GVKOf(o.Value) }

func (o object) namespace() string { return str(o.Value, "metadata", "namespace") }
func (o object) name() string      { return str(o.Value, "metadata", "name") }

// resource names the object as kubectl does in messages: Deployment default/web.
func (o object) resource() string {
	n := o.name()
	if ns := o.namespace(); ns != "" {
		n = ns + "/" + n
	}
	return o.gvk().Kind + " " + n
}

// key identifies the object among others: apiVersion, kind, namespace, name.
func (o object) key() string {
	ns := o.namespace()
	if ns == "" {
		ns = "default"
	}
	return str(o.Value, "apiVersion") + "|" + str(o.Value, "kind") + "|" + ns + "|" + o.name()
}

// readObjects reads every object of the named files and directories ("-" is
// stdin), recursing into subdirectories when recursive is set.
func readObjects(paths []string, recursive bool, stdin io.Reader) ([]object, error) {
	var out []object
	for _, p := range paths {
		if p == "-" {
			data, err := io.ReadAll(stdin)
			if err != nil {
				return nil, badf("-: %v", err)
			}
			objs, err := decodeObjects("-", data)
			if err != nil {
				return nil, err
			}
			out = append(out, objs...)
			continue
		}
		files, err := expand(p, recursive)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, badf("%v", err)
			}
			objs, err := decodeObjects(f, data)
			if err != nil {
				return nil, err
			}
			out = append(out, objs...)
		}
	}
	return out, nil
}

// expand lists the manifest files of a path: the file itself, or the .yaml,
// .yml and .json files of a directory (and of its subdirectories when
// recursive), sorted.
func expand(p string, recursive bool) ([]string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, badf("%v", err)
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	var files []string
	err = filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if f != p && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(f)) {
		case ".yaml", ".yml", ".json":
			files = append(files, f)
		}
		return nil
	})
	if err != nil {
		return nil, badf("%v", err)
	}
	slices.Sort(files)
	return files, nil
}

// decodeObjects decodes the documents of one file as kubectl reads them
// (manifest.Decode: YAML 1.1 or a JSON stream) and expands Lists.
func decodeObjects(file string, data []byte) ([]object, error) {
	docs, err := manifest.Decode(data)
	if err != nil {
		return nil, badf("%s: %v", file, err)
	}
	var out []object
	for i := range docs {
		d := &docs[i]
		o := object{Value: d.Value, File: file, Doc: i + 1, Line: d.Line, src: d, dups: d.Duplicates}
		if err := checkObject(o); err != nil {
			return nil, err
		}
		// kubectl takes any object whose items are a list for a list, and
		// reads its items instead.
		items, _ := o.Value.Get("items")
		if kind := str(o.Value, "kind"); strings.HasSuffix(kind, "List") && items.Kind() != value.List && !items.IsNull() {
			return nil, badf("%s: .items: a %s must have a list of items", o.where(), kind)
		}
		if items.Kind() == value.List {
			for j, it := range items.Items() {
				io := o
				io.Value, io.Item, io.ptr = it, j+1, "/items/"+strconv.Itoa(j)
				if j > 0 {
					io.dups = nil
				}
				if err := checkObject(io); err != nil {
					return nil, err
				}
				out = append(out, io)
			}
			continue
		}
		out = append(out, o)
	}
	return out, nil
}

// duplicateMessage describes a repeated mapping key:
// "cm.yaml:7:3: duplicate key .data.a (first at line 6, column 3); the last value is kept, as kubectl keeps it".
func duplicateMessage(o object, d manifest.DuplicateKey) string {
	return fmt.Sprintf("%s:%d:%d: duplicate key %s (first at line %d, column %d); the last value is kept, as kubectl keeps it",
		o.File, d.Line, d.Column, pointerPath(o.src.Value, d.Path), d.FirstLine, d.FirstColumn)
}

// warnDuplicates prints a warning for every repeated mapping key of the
// objects' documents.
func warnDuplicates(w io.Writer, objs []object) {
	for _, o := range objs {
		for _, d := range o.dups {
			fmt.Fprintf(w, "warning: %s\n", duplicateMessage(o, d))
		}
	}
}

// pointerPath writes a JSON pointer into v as a field path:
// /spec/ports/0/name is .spec.ports[0].name.
func pointerPath(v value.Value, ptr string) string {
	if ptr == "" {
		return "."
	}
	var b strings.Builder
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if v.Kind() == value.List {
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < v.Len() {
				b.WriteString("[" + seg + "]")
				v = v.Index(i)
				continue
			}
		}
		b.WriteByte('.')
		b.WriteString(seg)
		v, _ = v.Get(seg)
	}
	return b.String()
}

// checkObject makes sure o is an object with an apiVersion and a kind.
func checkObject(o object) error {
	if o.Value.Kind() != value.Map {
		return badf("%s: not an object (a %s)", o.where(), o.Value.Kind())
	}
	for _, f := range []string{"apiVersion", "kind"} {
		if str(o.Value, f) == "" {
			return badf("%s: .%s: missing (every object needs apiVersion and kind)", o.where(), f)
		}
	}
	if _, err := kube.GVK(str(o.Value, "apiVersion"), str(o.Value, "kind")); err != nil {
		return badf("%s: .apiVersion: %v", o.where(), err)
	}
	return nil
}

// findLive returns the live object matching o, if any: the one with its
// apiVersion, kind, namespace and name, else the one of another version of
// its group (the same object, as the API server serves it at each version
// of its kind).
func findLive(live []object, o object) (object, bool) {
	k := o.key()
	for _, l := range live {
		if l.key() == k {
			return l, true
		}
	}
	g := o.gvk()
	for _, l := range live {
		if lg := l.gvk(); lg.Group == g.Group && lg.Kind == g.Kind && nsKey(l) == nsKey(o) && l.name() == o.name() {
			return l, true
		}
	}
	return object{}, false
}

// pointerOf returns the JSON pointer, in the object's document, of the
// deepest value of the object that path names; a list item named by its
// key or value is looked up in the object (among items with the same key,
// the one where more of the path is found). The rest of the path, from the
// first element not found, is left out.
func (o object) pointerOf(path fieldpath.Path) string {
	return o.ptr + pointerIn(o.Value, path)
}

func pointerIn(v value.Value, path fieldpath.Path) string {
	if len(path) == 0 {
		return ""
	}
	e := path[0]
	if e.Kind() == fieldpath.FieldNameKind {
		next, ok := v.Get(e.FieldName())
		if v.Kind() != value.Map || !ok {
			return ""
		}
		return "/" + escapePointer(e.FieldName()) + pointerIn(next, path[1:])
	}
	if v.Kind() != value.List {
		return ""
	}
	best, found := "", false
	for i, it := range v.Items() {
		if !itemMatches(it, i, e) {
			continue
		}
		p := "/" + strconv.Itoa(i) + pointerIn(it, path[1:])
		if !found || len(p) > len(best) {
			best, found = p, true
		}
	}
	return best
}

// itemMatches reports whether the list item it, at index i, is one the
// path element e names.
func itemMatches(it value.Value, i int, e fieldpath.PathElement) bool {
	switch e.Kind() {
	case fieldpath.IndexKind:
		return e.Index() == i
	case fieldpath.ValueKind:
		return value.Equal(it, e.Value())
	case fieldpath.KeyKind:
		if it.Kind() != value.Map {
			return false
		}
		for _, k := range e.Key() {
			got, ok := it.Get(k.Name)
			if !ok || !value.Equal(got, k.Value) {
				return false
			}
		}
		return true
	}
	return false
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// at names where the field at path is written: "web.yaml:12:7" when its
// line is known (from the field itself, or else from the nearest enclosing
// value written in the file), else the object's place (see where).
func (o object) at(path fieldpath.Path) string {
	if o.src != nil {
		for ptr := o.pointerOf(path); ; {
			if line, col, ok := o.src.Position(ptr); ok {
				return fmt.Sprintf("%s:%d:%d", o.File, line, col)
			}
			if ptr == "" {
				if o.src.Line > 0 {
					return fmt.Sprintf("%s:%d:%d", o.File, o.src.Line, o.src.Column)
				}
				break
			}
			ptr = ptr[:strings.LastIndexByte(ptr, '/')]
		}
	}
	return o.where()
}
