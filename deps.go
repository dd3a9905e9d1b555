//go:build tools

package structmerge

import (
	_ "github.com/google/go-cmp/cmp"
	_ "go.yaml.in/yaml/v3"
)
