// Command registrygen writes kube/builtin/registry_generated.go: what the
// registry of Kubernetes tells its field manager and its request path,
// obtained by calling the registry's own code (module k8s.io/kubernetes at
// the version this module requires, which must be builtin.KubernetesVersion):
//
//   - for each endpoint of a built-in kind (the main resource, or a
//     subresource with a strategy of its own), the fields its strategy
//     resets, from the strategy's GetResetFields, and whether it filters
//     instead (GetResetFieldsFilter);
//   - for each kind with a scale subresource, where its replicas are, from
//     its scale storage's ReplicasPathMappings;
//   - for each kind whose main strategy moves metadata.generation, whether
//     PrepareForCreate sets it and which fields PrepareForUpdate compares
//     before adding 1, found by running those methods on objects that
//     differ in one field (generation.go).
//
// Which strategy serves which endpoint is listed in kinds.go, as the
// storages of k8s.io/kubernetes/pkg/registry wire them. Feature gates are
// at their defaults, as in a server started without flags.
//
// It is run by `go generate` in package kube/builtin; TestGeneratedFileIsCurrent
// fails when the committed file is not what it writes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"reflect"
	"slices"
	"strings"

	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/structmerge/structmerge/kube/builtin"

	"github.com/structmerge/structmerge/kube/internal/strategies"
)

// version is the release of k8s.io/kubernetes whose code is called; the
// test checks it is the module's and builtin.KubernetesVersion.
const version = builtin.KubernetesVersion

func main() {
	out := flag.String("out", "registry_generated.go", "file to write")
	flag.Parse()
	code, err := generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "registrygen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "registrygen:", err)
		os.Exit(1)
	}
}

// generate builds the tables and returns the file's source.
func generate() ([]byte, error) {
	t, err := build(strategies.Kinds())
	if err != nil {
		return nil, err
	}
	return t.source()
}

// tables is what the generated file holds, each sorted by group, kind
// (and subresource).
type tables struct {
	resets      []resetRow
	replicas    []replicasRow
	filtered    []endpoint
	generations []generationRow
}

// endpoint names a kind's endpoint ("" is the main resource).
type endpoint struct {
	group, kind, subresource string
}

func (e endpoint) compare(o endpoint) int {
	return strings.Compare(e.group+"\x00"+e.kind+"\x00"+e.subresource, o.group+"\x00"+o.kind+"\x00"+o.subresource)
}

// resetRow is one endpoint's reset fields: per API version, paths of
// field names.
type resetRow struct {
	endpoint
	fields map[string][][]string
}

// replicasRow is one kind's replicas path per API version.
type replicasRow struct {
	group, kind string
	paths       map[string][]string
}

// generationRow is how the main strategy of one kind moves
// metadata.generation: PrepareForCreate sets it to 1 (onCreate), and
// PrepareForUpdate adds 1 when one of the compared fields changed (a path
// of JSON field names; an empty path is the whole object but its
// metadata).
type generationRow struct {
	group, kind string
	onCreate    bool
	compared    [][]string
}

// resetter is what the strategies that reset fields implement.
type resetter interface {
	GetResetFields() map[smdfieldpath.APIVersion]*smdfieldpath.Set
}

// filterer is what the strategies that keep only the fields a filter
// allows implement instead (pods/resize, pods/ephemeralcontainers).
type filterer interface {
	GetResetFieldsFilter() map[smdfieldpath.APIVersion]smdfieldpath.Filter
}

// kindName is the name of a kind: that of its internal Go type.
func kindName(k strategies.Kind) string {
	return reflect.TypeOf(k.Object).Elem().Name()
}

func build(ks []strategies.Kind) (*tables, error) {
	t := &tables{}
	for _, k := range ks {
		name := kindName(k)
		endpoints := map[string]any{"": k.Main}
		for sub, st := range k.Subs {
			endpoints[sub] = st
		}
		for sub, st := range endpoints {
			e := endpoint{k.Group, name, sub}
			// A strategy with a filter may also inherit GetResetFields
			// from the main strategy; its storage gives the endpoint
			// installer only the filter (a storage may not give both).
			switch st := st.(type) {
			case filterer:
				if len(st.GetResetFieldsFilter()) == 0 {
					return nil, fmt.Errorf("%s %s %q: the strategy has an empty filter", k.Group, name, sub)
				}
				t.filtered = append(t.filtered, e)
			case resetter:
				row, err := resetsOf(e, st)
				if err != nil {
					return nil, err
				}
				if len(row.fields) > 0 {
					t.resets = append(t.resets, row)
				}
			}
		}
		if k.Replicas != nil {
			row := replicasRow{group: k.Group, kind: name, paths: map[string][]string{}}
			for gv, p := range k.Replicas {
				names, ok := fieldNames(p)
				if !ok {
					return nil, fmt.Errorf("%s %s %s: the replicas path %v is not of field names", k.Group, name, gv, p)
				}
				row.paths[gv] = names
			}
			t.replicas = append(t.replicas, row)
		}
		row, ok, err := generationOf(k)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", k.Group, name, err)
		}
		if ok {
			t.generations = append(t.generations, row)
		}
	}
	slices.SortFunc(t.resets, func(a, b resetRow) int { return a.compare(b.endpoint) })
	slices.SortFunc(t.filtered, endpoint.compare)
	slices.SortFunc(t.replicas, func(a, b replicasRow) int {
		return endpoint{a.group, a.kind, ""}.compare(endpoint{b.group, b.kind, ""})
	})
	slices.SortFunc(t.generations, func(a, b generationRow) int {
		return endpoint{a.group, a.kind, ""}.compare(endpoint{b.group, b.kind, ""})
	})
	for i := 1; i < len(t.resets); i++ {
		if t.resets[i-1].endpoint == t.resets[i].endpoint {
			return nil, fmt.Errorf("%v is listed twice", t.resets[i].endpoint)
		}
	}
	for i := 1; i < len(t.generations); i++ {
		if a, b := t.generations[i-1], t.generations[i]; a.group == b.group && a.kind == b.kind {
			return nil, fmt.Errorf("%s %s is listed twice", a.group, a.kind)
		}
	}
	return t, nil
}

// resetsOf calls a strategy's GetResetFields and turns its sets into
// paths of field names, in the sets' order.
func resetsOf(e endpoint, st resetter) (resetRow, error) {
	row := resetRow{endpoint: e, fields: map[string][][]string{}}
	for v, set := range st.GetResetFields() {
		var paths [][]string
		var bad error
		set.Iterate(func(p smdfieldpath.Path) {
			names, ok := fieldNames(p)
			if !ok && bad == nil {
				bad = fmt.Errorf("%s %s %q %s: the reset path %v is not of field names", e.group, e.kind, e.subresource, v, p)
			}
			paths = append(paths, names)
		})
		if bad != nil {
			return row, bad
		}
		if len(paths) > 0 {
			row.fields[string(v)] = paths
		}
	}
	return row, nil
}

// fieldNames returns the names of a path of field names.
func fieldNames(p smdfieldpath.Path) ([]string, bool) {
	names := make([]string, 0, len(p))
	for _, pe := range p {
		if pe.FieldName == nil {
			return nil, false
		}
		names = append(names, *pe.FieldName)
	}
	return names, true
}

// source writes the tables as the Go file of package builtin.
func (t *tables) source() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by kube/builtin/internal/registrygen from k8s.io/kubernetes@%s pkg/registry; DO NOT EDIT.\n\n", version)
	b.WriteString("package builtin\n\n")
	b.WriteString("// registryResets lists, sorted by group, kind and subresource, the fields\n")
	b.WriteString("// each registry strategy resets, per API version. It is never written.\n")
	b.WriteString("var registryResets = [...]registryReset{\n")
	for _, r := range t.resets {
		fmt.Fprintf(&b, "\t{group: %q, kind: %q, subresource: %q, fields: []registryFields{\n", r.group, r.kind, r.subresource)
		for _, v := range sortedKeys(r.fields) {
			fmt.Fprintf(&b, "\t\t{apiVersion: %q, paths: [][]string%s},\n", v, pathsLit(r.fields[v]))
		}
		b.WriteString("\t}},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("// registryReplicas lists, sorted by group and kind, where the replicas of\n")
	b.WriteString("// each kind with a scale subresource are, per API version. It is never\n")
	b.WriteString("// written.\n")
	b.WriteString("var registryReplicas = [...]registryReplicasPaths{\n")
	for _, r := range t.replicas {
		fmt.Fprintf(&b, "\t{group: %q, kind: %q, paths: []registryPath{\n", r.group, r.kind)
		for _, v := range sortedKeys(r.paths) {
			fmt.Fprintf(&b, "\t\t{apiVersion: %q, path: []string%s},\n", v, stringsLit(r.paths[v]))
		}
		b.WriteString("\t}},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("// registryFiltered lists the subresources whose strategies keep only the\n")
	b.WriteString("// fields a filter allows (a filter of allowed fields, not a set of reset fields):\n")
	b.WriteString("// ResetFields gives nothing for them. It is never written.\n")
	b.WriteString("var registryFiltered = [...]registryEndpoint{\n")
	for _, r := range t.filtered {
		fmt.Fprintf(&b, "\t{group: %q, kind: %q, subresource: %q},\n", r.group, r.kind, r.subresource)
	}
	b.WriteString("}\n\n")
	b.WriteString("// registryGenerations lists, sorted by group and kind, how the main\n")
	b.WriteString("// strategy of each kind moves metadata.generation: set to 1 on create,\n")
	b.WriteString("// and one more on an update that changes one of the compared fields (an\n")
	b.WriteString("// empty path: anything but the metadata). It is never written.\n")
	b.WriteString("var registryGenerations = [...]registryGeneration{\n")
	for _, r := range t.generations {
		fmt.Fprintf(&b, "\t{group: %q, kind: %q, onCreate: %v, compared: [][]string%s},\n", r.group, r.kind, r.onCreate, pathsLit(r.compared))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// pathsLit is the body of a [][]string literal of paths.
func pathsLit(paths [][]string) string {
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = stringsLit(p)
	}
	return "{" + strings.Join(q, ", ") + "}"
}

// stringsLit is the body of a []string literal.
func stringsLit(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return "{" + strings.Join(q, ", ") + "}"
}
