package cli

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

func newBlame() *cobra.Command {
	var f inputFlags
	var cf clusterFlags
	var timeMode, manager, output string
	cmd := &cobra.Command{
		Use:   "blame -f FILE|-",
		Short: "Print live objects with each line annotated by the managers that own it",
		Long: "Prints each object as YAML (it re-parses to the same object) with a comment on every line whose field,\n" +
			"list item or set member a manager owns: the managers (co-owners listed together), their operation,\n" +
			"subresource and the time of their last write (--time relative, absolute or none; relative times are\n" +
			"measured from the clock, or from $STRUCTMERGE_NOW when set). --manager keeps one manager's fields;\n" +
			"-o json prints the ownership list instead.\n" +
			"With --kubeconfig or --context the objects the files name are read from that cluster (GET only).\n" +
			"Exit status: 0, or 2 on bad input.",
		Example: "  structmerge blame -f examples/live/deployment.yaml\n" +
			"  kubectl get deploy web -o yaml --show-managed-fields | structmerge blame -f - --time absolute\n" +
			"  structmerge blame -f examples/live/deployment.yaml --manager kubectl -o json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch timeMode {
			case "relative", "absolute", "none":
			default:
				return badf("--time: %q is not relative, absolute or none", timeMode)
			}
			if output != "yaml" && output != "json" {
				return badf("-o: %q is not yaml or json", output)
			}
			objs, err := f.read(cmd)
			if err != nil {
				return err
			}
			if cf.enabled() {
				// The objects of the files name those to read.
				if objs, err = cf.liveObjects(cmd, objs); err != nil {
					return err
				}
			}
			at, err := now()
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			var all []value.Value
			for i, o := range objs {
				entries, err := kube.DecodeManagedFields(o.Value)
				if err != nil {
					return badf("%s: .metadata.managedFields: %v", o.at(managedFieldsPath), err)
				}
				if manager != "" {
					var keep []kube.ManagedFieldsEntry
					for _, e := range entries {
						if e.Manager == manager {
							keep = append(keep, e)
						}
					}
					entries = keep
				}
				b := &blamer{entries: entries, mode: timeMode, now: at}
				root := b.node(o.Value, b.rootSets(), nil)
				if output == "json" {
					all = append(all, b.ownershipJSON(o))
					continue
				}
				if i > 0 {
					io.WriteString(w, "---\n")
				}
				var buf bytes.Buffer
				enc := yaml.NewEncoder(&buf)
				enc.SetIndent(2)
				if err := enc.Encode(root); err != nil {
					return fmt.Errorf("%s: %w", o.where(), err)
				}
				enc.Close()
				w.Write(buf.Bytes())
			}
			if output == "json" {
				v := value.NewList(all)
				if len(all) == 1 {
					v = all[0]
				}
				w.Write(append(value.AppendJSONIndent(nil, v, "", "  "), '\n'))
			}
			return nil
		},
	}
	f.register(cmd, "the live objects, with managedFields")
	cf.register(cmd)
	cmd.Flags().StringVar(&timeMode, "time", "relative", "how to show times: relative, absolute or none")
	cmd.Flags().StringVar(&manager, "manager", "", "show only the fields of this manager")
	cmd.Flags().StringVarP(&output, "output", "o", "yaml", "output format: yaml (annotated object) or json (ownership list)")
	return cmd
}

// blamer annotates one object.
type blamer struct {
	entries []kube.ManagedFieldsEntry
	mode    string
	now     time.Time
	owned   []ownedPath // in the order of the object
}

type ownedPath struct {
	path   fieldpath.Path
	owners []int
}

func (b *blamer) rootSets() []*fieldpath.Set {
	sets := make([]*fieldpath.Set, len(b.entries))
	for i, e := range b.entries {
		sets[i] = e.Fields
	}
	return sets
}

// describe renders the owners of one line.
func (b *blamer) describe(owners []int) string {
	parts := make([]string, len(owners))
	for i, o := range owners {
		e := b.entries[o]
		s := e.Manager + " (" + string(e.Operation)
		if e.Subresource != "" {
			s += ", " + e.Subresource
		}
		s += ")"
		if !e.Time.IsZero() {
			switch b.mode {
			case "absolute":
				s += " " + e.Time.UTC().Format(time.RFC3339)
			case "relative":
				s += " " + relative(b.now.Sub(e.Time))
			}
		}
		parts[i] = s
	}
	return strings.Join(parts, ", ")
}

// relative renders a duration as kubectl renders ages: 45s, 5m, 3h, 2d.
func relative(d time.Duration) string {
	if d < 0 {
		return "in the future"
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}

// step finds which entries own pe and their subsets under it.
func (b *blamer) step(sets []*fieldpath.Set, pe fieldpath.PathElement, path fieldpath.Path) (owners []int, next []*fieldpath.Set) {
	next = make([]*fieldpath.Set, len(sets))
	for i, s := range sets {
		if s.Empty() {
			continue
		}
		if s.HasMember(pe) {
			owners = append(owners, i)
		}
		next[i] = s.WithPrefix(pe)
	}
	if len(owners) > 0 {
		b.owned = append(b.owned, ownedPath{path: path.Copy(), owners: owners})
	}
	return owners, next
}

func anySet(sets []*fieldpath.Set) bool {
	for _, s := range sets {
		if !s.Empty() {
			return true
		}
	}
	return false
}

// node renders v as a YAML node annotated with the owners in sets.
func (b *blamer) node(v value.Value, sets []*fieldpath.Set, path fieldpath.Path) *yaml.Node {
	switch v.Kind() {
	case value.Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if v.Len() == 0 {
			n.Style = yaml.FlowStyle
		}
		for _, f := range v.Fields() {
			pe := fieldpath.FieldName(f.Name)
			p := append(path, pe)
			var owners []int
			next := sets
			if anySet(sets) {
				owners, next = b.step(sets, pe, p)
			} else {
				next = nil
			}
			k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.Name}
			c := b.node(f.Value, next, p)
			if len(owners) > 0 {
				addComment(k, c, b.describe(owners))
			}
			n.Content = append(n.Content, k, c)
		}
		return n
	case value.List:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if v.Len() == 0 {
			n.Style = yaml.FlowStyle
		}
		var cands []fieldpath.PathElement
		if anySet(sets) {
			for _, s := range sets {
				cands = append(cands, own.Set.Members(s)...)
				for _, c := range s.Children() {
					cands = append(cands, c.Element)
				}
			}
		}
		for i, it := range v.Items() {
			var owners []int
			var next []*fieldpath.Set
			var p fieldpath.Path
			if pe, ok := matchItem(cands, it, i); ok {
				p = append(path, pe)
				owners, next = b.step(sets, pe, p)
			}
			c := b.node(it, next, p)
			if len(owners) > 0 {
				addComment(nil, c, b.describe(owners))
			}
			n.Content = append(n.Content, c)
		}
		return n
	}
	return scalarNode(v)
}

// addComment puts text on the line of a field (key k, value c) or of a
// list item (k nil).
func addComment(k, c *yaml.Node, text string) {
	target := c
	if c.Kind != yaml.ScalarNode && c.Style != yaml.FlowStyle {
		target = k
		if k == nil {
			// An item that is a map or list: its first line is that of
			// its first entry.
			switch {
			case c.Kind == yaml.MappingNode && len(c.Content) >= 2:
				k0, v0 := c.Content[0], c.Content[1]
				t := v0
				if v0.Kind != yaml.ScalarNode && v0.Style != yaml.FlowStyle {
					t = k0
				}
				switch t.LineComment {
				case "", "# " + text:
					t.LineComment = "# " + text
				default:
					t.LineComment = "# item: " + text + "; " + k0.Value + ": " + strings.TrimPrefix(t.LineComment, "# ")
				}
				return
			default:
				return
			}
		}
	}
	target.LineComment = "# " + text
}

// matchItem finds the path element of item i among the candidates: the
// keyed item whose keys it has, the set member it equals, or index i.
func matchItem(cands []fieldpath.PathElement, item value.Value, i int) (fieldpath.PathElement, bool) {
	for pass := 0; pass < 2; pass++ {
		for _, c := range cands {
			switch c.Kind() {
			case fieldpath.ValueKind:
				if pass == 0 && value.Equal(c.Value(), item) {
					return c, true
				}
			case fieldpath.IndexKind:
				if pass == 0 && c.Index() == i {
					return c, true
				}
			case fieldpath.KeyKind:
				if item.Kind() == value.Map && keyMatches(own.Set.KeyFields(c), item, pass == 1) {
					return c, true
				}
			}
		}
	}
	return fieldpath.PathElement{}, false
}

// keyMatches reports whether item has the key fields; loose accepts a key
// field the item lacks (a defaulted key, such as a port's protocol).
func keyMatches(key []value.Field, item value.Value, loose bool) bool {
	found := 0
	for _, k := range key {
		v, ok := item.Get(k.Name)
		if !ok {
			if loose {
				continue
			}
			return false
		}
		if !value.Equal(v, k.Value) {
			return false
		}
		found++
	}
	return found > 0
}

// scalarNode renders a scalar so that it re-parses to the same value.
func scalarNode(v value.Value) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode}
	switch v.Kind() {
	case value.Null:
		n.Tag, n.Value = "!!null", "null"
	case value.Bool:
		n.Tag, n.Value = "!!bool", strconv.FormatBool(v.AsBool())
	case value.Int:
		n.Tag, n.Value = "!!int", strconv.FormatInt(v.AsInt(), 10)
	case value.Float:
		f := v.AsFloat()
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !math.IsInf(f, 0) && !math.IsNaN(f) && !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		n.Tag, n.Value = "!!float", s
	default:
		n.Tag, n.Value = "!!str", v.AsString()
		if strings.Contains(n.Value, "\n") {
			n.Style = yaml.LiteralStyle
		}
	}
	return n
}

// ownershipJSON is the machine-readable ownership list of one object.
func (b *blamer) ownershipJSON(o object) value.Value {
	var items []value.Value
	for _, op := range b.owned {
		var ms []value.Value
		for _, i := range op.owners {
			ms = append(ms, entryJSON(b.entries[i]))
		}
		items = append(items, value.NewMap([]value.Field{
			{Name: "path", Value: value.NewString(op.path.String())},
			{Name: "managers", Value: value.NewList(ms)},
		}))
	}
	return value.NewMap([]value.Field{
		{Name: "apiVersion", Value: value.NewString(str(o.Value, "apiVersion"))},
		{Name: "kind", Value: value.NewString(str(o.Value, "kind"))},
		{Name: "namespace", Value: value.NewString(o.namespace())},
		{Name: "name", Value: value.NewString(o.name())},
		{Name: "fields", Value: value.NewList(items)},
	})
}

func entryJSON(e kube.ManagedFieldsEntry) value.Value {
	fs := []value.Field{
		{Name: "manager", Value: value.NewString(e.Manager)},
		{Name: "operation", Value: value.NewString(string(e.Operation))},
	}
	if e.APIVersion != "" {
		fs = append(fs, value.Field{Name: "apiVersion", Value: value.NewString(e.APIVersion)})
	}
	if e.Subresource != "" {
		fs = append(fs, value.Field{Name: "subresource", Value: value.NewString(e.Subresource)})
	}
	if !e.Time.IsZero() {
		fs = append(fs, value.Field{Name: "time", Value: value.NewString(e.Time.UTC().Format(time.RFC3339))})
	}
	return value.NewMap(fs)
}
