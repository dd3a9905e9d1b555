package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/value"
)

// describeEntry names a managedFields entry: kubectl (Apply), hpa (Update
// autoscaling/v1, subresource scale).
func describeEntry(e kube.ManagedFieldsEntry) string {
	s := e.Manager + " (" + string(e.Operation)
	if e.Operation == kube.OperationUpdate && e.APIVersion != "" {
		s += " " + e.APIVersion
	}
	if e.Subresource != "" {
		s += ", subresource " + e.Subresource
	}
	return s + ")"
}

func hasPrefix(p, prefix fieldpath.Path) bool {
	if len(p) < len(prefix) {
		return false
	}
	return p[:len(prefix)].Equal(prefix)
}

// parsePathFlag reads a --path value such as .spec.replicas or
// .spec.containers[name="web"].image.
func parsePathFlag(s string) (fieldpath.Path, error) {
	if s == "" {
		return nil, nil
	}
	p, err := fieldpath.ParsePath(s)
	if err != nil {
		return nil, badf("--path: %v", err)
	}
	return p, nil
}

func newOwners() *cobra.Command {
	var f inputFlags
	var cf clusterFlags
	var path, output string
	cmd := &cobra.Command{
		Use:   "owners -f FILE|DIR|- [--path PATH] [-o json]",
		Short: "List who owns which fields of live objects, by manager",
		Long: "Reads the metadata.managedFields of each object and lists, per manager (with operation, API version,\n" +
			"subresource and time), the fields it owns. With --path only the fields at or under PATH are listed.\n" +
			"\n" + ownersJSONHelp + "\n" +
			"With --kubeconfig or --context the objects the files name are read from that cluster (GET only).\n" +
			"Exit status: 0, or 2 on bad input.",
		Example: "  structmerge owners -f examples/live/deployment.yaml\n" +
			"  structmerge owners -f examples/live/deployment.yaml --path .spec.replicas\n" +
			"  structmerge owners -f examples/live/ -o json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if output != "" && output != "json" {
				return badf("-o: %q is not json", output)
			}
			prefix, err := parsePathFlag(path)
			if err != nil {
				return err
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
			w := cmd.OutOrStdout()
			var js []value.Value
			for i, o := range objs {
				entries, err := kube.DecodeManagedFields(o.Value)
				if err != nil {
					return badf("%s: .metadata.managedFields: %v", o.at(managedFieldsPath), err)
				}
				if output == "json" {
					js = append(js, ownersJSON(o, entries, prefix))
					continue
				}
				if i > 0 {
					fmt.Fprintln(w)
				}
				printOwners(w, o, entries, prefix)
			}
			if output == "json" {
				w.Write(append(value.AppendJSONIndent(nil, value.NewList(js), "", "  "), '\n'))
			}
			return nil
		},
	}
	f.register(cmd, "the live objects")
	cf.register(cmd)
	cmd.Flags().StringVar(&path, "path", "", "only fields at or under this path, e.g. .spec.replicas")
	cmd.Flags().StringVarP(&output, "output", "o", "", "json: print the owners as JSON (the shape is in --help)")
	return cmd
}

var managedFieldsPath = fieldpath.Path{fieldpath.FieldName("metadata"), fieldpath.FieldName("managedFields")}

// ownersJSONHelp documents the shape of owners -o json. It is stable: keys
// may be added, never removed or renamed.
const ownersJSONHelp = `With -o json it prints one JSON list with an entry per object, in input order:
  [{"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "default", "name": "web",
    "managers": [{"manager": "kubectl", "operation": "Apply", "apiVersion": "apps/v1",
                  "subresource": "", "time": "2026-01-05T09:00:00Z",
                  "fields": [".spec.replicas", ".spec.template.spec.containers[name=\"web\"].image"]}]}]
Every key is always present: namespace and subresource are "" when there is none, time is null
when the entry has none. managers are in the order of metadata.managedFields, and only those that
own a field at or under --path are listed; fields are paths, written as --path takes them, in the
order the text output lists them (fieldpath order).
Keys are printed sorted.
The shape is stable: keys may be added, never renamed or removed.`

// ownersJSON is one object's entry of owners -o json (see ownersJSONHelp).
func ownersJSON(o object, entries []kube.ManagedFieldsEntry, prefix fieldpath.Path) value.Value {
	var managers []value.Value
	for _, e := range entries {
		var fields []value.Value
		for p := range e.Fields.All() {
			if hasPrefix(p, prefix) {
				fields = append(fields, value.NewString(p.String()))
			}
		}
		if len(fields) == 0 {
			continue
		}
		t := value.NewNull()
		if !e.Time.IsZero() {
			t = value.NewString(e.Time.UTC().Format(time.RFC3339))
		}
		managers = append(managers, value.NewMap([]value.Field{
			{Name: "manager", Value: value.NewString(e.Manager)},
			{Name: "operation", Value: value.NewString(string(e.Operation))},
			{Name: "apiVersion", Value: value.NewString(e.APIVersion)},
			{Name: "subresource", Value: value.NewString(e.Subresource)},
			{Name: "time", Value: t},
			{Name: "fields", Value: value.NewList(fields)},
		}))
	}
	if managers == nil {
		managers = []value.Value{}
	}
	return value.NewMap([]value.Field{
		{Name: "apiVersion", Value: value.NewString(str(o.Value, "apiVersion"))},
		{Name: "kind", Value: value.NewString(o.gvk().Kind)},
		{Name: "namespace", Value: value.NewString(o.namespace())},
		{Name: "name", Value: value.NewString(o.name())},
		{Name: "managers", Value: value.NewList(managers)},
	})
}

func printOwners(w io.Writer, o object, entries []kube.ManagedFieldsEntry, prefix fieldpath.Path) {
	fmt.Fprintf(w, "%s\n", o.resource())
	n := 0
	for _, e := range entries {
		var paths []fieldpath.Path
		for p := range e.Fields.All() {
			if hasPrefix(p, prefix) {
				paths = append(paths, p.Copy())
			}
		}
		if len(paths) == 0 {
			continue
		}
		n++
		t := ""
		if !e.Time.IsZero() {
			t = " at " + e.Time.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(w, "  %s%s:\n", describeEntry(e), t)
		for _, p := range paths {
			fmt.Fprintf(w, "    %s\n", p)
		}
	}
	if n == 0 {
		if len(prefix) > 0 {
			fmt.Fprintf(w, "  no manager owns %s\n", prefix)
		} else {
			fmt.Fprintf(w, "  no managed fields\n")
		}
	}
}
