package fieldpath

import "github.com/structmerge/structmerge/value"

// PlainPrefixForTest exposes plainPrefix to the external tests.
func PlainPrefixForTest(s string) int { return plainPrefix(s) }

// PlainKeyForTest writes the key fields with the direct writer, reporting
// whether it took them, and with the general one.
func PlainKeyForTest(fields []value.Field) (plain string, ok bool, general string) {
	p, ok := appendPlainKey(nil, fields)
	return string(p), ok, string(appendEscapedKey(nil, fields))
}

// ParseFieldsV1Modes parses data with every combination of the decoder's
// strategies (shortcuts on or off, sharing on or off), the default first.
func ParseFieldsV1Modes(data []byte) (names []string, sets []*Set, errs []error) {
	for _, m := range []struct {
		name string
		mode decodeMode
	}{
		{"default", decodeMode{}},
		{"shared", decodeMode{share: shareOn}},
		{"unshared", decodeMode{share: shareOff}},
		{"general shared", decodeMode{generalOnly: true, share: shareOn}},
		{"general unshared", decodeMode{generalOnly: true, share: shareOff}},
	} {
		s, err := parseFieldsV1(data, m.mode)
		names, sets, errs = append(names, m.name), append(sets, s), append(errs, err)
	}
	return names, sets, errs
}

// CountNodesForTest returns how many nodes s has, counting a node reached
// twice twice, and how many distinct nodes.
func CountNodesForTest(s *Set) (nodes, distinct int) {
	seen := map[*Set]bool{}
	var walk func(*Set)
	walk = func(s *Set) {
		nodes++
		if !seen[s] {
			seen[s] = true
			distinct++
		}
		for _, c := range s.cs() {
			walk(c.Set)
		}
	}
	walk(s)
	return nodes, distinct
}
