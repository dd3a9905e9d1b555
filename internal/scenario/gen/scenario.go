package gen

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/structmerge/structmerge/internal/scenario"
)

// Scenario is a case written as a scenario file (docs/scenarios.md, structured
// flavour).
type Scenario struct {
	Description string
	// Schema is the schema text; Type the root type name.
	Schema []byte
	Type   string
	// Live is the starting state.
	Live scenario.State
	// Steps are the operations with what is expected of them.
	Steps []Step
}

// Step is one operation of a Scenario and what it must do.
type Step struct {
	Op scenario.Operation
	// Schema, when non-nil, is the schema text the step and the following
	// ones run with (a schema change).
	Schema []byte
	// Conflicts, when non-empty, are the conflicts the step fails with.
	Conflicts []scenario.Conflict
	// Error, when HasError, is text the step's error contains.
	Error    string
	HasError bool
	// After, when non-nil, is the state the step leaves (checked only when
	// the step succeeds).
	After *scenario.State
}

// YAML returns the scenario file text.
func (sc *Scenario) YAML() []byte {
	var b strings.Builder
	b.WriteString("description: " + FormatValue(sc.Description) + "\n")
	b.WriteString("schema:\n  inline: |\n")
	for _, line := range strings.Split(strings.TrimRight(string(sc.Schema), "\n"), "\n") {
		b.WriteString("    " + line + "\n")
	}
	b.WriteString("type: " + FormatValue(sc.Type) + "\n")
	if sc.Live.HasObject || len(sc.Live.Managers) > 0 {
		b.WriteString("live:\n")
		if sc.Live.HasObject {
			b.WriteString("  object: " + FormatValue(sc.Live.Object) + "\n")
		}
		if len(sc.Live.Managers) > 0 {
			b.WriteString("  managers:\n")
			writeManagers(&b, "    ", sc.Live.Managers)
		}
	}
	b.WriteString("steps:\n")
	for _, st := range sc.Steps {
		b.WriteString("- op: " + st.Op.Op + "\n")
		b.WriteString("  manager: " + FormatValue(st.Op.Manager) + "\n")
		b.WriteString("  apiVersion: " + FormatValue(st.Op.APIVersion) + "\n")
		b.WriteString("  object: " + FormatValue(st.Op.Object) + "\n")
		if st.Schema != nil {
			b.WriteString("  schema:\n    inline: |\n")
			for _, line := range strings.Split(strings.TrimRight(string(st.Schema), "\n"), "\n") {
				b.WriteString("      " + line + "\n")
			}
		}
		if len(st.Conflicts) == 0 && !st.HasError && st.After == nil {
			continue
		}
		b.WriteString("  expect:\n")
		if len(st.Conflicts) > 0 {
			b.WriteString("    conflicts:\n")
			cs := slices.Clone(st.Conflicts)
			slices.SortFunc(cs, func(x, y scenario.Conflict) int {
				if c := strings.Compare(x.Manager, y.Manager); c != 0 {
					return c
				}
				return strings.Compare(x.Path, y.Path)
			})
			cs = slices.Compact(cs)
			for _, c := range cs {
				b.WriteString("    - manager: " + FormatValue(c.Manager) + "\n")
				b.WriteString("      path: " + FormatValue(c.Path) + "\n")
			}
		}
		if st.HasError {
			b.WriteString("    error: " + FormatValue(st.Error) + "\n")
		}
		if st.After != nil && len(st.Conflicts) == 0 && !st.HasError {
			b.WriteString("    object: " + FormatValue(st.After.Object) + "\n")
			if len(st.After.Managers) == 0 {
				b.WriteString("    managers: {}\n")
			} else {
				b.WriteString("    managers:\n")
				writeManagers(&b, "      ", st.After.Managers)
			}
		}
	}
	return []byte(b.String())
}

func writeManagers(b *strings.Builder, ind string, ms map[string]scenario.Manager) {
	for _, name := range SortedKeys(ms) {
		m := ms[name]
		b.WriteString(ind + FormatValue(name) + ":\n")
		b.WriteString(ind + "  apiVersion: " + FormatValue(m.APIVersion) + "\n")
		b.WriteString(ind + "  applied: " + strconv.FormatBool(m.Applied) + "\n")
		fields := bytes.TrimSpace(m.FieldsV1)
		if len(fields) == 0 {
			fields = []byte("{}")
		}
		b.WriteString(ind + "  fields: " + string(fields) + "\n")
	}
}

// FormatValue writes an unstructured value as YAML flow text (JSON with
// map keys sorted, and floats that keep a decimal point so that they read
// back as floats).
func FormatValue(v any) string {
	var b strings.Builder
	formatValue(&b, v)
	return b.String()
}

func formatValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int32:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case float32:
		formatFloat(b, float64(x))
	case float64:
		formatFloat(b, x)
	case string:
		b.WriteString(quote(x))
	case []any:
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			formatValue(b, item)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range SortedKeys(x) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(quote(k) + ": ")
			formatValue(b, x[k])
		}
		b.WriteByte('}')
	default:
		// Not an unstructured value: print it as JSON as best we can.
		out, err := json.Marshal(x)
		if err != nil {
			b.WriteString(quote(err.Error()))
			return
		}
		b.Write(out)
	}
}

func formatFloat(b *strings.Builder, f float64) {
	switch {
	case math.IsNaN(f):
		b.WriteString(".nan")
		return
	case math.IsInf(f, 1):
		b.WriteString(".inf")
		return
	case math.IsInf(f, -1):
		b.WriteString("-.inf")
		return
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	b.WriteString(s)
}

// quote writes s as a JSON string, which YAML reads as a double-quoted
// scalar.
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return strconv.Quote(s)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
