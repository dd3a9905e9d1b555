package scenario

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/structmerge/structmerge/value"
)

// RewriteExpect returns the scenario file data with its final `expect:`
// block replaced by one that states final: the object and, for a
// structured scenario, the managers (`kubernetes` says which flavour).
// The rest of the file is kept byte for byte; a file without a final
// `expect:` block gets one at its end. It is how a runner fills in the
// expectations of a new scenario from an engine, for a person to review.
//
// In a Kubernetes object, the fields the scenario format ignores unless
// they are named (resourceVersion, uid, creationTimestamp, generation, and
// the time of each managedFields entry) are left out.
func RewriteExpect(data []byte, final State, kubernetes bool) ([]byte, error) {
	obj := final.Object
	if kubernetes {
		obj = withoutServerFields(obj)
	}
	v, err := value.FromUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("the final object cannot be written: %w", err)
	}
	var b bytes.Buffer
	b.WriteString("expect:\n")
	if !final.HasObject || v.IsNull() {
		b.WriteString("  object: null\n")
	} else {
		b.WriteString("  object:\n")
		writeIndented(&b, value.ToYAML(v), "    ")
	}
	if !kubernetes {
		if len(final.Managers) == 0 {
			b.WriteString("  managers: {}\n")
		} else {
			b.WriteString("  managers:\n")
			names := make([]string, 0, len(final.Managers))
			for n := range final.Managers {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				m := final.Managers[n]
				key, err := value.FromUnstructured(n)
				if err != nil {
					return nil, err
				}
				fmt.Fprintf(&b, "    %s:\n", strings.TrimSuffix(string(value.ToYAML(key)), "\n"))
				if m.APIVersion != "" {
					fmt.Fprintf(&b, "      apiVersion: %s\n", yamlScalar(m.APIVersion))
				}
				fmt.Fprintf(&b, "      applied: %v\n", m.Applied)
				fmt.Fprintf(&b, "      fields: %s\n", bytes.TrimSpace(m.FieldsV1))
			}
		}
	}

	lines := bytes.SplitAfter(data, []byte("\n"))
	start, end := -1, len(lines)
	for i, l := range lines {
		if start < 0 {
			if bytes.HasPrefix(l, []byte("expect:")) {
				start = i
			}
			continue
		}
		if len(l) > 0 && l[0] != ' ' && l[0] != '\t' && l[0] != '\n' && l[0] != '\r' {
			end = i
			break
		}
	}
	var out bytes.Buffer
	if start < 0 {
		out.Write(data)
		if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
			out.WriteByte('\n')
		}
		out.Write(b.Bytes())
		return out.Bytes(), nil
	}
	for _, l := range lines[:start] {
		out.Write(l)
	}
	out.Write(b.Bytes())
	for _, l := range lines[end:] {
		out.Write(l)
	}
	return out.Bytes(), nil
}

func yamlScalar(s string) string {
	v, _ := value.FromUnstructured(s)
	return strings.TrimSuffix(string(value.ToYAML(v)), "\n")
}

func writeIndented(b *bytes.Buffer, text []byte, indent string) {
	for _, l := range bytes.SplitAfter(text, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		b.WriteString(indent)
		b.Write(l)
	}
}

// withoutServerFields returns a copy of a Kubernetes object without the
// fields the scenario format ignores unless they are named.
func withoutServerFields(obj any) any {
	m, ok := obj.(map[string]any)
	if !ok {
		return obj
	}
	md, ok := m["metadata"].(map[string]any)
	if !ok {
		return obj
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	nmd := make(map[string]any, len(md))
	for k, v := range md {
		switch k {
		case "resourceVersion", "uid", "creationTimestamp", "generation":
			continue
		}
		nmd[k] = v
	}
	if mf, ok := md["managedFields"].([]any); ok {
		entries := make([]any, len(mf))
		for i, e := range mf {
			em, ok := e.(map[string]any)
			if !ok {
				entries[i] = e
				continue
			}
			ne := make(map[string]any, len(em))
			for k, v := range em {
				if k != "time" {
					ne[k] = v
				}
			}
			entries[i] = ne
		}
		nmd["managedFields"] = entries
	}
	out["metadata"] = nmd
	return out
}
