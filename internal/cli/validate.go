package cli

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/structmerge/structmerge/fieldpath"

	"github.com/structmerge/structmerge/typed"
)

type problem struct {
	path fieldpath.Path
	msg  string
}

func newValidate() *cobra.Command {
	var f inputFlags
	cmd := &cobra.Command{
		Use:   "validate -f FILE|DIR|-...",
		Short: "Check manifests against the Kubernetes schema",
		Long: "Checks every object against its schema (the built-in Kubernetes types and those of --crd and --openapi)\n" +
			"and prints every problem, one per line, with file, line, column and field path (file:line:col: Kind name:\n" +
			".spec.field: problem; the document and its line for JSON input): unknown fields, wrong types,\n" +
			"duplicate keys of keyed lists, list items without their keys, kinds without a schema.\n" +
			"Exit status: 0 valid, 1 problems found, 2 unreadable input.",
		Example: "  structmerge validate -f examples/deployment.yaml -f examples/service.yaml\n" +
			"  structmerge validate -R -f manifests/ --crd crds/widget.yaml",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			objs, err := f.readQuiet(cmd)
			if err != nil {
				return err
			}
			t, err := f.types()
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			problems := 0
			for _, o := range objs {
				for _, d := range o.dups {
					fmt.Fprintln(w, duplicateMessage(o, d))
					problems++
				}
				ty, ok := t.resolver.ResolveType(o.gvk())
				if !ok {
					fmt.Fprintf(w, "%s: %s: no schema for %s (add it with --crd or --openapi)\n", o.at(nil), o.resource(), o.gvk())
					problems++
					continue
				}
				var found []problem
				for _, mk := range missingKeys(ty, o.Value, nil, nil) {
					found = append(found, problem{mk.path, "missing list key: " + mk.msg})
				}
				if err := typed.Validate(ty, o.Value); err != nil {
					var errs typed.Errors
					if !errors.As(err, &errs) {
						found = append(found, problem{nil, err.Error()})
					}
					for _, e := range errs {
						found = append(found, problem{e.Path, e.Kind.String() + ": " + e.Message})
					}
				}
				slices.SortStableFunc(found, func(a, b problem) int { return a.path.Compare(b.path) })
				for _, p := range found {
					ps := p.path.String()
					if ps == "" {
						ps = "."
					}
					fmt.Fprintf(w, "%s: %s: %s: %s\n", o.at(p.path), o.resource(), ps, p.msg)
					problems++
				}
			}
			if problems > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "%d problem(s) in %d object(s)\n", problems, len(objs))
				return exitError{1}
			}
			fmt.Fprintf(w, "%d object(s) valid\n", len(objs))
			return nil
		},
	}
	f.register(cmd, "the manifests to check")
	return cmd
}
