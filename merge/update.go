package merge

import (
	"errors"
	"fmt"
	"slices"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// Converter converts an object between the API versions managers recorded
// their fields in.
type Converter interface {
	// Convert returns v at the given version.
	Convert(v typed.Value, version string) (typed.Value, error)
	// IsMissingVersionError reports whether err says the version no longer
	// exists; managers recorded at such a version are dropped.
	IsMissingVersionError(err error) bool
}

// identity is the converter for objects with one version.
type identity struct{}

func (identity) Convert(v typed.Value, _ string) (typed.Value, error) { return v, nil }
func (identity) IsMissingVersionError(error) bool                     { return false }

// Option configures an Updater.
type Option func(options) options

type options struct {
	converter    Converter
	converterSet bool
	ignored      map[string]*fieldpath.Set
	filters      map[string]func(*fieldpath.Set) *fieldpath.Set
}

// WithConverter sets the converter between API versions (the default treats
// every version as the same).
func WithConverter(c Converter) Option {
	return func(o options) options {
		o.converter, o.converterSet = c, true
		return o
	}
}

// WithIgnoredFields names, per API version, fields that nobody owns: they are
// left out of every manager's set and of conflicts (a status, for example).
func WithIgnoredFields(fields map[string]*fieldpath.Set) Option {
	return func(o options) options {
		o.ignored = make(map[string]*fieldpath.Set, len(fields))
		for k, v := range fields {
			o.ignored[k] = v
		}
		return o
	}
}

// WithFieldFilter sets, per API version, a function that selects the
// fields managers can own at that version: every manager's set and every
// comparison the Updater makes at that version keep only the paths the
// function returns (WithIgnoredFields is the special case of a filter that
// drops given fields and what is below them). A filter must be a pure
// function of its argument, safe for concurrent use, and must not modify
// the set. It cannot be combined with WithIgnoredFields.
func WithFieldFilter(filters map[string]func(*fieldpath.Set) *fieldpath.Set) Option {
	return func(o options) options {
		o.filters = make(map[string]func(*fieldpath.Set) *fieldpath.Set, len(filters))
		for k, f := range filters {
			if f != nil {
				o.filters[k] = f
			}
		}
		return o
	}
}

// ApplyOption changes one Apply.
type ApplyOption func(applyOptions) applyOptions

type applyOptions struct {
	force bool
}

// Force makes Apply take the fields it conflicts on instead of failing.
func Force() ApplyOption {
	return func(o applyOptions) applyOptions {
		o.force = true
		return o
	}
}

// Updater runs Update and Apply. Immutable after NewUpdater; safe for
// concurrent use. The zero Updater is usable: it treats every version as
// the same and ignores no fields, as NewUpdater() does.
type Updater struct {
	conv    Converter
	ignored map[string]*fieldpath.Set
	filters map[string]func(*fieldpath.Set) *fieldpath.Set
}

// converter is the configured converter, or the identity for the zero
// Updater.
func (u *Updater) converter() Converter {
	if u.conv == nil {
		return identity{}
	}
	return u.conv
}

// kube builds an Updater per request from its reset fields, which it
// never changes: it reaches a constructor that does not copy them through
// internal/own.
func init() {
	own.Merge.UpdaterIgnoring = func(ignored map[string]*fieldpath.Set) any {
		return &Updater{conv: identity{}, ignored: ignored}
	}
}

// NewUpdater returns an Updater configured by opts.
func NewUpdater(opts ...Option) (*Updater, error) {
	var o options
	for _, opt := range opts {
		o = opt(o)
	}
	if o.converterSet && o.converter == nil {
		return nil, errors.New("merge: WithConverter given a nil converter")
	}
	if o.ignored != nil && o.filters != nil {
		return nil, errors.New("merge: WithIgnoredFields and WithFieldFilter cannot both be given")
	}
	if o.converter == nil {
		o.converter = identity{}
	}
	return &Updater{conv: o.converter, ignored: o.ignored, filters: o.filters}, nil
}

func (u *Updater) ignore(version string, s *fieldpath.Set) *fieldpath.Set {
	if f := u.filters[version]; f != nil {
		return f(s)
	}
	if ig := u.ignored[version]; !ig.Empty() {
		return s.RecursiveDifference(ig)
	}
	return s
}

func (u *Updater) compare(old, updated typed.Value, version string) (*typed.Comparison, error) {
	c, err := old.Compare(updated)
	if err != nil {
		return nil, fmt.Errorf("failed to compare objects: %w", err)
	}
	if f := u.filters[version]; f != nil {
		c = &typed.Comparison{Added: f(c.Added), Modified: f(c.Modified), Removed: f(c.Removed)}
	} else if ig := u.ignored[version]; !ig.Empty() {
		c = c.ExcludeFields(ig)
	}
	return c, nil
}

// changeOwners takes from every manager but the one writing the fields the
// write changes (all of them when forced; else conflicts are an error) and
// the fields it removes. managers is owned by the caller and modified.
func (u *Updater) changeOwners(old, updated typed.Value, version string, managers fieldpath.Managers, writer string, force bool) (*typed.Comparison, error) {
	c, err := u.compare(old, updated, version)
	if err != nil {
		return nil, err
	}
	if len(managers) == 0 || onlyWriter(managers, writer) {
		// Nobody to take fields from; a writer left owning nothing goes.
		if m, ok := managers[writer]; ok && m.Set.Empty() {
			delete(managers, writer)
		}
		return c, nil
	}
	comparisons := map[string]*typed.Comparison{version: c}
	conflicts := fieldpath.Managers{}
	removed := map[string]*fieldpath.Set{}
	for _, name := range managers.Names() {
		if name == writer {
			continue
		}
		m := managers[name]
		vc, ok := comparisons[m.APIVersion]
		if !ok {
			oldAt, err := u.converter().Convert(old, m.APIVersion)
			if err != nil {
				if u.converter().IsMissingVersionError(err) {
					delete(managers, name)
					continue
				}
				return nil, fmt.Errorf("failed to convert old object: %w", err)
			}
			newAt, err := u.converter().Convert(updated, m.APIVersion)
			if err != nil {
				if u.converter().IsMissingVersionError(err) {
					delete(managers, name)
					continue
				}
				return nil, fmt.Errorf("failed to convert new object: %w", err)
			}
			if vc, err = u.compare(oldAt, newAt, m.APIVersion); err != nil {
				return nil, err
			}
			comparisons[m.APIVersion] = vc
		}
		if cs := m.Set.Intersection(vc.Modified.Union(vc.Added)); !cs.Empty() {
			conflicts[name] = fieldpath.VersionedSet{Set: cs, APIVersion: m.APIVersion}
		}
		if !vc.Removed.Empty() {
			removed[name] = vc.Removed
		}
	}
	if !force && len(conflicts) > 0 {
		return nil, conflictsFrom(conflicts)
	}
	for _, name := range conflicts.Names() {
		m := managers[name]
		m.Set = m.Set.Difference(conflicts[name].Set)
		managers[name] = m
	}
	for _, name := range sortedKeys(removed) {
		m := managers[name]
		m.Set = m.Set.Difference(removed[name])
		managers[name] = m
	}
	for _, name := range managers.Names() {
		if managers[name].Set.Empty() {
			delete(managers, name)
		}
	}
	return c, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Writer names who writes and in which API version the object it writes
// is: the manager that will own what it writes, and the version recorded
// with its fields. Its fields must be named, as in
// Writer{Manager: "kubectl", APIVersion: "v1"}: a literal that lists the
// two strings alone does not compile outside this package, so they cannot
// be swapped by mistake.
type Writer struct {
	_          struct{} // makes unkeyed literals fail to compile
	Manager    string
	APIVersion string
}

// Update records that the writer replaced live by obj (a PUT or a patch
// that is not an apply): every other manager loses the fields that changed
// or disappeared, and the writer's manager owns what it changed. It never
// conflicts.
func (u *Updater) Update(live, obj typed.Value, managers fieldpath.Managers, by Writer) (typed.Value, fieldpath.Managers, error) {
	version, manager := by.APIVersion, by.Manager
	managers, err := u.reconcile(live, managers)
	if err != nil {
		return typed.Value{}, nil, err
	}
	c, err := u.changeOwners(live, obj, version, managers, manager, true)
	if err != nil {
		return typed.Value{}, nil, err
	}
	set := managers[manager].Set.Difference(c.Removed).Union(c.Modified).Union(c.Added)
	set = u.ignore(version, set)
	if set.Empty() {
		delete(managers, manager)
	} else {
		managers[manager] = fieldpath.VersionedSet{Set: set, APIVersion: version}
	}
	return obj, managers, nil
}

// Apply merges config into live on behalf of the writer's manager. Fields
// that other managers own and that the apply would change are conflicts (a
// Conflicts error) unless Force is given, in which case the writer takes
// them. Fields the writer applied before and no longer applies are removed
// unless another manager owns them. When nothing in the object changes, the
// live object is returned as it is.
func (u *Updater) Apply(live, config typed.Value, managers fieldpath.Managers, by Writer, opts ...ApplyOption) (typed.Value, fieldpath.Managers, error) {
	version, manager := by.APIVersion, by.Manager
	var o applyOptions
	for _, opt := range opts {
		o = opt(o)
	}
	managers, err := u.reconcile(live, managers)
	if err != nil {
		return typed.Value{}, nil, err
	}
	merged, err := live.Merge(config)
	if err != nil {
		return typed.Value{}, nil, fmt.Errorf("failed to merge config: %w", err)
	}
	last, hadLast := managers[manager]
	set, err := config.FieldSet()
	if err != nil {
		return typed.Value{}, nil, fmt.Errorf("failed to get field set: %w", err)
	}
	managers[manager] = fieldpath.VersionedSet{Set: u.ignore(version, set), APIVersion: version, Applied: true}
	if hadLast && !last.Set.Empty() {
		if merged, err = u.prune(merged, managers, manager, last); err != nil {
			return typed.Value{}, nil, fmt.Errorf("failed to prune fields: %w", err)
		}
	}
	if onlyWriter(managers, manager) && live.Validated() && merged.Validated() {
		// Nobody else owns anything: the comparison could take nothing from
		// anyone, and valid values cannot fail to compare.
		if managers[manager].Set.Empty() {
			delete(managers, manager)
		}
	} else if _, err := u.changeOwners(live, merged, version, managers, manager, o.force); err != nil {
		return typed.Value{}, nil, err
	}
	if value.Equal(live.Value(), merged.Value()) {
		return live, managers, nil
	}
	return merged, managers, nil
}

// onlyWriter reports whether writer is the only manager.
func onlyWriter(managers fieldpath.Managers, writer string) bool {
	_, ok := managers[writer]
	return len(managers) == 1 && ok
}

// reconcile adapts every manager's set to the live object's schema; the
// result is a new map the caller owns.
func (u *Updater) reconcile(live typed.Value, managers fieldpath.Managers) (fieldpath.Managers, error) {
	out := make(fieldpath.Managers, len(managers))
	for _, name := range managers.Names() {
		m := managers[name]
		at, err := u.converter().Convert(live, m.APIVersion)
		if err != nil {
			if u.converter().IsMissingVersionError(err) {
				continue
			}
			return nil, err
		}
		s, err := typed.ReconcileFieldSet(at.Type(), m.Set)
		if err != nil {
			return nil, err
		}
		if s != nil {
			m.Set = s
		}
		out[name] = m
	}
	return out, nil
}

// prune removes from merged what manager applied last time (last) and no
// longer applies, unless another manager owns it.
func (u *Updater) prune(merged typed.Value, managers fieldpath.Managers, manager string, last fieldpath.VersionedSet) (typed.Value, error) {
	if u.prunesNothing(merged, managers[manager].Set, last.Set) {
		if checkPrunes {
			u.checkSkippedPrune(merged, managers, manager, last)
		}
		return merged, nil
	}
	return u.fullPrune(merged, managers, manager, last)
}

// checkSkippedPrune panics when the full prune would have changed merged.
func (u *Updater) checkSkippedPrune(merged typed.Value, managers fieldpath.Managers, manager string, last fieldpath.VersionedSet) {
	full, err := u.fullPrune(merged, managers, manager, last)
	if err != nil || !value.Equal(full.Value(), merged.Value()) {
		panic(fmt.Sprintf("merge: invariant broken: a prune was skipped that changes the object (err %v):\n%v\n->\n%v", err, merged, full))
	}
}

// fullPrune is prune without the shortcut.
func (u *Updater) fullPrune(merged typed.Value, managers fieldpath.Managers, manager string, last fieldpath.VersionedSet) (typed.Value, error) {
	at, err := u.converter().Convert(merged, last.APIVersion)
	if err != nil {
		if u.converter().IsMissingVersionError(err) {
			return merged, nil
		}
		return typed.Value{}, fmt.Errorf("failed to convert merged object to last applied version: %w", err)
	}
	t := at.Type()
	pruned := at.RemoveItems(own.Typed.EnsureNamedFieldsAreMembers(t, last.Set))
	if pruned, err = u.addBackOwned(at, pruned, last.APIVersion, managers); err != nil {
		return typed.Value{}, fmt.Errorf("failed add back owned items: %w", err)
	}
	if pruned, err = u.addBackDangling(at, pruned, last); err != nil {
		return typed.Value{}, fmt.Errorf("failed add back dangling items: %w", err)
	}
	return u.converter().Convert(pruned, managers[manager].APIVersion)
}

// prunesNothing reports, from the field sets alone, that prune would give
// merged back unchanged; most applies repeat what the manager applied
// before, and the full prune walks the object five times to find that out.
//
// Pruning removes only members of the last set (with their named fields
// made members), and only those that the add-back steps leave out. Such a
// member x is kept when the manager's new set covers it too: the new set
// is the field set of the configuration (less whole ignored subtrees), so
// it also holds every list item and map key above x as a member, and
// neither x nor anything above it is dropped. That argument needs the
// object in one form for every version (no converter) and no field filter
// (which could make the new set anything). An empty map or list at the top
// is excluded because removing nothing from it still turns it into null.
func (u *Updater) prunesNothing(merged typed.Value, now, last *fieldpath.Set) bool {
	if _, ok := u.converter().(identity); !ok || len(u.filters) > 0 {
		return false
	}
	if v := merged.Value(); (v.Kind() == value.Map || v.Kind() == value.List) && v.Len() == 0 {
		return false
	}
	return own.Typed.NamedFieldsCovered(merged.Type(), last, now)
}

// addBackOwned puts back into pruned what any manager owns, version by
// version: the pruned version first, then the others in order.
func (u *Updater) addBackOwned(merged, pruned typed.Value, prunedVersion string, managers fieldpath.Managers) (typed.Value, error) {
	owned := map[string]*fieldpath.Set{}
	for _, name := range managers.Names() {
		m := managers[name]
		owned[m.APIVersion] = owned[m.APIVersion].Union(m.Set)
	}
	versions := sortedKeys(owned)
	if _, ok := owned[prunedVersion]; ok {
		versions = slices.DeleteFunc(versions, func(v string) bool { return v == prunedVersion })
		versions = append([]string{prunedVersion}, versions...)
	}
	var err error
	for _, version := range versions {
		if merged, pruned, err = u.addBackOwnedAt(merged, pruned, version, owned[version]); err != nil {
			return typed.Value{}, err
		}
	}
	return pruned, nil
}

func (u *Updater) addBackOwnedAt(merged, pruned typed.Value, version string, owned *fieldpath.Set) (typed.Value, typed.Value, error) {
	m, err := u.converter().Convert(merged, version)
	if err != nil {
		if u.converter().IsMissingVersionError(err) {
			return merged, pruned, nil
		}
		return typed.Value{}, typed.Value{}, fmt.Errorf("failed to convert merged object at version %v: %w", version, err)
	}
	p, err := u.converter().Convert(pruned, version)
	if err != nil {
		if u.converter().IsMissingVersionError(err) {
			return m, pruned, nil
		}
		return typed.Value{}, typed.Value{}, fmt.Errorf("failed to convert pruned object at version %v: %w", version, err)
	}
	t := m.Type()
	mergedSet, err := m.FieldSet()
	if err != nil {
		return typed.Value{}, typed.Value{}, fmt.Errorf("failed to create field set from merged object at version %v: %w", version, err)
	}
	prunedSet, err := p.FieldSet()
	if err != nil {
		return typed.Value{}, typed.Value{}, fmt.Errorf("failed to create field set from pruned object at version %v: %w", version, err)
	}
	keep := own.Typed.EnsureNamedFieldsAreMembers(t, prunedSet).Union(own.Typed.EnsureNamedFieldsAreMembers(t, owned))
	drop := own.Typed.EnsureNamedFieldsAreMembers(t, mergedSet).Difference(keep)
	return m, m.RemoveItems(drop), nil
}

// addBackDangling puts back what merged has that neither the pruning nor
// the last applied set accounts for.
func (u *Updater) addBackDangling(merged, pruned typed.Value, last fieldpath.VersionedSet) (typed.Value, error) {
	p, err := u.converter().Convert(pruned, last.APIVersion)
	if err != nil {
		if u.converter().IsMissingVersionError(err) {
			return merged, nil
		}
		return typed.Value{}, fmt.Errorf("failed to convert pruned object to last applied version: %w", err)
	}
	t := merged.Type()
	prunedSet, err := p.FieldSet()
	if err != nil {
		return typed.Value{}, fmt.Errorf("failed to create field set from pruned object in last applied version: %w", err)
	}
	mergedSet, err := merged.FieldSet()
	if err != nil {
		return typed.Value{}, fmt.Errorf("failed to create field set from merged object in last applied version: %w", err)
	}
	drop := own.Typed.EnsureNamedFieldsAreMembers(t, mergedSet).
		Difference(own.Typed.EnsureNamedFieldsAreMembers(t, prunedSet)).
		Intersection(own.Typed.EnsureNamedFieldsAreMembers(t, last.Set))
	return merged.RemoveItems(drop), nil
}
