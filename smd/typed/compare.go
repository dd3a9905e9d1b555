package typed

import (
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Comparison is what changed from one value to another.
type Comparison struct {
	// Removed are the fields the first value has and the second does not.
	Removed *fieldpath.Set
	// Modified are the fields whose value differs.
	Modified *fieldpath.Set
	// Added are the fields the second value has and the first does not.
	Added *fieldpath.Set
}

// IsSame reports whether nothing changed.
func (c *Comparison) IsSame() bool {
	return c.Removed.Empty() && c.Modified.Empty() && c.Added.Empty()
}

// String lists the modified, added and removed fields, each under a
// heading, omitting empty ones.
func (c *Comparison) String() string {
	var b strings.Builder
	for _, part := range []struct {
		name string
		set  *fieldpath.Set
	}{{"Modified", c.Modified}, {"Added", c.Added}, {"Removed", c.Removed}} {
		if !part.set.Empty() {
			b.WriteString("- " + part.name + " Fields:\n" + part.set.String() + "\n")
		}
	}
	return b.String()
}

// ExcludeFields removes fields, and everything below them, from the
// comparison, in place, and returns it.
func (c *Comparison) ExcludeFields(fields *fieldpath.Set) *Comparison {
	if fields == nil || fields.Empty() {
		return c
	}
	c.Removed = c.Removed.RecursiveDifference(fields)
	c.Modified = c.Modified.RecursiveDifference(fields)
	c.Added = c.Added.RecursiveDifference(fields)
	return c
}

// FilterFields applies filter to the three sets, in place, and returns the
// comparison.
func (c *Comparison) FilterFields(filter fieldpath.Filter) *Comparison {
	if filter == nil {
		return c
	}
	c.Removed = filter.Filter(c.Removed)
	c.Modified = filter.Filter(c.Modified)
	c.Added = filter.Filter(c.Added)
	return c
}
