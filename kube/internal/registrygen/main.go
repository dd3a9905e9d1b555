// Command registrygen writes kube/registry_generated.go: what the registry
// of Kubernetes tells its field manager, read from the source of module
// k8s.io/kubernetes (downloaded with `go mod download -json`):
//
//   - for each built-in kind, the fields that the storage strategy of the
//     main resource and of each subresource resets, from the strategies'
//     GetResetFields methods under pkg/registry;
//   - for each kind with a scale subresource, where its replicas are, from
//     the ResourcePathMappings variables of the storages;
//   - for each kind whose main strategy moves metadata.generation, whether
//     PrepareForCreate sets it and which fields PrepareForUpdate compares
//     before adding 1 (generation.go).
//
// It reads the Go source with go/parser and evaluates only the shapes of
// code it knows: a map literal of API versions to fieldpath.NewSet of
// fieldpath.MakePathOrDie with string literals, returned directly or through
// a variable, optionally followed by Insert calls guarded by a feature gate
// (whose default at the Kubernetes version is read from pkg/features). Any
// other shape is an error, never skipped; the few methods it does not turn
// into table rows are listed in skipped with the reason.
//
// How a strategy is tied to a kind and an endpoint: the kind is the type
// that the package's storage NewFunc returns (storage/storage.go), and the
// endpoint is the strategy type's role in its name ("...StatusStrategy" is
// the status subresource, "...ApprovalStrategy" approval, "...Finalize..."
// finalize, a plain "...Strategy" the main resource); the storage package
// must have the matching REST type (StatusREST, ApprovalREST, FinalizeREST)
// with a GetResetFields method, or a store with a ResetFieldsStrategy for
// the main resource, or the generator fails. The kind's group is the
// GroupName of the internal API package that defines its type (a strategy
// may list versions of other groups too: Ingress still names
// extensions/v1beta1, which Kubernetes no longer serves).
//
// It is run by `go generate` in package kube; scripts/check-generated.sh
// checks that running it again changes nothing.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/internal/modsrc"
)

// module and version read; keep version in step with
// builtin.KubernetesVersion.
const (
	module  = "k8s.io/kubernetes"
	version = "v1.37.2"
	// minor is the Kubernetes minor release whose feature gate defaults
	// apply.
	minor = "1.37"
)

// skipped lists what the generator reads but deliberately does not turn
// into table rows, by package directory under pkg/registry and method
// receiver type. Anything else it cannot read is an error.
var skipped = map[string]string{
	// A test API group of the apiserver library's tests; no API server
	// serves it.
	"testapigroup/carp": "test API group, not served",
}

// filterReason is why GetResetFieldsFilter methods give no rows: they keep
// only the fields a filter matches (pods/resize, pods/ephemeralcontainers),
// which a set of reset fields cannot express. They are listed in the
// generated file's filteredSubresources.
const filterReason = "a filter of allowed fields, not a set of reset fields"

func main() {
	out := flag.String("out", "registry_generated.go", "file to write")
	src := flag.String("src", "", "use this copy of k8s.io/kubernetes instead of downloading it")
	flag.Parse()
	if err := run(*out, *src); err != nil {
		fmt.Fprintln(os.Stderr, "registrygen:", err)
		os.Exit(1)
	}
}

func run(out, src string) error {
	if src == "" {
		dir, err := modsrc.Download(module + "@" + version)
		if err != nil {
			return err
		}
		src = dir
	}
	gates, err := readFeatureGates(filepath.Join(src, "pkg", "features", "kube_features.go"))
	if err != nil {
		return err
	}
	reg, err := readRegistry(src, gates)
	if err != nil {
		return err
	}
	if reg.generations, err = readGenerations(src, gates); err != nil {
		return err
	}
	code, err := source(reg)
	if err != nil {
		return err
	}
	return os.WriteFile(out, code, 0o644)
}

// resetRow is one endpoint's reset fields: per API version, paths of field
// names.
type resetRow struct {
	group, kind, subresource string
	fields                   map[string][][]string
	from                     string // package directory, for messages
}

// replicasRow is one kind's replicas paths per API version.
type replicasRow struct {
	group, kind string
	paths       map[string][]string
}

// filteredRow is an endpoint whose strategy filters rather than resets.
type filteredRow struct {
	group, kind, subresource string
}

type registry struct {
	resets      []resetRow
	replicas    []replicasRow
	filtered    []filteredRow
	generations []generationRow
}

// pkgFiles is one parsed package directory.
type pkgFiles struct {
	dir   string // relative to pkg/registry, slash-separated
	files []*ast.File
	fset  *token.FileSet
}

func parseDir(root, rel string) (*pkgFiles, error) {
	entries, err := os.ReadDir(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	p := &pkgFiles{dir: filepath.ToSlash(rel), fset: token.NewFileSet()}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(p.fset, filepath.Join(root, rel, n), nil, 0)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
	}
	return p, nil
}

func (p *pkgFiles) pos(n ast.Node) string {
	pos := p.fset.Position(n.Pos())
	return fmt.Sprintf("%s/%s:%d", p.dir, filepath.Base(pos.Filename), pos.Line)
}

// methods returns the package's methods named name, by receiver type name.
func (p *pkgFiles) methods(name string) map[string]*ast.FuncDecl {
	out := map[string]*ast.FuncDecl{}
	for _, f := range p.files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != name || len(fd.Recv.List) != 1 {
				continue
			}
			t := fd.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if id, ok := t.(*ast.Ident); ok {
				out[id.Name] = fd
			}
		}
	}
	return out
}

func readRegistry(src string, gates map[string]bool) (*registry, error) {
	root := filepath.Join(src, "pkg", "registry")
	// Every directory under pkg/registry with a strategy method.
	dirs, err := registryDirs(root, func(b []byte) bool {
		return bytes.Contains(b, []byte("GetResetFields")) || bytes.Contains(b, []byte("ResourcePathMappings{"))
	})
	if err != nil {
		return nil, err
	}
	reg := &registry{}
	for _, rel := range dirs {
		if strings.HasSuffix(rel, "/storage") {
			continue // read with the strategy package of its parent
		}
		if why, ok := skipped[rel]; ok {
			fmt.Fprintf(os.Stderr, "registrygen: skipping %s: %s\n", rel, why)
			continue
		}
		if strings.HasSuffix(rel, "/rest") {
			// The API groups' storage providers name the methods only to
			// wire storages; they define none.
			p, err := parseDir(root, rel)
			if err != nil {
				return nil, err
			}
			if len(p.methods("GetResetFields"))+len(p.methods("GetResetFieldsFilter")) > 0 {
				return nil, fmt.Errorf("%s defines a GetResetFields method: unknown layout", rel)
			}
			continue
		}
		if err := readKind(src, root, rel, gates, reg); err != nil {
			return nil, err
		}
	}
	// Storage directories with replicas mappings whose parent had no
	// strategy with reset fields would be missed above: read them all.
	for _, rel := range dirs {
		if !strings.HasSuffix(rel, "/storage") {
			continue
		}
		if err := readReplicas(src, root, rel, reg); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// registryDirs lists, sorted and slash-separated, the directories under
// root with a Go file (not a test) whose text has what has.
func registryDirs(root string, has func([]byte) bool) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if has(b) {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if !slices.Contains(dirs, rel) {
				dirs = append(dirs, rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(dirs)
	return dirs, nil
}

// endpointOf gives the endpoint a strategy type serves, from its name, and
// the REST type of the storage package that must delegate to it.
func endpointOf(typeName string) (subresource, restType string, err error) {
	n := strings.ToLower(typeName)
	if !strings.HasSuffix(n, "strategy") {
		return "", "", fmt.Errorf("receiver %s is not a strategy", typeName)
	}
	n = strings.TrimSuffix(n, "strategy")
	for _, role := range []struct{ suffix, sub, rest string }{
		{"status", "status", "StatusREST"},
		{"approval", "approval", "ApprovalREST"},
		{"finalize", "finalize", "FinalizeREST"},
	} {
		if strings.HasSuffix(n, role.suffix) {
			return role.sub, role.rest, nil
		}
	}
	return "", "", nil
}

func readKind(src, root, rel string, gates map[string]bool, reg *registry) error {
	p, err := parseDir(root, rel)
	if err != nil {
		return err
	}
	st, err := parseDir(root, rel+"/storage")
	if err != nil {
		return fmt.Errorf("%s: its storage: %w", rel, err)
	}
	kind, kindPkg, err := newFuncKind(st)
	if err != nil {
		return err
	}
	group, err := groupOf(src, kindPkg)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	restResets := st.methods("GetResetFields")
	for recv, fd := range p.methods("GetResetFieldsFilter") {
		if !strings.HasPrefix(strings.ToLower(recv), strings.ToLower(kind)) {
			return fmt.Errorf("%s: filter strategy %s is not named after kind %s", p.pos(fd), recv, kind)
		}
		sub := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(recv), strings.ToLower(kind)), "strategy"))
		if sub == "" {
			return fmt.Errorf("%s: filter strategy %s serves no subresource", p.pos(fd), recv)
		}
		fmt.Fprintf(os.Stderr, "registrygen: %s %s/%s: %s\n", rel, kind, sub, filterReason)
		groups, err := filterGroups(p, fd)
		if err != nil {
			return err
		}
		if !slices.Contains(groups, group) {
			return fmt.Errorf("%s: filter of %s lists no version of group %q", p.pos(fd), kind, group)
		}
		reg.filtered = append(reg.filtered, filteredRow{group: group, kind: kind, subresource: sub})
	}
	strategies := p.methods("GetResetFields")
	if len(strategies) == 0 {
		return fmt.Errorf("%s: no GetResetFields method", rel)
	}
	recvs := make([]string, 0, len(strategies))
	for r := range strategies {
		recvs = append(recvs, r)
	}
	slices.Sort(recvs)
	seen := map[string]string{}
	for _, recv := range recvs {
		fd := strategies[recv]
		sub, restType, err := endpointOf(recv)
		if err != nil {
			return fmt.Errorf("%s: %w", p.pos(fd), err)
		}
		if prev, ok := seen[sub]; ok {
			return fmt.Errorf("%s: %s and %s both serve subresource %q", rel, prev, recv, sub)
		}
		seen[sub] = recv
		if restType != "" {
			if _, ok := restResets[restType]; !ok {
				return fmt.Errorf("%s: strategy %s has no %s with GetResetFields in its storage", p.pos(fd), recv, restType)
			}
		} else if !hasResetFieldsStrategy(st) {
			return fmt.Errorf("%s: the storage of %s sets no ResetFieldsStrategy", rel, kind)
		}
		fields, err := evalResetFields(p, fd, gates)
		if err != nil {
			return err
		}
		ok := false
		for v := range fields {
			g, _, cut := strings.Cut(v, "/")
			if !cut {
				g = ""
			}
			ok = ok || g == group
		}
		if !ok {
			return fmt.Errorf("%s: %s of %s lists no version of group %q", p.pos(fd), recv, kind, group)
		}
		reg.resets = append(reg.resets, resetRow{group: group, kind: kind, subresource: sub, fields: fields, from: rel})
	}
	// Every REST type of the storage that serves reset fields has its
	// strategy.
	for restType := range restResets {
		sub := ""
		switch restType {
		case "REST":
		case "StatusREST":
			sub = "status"
		case "ApprovalREST":
			sub = "approval"
		case "FinalizeREST":
			sub = "finalize"
		default:
			return fmt.Errorf("%s/storage: unknown REST type %s with GetResetFields", rel, restType)
		}
		if _, ok := seen[sub]; !ok {
			return fmt.Errorf("%s/storage: %s has GetResetFields but no strategy of the package serves %q", rel, restType, sub)
		}
	}
	return nil
}

// newFuncKind returns the kind that the storage's NewFunc fields return
// (&pkg.Kind{}), which must all agree, and the import path of the package
// that defines it.
func newFuncKind(st *pkgFiles) (kind, pkgPath string, err error) {
	for _, f := range st.files {
		imports := map[string]string{}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			name := path[strings.LastIndexByte(path, '/')+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = path
		}
		ast.Inspect(f, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok || err != nil {
				return err == nil
			}
			if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != "NewFunc" {
				return true
			}
			q, k, e := returnedType(kv.Value)
			if e != nil {
				err = fmt.Errorf("%s: NewFunc: %w", st.pos(kv), e)
				return false
			}
			path, ok := imports[q]
			if !ok {
				err = fmt.Errorf("%s: NewFunc: package %s is not imported", st.pos(kv), q)
				return false
			}
			if kind != "" && (kind != k || pkgPath != path) {
				err = fmt.Errorf("%s: NewFunc returns %s.%s and %s.%s", st.pos(kv), pkgPath, kind, path, k)
				return false
			}
			kind, pkgPath = k, path
			return true
		})
		if err != nil {
			return "", "", err
		}
	}
	if kind == "" {
		return "", "", fmt.Errorf("%s: no NewFunc", st.dir)
	}
	return kind, pkgPath, nil
}

// groupOf reads the GroupName constant of an internal API package
// (k8s.io/kubernetes/pkg/apis/NAME) from its register.go.
func groupOf(src, pkgPath string) (string, error) {
	rel, ok := strings.CutPrefix(pkgPath, module+"/pkg/apis/")
	if !ok {
		return "", fmt.Errorf("kind of package %s, not of %s/pkg/apis", pkgPath, module)
	}
	file := filepath.Join(src, "pkg", "apis", filepath.FromSlash(rel), "register.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if n.Name == "GroupName" && i < len(vs.Values) {
					return stringLit(vs.Values[i])
				}
			}
		}
	}
	return "", fmt.Errorf("%s: no GroupName constant", file)
}

// returnedType reads func() runtime.Object { return &pkg.Kind{} }.
func returnedType(e ast.Expr) (pkg, kind string, err error) {
	fl, ok := e.(*ast.FuncLit)
	if !ok || len(fl.Body.List) != 1 {
		return "", "", errors.New("not a one-statement function literal")
	}
	ret, ok := fl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return "", "", errors.New("not a return of one value")
	}
	u, ok := ret.Results[0].(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return "", "", errors.New("not &T{}")
	}
	cl, ok := u.X.(*ast.CompositeLit)
	if !ok || len(cl.Elts) != 0 {
		return "", "", errors.New("not &T{}")
	}
	if t, ok := cl.Type.(*ast.SelectorExpr); ok {
		if q, ok := t.X.(*ast.Ident); ok {
			return q.Name, t.Sel.Name, nil
		}
	}
	return "", "", errors.New("not &T{} of a named type")
}

func hasResetFieldsStrategy(st *pkgFiles) bool {
	found := false
	for _, f := range st.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "ResetFieldsStrategy" {
					found = true
				}
			case *ast.SelectorExpr:
				if n.Sel.Name == "ResetFieldsStrategy" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// filterGroups reads the API versions of a GetResetFieldsFilter map
// literal and returns their groups.
func filterGroups(p *pkgFiles, fd *ast.FuncDecl) ([]string, error) {
	if len(fd.Body.List) != 1 {
		return nil, fmt.Errorf("%s: GetResetFieldsFilter: unknown shape", p.pos(fd))
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, fmt.Errorf("%s: GetResetFieldsFilter: unknown shape", p.pos(fd))
	}
	cl, ok := ret.Results[0].(*ast.CompositeLit)
	if !ok {
		return nil, fmt.Errorf("%s: GetResetFieldsFilter: not a map literal", p.pos(fd))
	}
	var groups []string
	for _, e := range cl.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil, fmt.Errorf("%s: GetResetFieldsFilter: not a map literal", p.pos(e))
		}
		v, err := stringValue(kv.Key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.pos(kv), err)
		}
		g, _, ok := strings.Cut(v, "/")
		if !ok {
			g = ""
		}
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	return groups, nil
}

// evalResetFields evaluates a GetResetFields body of a known shape.
func evalResetFields(p *pkgFiles, fd *ast.FuncDecl, gates map[string]bool) (map[string][][]string, error) {
	fail := func(n ast.Node, format string, args ...any) error {
		return fmt.Errorf("%s: GetResetFields: %s", p.pos(n), fmt.Sprintf(format, args...))
	}
	vars := map[string]map[string][][]string{}
	var eval func(stmts []ast.Stmt) (map[string][][]string, bool, error)
	eval = func(stmts []ast.Stmt) (map[string][][]string, bool, error) {
		for _, s := range stmts {
			switch s := s.(type) {
			case *ast.ReturnStmt:
				if len(s.Results) != 1 {
					return nil, false, fail(s, "return of %d values", len(s.Results))
				}
				switch r := s.Results[0].(type) {
				case *ast.Ident:
					m, ok := vars[r.Name]
					if !ok {
						return nil, false, fail(s, "returns unknown %s", r.Name)
					}
					return m, true, nil
				case *ast.CompositeLit:
					m, err := versionMap(p, r)
					return m, true, err
				default:
					return nil, false, fail(s, "returns a %T", r)
				}
			case *ast.AssignStmt:
				if s.Tok != token.DEFINE || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
					return nil, false, fail(s, "unknown assignment")
				}
				id, ok := s.Lhs[0].(*ast.Ident)
				cl, ok2 := s.Rhs[0].(*ast.CompositeLit)
				if !ok || !ok2 {
					return nil, false, fail(s, "unknown assignment")
				}
				m, err := versionMap(p, cl)
				if err != nil {
					return nil, false, err
				}
				vars[id.Name] = m
			case *ast.IfStmt:
				if s.Init != nil || s.Else != nil {
					return nil, false, fail(s, "if with init or else")
				}
				gate, err := gateOf(s.Cond)
				if err != nil {
					return nil, false, fail(s, "%v", err)
				}
				on, ok := gates[gate]
				if !ok {
					return nil, false, fail(s, "unknown feature gate %s", gate)
				}
				if !on {
					continue
				}
				for _, bs := range s.Body.List {
					if err := evalInsert(p, bs, vars); err != nil {
						return nil, false, err
					}
				}
			default:
				return nil, false, fail(s, "unknown statement %T", s)
			}
		}
		return nil, false, nil
	}
	m, returned, err := eval(fd.Body.List)
	if err != nil {
		return nil, err
	}
	if !returned {
		return nil, fail(fd, "no return")
	}
	return m, nil
}

// gateOf reads utilfeature.DefaultFeatureGate.Enabled(features.Name).
func gateOf(cond ast.Expr) (string, error) {
	call, ok := cond.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", errors.New("condition is not a feature gate check")
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Enabled" {
		return "", errors.New("condition is not a feature gate check")
	}
	recv, ok := sel.X.(*ast.SelectorExpr)
	if !ok || recv.Sel.Name != "DefaultFeatureGate" {
		return "", errors.New("condition is not a check of the default feature gate")
	}
	arg, ok := call.Args[0].(*ast.SelectorExpr)
	if !ok {
		return "", errors.New("feature gate is not features.Name")
	}
	if x, ok := arg.X.(*ast.Ident); !ok || x.Name != "features" {
		return "", errors.New("feature gate is not of package features")
	}
	return arg.Sel.Name, nil
}

// evalInsert reads fields["v"].Insert(fieldpath.MakePathOrDie(...), ...).
func evalInsert(p *pkgFiles, s ast.Stmt, vars map[string]map[string][][]string) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: GetResetFields: %s", p.pos(s), fmt.Sprintf(format, args...))
	}
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return fail("unknown statement %T in a feature gate's branch", s)
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return fail("not a call")
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Insert" {
		return fail("not an Insert")
	}
	ix, ok := sel.X.(*ast.IndexExpr)
	if !ok {
		return fail("Insert not into m[version]")
	}
	id, ok := ix.X.(*ast.Ident)
	if !ok {
		return fail("Insert not into m[version]")
	}
	m, ok := vars[id.Name]
	if !ok {
		return fail("Insert into unknown %s", id.Name)
	}
	v, err := stringValue(ix.Index)
	if err != nil {
		return fail("%v", err)
	}
	if _, ok := m[v]; !ok {
		return fail("Insert into version %s the map does not have", v)
	}
	for _, a := range call.Args {
		path, err := makePath(a)
		if err != nil {
			return fail("%v", err)
		}
		m[v] = append(m[v], path)
	}
	return nil
}

// versionMap reads map[fieldpath.APIVersion]*fieldpath.Set{"v":
// fieldpath.NewSet(fieldpath.MakePathOrDie(...), ...), ...}.
func versionMap(p *pkgFiles, cl *ast.CompositeLit) (map[string][][]string, error) {
	mt, ok := cl.Type.(*ast.MapType)
	if !ok {
		return nil, fmt.Errorf("%s: not a map literal", p.pos(cl))
	}
	if k, ok := mt.Key.(*ast.SelectorExpr); !ok || k.Sel.Name != "APIVersion" {
		return nil, fmt.Errorf("%s: map keys are not fieldpath.APIVersion", p.pos(cl))
	}
	if v, ok := mt.Value.(*ast.StarExpr); !ok {
		return nil, fmt.Errorf("%s: map values are not *fieldpath.Set", p.pos(cl))
	} else if s, ok := v.X.(*ast.SelectorExpr); !ok || s.Sel.Name != "Set" {
		return nil, fmt.Errorf("%s: map values are not *fieldpath.Set", p.pos(cl))
	}
	out := map[string][][]string{}
	for _, e := range cl.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil, fmt.Errorf("%s: not a key: value", p.pos(e))
		}
		v, err := stringValue(kv.Key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.pos(kv), err)
		}
		if _, dup := out[v]; dup {
			return nil, fmt.Errorf("%s: version %s twice", p.pos(kv), v)
		}
		call, ok := kv.Value.(*ast.CallExpr)
		if !ok || !isSelector(call.Fun, "fieldpath", "NewSet") {
			return nil, fmt.Errorf("%s: value is not fieldpath.NewSet(...)", p.pos(kv))
		}
		paths := [][]string{}
		for _, a := range call.Args {
			path, err := makePath(a)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.pos(a), err)
			}
			paths = append(paths, path)
		}
		out[v] = paths
	}
	return out, nil
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// makePath reads fieldpath.MakePathOrDie("a", "b") with string literals.
func makePath(e ast.Expr) ([]string, error) {
	call, ok := e.(*ast.CallExpr)
	if !ok || !isSelector(call.Fun, "fieldpath", "MakePathOrDie") {
		return nil, errors.New("not fieldpath.MakePathOrDie(...)")
	}
	if len(call.Args) == 0 {
		return nil, errors.New("an empty path")
	}
	var out []string
	for _, a := range call.Args {
		s, err := stringLit(a)
		if err != nil {
			return nil, fmt.Errorf("path element: %w", err)
		}
		out = append(out, s)
	}
	return out, nil
}

func stringLit(e ast.Expr) (string, error) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", fmt.Errorf("not a string literal: %T", e)
	}
	return strconv.Unquote(lit.Value)
}

// stringValue reads a string literal or
// schema.GroupVersion{Group: "g", Version: "v"}.String().
func stringValue(e ast.Expr) (string, error) {
	if s, err := stringLit(e); err == nil {
		return s, nil
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return "", fmt.Errorf("not a string literal or GroupVersion.String(): %T", e)
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "String" {
		return "", errors.New("not a GroupVersion.String()")
	}
	cl, ok := sel.X.(*ast.CompositeLit)
	if !ok || !isSelector(cl.Type, "schema", "GroupVersion") {
		return "", errors.New("not a schema.GroupVersion{...}.String()")
	}
	var g, v string
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return "", errors.New("GroupVersion literal without field names")
		}
		k, _ := kv.Key.(*ast.Ident)
		s, err := stringLit(kv.Value)
		if err != nil || k == nil {
			return "", errors.New("GroupVersion field is not a string literal")
		}
		switch k.Name {
		case "Group":
			g = s
		case "Version":
			v = s
		default:
			return "", fmt.Errorf("GroupVersion field %s", k.Name)
		}
	}
	if v == "" {
		return "", errors.New("GroupVersion without a version")
	}
	if g == "" {
		return v, nil
	}
	return g + "/" + v, nil
}

// readReplicas reads the package-level ResourcePathMappings variables of
// a storage package.
func readReplicas(src, root, rel string, reg *registry) error {
	st, err := parseDir(root, rel)
	if err != nil {
		return err
	}
	for _, f := range st.files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, val := range vs.Values {
					cl, ok := val.(*ast.CompositeLit)
					if !ok || !isSelector(cl.Type, "managedfields", "ResourcePathMappings") {
						continue
					}
					kind, kindPkg, err := newFuncKind(st)
					if err != nil {
						return err
					}
					kindGroup, err := groupOf(src, kindPkg)
					if err != nil {
						return fmt.Errorf("%s: %w", rel, err)
					}
					row := replicasRow{kind: kind, paths: map[string][]string{}}
					group := "\x00"
					for _, e := range cl.Elts {
						kv, ok := e.(*ast.KeyValueExpr)
						if !ok {
							return fmt.Errorf("%s: not a key: value", st.pos(e))
						}
						gv, err := stringValue(kv.Key)
						if err != nil {
							return fmt.Errorf("%s: %w", st.pos(kv), err)
						}
						path, err := makePath(kv.Value)
						if err != nil {
							return fmt.Errorf("%s: %w", st.pos(kv), err)
						}
						g, _, ok := strings.Cut(gv, "/")
						if !ok {
							g = ""
						}
						if group != "\x00" && g != group {
							return fmt.Errorf("%s: replicas paths of groups %q and %q", st.pos(kv), group, g)
						}
						group = g
						row.paths[gv] = path
					}
					if group == "\x00" {
						return fmt.Errorf("%s: empty ResourcePathMappings", st.pos(cl))
					}
					if group != kindGroup {
						return fmt.Errorf("%s: replicas paths of group %q for %s of group %q", st.pos(cl), group, kind, kindGroup)
					}
					row.group = group
					reg.replicas = append(reg.replicas, row)
				}
			}
		}
	}
	return nil
}

// readFeatureGates reads the versioned defaults of the Kubernetes feature
// gates (Name: {{Version: version.MustParse("1.x"), Default: b, ...}, ...})
// and returns each gate's default at minor.
func readFeatureGates(file string) (map[string]bool, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		return nil, err
	}
	gates := map[string]bool{}
	var bad error
	ast.Inspect(f, func(n ast.Node) bool {
		if bad != nil {
			return false
		}
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		name, ok := kv.Key.(*ast.Ident)
		specs, ok2 := kv.Value.(*ast.CompositeLit)
		if !ok || !ok2 || specs.Type != nil || len(specs.Elts) == 0 {
			return true
		}
		best, found := "", false
		on := false
		for _, e := range specs.Elts {
			spec, ok := e.(*ast.CompositeLit)
			if !ok {
				return true
			}
			var ver string
			var def *bool
			for _, fe := range spec.Elts {
				fkv, ok := fe.(*ast.KeyValueExpr)
				if !ok {
					return true
				}
				k, _ := fkv.Key.(*ast.Ident)
				if k == nil {
					return true
				}
				switch k.Name {
				case "Version":
					c, ok := fkv.Value.(*ast.CallExpr)
					if !ok || !isSelector(c.Fun, "version", "MustParse") || len(c.Args) != 1 {
						bad = fmt.Errorf("%s: gate %s: unknown version", fset.Position(fkv.Pos()), name.Name)
						return false
					}
					s, err := stringLit(c.Args[0])
					if err != nil {
						bad = err
						return false
					}
					ver = s
				case "Default":
					id, ok := fkv.Value.(*ast.Ident)
					if !ok || (id.Name != "true" && id.Name != "false") {
						bad = fmt.Errorf("%s: gate %s: unknown default", fset.Position(fkv.Pos()), name.Name)
						return false
					}
					b := id.Name == "true"
					def = &b
				}
			}
			if ver == "" || def == nil {
				return true
			}
			if compareMinor(ver, minor) <= 0 && (!found || compareMinor(ver, best) >= 0) {
				best, found, on = ver, true, *def
			}
		}
		if found {
			gates[name.Name] = on
		}
		return false
	})
	if bad != nil {
		return nil, bad
	}
	if len(gates) == 0 {
		return nil, fmt.Errorf("%s: no feature gates read", file)
	}
	return gates, nil
}

// compareMinor compares "1.x" versions numerically.
func compareMinor(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func source(reg *registry) ([]byte, error) {
	slices.SortFunc(reg.resets, func(a, b resetRow) int {
		return strings.Compare(a.group+"\x00"+a.kind+"\x00"+a.subresource, b.group+"\x00"+b.kind+"\x00"+b.subresource)
	})
	for i := 1; i < len(reg.resets); i++ {
		a, b := reg.resets[i-1], reg.resets[i]
		if a.group == b.group && a.kind == b.kind && a.subresource == b.subresource {
			return nil, fmt.Errorf("%s and %s both give %s %s %q", a.from, b.from, a.group, a.kind, a.subresource)
		}
	}
	slices.SortFunc(reg.replicas, func(a, b replicasRow) int {
		return strings.Compare(a.group+"\x00"+a.kind, b.group+"\x00"+b.kind)
	})
	slices.SortFunc(reg.filtered, func(a, b filteredRow) int {
		return strings.Compare(a.group+"\x00"+a.kind+"\x00"+a.subresource, b.group+"\x00"+b.kind+"\x00"+b.subresource)
	})
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by kube/internal/registrygen from %s@%s pkg/registry; DO NOT EDIT.\n\n", module, version)
	b.WriteString("package kube\n\n")
	b.WriteString("// registryResets lists, sorted by group, kind and subresource, the fields\n")
	b.WriteString("// each registry strategy resets, per API version. It is never written.\n")
	b.WriteString("var registryResets = [...]registryReset{\n")
	for _, r := range reg.resets {
		fmt.Fprintf(&b, "\t{group: %q, kind: %q, subresource: %q, fields: []registryFields{\n", r.group, r.kind, r.subresource)
		versions := make([]string, 0, len(r.fields))
		for v := range r.fields {
			versions = append(versions, v)
		}
		slices.Sort(versions)
		for _, v := range versions {
			fmt.Fprintf(&b, "\t\t{apiVersion: %q, paths: [][]string%s},\n", v, pathsLit(r.fields[v]))
		}
		b.WriteString("\t}},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("// registryReplicas lists, sorted by group and kind, where the replicas of\n")
	b.WriteString("// each kind with a scale subresource are, per API version. It is never\n")
	b.WriteString("// written.\n")
	b.WriteString("var registryReplicas = [...]registryReplicasPaths{\n")
	for _, r := range reg.replicas {
		fmt.Fprintf(&b, "\t{group: %q, kind: %q, paths: []registryPath{\n", r.group, r.kind)
		versions := make([]string, 0, len(r.paths))
		for v := range r.paths {
			versions = append(versions, v)
		}
		slices.Sort(versions)
		for _, v := range versions {
			fmt.Fprintf(&b, "\t\t{apiVersion: %q, path: []string%s},\n", v, stringsLit(r.paths[v]))
		}
		b.WriteString("\t}},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("// registryFiltered lists the subresources whose strategies keep only the\n")
	b.WriteString("// fields a filter allows (" + filterReason + "):\n")
	b.WriteString("// RegistryResetFields gives nothing for them. It is never written.\n")
	b.WriteString("var registryFiltered = [...]registryEndpoint{\n")
	for _, r := range reg.filtered {
		fmt.Fprintf(&b, "\t{group: %q, kind: %q, subresource: %q},\n", r.group, r.kind, r.subresource)
	}
	b.WriteString("}\n\n")
	b.WriteString("// registryGenerations lists, sorted by group and kind, how the main\n")
	b.WriteString("// strategy of each kind moves metadata.generation: set to 1 on create,\n")
	b.WriteString("// and one more on an update that changes one of the compared fields (an\n")
	b.WriteString("// empty path: anything but the metadata). It is never written.\n")
	b.WriteString("var registryGenerations = [...]registryGeneration{\n")
	for _, r := range reg.generations {
		fmt.Fprintf(&b, "\t{group: %q, kind: %q, onCreate: %v, compared: [][]string%s},\n", r.group, r.kind, r.onCreate, pathsLit(r.compared))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// pathsLit is the body of a [][]string literal of paths.
func pathsLit(paths [][]string) string {
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = stringsLit(p)
	}
	return "{" + strings.Join(q, ", ") + "}"
}

func stringsLit(p []string) string {
	q := make([]string, len(p))
	for i, s := range p {
		q[i] = strconv.Quote(s)
	}
	return "{" + strings.Join(q, ", ") + "}"
}
