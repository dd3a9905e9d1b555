package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// externalDiffEnv names the program kubectl diff runs instead of diff -u -N.
const externalDiffEnv = "KUBECTL_EXTERNAL_DIFF"

// externalArg is what kubectl accepts as an argument of the external diff
// program: flags only.
var externalArg = regexp.MustCompile(`^--?[a-zA-Z0-9-=]+$`)

func newDiff() *cobra.Command {
	var f applyFlags
	var color, output string
	var summary, showManaged, showSecrets bool
	cmd := &cobra.Command{
		Use:   "diff -f FILE|DIR|- [--live FILE|DIR|- | --context NAME]",
		Short: "Show what a server-side apply would change, offline",
		Long: "Applies the manifests to the live objects as apply does and prints a unified diff of each live object\n" +
			"against the merged one, as kubectl diff --server-side does. managedFields are hidden unless\n" +
			"--show-managed-fields; the data of Secrets is masked unless --show-secrets. --summary lists the field\n" +
			"paths added, modified and removed with their current owners; -o json prints live, merged and changes.\n" +
			"When $KUBECTL_EXTERNAL_DIFF is set, the objects are written to two directories, LIVE-* and MERGED-*,\n" +
			"one file per object named group.version.kind.namespace.name, and the program is run on the two\n" +
			"directories, as kubectl does. With --kubeconfig or --context the live objects (and the CRDs of custom\n" +
			"resources) are read from that cluster with GET only, so read-only credentials suffice.\n" +
			"Exit status: 0 no differences, 1 differences, >1 error (a conflict, bad input, a failing diff program).",
		Example: "  structmerge diff -f examples/deployment.yaml --live examples/live/\n" +
			"  structmerge diff -f manifests/ -R --context readonly\n" +
			"  structmerge diff -f examples/ --live examples/live/ --summary\n" +
			"  KUBECTL_EXTERNAL_DIFF=\"meld\" structmerge diff -f examples/service.yaml --live examples/live/",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch color {
			case "auto", "always", "never":
			default:
				return badf("--color: %q is not auto, always or never", color)
			}
			if output != "" && output != "json" {
				return badf("-o: %q is not json", output)
			}
			res, t, err := f.run(cmd)
			if err != nil {
				return err
			}
			for _, a := range res {
				if a.conflict != nil {
					printConflict(cmd.ErrOrStderr(), a, f.fieldManager)
					return exitError{2}
				}
			}
			var items []diffItem
			changed := false
			for _, a := range res {
				d, err := newDiffItem(t, a, showManaged, showSecrets)
				if err != nil {
					return err
				}
				if d.liveText != d.mergedText {
					changed = true
				}
				items = append(items, d)
			}
			w := cmd.OutOrStdout()
			switch {
			case output == "json":
				var vs []value.Value
				for _, d := range items {
					vs = append(vs, d.json())
				}
				w.Write(append(value.AppendJSONIndent(nil, value.NewList(vs), "", "  "), '\n'))
			case summary:
				for _, d := range items {
					d.printSummary(w)
				}
			case strings.TrimSpace(os.Getenv(externalDiffEnv)) != "":
				return runExternal(cmd, items)
			default:
				colored := color == "always" || (color == "auto" && isTerminal(w))
				for _, d := range items {
					text := unified("LIVE/"+d.name, "MERGED/"+d.name, d.liveText, d.mergedText)
					if colored {
						text = colorize(text)
					}
					io.WriteString(w, text)
				}
			}
			if changed {
				return exitError{1}
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&color, "color", "auto", "color the diff: auto (when writing to a terminal), always or never")
	cmd.Flags().BoolVar(&summary, "summary", false, "list the changed field paths with their owners instead of a diff")
	cmd.Flags().BoolVar(&showManaged, "show-managed-fields", false, "include metadata.managedFields in the diff")
	cmd.Flags().BoolVar(&showSecrets, "show-secrets", false, "show the data of Secrets instead of masking it")
	cmd.Flags().StringVarP(&output, "output", "o", "", "json: print live, merged and the changes as JSON")
	return cmd
}

type diffItem struct {
	a                    applied
	name                 string
	live, merged         value.Value // as shown
	liveText, mergedText string
	cmp                  *typed.Comparison
	liveOwners           []kube.ManagedFieldsEntry
	mergedOwners         []kube.ManagedFieldsEntry
}

func newDiffItem(t *types, a applied, showManaged, showSecrets bool) (diffItem, error) {
	o := a.manifest
	gvk := o.gvk()
	ns := o.namespace()
	if ns == "" {
		ns = "default"
	}
	name := gvk.Kind + "." + ns + "." + o.name()
	if gvk.Group != "" {
		name = gvk.Group + "." + gvk.Version + "." + name
	} else {
		name = gvk.Version + "." + name
	}
	d := diffItem{a: a, name: name}
	live, merged := a.live, a.result
	if lg := kube.GVKOf(live); t.converter != nil && !live.IsNull() && lg != gvk && lg.Group == gvk.Group && lg.Kind == gvk.Kind {
		// kubectl diff shows the live object at the manifest's version,
		// as the API server serves it.
		if c, err := t.converter.ConvertVersion(live, gvk); err == nil {
			live = c
		}
	}
	d.liveOwners, _ = kube.DecodeManagedFields(live)
	d.mergedOwners, _ = kube.DecodeManagedFields(merged)
	if !showManaged {
		live, merged = dropManagedFields(live), dropManagedFields(merged)
	}
	ty, ok := t.resolver.ResolveType(gvk)
	if ok {
		l := live
		if l.IsNull() {
			l = value.NewMap(nil)
		}
		cmp, err := typed.Compare(ty, dropManagedFields(l), dropManagedFields(merged))
		if err != nil {
			return d, badf("%s: %s: %v", o.at(errorPath(err)), o.resource(), err)
		}
		d.cmp = cmp
	}
	if !showSecrets && gvk.Group == "" && gvk.Kind == "Secret" {
		live, merged = maskSecret(live, merged)
	}
	d.live, d.merged = live, merged
	if !live.IsNull() {
		d.liveText = string(value.ToYAML(live))
	}
	d.mergedText = string(value.ToYAML(merged))
	return d, nil
}

func dropManagedFields(obj value.Value) value.Value {
	md, ok := obj.Get("metadata")
	if !ok || md.Kind() != value.Map || !md.Has("managedFields") {
		return obj
	}
	return withField(obj, "metadata", withoutField(md, "managedFields"))
}

func withoutField(m value.Value, name string) value.Value {
	var fs []value.Field
	for _, f := range m.Fields() {
		if f.Name != name {
			fs = append(fs, f)
		}
	}
	return value.NewMap(fs)
}

func withField(m value.Value, name string, v value.Value) value.Value {
	fs := []value.Field{{Name: name, Value: v}}
	for _, f := range m.Fields() {
		if f.Name != name {
			fs = append(fs, f)
		}
	}
	return value.NewMap(fs)
}

// maskSecret hides the values of a Secret's data and stringData as kubectl
// diff does: "***" where both sides agree, "*** (before)" and "*** (after)"
// where they differ.
func maskSecret(live, merged value.Value) (value.Value, value.Value) {
	for _, field := range []string{"data", "stringData"} {
		l, lok := live.Get(field)
		m, mok := merged.Get(field)
		var lf, mf []value.Field
		if lok && l.Kind() == value.Map {
			for _, f := range l.Fields() {
				mark := "***"
				if mv, ok := m.Get(f.Name); !mok || !ok || !value.Equal(mv, f.Value) {
					mark = "*** (before)"
				}
				lf = append(lf, value.Field{Name: f.Name, Value: value.NewString(mark)})
			}
			live = withField(live, field, value.NewMap(lf))
		}
		if mok && m.Kind() == value.Map {
			for _, f := range m.Fields() {
				mark := "***"
				if lv, ok := l.Get(f.Name); !lok || !ok || !value.Equal(lv, f.Value) {
					mark = "*** (after)"
				}
				mf = append(mf, value.Field{Name: f.Name, Value: value.NewString(mark)})
			}
			merged = withField(merged, field, value.NewMap(mf))
		}
	}
	return live, merged
}

// owners names the entries that own p.
func owners(entries []kube.ManagedFieldsEntry, p fieldpath.Path) string {
	var names []string
	for _, e := range entries {
		if e.Fields.Has(p) {
			names = append(names, describeEntry(e))
		}
	}
	if len(names) == 0 {
		return "no owner"
	}
	return strings.Join(names, ", ")
}

type change struct {
	kind  string
	path  fieldpath.Path
	owner string
}

func (d diffItem) changes() []change {
	if d.cmp == nil {
		return nil
	}
	var out []change
	for _, part := range []struct {
		kind string
		set  *fieldpath.Set
	}{{"added", d.cmp.Added}, {"modified", d.cmp.Modified}, {"removed", d.cmp.Removed}} {
		for p := range part.set.All() {
			entries := d.liveOwners
			if part.kind == "added" {
				entries = d.mergedOwners
			}
			out = append(out, change{kind: part.kind, path: p.Copy(), owner: owners(entries, p)})
		}
	}
	return out
}

func (d diffItem) printSummary(w io.Writer) {
	cs := d.changes()
	fmt.Fprintf(w, "%s: %d change(s)\n", d.a.manifest.resource(), len(cs))
	for _, c := range cs {
		fmt.Fprintf(w, "  %-8s %s  (%s)\n", c.kind, c.path, c.owner)
	}
}

func (d diffItem) json() value.Value {
	var cs []value.Value
	for _, c := range d.changes() {
		cs = append(cs, value.NewMap([]value.Field{
			{Name: "change", Value: value.NewString(c.kind)},
			{Name: "path", Value: value.NewString(c.path.String())},
			{Name: "owner", Value: value.NewString(c.owner)},
		}))
	}
	return value.NewMap([]value.Field{
		{Name: "name", Value: value.NewString(d.name)},
		{Name: "live", Value: d.live},
		{Name: "merged", Value: d.merged},
		{Name: "changed", Value: value.NewBool(d.liveText != d.mergedText)},
		{Name: "changes", Value: value.NewList(cs)},
	})
}

// runExternal writes the objects into LIVE-* and MERGED-* directories and
// runs $KUBECTL_EXTERNAL_DIFF on them; its exit status 0 or 1 is ours, any
// other is an error.
func runExternal(cmd *cobra.Command, items []diffItem) error {
	fields := strings.Fields(os.Getenv(externalDiffEnv))
	prog, args := fields[0], []string{}
	for _, a := range fields[1:] {
		if externalArg.MatchString(a) {
			args = append(args, a)
		}
	}
	liveDir, err := os.MkdirTemp("", "LIVE-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(liveDir)
	mergedDir, err := os.MkdirTemp("", "MERGED-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(mergedDir)
	for _, d := range items {
		if err := os.WriteFile(filepath.Join(liveDir, d.name), []byte(d.liveText), 0o600); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(mergedDir, d.name), []byte(d.mergedText), 0o600); err != nil {
			return err
		}
	}
	c := exec.Command(prog, append(args, liveDir, mergedDir)...)
	c.Stdin = cmd.InOrStdin()
	c.Stdout = cmd.OutOrStdout()
	c.Stderr = cmd.ErrOrStderr()
	err = c.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return exitError{1}
	case errors.As(err, &ee) && ee.ExitCode() > 1:
		fmt.Fprintf(cmd.ErrOrStderr(), "error: %s: %v\n", prog, err)
		return exitError{ee.ExitCode()}
	}
	return fmt.Errorf("%s: %w", externalDiffEnv, err)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// colorize colors a unified diff as kubectl does: removed lines red, added
// lines green.
func colorize(text string) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		nl := l[len(body):]
		switch {
		case strings.HasPrefix(body, "---"), strings.HasPrefix(body, "+++"):
			b.WriteString("\x1b[1m" + body + "\x1b[0m" + nl)
		case strings.HasPrefix(body, "@@"):
			b.WriteString("\x1b[36m" + body + "\x1b[0m" + nl)
		case strings.HasPrefix(body, "-"):
			b.WriteString("\x1b[31m" + body + "\x1b[0m" + nl)
		case strings.HasPrefix(body, "+"):
			b.WriteString("\x1b[32m" + body + "\x1b[0m" + nl)
		default:
			b.WriteString(l)
		}
	}
	return b.String()
}
