package fieldpath

// PlainPrefixForTest exposes plainPrefix to the external tests.
func PlainPrefixForTest(s string) int { return plainPrefix(s) }

// CountBracesForTest exposes countBraces to the external tests.
func CountBracesForTest(b []byte) (open, empty int) { return countBraces(b) }
