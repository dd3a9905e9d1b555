package value

import (
	"fmt"

	"github.com/structmerge/structmerge/internal/valueown"
)

// Default limits for decoding.
const (
	DefaultMaxDepth = 1000
	DefaultMaxBytes = 64 << 20
)

// maxMaxDepth bounds MaxDepth so that decoding, which recurses once per
// level, cannot exhaust the goroutine stack.
const maxMaxDepth = 100_000

// DecodeOption configures the decoders and converters: FromJSON,
// FromJSONString, FromYAML, FromYAMLDocuments, FromUnstructured, the
// struct conversions of package gostruct (FromStruct and
// Codec.FromStruct) and package manifest's Decode. MaxBytes bounds the
// decoders of bytes; MaxDepth bounds every one; Like is read by FromJSON,
// FromJSONString, FromUnstructured and the struct conversions (the others
// give the same result without it).
type DecodeOption func(decodeConfig) decodeConfig

// decodeConfig is what options resolve to. Its type is in an internal
// package so that the module's other converters (packages gostruct and
// manifest) resolve their options as this package does.
type decodeConfig = valueown.DecodeConfig[Origin]

// Like makes a decoder give, for each part of its result equal to the part
// of like at the same path (map fields by name, list items by index; an
// integer is not taken for an equal float), like's part itself: the same
// stored map, list or string (Same). The result is equal to what the
// decoder gives without the option; what the sharing buys is that
// comparing the result with like (an update's object with the live one,
// decoded before it) finds the unchanged parts at once, and that the
// result takes new memory only for the parts that differ. like may be any
// value, null included: one that shares nothing with the input costs
// nothing more. A later Like or LikeOrigin replaces an earlier one.
func Like(like Value) DecodeOption { return LikeOrigin(Origin{Value: like}) }

// LikeOrigin is Like(o.Value) where o.Data is the Go value o.Value was
// converted from, unmodified since. Only the struct conversions read Data:
// a struct below the root, or a part with its own marshalling
// (MarshalJSON, MarshalText, ToUnstructured), that is equal in Go to
// o.Data's part at the same place (struct fields, pointers and list items
// by index; not inside Go maps) is not converted again, its value is
// o.Value's part there. An update's object, sent whole next to the live
// one, mostly holds such parts, and comparing two Go values costs a
// fraction of converting one. It assumes that types with their own
// marshalling marshal equal values to equal JSON, as the Kubernetes API
// types do. A Data of another type than the one converted is not used.
func LikeOrigin(o Origin) DecodeOption {
	return func(c decodeConfig) decodeConfig {
		c.Like = o
		return c
	}
}

// MaxDepth limits how deeply lists and maps may nest; a list or map at the
// top level is at depth 1. The default is DefaultMaxDepth. Deeper input
// fails with an error wrapping ErrTooDeep. n must be between 1 and 100000.
func MaxDepth(n int) DecodeOption {
	return func(c decodeConfig) decodeConfig {
		if n <= 0 || n > maxMaxDepth {
			c.Err = fmt.Errorf("value: MaxDepth must be between 1 and %d, got %d", maxMaxDepth, n)
			return c
		}
		c.MaxDepth = n
		return c
	}
}

// MaxBytes limits the size of the input in bytes. The default is
// DefaultMaxBytes. Larger input fails with an error wrapping ErrTooLarge.
// n must be positive.
func MaxBytes(n int64) DecodeOption {
	return func(c decodeConfig) decodeConfig {
		if n <= 0 {
			c.Err = fmt.Errorf("value: MaxBytes must be positive, got %d", n)
			return c
		}
		c.MaxBytes = n
		return c
	}
}

func resolveOptions(opts []DecodeOption) (decodeConfig, error) {
	return valueown.Resolve(opts, DefaultMaxDepth, DefaultMaxBytes)
}
