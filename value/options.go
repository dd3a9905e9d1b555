package value

import (
	"fmt"
)

// Default limits for decoding.
const (
	DefaultMaxDepth = 1000
	DefaultMaxBytes = 64 << 20
)

// maxMaxDepth bounds MaxDepth so that decoding, which recurses once per
// level, cannot exhaust the goroutine stack.
const maxMaxDepth = 100_000

// DecodeOption configures FromJSON, FromYAML and FromYAMLDocuments.
type DecodeOption func(decodeConfig) decodeConfig

type decodeConfig struct {
	maxDepth int
	maxBytes int64
	err      error
}

// MaxDepth limits how deeply lists and maps may nest; a list or map at the
// top level is at depth 1. The default is DefaultMaxDepth. Deeper input
// fails with an error wrapping ErrTooDeep. n must be between 1 and 100000.
func MaxDepth(n int) DecodeOption {
	return func(c decodeConfig) decodeConfig {
		if n <= 0 || n > maxMaxDepth {
			c.err = fmt.Errorf("value: MaxDepth must be between 1 and %d, got %d", maxMaxDepth, n)
			return c
		}
		c.maxDepth = n
		return c
	}
}

// MaxBytes limits the size of the input in bytes. The default is
// DefaultMaxBytes. Larger input fails with an error wrapping ErrTooLarge.
// n must be positive.
func MaxBytes(n int64) DecodeOption {
	return func(c decodeConfig) decodeConfig {
		if n <= 0 {
			c.err = fmt.Errorf("value: MaxBytes must be positive, got %d", n)
			return c
		}
		c.maxBytes = n
		return c
	}
}

func resolveOptions(opts []DecodeOption) (decodeConfig, error) {
	c := decodeConfig{maxDepth: DefaultMaxDepth, maxBytes: DefaultMaxBytes}
	for _, o := range opts {
		if o != nil {
			c = o(c)
		}
	}
	return c, c.err
}
