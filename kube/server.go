package kube

import (
	"errors"
	"fmt"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/value"
)

// A Defaulter sets the fields an API server sets when it decodes an object
// of a kind it serves: the defaulting functions of the built-in kinds
// (package kube/defaulting has Kubernetes' own), the defaults of a custom
// resource's structural schema. Objects of kinds it does not know come
// back unchanged. Default does not modify obj and must be safe for
// concurrent use.
type Defaulter interface {
	Default(obj value.Value) (value.Value, error)
}

// A Creater is a Defaulter that also knows the empty object an API server
// makes for a kind (its Go type's zero value, before defaulting): what a
// create's field manager compares the new object with. Ownership of a
// create by update then leaves out the fields that the empty object has
// already (the spec mapping of a Deployment, for example), as the API
// server's does. New returns false for a kind it does not know.
type Creater interface {
	Defaulter
	New(gvk GroupVersionKind) (value.Value, bool)
}

// DefaulterFunc is a Defaulter that is a function.
type DefaulterFunc func(obj value.Value) (value.Value, error)

// Default calls f.
func (f DefaulterFunc) Default(obj value.Value) (value.Value, error) { return f(obj) }

// ChainDefaulters returns a Defaulter that runs each of ds in turn (nil
// entries are skipped). It is a Creater too: its New is the first of ds
// that knows the kind.
func ChainDefaulters(ds ...Defaulter) Creater {
	var out defaulterChain
	for _, d := range ds {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

type defaulterChain []Defaulter

func (c defaulterChain) Default(obj value.Value) (value.Value, error) {
	for _, d := range c {
		var err error
		if obj, err = d.Default(obj); err != nil {
			return value.Value{}, err
		}
	}
	return obj, nil
}

func (c defaulterChain) New(gvk GroupVersionKind) (value.Value, bool) {
	for _, d := range c {
		if cr, ok := d.(Creater); ok {
			if v, ok := cr.New(gvk); ok {
				return v, true
			}
		}
	}
	return value.Value{}, false
}

// A Server does to a write what a Kubernetes API server's request path
// does around its field manager, so that the object it returns is the one
// the server would store and answer with:
//
//   - the live object is read as the storage reads it: defaulted;
//   - an update's (or create's) object is decoded as the server decodes a
//     request body: defaulted, before the field manager compares it with
//     the live object, so its manager owns the defaults that changed;
//   - an apply's configuration is merged as it is, and the merged object
//     is defaulted after the field manager, so nobody owns a default it did
//     not apply;
//   - the storage strategy keeps the live values of the fields the kind
//     resets on the subresource written (a create has none: it drops them,
//     as most strategies drop the status of a new object);
//   - metadata.generation moves as the kind's registry moves it
//     (WithGeneration; builtin.Generation by default);
//   - with WithStrategy, the kind's registry strategy runs between the
//     field manager and the storage (package kube/registry has
//     Kubernetes' own): what a create drops and computes, what an update
//     keeps, the generation and the kind's validation; the two points
//     above then apply only to the kinds it does not know;
//   - an apply through the scale subresource of a custom resource that
//     changes it fails, as on Kubernetes 1.37, whose field manager cannot
//     convert the Scale of a custom resource (an update or a patch of it
//     works; an apply that changes nothing does too);
//   - a create by update compares the new object with the kind's empty
//     object when the Defaulter is a Creater, as the server's create
//     does, and may not carry a resourceVersion.
//
// The FieldManager alone does none of this: it is for callers that default
// on their own, such as an API server. A Server is immutable and safe for
// concurrent use when its FieldManager and Defaulter are.
type Server struct {
	fm       *FieldManager
	def      Defaulter
	gen      GenerationFunc
	strategy Strategy
}

// A Strategy does what a kind's registry strategy does to an object
// between the field manager and the storage: what PrepareForCreate and
// PrepareForUpdate clear, keep or compute (status dropped on create, the
// live values of the fields a subresource may not change, the generation,
// a new Pod's phase), and the kind's validation, whose refusal is the
// write's error. live is null for a create. obj is the field manager's
// result as it comes (the strategy decodes and defaults it as the server
// decodes it into its Go type: an empty list stays one); live is
// defaulted; subresource is the endpoint written ("" for the main
// resource).
//
// Prepare returns false, with obj unchanged, for a kind or subresource it
// does not know; the Server then does what its reset fields and
// generation rules say. Package kube/registry has the strategies of
// Kubernetes' built-in kinds. Prepare must not modify its arguments and
// must be safe for concurrent use.
type Strategy interface {
	Prepare(obj, live value.Value, subresource string) (value.Value, bool, error)
}

// A BodyDecoder is a Strategy that also decodes the body of an update (or
// create) as the server's handler decodes it for the endpoint of kind
// endpoint, before anything else, and refuses what the server refuses in
// its words: a body of another kind, a value the kind's Go type cannot
// hold. It returns nil for a kind it does not know.
type BodyDecoder interface {
	Strategy
	DecodeBody(body value.Value, endpoint GroupVersionKind) error
}

// WithStrategy sets the registry strategies the Server runs before it
// stores an object (none by default).
func WithStrategy(st Strategy) ServerOption {
	return func(s *Server) { s.strategy = st }
}

// ServerOption configures a Server.
type ServerOption func(*Server)

// WithGeneration sets how the registry moves metadata.generation, per
// kind (the default is builtin.Generation, the built-in kinds'; nil
// leaves the generation to the field manager's result).
func WithGeneration(f GenerationFunc) ServerOption {
	return func(s *Server) { s.gen = f }
}

// NewServer returns a Server that writes with fm and defaults with d (nil
// defaults nothing).
func NewServer(fm *FieldManager, d Defaulter, opts ...ServerOption) (*Server, error) {
	if fm == nil {
		return nil, errors.New("kube: NewServer given a nil FieldManager")
	}
	s := &Server{fm: fm, def: d, gen: builtin.Generation}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// FieldManager returns the field manager the Server writes with.
func (s *Server) FieldManager() *FieldManager { return s.fm }

// Read returns obj as the server's storage returns it: defaulted. A null
// obj stays null.
func (s *Server) Read(obj value.Value) (value.Value, error) {
	if s.def == nil || obj.IsNull() {
		return obj, nil
	}
	out, err := s.def.Default(obj)
	if err != nil {
		return value.Value{}, fmt.Errorf("defaulting %s: %w", describe(obj), err)
	}
	return out, nil
}

// Apply is a server-side apply of applied to live (null: the object does
// not exist yet) by manager, as FieldManager.Apply with the server's
// defaulting and storage around it.
func (s *Server) Apply(live, applied value.Value, manager string, opts ...RequestOption) (value.Value, error) {
	live, err := s.Read(live)
	if err != nil {
		return value.Value{}, err
	}
	res, err := s.fm.Apply(live, applied, manager, opts...)
	if err != nil {
		return value.Value{}, err
	}
	sub := resolveRequest(opts).subresource
	if sub == ScaleSubresource && !live.IsNull() {
		if _, isBuiltin := builtin.ReplicasPaths(GVKOf(live)); !isBuiltin && !value.Equal(withoutManagedFields(res), withoutManagedFields(live)) {
			return value.Value{}, fmt.Errorf("failed to convert new object (%s/%s; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1",
				metadataString(applied, "namespace"), metadataString(applied, "name"))
		}
	}
	return s.store(res, live, sub)
}

// withoutManagedFields is obj without metadata.managedFields.
func withoutManagedFields(obj value.Value) value.Value {
	md, ok := field(obj, "metadata")
	if !ok || !md.Has("managedFields") {
		return obj
	}
	return withField(obj, "metadata", withoutField(md, "managedFields"))
}

// Update is a create (null live), update or non-apply patch by manager
// whose result is obj, as FieldManager.Update with the server's defaulting
// and storage around it.
func (s *Server) Update(live, obj value.Value, manager string, opts ...RequestOption) (value.Value, error) {
	live, err := s.Read(live)
	if err != nil {
		return value.Value{}, err
	}
	sub := resolveRequest(opts).subresource
	var body value.Value
	if bd, ok := s.strategy.(BodyDecoder); ok && sub != ScaleSubresource {
		endpoint := GVKOf(obj)
		if !live.IsNull() {
			endpoint = GVKOf(live)
		}
		if err := bd.DecodeBody(obj, endpoint); err != nil {
			return value.Value{}, err
		}
	}
	if sub != ScaleSubresource {
		// The request body is decoded at its kind: give it live's kind
		// first, as the field manager would.
		if obj, err = s.fm.defaultKind(live, obj); err != nil {
			return value.Value{}, err
		}
		// The server decodes managedFields into its Go type, where an
		// empty list stays one (it clears them); JSON's omitempty would
		// drop it.
		mf, hasMF := nested(obj, "metadata", "managedFields")
		body = obj
		if obj, err = s.Read(obj); err != nil {
			return value.Value{}, err
		}
		if hasMF {
			obj, _ = withNested(obj, mf, "metadata", "managedFields")
		}
	}
	base := live
	if live.IsNull() {
		if rv := metadataString(obj, "resourceVersion"); rv != "" && rv != "0" {
			return value.Value{}, ErrResourceVersionSetOnCreate
		}
		if c, ok := s.def.(Creater); ok && sub == "" {
			if empty, ok := c.New(GVKOf(obj)); ok {
				base = empty
			}
		}
	}
	res, err := s.fm.Update(base, obj, manager, opts...)
	if err != nil {
		return value.Value{}, err
	}
	if s.strategy != nil && !body.IsNull() {
		// The server's strategy sees the body as decoded, where an
		// empty list stays one; the JSON of defaulting dropped them.
		res = withEmptyLists(res, body)
	}
	return s.store(res, live, sub)
}

// withEmptyLists returns obj with the empty lists of body that obj lacks,
// at the same places: in mappings both have, and in the items of lists of
// the same length in both.
func withEmptyLists(obj, body value.Value) value.Value {
	out, _ := addEmptyLists(obj, body)
	return out
}

// addEmptyLists is withEmptyLists that also reports whether it added any.
func addEmptyLists(obj, body value.Value) (value.Value, bool) {
	changed := false
	switch {
	case obj.Kind() == value.Map && body.Kind() == value.Map:
		for _, f := range own.Value.Fields(body) {
			x, ok := field(obj, f.Name)
			if !ok {
				if f.Value.Kind() == value.List && f.Value.Len() == 0 {
					obj, changed = withField(obj, f.Name, f.Value), true
				}
				continue
			}
			if y, ch := addEmptyLists(x, f.Value); ch {
				obj, changed = withField(obj, f.Name, y), true
			}
		}
	case obj.Kind() == value.List && body.Kind() == value.List && obj.Len() == body.Len():
		items := make([]value.Value, obj.Len())
		for i := range items {
			var ch bool
			items[i], ch = addEmptyLists(obj.Index(i), body.Index(i))
			changed = changed || ch
		}
		if changed {
			obj = own.Value.List(items)
		}
	}
	return obj, changed
}

// ErrResourceVersionSetOnCreate is the storage's refusal of a create whose
// object has a resourceVersion, in its words.
var ErrResourceVersionSetOnCreate = errors.New("resourceVersion should not be set on objects to be created")

// store does what the registry and the storage do with the field
// manager's result: the strategy prepares and validates it; for a kind the
// strategy does not know, the fields the kind resets on this subresource
// keep their live values and the generation moves as the registry moves
// it; and the object is defaulted (the storage decodes what it stored).
func (s *Server) store(obj, live value.Value, subresource string) (value.Value, error) {
	gvk := GVKOf(obj)
	if s.strategy != nil {
		out, ok, err := s.strategy.Prepare(obj, live, subresource)
		if err != nil {
			return value.Value{}, err
		}
		if ok {
			return s.Read(out)
		}
	}
	if subresource != ScaleSubresource && s.fm.reset != nil {
		if set := s.fm.reset(gvk, subresource)[gvk.APIVersion()]; !set.Empty() {
			l := live
			if l.IsNull() {
				l = own.Value.Map(nil)
			}
			obj = ResetValues(obj, l, set)
		}
	}
	obj, err := s.Read(obj)
	if err != nil {
		return value.Value{}, err
	}
	if s.gen != nil {
		obj = s.generation(obj, live, gvk, subresource)
	}
	return obj, nil
}

// generation sets obj's metadata.generation as the registry does: a
// create through a strategy that sets it gets 1; an update keeps the live
// one (the request cannot change it) and adds 1 when the main resource's
// strategy compares a field that changed.
func (s *Server) generation(obj, live value.Value, gvk GroupVersionKind, subresource string) value.Value {
	rule, ok := s.gen(gvk)
	if live.IsNull() {
		if ok && rule.OnCreate {
			obj, _ = withNested(obj, value.NewInt(1), "metadata", "generation")
		}
		return obj
	}
	var g int64
	if v, ok := nested(live, "metadata", "generation"); ok && v.Kind() == value.Int {
		g = v.AsInt()
	}
	if ok && (subresource == "" || subresource == ScaleSubresource) && generationChanged(rule, obj, live) {
		g++
	}
	if g == 0 {
		return withoutNested(obj, "metadata", "generation")
	}
	obj, _ = withNested(obj, value.NewInt(g), "metadata", "generation")
	return obj
}

// generationChanged reports whether a field the rule compares differs
// between obj and live. As the strategies' semantic equality, a missing
// field equals an empty one.
func generationChanged(rule GenerationRule, obj, live value.Value) bool {
	for _, p := range rule.Compared {
		if len(p) == 0 {
			if !semanticEqual(withoutField(obj, "metadata"), withoutField(live, "metadata")) {
				return true
			}
			continue
		}
		a, _ := lookupPath(obj, p)
		b, _ := lookupPath(live, p)
		if !semanticEqual(a, b) {
			return true
		}
	}
	return false
}

// semanticEqual compares values as Kubernetes' semantic equality compares
// the Go objects they decode into: null, a missing value and an empty
// mapping or list are equal.
func semanticEqual(a, b value.Value) bool {
	empty := func(v value.Value) bool {
		return v.IsNull() || ((v.Kind() == value.Map || v.Kind() == value.List) && v.Len() == 0)
	}
	if empty(a) || empty(b) {
		return empty(a) && empty(b)
	}
	if a.Kind() != value.Map || b.Kind() != value.Map {
		return value.Equal(a, b)
	}
	fields := map[string]bool{}
	for _, f := range own.Value.Fields(a) {
		fields[f.Name] = true
	}
	for _, f := range own.Value.Fields(b) {
		fields[f.Name] = true
	}
	for name := range fields {
		x, _ := a.Get(name)
		y, _ := b.Get(name)
		if !semanticEqual(x, y) {
			return false
		}
	}
	return true
}

// describe names an object for an error: its kind, namespace and name.
func describe(obj value.Value) string {
	name := metadataString(obj, "name")
	if ns := metadataString(obj, "namespace"); ns != "" {
		name = ns + "/" + name
	}
	return GVKOf(obj).Kind + " " + name
}
