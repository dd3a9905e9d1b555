package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
)

// exitError carries an exit code out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Main runs the command with the given arguments and streams and returns the
// process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintln(stderr, "error:", err)
	return exitCode(err)
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "structmerge",
		Short:         "Kubernetes server-side apply, offline",
		Long:          "structmerge merges configurations into objects, tracks which manager owns which field and reports conflicts exactly as a Kubernetes API server does, without a cluster.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newApply(), newDiff(), newBlame(), newOwners(), newValidate(), newScenario())
	return root
}

func newScenario() *cobra.Command {
	sc := &cobra.Command{
		Use:   "scenario",
		Short: "Run scenario files (format: docs/scenarios.md)",
	}
	run := &cobra.Command{
		Use:   "run FILE|DIR...",
		Short: "Run scenario files and report which pass",
		Long: "Runs each scenario file named and every .yaml or .yml file under each directory, recursively, in sorted order.\n" +
			"Prints ok or FAIL per scenario and a closing line \"N passed, M failed\".\n" +
			"Exit status: 0 when all pass, 1 when any fails, 2 when a file cannot be read or parsed.",
		Example: "  structmerge scenario run testdata/scenarios\n  structmerge scenario run my-bug.yaml",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := scenario.RunPaths(cmd.OutOrStdout(), native.Engine{}, args); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	sc.AddCommand(run)
	return sc
}
