// Command structmerge runs Kubernetes server-side apply offline: apply, diff,
// blame, owners and validate on manifests and live objects, and scenario
// files (see internal/cli).
package main

import (
	"os"

	"github.com/structmerge/structmerge/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
