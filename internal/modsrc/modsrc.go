// Package modsrc fetches the source of a Go module for the generators of
// this repository (the built-in Kubernetes schema and the registry tables
// are read from k8s.io/kubernetes), with the go command, so that the
// module proxy and checksum database vouch for what is read.
package modsrc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
)

// Download runs `go mod download -json MODULE@VERSION` and returns the
// module's directory in the module cache.
func Download(modVersion string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", modVersion)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var info struct {
		Dir   string
		Error string
	}
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil {
		return "", fmt.Errorf("go mod download %s: %v: %s%s", modVersion, runErr, stderr.Bytes(), stdout.Bytes())
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", modVersion, info.Error)
	}
	if runErr != nil {
		return "", fmt.Errorf("go mod download %s: %w: %s", modVersion, runErr, stderr.Bytes())
	}
	if info.Dir == "" {
		return "", errors.New("go mod download " + modVersion + " gave no directory")
	}
	return info.Dir, nil
}
