package value

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// ToYAML returns v as a block-style YAML document, the way kubectl -o yaml
// prints objects: keys in sorted order, two-space indentation, list items
// ("- ") at the indentation of their parent key, strings quoted only where
// needed to read back as the same string, multi-line strings as literal
// blocks. FromYAML(ToYAML(v)) is Equal to v, except that invalid UTF-8 in
// strings is replaced by U+FFFD (YAML text must be UTF-8) and that a float
// NaN or infinity (which no decoder here produces) is written as null.
func ToYAML(v Value) []byte {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	err := enc.Encode(yamlNode(v))
	if err == nil {
		err = enc.Close()
	}
	if err != nil {
		// Not expected: the node tree holds only valid UTF-8 scalars with
		// core-schema tags. JSON is YAML, so fall back to it.
		return append(AppendJSON(nil, v), '\n')
	}
	return buf.Bytes()
}

func yamlNode(v Value) *yaml.Node {
	switch v.kind {
	case Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatBool(v.AsBool())}
	case Int:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatInt(int64(v.n), 10)}
	case Float:
		f := math.Float64frombits(v.n)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			break
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Value: string(appendFloat(nil, f))}
	case String:
		return yamlString(v.str())
	case List:
		items := v.items()
		n := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, len(items))}
		if len(items) == 0 {
			n.Style = yaml.FlowStyle
		}
		for i := range items {
			n.Content[i] = yamlNode(items[i])
		}
		return n
	case Map:
		fields := v.fields()
		n := &yaml.Node{Kind: yaml.MappingNode, Content: make([]*yaml.Node, 0, 2*len(fields))}
		if len(fields) == 0 {
			n.Style = yaml.FlowStyle
		}
		for i := range fields {
			n.Content = append(n.Content, yamlString(fields[i].Name), yamlNode(fields[i].Value))
		}
		return n
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: "null"}
}

// yamlString returns a string scalar; the encoder quotes it when its plain
// form would read back as something else.
func yamlString(s string) *yaml.Node {
	if !utf8.ValidString(s) {
		s = validUTF8(s)
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11Bool(s) || (strings.Contains(s, "\n") && !literalSafe(s)) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yaml11Bool reports whether s is a boolean in YAML 1.1, which readers such
// as sigs.k8s.io/yaml still use; we quote such strings although YAML 1.2
// reads them as strings.
func yaml11Bool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// literalSafe reports whether the YAML encoder can write a multi-line s as a
// literal block that reads back unchanged: it cannot when a line starts with
// a tab.
func literalSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\t' && (i == 0 || s[i-1] == '\n') {
			return false
		}
	}
	return true
}

// validUTF8 replaces each invalid byte by U+FFFD, as the JSON encoder does.
func validUTF8(s string) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}
