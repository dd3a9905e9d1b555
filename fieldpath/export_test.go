package fieldpath

import "github.com/structmerge/structmerge/value"

// PlainPrefixForTest exposes plainPrefix to the external tests.
func PlainPrefixForTest(s string) int { return plainPrefix(s) }

// CountBracesForTest exposes countBraces to the external tests.
func CountBracesForTest(b []byte) (open, empty int) { return countBraces(b) }

// PlainKeyForTest writes the key fields with the direct writer, reporting
// whether it took them, and with the general one.
func PlainKeyForTest(fields []value.Field) (plain string, ok bool, general string) {
	p, ok := appendPlainKey(nil, fields)
	return string(p), ok, string(appendEscapedKey(nil, fields))
}
