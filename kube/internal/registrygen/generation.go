package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// generationRow is how the main strategy of one kind moves
// metadata.generation: PrepareForCreate sets it to 1 (onCreate), and
// PrepareForUpdate adds 1 when one of the compared fields changed. A
// compared path is of JSON field names from the object's root; an empty
// path stands for the whole object but its metadata (a strategy that
// compares copies whose ObjectMeta it cleared).
type generationRow struct {
	group, kind string
	onCreate    bool
	compared    [][]string
	from        string
}

// readGenerations reads, for every strategy package under pkg/registry
// whose storage names its kind, what the main strategy's PrepareForCreate
// and PrepareForUpdate do to the generation. The shapes it knows:
//
//   - in PrepareForCreate (or a function of the package it calls), an
//     assignment X.Generation = 1;
//   - in PrepareForUpdate (or a function of the package it calls), an if
//     statement whose body assigns X.Generation = Y.Generation + 1 (or
//     X.Generation++) and whose condition is a disjunction of
//     !equality.Semantic.DeepEqual(a, b) or !reflect.DeepEqual(a, b), a
//     and b selectors of the new and the old object (or of a copy of
//     their ObjectMeta), inside if statements on feature gates that are
//     evaluated at their defaults.
//
// Any other statement that assigns a Generation is an error.
func readGenerations(src string, gates map[string]bool) ([]generationRow, error) {
	root := filepath.Join(src, "pkg", "registry")
	dirs, err := registryDirs(root, func(b []byte) bool {
		return bytes.Contains(b, []byte("PrepareForCreate")) && bytes.Contains(b, []byte("Generation"))
	})
	if err != nil {
		return nil, err
	}
	var rows []generationRow
	for _, rel := range dirs {
		if _, ok := skipped[rel]; ok || strings.HasSuffix(rel, "/storage") {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, rel, "storage")); err != nil {
			// A strategy without a storage of its own package serves no
			// kind by itself.
			fmt.Fprintf(os.Stderr, "registrygen: %s: no storage package: no generation row\n", rel)
			continue
		}
		row, ok, err := readGeneration(src, root, rel, gates)
		if err != nil {
			return nil, err
		}
		if ok {
			rows = append(rows, row)
		}
	}
	slices.SortFunc(rows, func(a, b generationRow) int {
		return strings.Compare(a.group+"\x00"+a.kind, b.group+"\x00"+b.kind)
	})
	for i := 1; i < len(rows); i++ {
		if rows[i-1].group == rows[i].group && rows[i-1].kind == rows[i].kind {
			return nil, fmt.Errorf("%s and %s both move the generation of %s %s", rows[i-1].from, rows[i].from, rows[i].group, rows[i].kind)
		}
	}
	return rows, nil
}

func readGeneration(src, root, rel string, gates map[string]bool) (generationRow, bool, error) {
	p, err := parseDir(root, rel)
	if err != nil {
		return generationRow{}, false, err
	}
	st, err := parseDir(root, rel+"/storage")
	if err != nil {
		return generationRow{}, false, err
	}
	kind, kindPkg, err := newFuncKind(st)
	if err != nil {
		return generationRow{}, false, err
	}
	group, err := groupOf(src, kindPkg)
	if err != nil {
		return generationRow{}, false, fmt.Errorf("%s: %w", rel, err)
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, f := range p.files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				funcs[fd.Name.Name] = fd
			}
		}
	}
	row := generationRow{group: group, kind: kind, from: rel}
	found := false
	for recv, fd := range p.methods("PrepareForCreate") {
		if sub, _, err := endpointOf(recv); err != nil || sub != "" {
			continue
		}
		w := &genWalker{p: p, funcs: funcs, gates: gates, seen: map[string]bool{}}
		if err := w.stmts(fd.Body.List, true, false); err != nil {
			return row, false, err
		}
		if len(w.compared) > 0 {
			return row, false, fmt.Errorf("%s: PrepareForCreate of %s bumps the generation", p.pos(fd), recv)
		}
		row.onCreate = row.onCreate || w.set
		found = found || w.set
	}
	for recv, fd := range p.methods("PrepareForUpdate") {
		if sub, _, err := endpointOf(recv); err != nil || sub != "" {
			continue
		}
		w := &genWalker{p: p, funcs: funcs, gates: gates, seen: map[string]bool{}}
		if err := w.stmts(fd.Body.List, true, true); err != nil {
			return row, false, err
		}
		if w.set {
			return row, false, fmt.Errorf("%s: PrepareForUpdate of %s sets the generation to 1", p.pos(fd), recv)
		}
		for _, c := range w.compared {
			if !slices.ContainsFunc(row.compared, func(x []string) bool { return slices.Equal(x, c) }) {
				row.compared = append(row.compared, c)
			}
		}
		found = found || len(w.compared) > 0
	}
	return row, found, nil
}

// genWalker reads the statements of a strategy method and of the
// package's functions it calls.
type genWalker struct {
	p        *pkgFiles
	funcs    map[string]*ast.FuncDecl
	gates    map[string]bool
	seen     map[string]bool
	set      bool       // an assignment Generation = 1
	compared [][]string // the paths whose change bumps it
	// metaCopies maps a variable to the selector path it copies
	// (ogNewMeta := newEPS.ObjectMeta).
	metaCopies map[string][]string
	// cleared holds the objects whose ObjectMeta is cleared before a
	// comparison.
	cleared map[string]bool
}

func (w *genWalker) stmts(list []ast.Stmt, enabled, update bool) error {
	for _, s := range list {
		if err := w.stmt(s, enabled, update); err != nil {
			return err
		}
	}
	return nil
}

func (w *genWalker) stmt(s ast.Stmt, enabled, update bool) error {
	switch s := s.(type) {
	case *ast.IfStmt:
		if name, err := gateOf(s.Cond); err == nil {
			on, known := w.gates[name]
			if !known {
				return fmt.Errorf("%s: unknown feature gate %s", w.p.pos(s), name)
			}
			if err := w.stmts(s.Body.List, enabled && on, update); err != nil {
				return err
			}
			if s.Else != nil {
				return w.stmt(s.Else, enabled && !on, update)
			}
			return nil
		}
		if bumpsIn(s.Body.List) {
			if !update {
				return fmt.Errorf("%s: a generation bump outside PrepareForUpdate", w.p.pos(s))
			}
			paths, err := w.condition(s.Cond)
			if err != nil {
				return fmt.Errorf("%s: %w", w.p.pos(s), err)
			}
			if enabled {
				w.compared = append(w.compared, paths...)
			}
		}
		for _, b := range s.Body.List {
			if isBump(b) {
				continue
			}
			if err := w.stmt(b, enabled, update); err != nil {
				return err
			}
		}
		if s.Else != nil {
			return w.stmt(s.Else, enabled, update)
		}
	case *ast.BlockStmt:
		return w.stmts(s.List, enabled, update)
	case *ast.AssignStmt:
		if len(s.Lhs) == 1 && len(s.Rhs) == 1 {
			if isGeneration(s.Lhs[0]) {
				if lit, ok := s.Rhs[0].(*ast.BasicLit); ok && lit.Kind == token.INT && lit.Value == "1" {
					if enabled {
						w.set = true
					}
					return nil
				}
				if isBump(s) {
					return fmt.Errorf("%s: a generation bump outside an if statement", w.p.pos(s))
				}
				// Generation = old.Generation (keeping the old value) and
				// the like change nothing the registry moves.
				return nil
			}
			if id, ok := s.Lhs[0].(*ast.Ident); ok && s.Tok == token.DEFINE {
				if path, root, ok := selectorPath(s.Rhs[0]); ok && len(path) == 1 && path[0] == "ObjectMeta" {
					if w.metaCopies == nil {
						w.metaCopies = map[string][]string{}
					}
					w.metaCopies[id.Name] = append([]string{root}, path...)
				}
			}
			if path, root, ok := selectorPath(s.Lhs[0]); ok && len(path) == 1 && path[0] == "ObjectMeta" {
				if cl, ok := s.Rhs[0].(*ast.CompositeLit); ok && len(cl.Elts) == 0 {
					if w.cleared == nil {
						w.cleared = map[string]bool{}
					}
					w.cleared[root] = true
				}
			}
		}
	case *ast.IncDecStmt:
		if isGeneration(s.X) {
			return fmt.Errorf("%s: a generation bump outside an if statement", w.p.pos(s))
		}
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok {
				if fd, ok := w.funcs[id.Name]; ok && !w.seen[id.Name] {
					w.seen[id.Name] = true
					return w.stmts(fd.Body.List, enabled, update)
				}
			}
		}
	}
	return nil
}

// condition reads a disjunction of negated DeepEqual calls and returns the
// compared paths, as JSON field names.
func (w *genWalker) condition(e ast.Expr) ([][]string, error) {
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LOR {
		l, err := w.condition(b.X)
		if err != nil {
			return nil, err
		}
		r, err := w.condition(b.Y)
		if err != nil {
			return nil, err
		}
		return append(l, r...), nil
	}
	if p, ok := e.(*ast.ParenExpr); ok {
		return w.condition(p.X)
	}
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.NOT {
		return nil, errors.New("the condition of a generation bump is not a disjunction of !DeepEqual(...)")
	}
	call, ok := u.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return nil, errors.New("the condition of a generation bump is not !DeepEqual(a, b)")
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "DeepEqual" {
		return nil, errors.New("the condition of a generation bump calls something else than DeepEqual")
	}
	var paths [][]string
	for _, a := range call.Args {
		path, root, ok := selectorPath(a)
		if !ok {
			return nil, errors.New("DeepEqual of something else than a field of an object")
		}
		if c, ok := w.metaCopies[root]; ok {
			path = append(slices.Clone(c[1:]), path...)
		} else if len(path) == 0 && !w.cleared[root] {
			return nil, fmt.Errorf("DeepEqual of the whole object %s, whose ObjectMeta is not cleared", root)
		}
		paths = append(paths, jsonPath(path))
	}
	if !slices.Equal(paths[0], paths[1]) {
		return nil, fmt.Errorf("DeepEqual of different fields %v and %v", paths[0], paths[1])
	}
	return paths[:1], nil
}

// selectorPath returns the field names of a.B.C (B, C) and its root (a).
func selectorPath(e ast.Expr) (path []string, root string, ok bool) {
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			path = append([]string{x.Sel.Name}, path...)
			e = x.X
		case *ast.Ident:
			return path, x.Name, true
		default:
			return nil, "", false
		}
	}
}

// jsonPath maps the Go field names of an internal object to the JSON
// names of its versions: ObjectMeta is metadata, and a field of
// ObjectMeta promoted to the object is under metadata; other names are
// lower camel case (internal types have no JSON tags; the versioned
// types name these fields so).
func jsonPath(path []string) []string {
	objectMeta := []string{"Labels", "Annotations", "Finalizers", "OwnerReferences", "Name", "Namespace", "GenerateName"}
	out := []string{}
	for i, n := range path {
		switch {
		case n == "ObjectMeta":
			out = append(out, "metadata")
		case i == 0 && slices.Contains(objectMeta, n):
			out = append(out, "metadata", lowerCamel(n))
		default:
			out = append(out, lowerCamel(n))
		}
	}
	return out
}

func lowerCamel(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func isGeneration(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Generation"
}

// isBump reports whether s is X.Generation = Y.Generation + 1 or
// X.Generation++.
func isBump(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.IncDecStmt:
		return isGeneration(s.X) && s.Tok == token.INC
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || !isGeneration(s.Lhs[0]) {
			return false
		}
		b, ok := s.Rhs[0].(*ast.BinaryExpr)
		if !ok || b.Op != token.ADD || !isGeneration(b.X) {
			return false
		}
		lit, ok := b.Y.(*ast.BasicLit)
		return ok && lit.Value == "1"
	}
	return false
}

func bumpsIn(list []ast.Stmt) bool {
	return slices.ContainsFunc(list, isBump)
}
