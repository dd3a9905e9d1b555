package scenario

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/structmerge/structmerge/internal/yamlnode"
)

// found is one path to run: a scenario file, or a path that could not be
// read.
type found struct {
	path string
	err  error
}

// Files lists the scenario files named by paths: each file as given, and
// every .yaml or .yml file under each directory, recursively, in sorted
// order, except the YAML files of a directory that are not scenarios (a
// top-level `types:` key: a schema; a top-level `kind:` key: a Kubernetes
// object such as a CRD). The error joins the problems met (a path that does
// not exist, a directory that cannot be read).
func Files(paths []string) ([]string, error) {
	var out []string
	var errs []error
	for _, f := range discover(paths) {
		if f.err != nil {
			errs = append(errs, f.err)
			continue
		}
		out = append(out, f.path)
	}
	return out, errors.Join(errs...)
}

func discover(paths []string) []found {
	var out []found
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			out = append(out, found{path: p, err: err})
			continue
		}
		if !info.IsDir() {
			out = append(out, found{path: p})
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				out = append(out, found{path: path, err: err})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() || !isYAMLName(path) {
				return nil
			}
			if notScenario(path) {
				return nil
			}
			out = append(out, found{path: path})
			return nil
		})
		if err != nil {
			out = append(out, found{path: p, err: err})
		}
	}
	return out
}

func isYAMLName(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml"
}

// notScenario reports whether the YAML file at path is a schema or a
// Kubernetes object rather than a scenario. A file that cannot be read or
// parsed is kept, so that running it reports the problem.
func notScenario(path string) bool {
	data, err := readLimited(path)
	if err != nil {
		return false
	}
	root, err := yamlnode.Read(data)
	if err != nil || root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode && (k.Value == "types" || k.Value == "kind") {
			return true
		}
	}
	return false
}

// RunPaths runs the scenario files named by paths (see Files) on e and
// writes a report to w: one line per scenario, `ok` or `FAIL` and the file
// name, with the failing step, what was expected and what happened under a
// FAIL line; then a closing `N passed, M failed` line. A file that cannot be
// read or parsed counts as failed and is reported with its name, line and
// reason. The exit code is 2 when some file could not be read or parsed, 1
// when some scenario failed, and 0 otherwise.
func RunPaths(w io.Writer, e Engine, paths []string) (exitCode int) {
	passed, failed := 0, 0
	broken := false
	for _, f := range discover(paths) {
		if f.err != nil {
			broken = true
			failed++
			fmt.Fprintf(w, "FAIL %s\n    %v\n", f.path, f.err)
			continue
		}
		file, err := LoadFile(f.path)
		if err != nil {
			broken = true
			failed++
			fmt.Fprintf(w, "FAIL %s\n    %v\n", f.path, err)
			continue
		}
		r := Run(e, file)
		if r.Passed {
			passed++
		} else {
			failed++
		}
		fmt.Fprintln(w, r.String())
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	switch {
	case broken:
		return 2
	case failed > 0:
		return 1
	}
	return 0
}
