package fieldpath

import (
	"github.com/structmerge/structmerge/internal/valueown"
	"github.com/structmerge/structmerge/value"
)

// vown builds and reads values without copying their slices (see package
// valueown); the public constructors and accessors of value copy.
var vown = valueown.Of[value.Value, value.Field]()
