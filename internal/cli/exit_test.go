package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestExitCodes checks each command's exit statuses, which the scripts
// only see as success or failure.
func TestExitCodes(t *testing.T) {
	t.Setenv(nowEnv, "2026-02-01T00:00:00Z")
	ex := func(p string) string { return filepath.Join("..", "..", "examples", p) }
	live := ex("live")
	same := filepath.Join(t.TempDir(), "same.yaml")
	first, err := json.Marshal(liveHistories(t)[1].Writes[0].Object)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(same, first, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  string // KUBECTL_EXTERNAL_DIFF
		args []string
		want int
	}{
		{"apply ok", "", []string{"apply", "-f", ex("deployment.yaml"), "--live", live}, 0},
		{"apply conflict", "", []string{"apply", "-f", ex("conflict/deployment.yaml"), "--live", live}, 1},
		{"apply forced", "", []string{"apply", "-f", ex("conflict/deployment.yaml"), "--live", live, "--force-conflicts"}, 0},
		{"apply bad file", "", []string{"apply", "-f", "nothere.yaml"}, 2},
		{"apply bad flag", "", []string{"apply", "--nope"}, 2},
		{"diff changes", "", []string{"diff", "-f", ex("deployment.yaml"), "--live", live}, 1},
		{"diff summary changes", "", []string{"diff", "-f", ex("deployment.yaml"), "--live", live, "--summary"}, 1},
		{"diff no change", "", []string{"diff", "-f", same, "--live", live}, 0},
		{"diff conflict", "", []string{"diff", "-f", ex("conflict/deployment.yaml"), "--live", live}, 2},
		{"diff bad color", "", []string{"diff", "-f", ex("deployment.yaml"), "--color", "x"}, 2},
		{"diff external 1", "false", []string{"diff", "-f", ex("deployment.yaml"), "--live", live}, 1},
		{"diff external 0", "true", []string{"diff", "-f", ex("deployment.yaml"), "--live", live}, 0},
		{"diff external missing", "no-such-diff-program", []string{"diff", "-f", ex("deployment.yaml"), "--live", live}, 2},
		{"validate ok", "", []string{"validate", "-f", ex("deployment.yaml")}, 0},
		{"validate bad file", "", []string{"validate", "-f", "nothere.yaml"}, 2},
		{"blame ok", "", []string{"blame", "-f", ex("live/deployment.yaml")}, 0},
		{"blame bad time", "", []string{"blame", "-f", ex("live/deployment.yaml"), "--time", "x"}, 2},
		{"owners ok", "", []string{"owners", "-f", live}, 0},
		{"owners bad path", "", []string{"owners", "-f", live, "--path", "[["}, 2},
		{"unknown command", "", []string{"nope"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(externalDiffEnv, tt.env)
			var out, errb bytes.Buffer
			if got := Main(tt.args, nil, &out, &errb); got != tt.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", got, tt.want, out.String(), errb.String())
			}
		})
	}
}
