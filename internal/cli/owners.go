package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
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
	var path string
	cmd := &cobra.Command{
		Use:   "owners -f FILE|DIR|- [--path PATH]",
		Short: "List who owns which fields of live objects, by manager",
		Long: "Reads the metadata.managedFields of each object and lists, per manager (with operation, API version,\n" +
			"subresource and time), the fields it owns. With --path only the fields at or under PATH are listed.\n" +
			"Exit status: 0, or 2 on bad input.",
		Example: "  structmerge owners -f examples/live/deployment.yaml\n" +
			"  structmerge owners -f examples/live/deployment.yaml --path .spec.replicas",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			prefix, err := parsePathFlag(path)
			if err != nil {
				return err
			}
			objs, err := f.read(cmd)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for i, o := range objs {
				entries, err := kube.DecodeManagedFields(o.Value)
				if err != nil {
					return badf("%s: .metadata.managedFields: %v", o.where(), err)
				}
				if i > 0 {
					fmt.Fprintln(w)
				}
				printOwners(w, o, entries, prefix)
			}
			return nil
		},
	}
	f.register(cmd, "the live objects")
	cmd.Flags().StringVar(&path, "path", "", "only fields at or under this path, e.g. .spec.replicas")
	return cmd
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
