package merge

import (
	"errors"
	"fmt"

	corefieldpath "github.com/structmerge/structmerge/fieldpath"
	coremerge "github.com/structmerge/structmerge/merge"
	coreschema "github.com/structmerge/structmerge/schema"
	coretyped "github.com/structmerge/structmerge/typed"
	corevalue "github.com/structmerge/structmerge/value"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/internal/bridge"
	"sigs.k8s.io/structured-merge-diff/v6/internal/typedlink"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Converter converts objects between the API versions managers recorded
// their fields in.
type Converter interface {
	Convert(object *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error)
	IsMissingVersionError(error) bool
}

// UpdaterBuilder builds an Updater, including the options an Updater
// struct literal cannot set.
type UpdaterBuilder struct {
	Converter    Converter
	IgnoreFilter map[fieldpath.APIVersion]fieldpath.Filter

	// IgnoredFields is the older form of IgnoreFilter: per version, fields
	// nobody owns. At most one of the two may be set.
	IgnoredFields map[fieldpath.APIVersion]*fieldpath.Set

	// ReturnInputOnNoop makes Apply return the live object, rather than
	// nil, when it changes nothing.
	ReturnInputOnNoop bool
}

// BuildUpdater returns the Updater the builder describes.
func (u *UpdaterBuilder) BuildUpdater() *Updater {
	return &Updater{
		Converter:         u.Converter,
		IgnoreFilter:      u.IgnoreFilter,
		IgnoredFields:     u.IgnoredFields,
		returnInputOnNoop: u.ReturnInputOnNoop,
	}
}

// Updater applies and updates objects on behalf of managers. A nil
// Converter treats every version as the same.
type Updater struct {
	// Converter converts objects between versions.
	Converter Converter

	// IgnoredFields names, per version, fields nobody owns. At most one of
	// IgnoredFields and IgnoreFilter may be set.
	IgnoredFields map[fieldpath.APIVersion]*fieldpath.Set

	// IgnoreFilter selects, per version, the fields managers can own.
	IgnoreFilter map[fieldpath.APIVersion]fieldpath.Filter

	returnInputOnNoop bool
}

// call is the state of one Apply or Update: the engine's updater, and the
// SMD typed values by compiled type, from which the converter rebuilds SMD
// values of the engine's ones.
type call struct {
	conv      Converter
	templates map[*coreschema.Type]*typed.TypedValue
	sources   []any               // the call's objects (*typed.TypedValue), whose Go data results share
	seen      []*typed.TypedValue // every SMD value handed to the engine in this call
}

// core returns the engine's form of tv and remembers tv as the template of
// its type.
func (c *call) core(tv *typed.TypedValue) (coretyped.Value, error) {
	v, err := typedlink.Core(tv)
	if err != nil {
		return coretyped.Value{}, err
	}
	if _, ok := c.templates[v.Type()]; !ok {
		c.templates[v.Type()] = tv
	}
	c.seen = append(c.seen, tv)
	return v, nil
}

// wrap returns an SMD typed value holding v: the call's own object when v
// is one (a converter that changes nothing hands it back), else a new one.
func (c *call) wrap(v coretyped.Value) (*typed.TypedValue, error) {
	like, ok := c.templates[v.Type()]
	if !ok {
		return nil, errors.New("internal error: a value of a type the converter never returned")
	}
	for _, tv := range c.seen {
		if cv, err := typedlink.Core(tv); err == nil && cv.Type() == v.Type() && corevalue.Same(cv.Value(), v.Value()) {
			return tv, nil
		}
	}
	return typedlink.Wrap(like, v, c.sources...).(*typed.TypedValue), nil
}

// Convert implements the engine's Converter with the caller's.
func (c *call) Convert(v coretyped.Value, version string) (coretyped.Value, error) {
	tv, err := c.wrap(v)
	if err != nil {
		return coretyped.Value{}, err
	}
	out, err := c.conv.Convert(tv, fieldpath.APIVersion(version))
	if err != nil {
		return coretyped.Value{}, err
	}
	return c.core(out)
}

// IsMissingVersionError implements the engine's Converter.
func (c *call) IsMissingVersionError(err error) bool { return c.conv.IsMissingVersionError(err) }

// start prepares a call: the engine's updater configured as s is.
func (s *Updater) start() (*call, *coremerge.Updater, error) {
	if s.IgnoredFields != nil && s.IgnoreFilter != nil {
		return nil, nil, fmt.Errorf("IgnoreFilter and IgnoreFilter may not both be set")
	}
	c := &call{conv: s.Converter, templates: map[*coreschema.Type]*typed.TypedValue{}}
	var opts []coremerge.Option
	if s.Converter != nil {
		opts = append(opts, coremerge.WithConverter(c))
	}
	if s.IgnoredFields != nil {
		ignored := make(map[string]*corefieldpath.Set, len(s.IgnoredFields))
		for v, set := range s.IgnoredFields {
			cs, err := bridge.Set(set)
			if err != nil {
				return nil, nil, err
			}
			ignored[string(v)] = cs
		}
		opts = append(opts, coremerge.WithIgnoredFields(ignored))
	}
	if s.IgnoreFilter != nil {
		filters := make(map[string]func(*corefieldpath.Set) *corefieldpath.Set, len(s.IgnoreFilter))
		for v, f := range s.IgnoreFilter {
			if f == nil {
				continue
			}
			filters[string(v)] = func(in *corefieldpath.Set) *corefieldpath.Set {
				out, err := bridge.Set(f.Filter(bridge.FromSet(in)))
				if err != nil {
					// The filter returned paths the engine cannot hold; keep
					// the set as it was rather than lose fields.
					return in
				}
				return out
			}
		}
		opts = append(opts, coremerge.WithFieldFilter(filters))
	}
	u, err := coremerge.NewUpdater(opts...)
	return c, u, err
}

// managers converts SMD managed fields to the engine's.
func managers(m fieldpath.ManagedFields) (corefieldpath.Managers, error) {
	out := make(corefieldpath.Managers, len(m))
	for name, vs := range m {
		s, err := bridge.Set(vs.Set())
		if err != nil {
			return nil, err
		}
		out[name] = corefieldpath.VersionedSet{Set: s, APIVersion: string(vs.APIVersion()), Applied: vs.Applied()}
	}
	return out, nil
}

// fromManagers converts the engine's managers to SMD managed fields.
func fromManagers(m corefieldpath.Managers) fieldpath.ManagedFields {
	out := make(fieldpath.ManagedFields, len(m))
	for name, vs := range m {
		out[name] = fieldpath.NewVersionedSet(bridge.FromSet(vs.Set), fieldpath.APIVersion(vs.APIVersion), vs.Applied)
	}
	return out
}

// fromError converts the engine's conflicts to Conflicts; other errors are
// returned as they are.
func fromError(err error) error {
	var cs coremerge.Conflicts
	if errors.As(err, &cs) {
		out := make(Conflicts, len(cs))
		for i, c := range cs {
			out[i] = Conflict{Manager: c.Manager, Path: bridge.FromPath(c.Path)}
		}
		return out
	}
	return err
}

// Update records that manager replaced liveObject by newObject (an update
// that is not an apply): every other manager loses the fields that changed
// or disappeared, and manager owns what it changed. It never conflicts. It
// returns newObject itself and the new managed fields.
func (s *Updater) Update(liveObject, newObject *typed.TypedValue, version fieldpath.APIVersion, managers fieldpath.ManagedFields, manager string) (*typed.TypedValue, fieldpath.ManagedFields, error) {
	c, u, err := s.start()
	if err != nil {
		return nil, nil, err
	}
	live, err := c.core(liveObject)
	if err != nil {
		return nil, fieldpath.ManagedFields{}, err
	}
	obj, err := c.core(newObject)
	if err != nil {
		return nil, fieldpath.ManagedFields{}, err
	}
	if typedlink.Equal(liveObject, newObject) {
		// An update that changes nothing (the same Go object, or an
		// equal one): the engine's comparison stops at the root.
		obj = live
	}
	c.sources = []any{newObject, liveObject}
	m, err := managersOf(managers)
	if err != nil {
		return nil, fieldpath.ManagedFields{}, err
	}
	_, out, err := u.Update(live, obj, m, coremerge.Writer{Manager: manager, APIVersion: string(version)})
	if err != nil {
		return nil, fieldpath.ManagedFields{}, fromError(err)
	}
	return newObject, fromManagers(out), nil
}

// Apply merges configObject into liveObject on behalf of manager. Fields
// other managers own that the apply would change are conflicts (a
// Conflicts error) unless force is set, in which case manager takes them;
// fields manager applied before and no longer applies are removed unless
// another manager owns them. When the object does not change, the returned
// object is nil (or liveObject, for an Updater built with
// ReturnInputOnNoop).
func (s *Updater) Apply(liveObject, configObject *typed.TypedValue, version fieldpath.APIVersion, managers fieldpath.ManagedFields, manager string, force bool) (*typed.TypedValue, fieldpath.ManagedFields, error) {
	c, u, err := s.start()
	if err != nil {
		return nil, nil, err
	}
	live, err := c.core(liveObject)
	if err != nil {
		return nil, fieldpath.ManagedFields{}, err
	}
	config, err := c.core(configObject)
	if err != nil {
		return nil, fieldpath.ManagedFields{}, err
	}
	c.sources = []any{configObject, liveObject}
	m, err := managersOf(managers)
	if err != nil {
		return nil, fieldpath.ManagedFields{}, err
	}
	var opts []coremerge.ApplyOption
	if force {
		opts = append(opts, coremerge.Force())
	}
	out, outManagers, err := u.Apply(live, config, m, coremerge.Writer{Manager: manager, APIVersion: string(version)}, opts...)
	if err != nil {
		return nil, fieldpath.ManagedFields{}, fromError(err)
	}
	var obj *typed.TypedValue
	switch {
	case !corevalue.Equal(live.Value(), out.Value()):
		if obj, err = c.wrap(out); err != nil {
			return nil, fieldpath.ManagedFields{}, err
		}
	case s.returnInputOnNoop:
		obj = liveObject
	}
	return obj, fromManagers(outManagers), nil
}

// managersOf is managers under a name that does not shadow the parameters
// of Apply and Update.
func managersOf(m fieldpath.ManagedFields) (corefieldpath.Managers, error) { return managers(m) }
