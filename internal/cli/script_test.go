package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"structmerge": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"showdirs":    showDirs,
	})
}

// TestScripts runs the command tests of testdata/script: each .txtar file
// is a session of structmerge commands with their expected output and exit
// status. Refresh the expected output with -update.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("STRUCTMERGE_NOW", "2026-02-01T00:00:00Z")
			// The examples of the README, copied so that messages name
			// them as the README does.
			return os.CopyFS(filepath.Join(env.WorkDir, "examples"), os.DirFS(filepath.Join("..", "..", "examples")))
		},
	})
}

// showDirs stands for an external diff program: it prints its arguments
// (the directories by base name, without their random suffix), the files
// of each directory and their contents, and exits with --exit=N (1 by
// default).
func showDirs() {
	args := os.Args[1:]
	code := 1
	var shown []string
	for _, a := range args {
		if n, ok := strings.CutPrefix(a, "--exit="); ok {
			code, _ = strconv.Atoi(n)
		}
		if strings.HasPrefix(a, "-") {
			shown = append(shown, a)
			continue
		}
		shown = append(shown, filepath.Base(a))
	}
	fmt.Println("args: " + strings.Join(shown, " "))
	for _, d := range args[len(args)-2:] {
		entries, err := os.ReadDir(d)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		line := strings.SplitN(filepath.Base(d), "-", 2)[0]
		for _, e := range entries {
			line += " " + e.Name()
		}
		fmt.Println(line)
		for _, e := range entries {
			b, _ := os.ReadFile(filepath.Join(d, e.Name()))
			os.Stdout.Write(b)
		}
	}
	os.Exit(code)
}
