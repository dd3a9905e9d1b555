package value

import (
	"fmt"
)

// Default limits for decoding.
const (
	DefaultMaxDepth = 1000
	DefaultMaxBytes = 64 << 20
)

// DecodeOption configures FromJSON, FromYAML and FromYAMLDocuments.
type DecodeOption func(*decodeConfig)

type decodeConfig struct {
	maxDepth int
	maxBytes int64
	err      error
}

// MaxDepth limits how deeply lists and maps may nest; the top-level value is
// at depth 1. The default is DefaultMaxDepth. Deeper input fails with an
// error wrapping ErrTooDeep. n must be positive.
func MaxDepth(n int) DecodeOption {
	return func(c *decodeConfig) {
		if n <= 0 {
			c.err = fmt.Errorf("value: MaxDepth must be positive, got %d", n)
			return
		}
		c.maxDepth = n
	}
}

// MaxBytes limits the size of the input in bytes. The default is
// DefaultMaxBytes. Larger input fails with an error wrapping ErrTooLarge.
// n must be positive.
func MaxBytes(n int64) DecodeOption {
	return func(c *decodeConfig) {
		if n <= 0 {
			c.err = fmt.Errorf("value: MaxBytes must be positive, got %d", n)
			return
		}
		c.maxBytes = n
	}
}

func resolveOptions(opts []DecodeOption) (decodeConfig, error) {
	c := decodeConfig{maxDepth: DefaultMaxDepth, maxBytes: DefaultMaxBytes}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c, c.err
}
