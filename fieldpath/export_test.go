package fieldpath

// PlainPrefixForTest exposes plainPrefix to the external tests.
func PlainPrefixForTest(s string) int { return plainPrefix(s) }
