// Command structmerge runs Kubernetes server-side apply offline: scenario
// files today; apply, diff, blame, owners and validate on manifests next.
package main

import (
	"os"

	"github.com/structmerge/structmerge/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
