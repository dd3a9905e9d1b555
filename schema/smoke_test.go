package schema

import (
	"os"
	"testing"
)

func TestSmoke(t *testing.T) {
	for _, f := range []string{"k8s.yaml", "basic.yaml", "smd/k8s-schema.yaml", "smd/k8s-schema-100pct-fieldoverride.yaml", "smd/apiresourceimport.yaml", "smd/dangling/list.yaml", "smd/invalid/bad-schema.yaml"} {
		data, err := os.ReadFile("../testdata/schemas/" + f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := CompileYAML(data)
		if err != nil {
			t.Logf("%s: %v", f, err)
			continue
		}
		t.Logf("%s: %d types", f, len(s.TypeNames()))
	}
}
