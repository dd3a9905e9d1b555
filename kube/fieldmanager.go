package kube

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/merge"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/gostruct"
)

// DefaultMaxUpdateManagers is how many Update entries the API server keeps
// before it merges the oldest into `ancient-changes` buckets.
const DefaultMaxUpdateManagers = 10

// Names the API server gives to managers it creates itself.
const (
	// UnknownManager stands for a request that names no field manager.
	UnknownManager = "unknown"
	// BeforeFirstApplyManager owns the fields an object had when it was
	// first applied to without having managedFields.
	BeforeFirstApplyManager = "before-first-apply"
	// AncientChangesManager owns the fields of the oldest Update entries
	// once there are more than the cap.
	AncientChangesManager = "ancient-changes"
)

// currentOperation is the name under which an update's own changes are
// computed before they are merged into the manager's entry; it is never a
// manager identity (those are JSON objects).
const currentOperation = "current-operation"

// LastAppliedAnnotation is the annotation in which kubectl's client-side
// apply keeps the configuration it last applied.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// maxAnnotationsSize is the API server's limit on the total size of an
// object's annotations (keys and values), in bytes.
const maxAnnotationsSize = 256 << 10

// ResetFieldsFunc returns, per API version, the fields of a kind that the
// API server resets on writes to one subresource ("" for the main
// resource): the field manager gives nobody ownership of them.
type ResetFieldsFunc func(gvk GroupVersionKind, subresource string) map[string]*fieldpath.Set

// ResourcePathMappings maps an API version of a kind to the path of its
// replicas field (nil for a version without one): it is
// builtin.ResourcePathMappings.
type ResourcePathMappings = builtin.ResourcePathMappings

// ReplicasPathsFunc returns the replicas paths of a kind that has a scale
// subresource.
type ReplicasPathsFunc func(gvk GroupVersionKind) (ResourcePathMappings, bool)

// Option configures a FieldManager.
type Option func(options) options

type options struct {
	now         func() time.Time
	nowSet      bool
	maxUpdaters int
	capSet      bool
	reset       ResetFieldsFunc
	resetSet    bool
	replicas    ReplicasPathsFunc
	replicasSet bool
	conv        VersionConverter
	convSet     bool
	structTypes []reflect.Type
}

// WithClock sets the clock whose time the field manager records in the
// entries it changes (the default is time.Now).
func WithClock(now func() time.Time) Option {
	return func(o options) options {
		o.now, o.nowSet = now, true
		return o
	}
}

// WithMaxUpdateManagers sets how many Update entries an object keeps
// before the oldest are merged into `ancient-changes` buckets, one per API
// version (the default is DefaultMaxUpdateManagers). n < 0 keeps them all,
// as the API server's test field manager does; n == 0 is an error.
func WithMaxUpdateManagers(n int) Option {
	return func(o options) options {
		o.maxUpdaters, o.capSet = n, true
		return o
	}
}

// WithResetFields sets the fields nobody owns, per kind and subresource
// (the default is builtin.ResetFields, the API server's built-in kinds).
// nil resets nothing.
func WithResetFields(f ResetFieldsFunc) Option {
	return func(o options) options {
		o.reset, o.resetSet = f, true
		return o
	}
}

// WithReplicasPaths sets which kinds have a scale subresource and where
// their replicas are (the default is builtin.ReplicasPaths). nil gives no
// kind a scale subresource.
func WithReplicasPaths(f ReplicasPathsFunc) Option {
	return func(o options) options {
		o.replicas, o.replicasSet = f, true
		return o
	}
}

// WithVersionConverter sets how objects convert between the API versions
// of a kind (the default converts none: each kind has the single version
// of the live object). With a converter, a request at another version of
// the live object's group and kind is served at the request's version:
// the live object is converted to it, the result is at that version, and
// each manager's fields are compared at the version its managedFields
// entry names, as the API server does for a kind served at several
// versions. NoneConverter is the API server's for custom resources with
// conversion strategy None.
func WithVersionConverter(c VersionConverter) Option {
	return func(o options) options {
		o.conv, o.convSet = c, true
		return o
	}
}

// FieldManager does to whole Kubernetes objects what the API server's
// field manager does: it merges applied configurations, records in
// metadata.managedFields which manager owns which field, and reports
// conflicts in the API server's words.
//
// A FieldManager is immutable after NewFieldManager; safe for concurrent
// use (its type resolver and clock must be too).
type FieldManager struct {
	types       TypeResolver
	now         func() time.Time
	maxUpdaters int
	reset       ResetFieldsFunc
	replicas    ReplicasPathsFunc
	conv        VersionConverter
	codecs      map[reflect.Type]*gostruct.Codec // of WithStructTypes; never written
}

// NewFieldManager returns a FieldManager that finds the schema of each
// kind with types.
func NewFieldManager(types TypeResolver, opts ...Option) (*FieldManager, error) {
	if types == nil {
		return nil, errors.New("kube: NewFieldManager given a nil TypeResolver")
	}
	o := options{now: time.Now, maxUpdaters: DefaultMaxUpdateManagers, reset: builtin.ResetFields, replicas: builtin.ReplicasPaths}
	for _, opt := range opts {
		o = opt(o)
	}
	if o.nowSet && o.now == nil {
		return nil, errors.New("kube: WithClock given a nil clock")
	}
	if o.capSet && o.maxUpdaters == 0 {
		return nil, errors.New("kube: WithMaxUpdateManagers(0): keep at least one Update entry, or pass a negative number for no cap")
	}
	if o.convSet && o.conv == nil {
		return nil, errors.New("kube: WithVersionConverter given a nil converter")
	}
	codecs, err := structCodecs(o.structTypes)
	if err != nil {
		return nil, err
	}
	return &FieldManager{types: types, now: o.now, maxUpdaters: o.maxUpdaters, reset: o.reset, replicas: o.replicas, conv: o.conv, codecs: codecs}, nil
}

// RequestOption changes one Apply or Update.
type RequestOption func(request) request

type request struct {
	force       bool
	subresource string
}

// Force makes an apply take the fields it conflicts on (kubectl apply
// --force-conflicts).
func Force() RequestOption {
	return func(r request) request {
		r.force = true
		return r
	}
}

// Subresource makes the write go to a subresource ("status", "scale", ...)
// rather than the main resource.
func Subresource(name string) RequestOption {
	return func(r request) request {
		r.subresource = name
		return r
	}
}

// ScaleSubresource is the subresource whose writes carry an
// autoscaling/v1 Scale rather than the object (builtin.ScaleSubresource).
const ScaleSubresource = builtin.ScaleSubresource

// scaleGVK is the kind the scale subresource reads and writes.
var scaleGVK = GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// Apply merges the configuration applied into live on behalf of manager,
// as a server-side apply request does, and returns the new object with its
// metadata.managedFields. A null live is an object that does not exist
// yet. Conflicts are a *ConflictError unless Force is given; a malformed
// request is a *BadRequestError. With Subresource("scale"), applied is an
// autoscaling/v1 Scale and live the object it scales.
//
// Apply does not modify live or applied; the result may share subtrees
// with them.
func (m *FieldManager) Apply(live, applied value.Value, manager string, opts ...RequestOption) (value.Value, error) {
	out, _, err := m.apply(live, applied, manager, resolveRequest(opts), false, nil)
	return out, err
}

// apply is Apply. For the map form (direct), the managedFields entries it
// builds anew have an empty fieldsV1, and their field sets are returned to
// be written in the caller's form, with the items to give back as the
// caller had them (see fillFieldsV1); liveMF is the live object's
// managedFields the map method read itself (nil when live holds them).
func (m *FieldManager) apply(live, applied value.Value, manager string, r request, direct bool, liveMF *mapManaged) (value.Value, []newFieldsV1, error) {
	if r.subresource == ScaleSubresource {
		out, err := m.scale(live, applied, manager, r, true)
		return out, nil, err
	}
	c, live, err := m.newCall(live, GVKOf(applied), r, direct, liveMF)
	if err != nil {
		return value.Value{}, nil, err
	}
	out, err := c.apply(live, applied, manager, r.force)
	return out, c.fill, err
}

// Update records that manager replaced live by obj, as a create (null
// live), an update or a non-apply patch does, and returns obj with its
// metadata.managedFields: the manager owns what it changed, the other
// managers lose it. Update never conflicts. With Subresource("scale"), obj
// is an autoscaling/v1 Scale and live the object it scales.
//
// An obj without apiVersion and kind takes live's; an obj of another kind
// than live is a *BadRequestError. Update does not modify live or obj.
func (m *FieldManager) Update(live, obj value.Value, manager string, opts ...RequestOption) (value.Value, error) {
	out, _, err := m.update(live, obj, manager, resolveRequest(opts), false, nil)
	return out, err
}

// update is Update, with direct and liveMF as for apply.
func (m *FieldManager) update(live, obj value.Value, manager string, r request, direct bool, liveMF *mapManaged) (value.Value, []newFieldsV1, error) {
	if r.subresource == ScaleSubresource {
		out, err := m.scale(live, obj, manager, r, false)
		return out, nil, err
	}
	obj, err := m.defaultKind(live, obj)
	if err != nil {
		return value.Value{}, nil, err
	}
	c, live, err := m.newCall(live, GVKOf(obj), r, direct, liveMF)
	if err != nil {
		return value.Value{}, nil, err
	}
	out, err := c.update(live, obj, manager)
	return out, c.fill, err
}

func resolveRequest(opts []RequestOption) request {
	var r request
	for _, opt := range opts {
		r = opt(r)
	}
	return r
}

// defaultKind gives obj live's apiVersion and kind when it has neither,
// and rejects an obj of another kind (or of another version that the
// converter cannot convert live to).
func (m *FieldManager) defaultKind(live, obj value.Value) (value.Value, error) {
	if !live.IsNull() && m.convertible(live, GVKOf(obj)) {
		return obj, nil
	}
	return defaultKind(live, obj)
}

// defaultKind gives obj live's apiVersion and kind when it has neither,
// and rejects an obj of another kind or version.
func defaultKind(live, obj value.Value) (value.Value, error) {
	if live.IsNull() {
		return obj, nil
	}
	la, lk := stringField(live, "apiVersion"), stringField(live, "kind")
	oa, ok := stringField(obj, "apiVersion"), stringField(obj, "kind")
	if oa == "" && ok == "" && !obj.Has("apiVersion") && !obj.Has("kind") && obj.Kind() == value.Map {
		obj = withField(withField(obj, "apiVersion", value.NewString(la)), "kind", value.NewString(lk))
		return obj, nil
	}
	if oa != la || ok != lk {
		return value.Value{}, &BadRequestError{Message: fmt.Sprintf("the object's apiVersion and kind (%s, %s) are not the live object's (%s, %s)", oa, ok, la, lk)}
	}
	return obj, nil
}

// call is one request: the endpoint's kind and schema, the subresource,
// the time and the merge engine configured with the reset fields.
type call struct {
	m       *FieldManager
	gvk     GroupVersionKind
	typ     *schema.Type
	sub     string
	now     time.Time
	updater *merge.Updater
	// unconverted is the live object as given, before its conversion to
	// the request's version (null when it was not converted): an apply
	// that changes nothing returns it, as the API server does.
	unconverted value.Value
	// direct leaves the fieldsV1 of new managedFields entries empty and
	// lists them in fill, for the map form (see FieldManager.apply).
	direct bool
	fill   []newFieldsV1
	// liveMF is the live object's managedFields that the map form read,
	// left out of its value (nil when the value holds them).
	liveMF *mapManaged
}

// liveManaged reads the managedFields of the live object as
// rawManagedFields does (a live object's list never asks for a reset),
// from what the map form read of them when it did.
func (c *call) liveManaged(live value.Value) (entries []ManagedFieldsEntry, fieldErrs []error) {
	if c.liveMF != nil {
		return c.liveMF.entries, nil
	}
	entries, fieldErrs, _, _ = rawManagedFields(live)
	return entries, fieldErrs
}

// newCall prepares a request on the endpoint of live's kind (of the sent
// object's kind when live is null, which then becomes the empty object of
// that kind). With a version converter that handles the kind, a request
// at another version of live's group and kind is on the endpoint of the
// request's version, and live is converted to it. direct and liveMF are
// as for apply: a live object's managedFields the map form read go back
// into live's value where the type does not vouch for them.
func (m *FieldManager) newCall(live value.Value, sent GroupVersionKind, r request, direct bool, liveMF *mapManaged) (*call, value.Value, error) {
	gvk := sent
	var unconverted value.Value
	if !live.IsNull() {
		if live.Kind() != value.Map {
			return nil, value.Value{}, fmt.Errorf("the live object is a %v, not an object", live.Kind())
		}
		gvk = GVKOf(live)
		if m.conv != nil && gvk != sent && gvk.Group == sent.Group && gvk.Kind == sent.Kind && sent.Version != "" {
			conv, err := m.conv.ConvertVersion(live, sent)
			switch {
			case errors.Is(err, ErrNotConvertible):
			case err != nil:
				return nil, value.Value{}, &LiveObjectError{Err: fmt.Errorf("failed to convert live object (%v) to proper version: %w", objectName(live), err)}
			default:
				unconverted, live, gvk = live, conv, sent
			}
		}
	} else {
		live = emptyObject(gvk)
	}
	typ, ok := m.types.ResolveType(gvk)
	if !ok || typ == nil {
		return nil, value.Value{}, fmt.Errorf("no corresponding type for %v", gvk)
	}
	if liveMF != nil && !plainManagedFieldsFit(typ) {
		var err error
		if live, err = restoreManaged(live, liveMF); err != nil {
			return nil, value.Value{}, err
		}
		liveMF = nil
	}
	var reset map[string]*fieldpath.Set
	if m.reset != nil {
		reset = m.reset(gvk, r.subresource)
	}
	u, err := m.updater(reset)
	if err != nil {
		return nil, value.Value{}, err
	}
	return &call{m: m, gvk: gvk, typ: typ, sub: r.subresource, now: m.now(), updater: u, unconverted: unconverted,
		direct: direct, liveMF: liveMF}, live, nil
}

// updater returns the request's Updater, ignoring reset. Without a
// version converter it reads reset as the function gave it: the request
// only reads it, and copying it, as WithIgnoredFields does for callers
// that may change their map, would be a map per request.
func (m *FieldManager) updater(reset map[string]*fieldpath.Set) (*merge.Updater, error) {
	if m.conv == nil {
		return own.Merge.UpdaterIgnoring(reset).(*merge.Updater), nil
	}
	uopts := []merge.Option{merge.WithConverter(typedConverter{types: m.types, conv: m.conv})}
	if len(reset) > 0 {
		uopts = append(uopts, merge.WithIgnoredFields(reset))
	}
	return merge.NewUpdater(uopts...)
}

// convertible reports whether a request at version to of live's group and
// kind is served by converting live: a converter is set and handles the
// kind (when it cannot convert to that version, newCall reports why).
func (m *FieldManager) convertible(live value.Value, to GroupVersionKind) bool {
	from := GVKOf(live)
	if m.conv == nil || to.Group != from.Group || to.Kind != from.Kind || to.Version == "" || to.Version == from.Version {
		return false
	}
	_, err := m.conv.ConvertVersion(live, to)
	return !errors.Is(err, ErrNotConvertible)
}

// emptyObject is the object the API server starts from when it creates
// one of kind gvk.
func emptyObject(gvk GroupVersionKind) value.Value {
	return own.Value.Map([]value.Field{
		{Name: "apiVersion", Value: value.NewString(gvk.APIVersion())},
		{Name: "kind", Value: value.NewString(gvk.Kind)},
	})
}

// objectName describes an object in errors as the API server does:
// "namespace/name; group/version, Kind=kind".
func objectName(obj value.Value) string {
	return metadataString(obj, "namespace") + "/" + metadataString(obj, "name") + "; " + GVKOf(obj).String()
}

// apply runs a server-side apply of applied onto live.
func (c *call) apply(live, applied value.Value, manager string, force bool) (value.Value, error) {
	entries, fieldErrs := c.liveManaged(live)
	mg, err := decodeEntries(entries, fieldErrs)
	if err != nil {
		return value.Value{}, fmt.Errorf("failed to decode managed fields: %w", err)
	}
	if got := GVKOf(applied); got != c.gvk {
		return value.Value{}, &BadRequestError{Message: fmt.Sprintf("invalid object type: %v", got)}
	}
	obj, out, err := c.applyKubectl(live, applied, mg, manager, force)
	if err != nil {
		var cs merge.Conflicts
		if errors.As(err, &cs) {
			return value.Value{}, newConflictError(cs, live, applied)
		}
		return value.Value{}, err
	}
	if manager == "kubectl" && hasLastApplied(obj) {
		obj = setLastApplied(obj, buildLastApplied(applied))
	}
	return c.encode(obj, out)
}

// encode stores mg as obj's managedFields.
func (c *call) encode(obj value.Value, mg *managed) (value.Value, error) {
	entries, err := mg.entries()
	if err != nil {
		return value.Value{}, fmt.Errorf("failed to encode managed fields: %w", err)
	}
	if c.direct {
		obj, c.fill = encodeManagedFields(obj, entries, true)
		return obj, nil
	}
	return EncodeManagedFields(obj, entries), nil
}

// applyKubectl lets kubectl take over the fields it owned through
// client-side apply: when its apply conflicts only on fields the
// last-applied annotation of live records with their live values, it is
// forced.
func (c *call) applyKubectl(live, applied value.Value, mg *managed, manager string, force bool) (value.Value, *managed, error) {
	obj, out, err := c.applyTracked(live, applied, mg, manager, force)
	if manager != "kubectl" || err == nil {
		return obj, out, err
	}
	cs, ok := err.(merge.Conflicts)
	if !ok {
		return obj, out, err
	}
	allowed, aerr := c.allowedByLastApplied(live)
	if aerr != nil {
		return obj, out, err
	}
	var rest merge.Conflicts
	for _, cf := range cs {
		if !allowed.Has(cf.Path) {
			rest = append(rest, cf)
		}
	}
	if len(rest) > 0 {
		return value.Value{}, nil, rest
	}
	return c.applyTracked(live, applied, mg, manager, true)
}

// applyTracked gives the fields of an object that has no managedFields to
// `before-first-apply` before applying.
//
// It does not modify mg until it succeeds, so that applyKubectl may try
// again with the same mg: the merge takes managers' maps without writing
// them (merge.Updater), updateOwned and mergeApply build new ones,
// updateOwned writing into a copy of mg's times, and only an apply that
// changed the object stamps its time, into the times it shares with mg.
func (c *call) applyTracked(live, applied value.Value, mg *managed, manager string, force bool) (value.Value, *managed, error) {
	// Nothing to give to before-first-apply when the object has nothing
	// but its apiVersion and kind (a create): an update to it would own
	// only those, which are stripped.
	if len(mg.fields) == 0 && !onlyKind(live) {
		var err error
		live, mg, err = c.updateOwned(emptyObject(GVKOf(applied)), live, mg.withOwnTimes(), BeforeFirstApplyManager)
		if err != nil {
			return value.Value{}, nil, fmt.Errorf("failed to create manager for existing fields: %w", err)
		}
	}
	id := identityOf(managerName(manager), OperationApply, "", c.sub)
	obj, changed, out, err := c.mergeApply(live, applied, mg, id, force)
	if err != nil {
		return value.Value{}, nil, err
	}
	c.strip(out, id)
	if changed {
		out.times[id] = c.now
	} else {
		if !c.unconverted.IsNull() {
			live = c.unconverted
		}
		obj = withoutNested(live, "metadata", "managedFields")
	}
	return obj, out, nil
}

// onlyKind reports whether obj is a map of an apiVersion and a kind, both
// strings, and nothing else, as the empty object of a create is.
func onlyKind(obj value.Value) bool {
	f := own.Value.Fields(obj)
	return len(f) == 2 && f[0].Name == "apiVersion" && f[0].Value.Kind() == value.String &&
		f[1].Name == "kind" && f[1].Value.Kind() == value.String
}

func managerName(manager string) string {
	if manager == "" {
		return UnknownManager
	}
	return manager
}

// mergeApply runs the structured apply; changed is false when the object
// is the same afterwards.
func (c *call) mergeApply(live, applied value.Value, mg *managed, id string, force bool) (value.Value, bool, *managed, error) {
	if gv := GVKOf(applied); gv.Group != c.gvk.Group || gv.Version != c.gvk.Version {
		return value.Value{}, false, nil, &BadRequestError{Message: fmt.Sprintf("Incorrect version specified in apply patch. Specified patch version: %s, expected: %s", gv.APIVersion(), c.gvk.APIVersion())}
	}
	if _, _, present, _ := rawManagedFields(applied); present {
		return value.Value{}, false, nil, &BadRequestError{Message: "metadata.managedFields must be nil"}
	}
	lv, patch, liveErr, err := c.check(live, applied, false)
	if err != nil {
		return value.Value{}, false, nil, fmt.Errorf("failed to create typed patch object (%v): %w", objectName(applied), err)
	}
	if liveErr != nil {
		return value.Value{}, false, nil, &LiveObjectError{Err: fmt.Errorf("failed to create typed live object (%v): %w", objectName(live), liveErr)}
	}
	var aopts []merge.ApplyOption
	if force {
		aopts = append(aopts, merge.Force())
	}
	res, managers, err := c.updater.Apply(lv, patch, mg.fields, merge.Writer{Manager: id, APIVersion: c.gvk.APIVersion()}, aopts...)
	if err != nil {
		return value.Value{}, false, nil, err
	}
	out := &managed{fields: managers, times: mg.times, decoded: mg.decoded}
	if value.Equal(live, res.Value()) {
		return live, false, out, nil
	}
	return res.Value(), true, out, nil
}

// update runs a non-apply write of obj over live.
func (c *call) update(live, obj value.Value, manager string) (value.Value, error) {
	mg := c.managedForUpdate(live, obj)
	obj = withoutNested(obj, "metadata", "managedFields")
	if len(mg.fields) == 0 && metadataString(live, "uid") != "" {
		// An object that exists and has no managedFields is not tracked
		// until it is first applied.
		return c.encode(obj, mg)
	}
	obj, out, err := c.updateOwned(live, obj, mg, manager)
	if err != nil {
		return value.Value{}, err
	}
	return c.encode(obj, out)
}

// managedForUpdate picks the managedFields an update starts from: those
// the request carries, when it carries valid ones on the main resource
// (an empty list or a single empty entry clears them), else the live
// object's (none when those cannot be decoded).
func (c *call) managedForUpdate(live, obj value.Value) *managed {
	if c.sub == "" {
		entries, fieldErrs, present, reset := rawManagedFields(obj)
		if present && reset {
			return newManaged()
		}
		if mg, err := decodeEntries(entries, fieldErrs); err == nil && len(mg.fields) > 0 {
			return mg
		}
	}
	entries, fieldErrs := c.liveManaged(live)
	mg, err := decodeEntries(entries, fieldErrs)
	if err != nil {
		return newManaged()
	}
	return mg
}

// updateOwned records an update by manager: the fields it changed go to
// its Update entry, whose time is stamped when it changed anything, and the
// Update entries are capped. The result takes over mg's times: mg is not
// to be used again.
func (c *call) updateOwned(live, obj value.Value, mg *managed, manager string) (value.Value, *managed, error) {
	id := identityOf(managerName(manager), OperationUpdate, c.gvk.APIVersion(), c.sub)
	out, err := c.mergeUpdate(live, obj, mg)
	if err != nil {
		return value.Value{}, nil, err
	}
	c.strip(out, currentOperation)
	if vs, ok := out.fields[currentOperation]; ok {
		delete(out.fields, currentOperation)
		if prev, ok := out.fields[id]; ok {
			vs.Set = vs.Set.Union(prev.Set)
		}
		out.fields[id] = vs
		out.times[id] = c.now
	}
	c.capUpdaters(out)
	return obj, out, nil
}

// check checks the live object (repeated keys allowed) and the request's
// object obj (allowed when dups) against the call's type. The live object
// goes first so that obj, which shares its unchanged parts when it was
// converted like it, is walked only where it differs (typed.Like); the
// caller reports objErr before liveErr.
func (c *call) check(live, obj value.Value, dups bool) (lv, ov typed.Value, liveErr, objErr error) {
	lv, liveErr = typed.New(c.typ, live, typed.AllowDuplicates())
	like := typed.Like(lv) // the zero Value when live does not fit: vouches for nothing
	if dups {
		ov, objErr = typed.New(c.typ, obj, typed.AllowDuplicates(), like)
	} else {
		ov, objErr = typed.New(c.typ, obj, like)
	}
	return lv, ov, liveErr, objErr
}

// mergeUpdate runs the structured update on behalf of currentOperation.
func (c *call) mergeUpdate(live, obj value.Value, mg *managed) (*managed, error) {
	lv, nv, liveErr, err := c.check(live, obj, true)
	if err != nil {
		return nil, fmt.Errorf("failed to convert new object (%v) to smd typed: %w", objectName(obj), err)
	}
	if liveErr != nil {
		return nil, &LiveObjectError{Err: fmt.Errorf("failed to convert live object (%v) to smd typed: %w", objectName(live), liveErr)}
	}
	_, managers, err := c.updater.Update(lv, nv, mg.fields, merge.Writer{Manager: currentOperation, APIVersion: c.gvk.APIVersion()})
	if err != nil {
		return nil, fmt.Errorf("failed to update ManagedFields (%v): %w", objectName(obj), err)
	}
	return &managed{fields: managers, times: mg.times, decoded: mg.decoded}, nil
}

// stripped are the fields nobody owns: the object's kind and the metadata
// the API server sets itself.
var stripped = fieldpath.NewSet(
	fieldpath.Path{fieldpath.FieldName("apiVersion")},
	fieldpath.Path{fieldpath.FieldName("kind")},
	fieldpath.Path{fieldpath.FieldName("metadata")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("name")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("namespace")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("creationTimestamp")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("selfLink")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("uid")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("clusterName")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("generation")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("managedFields")},
	fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("resourceVersion")},
)

// strip takes the stripped fields out of one manager's set.
func (c *call) strip(mg *managed, key string) {
	vs, ok := mg.fields[key]
	if !ok {
		return
	}
	vs.Set = vs.Set.Difference(stripped)
	if vs.Set.Empty() {
		delete(mg.fields, key)
		return
	}
	mg.fields[key] = vs
}

// capUpdaters merges the oldest Update entries, beyond the cap, into one
// `ancient-changes` entry per API version, as the API server does.
func (c *call) capUpdaters(mg *managed) {
	max := c.m.maxUpdaters
	if max < 0 {
		return
	}
	n := 0
	for _, vs := range mg.fields {
		if !vs.Applied {
			n++
		}
	}
	if n <= max {
		return
	}
	updaters := make([]string, 0, n)
	for key, vs := range mg.fields {
		if !vs.Applied {
			updaters = append(updaters, key)
		}
	}
	// Keys are unique: the order is total, whatever the map's.
	slices.SortFunc(updaters, func(a, b string) int {
		if as, bs := unixSeconds(mg.times[a]), unixSeconds(mg.times[b]); as != bs {
			return cmp.Compare(as, bs)
		}
		return strings.Compare(a, b)
	})
	firstOfVersion := map[string]string{}
	for i, n := 0, len(updaters); i < len(updaters) && n > max; i++ {
		key := updaters[i]
		vs := mg.fields[key]
		t, hasTime := mg.times[key]
		bucket := identityOf(AncientChangesManager, OperationUpdate, vs.APIVersion, "")
		first, seen := firstOfVersion[vs.APIVersion]
		if !seen {
			firstOfVersion[vs.APIVersion] = key
			continue
		}
		if _, ok := mg.fields[bucket]; !ok {
			mg.fields[bucket] = mg.fields[first]
			delete(mg.fields, first)
		}
		mg.fields[bucket] = fieldpath.VersionedSet{Set: vs.Set.Union(mg.fields[bucket].Set), APIVersion: vs.APIVersion, Applied: vs.Applied}
		delete(mg.fields, key)
		n--
		if hasTime {
			mg.times[bucket] = t
		} else {
			delete(mg.times, bucket)
		}
	}
}
