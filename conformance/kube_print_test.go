package conformance

import (
	"os"
	"testing"

	"github.com/structmerge/structmerge/conformance/kubeengine"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/value"
)

// TestKubePrint prints the reference's state after each step of the
// scenario named by KUBE_PRINT (a development aid).
func TestKubePrint(t *testing.T) {
	p := os.Getenv("KUBE_PRINT")
	if p == "" {
		t.Skip("set KUBE_PRINT")
	}
	f, err := scenario.LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := kubeengine.Engine{}.CompileKubernetes(f.CRDs)
	if err != nil {
		t.Fatal(err)
	}
	state := scenario.State{Object: f.Live.Object, HasObject: f.Live.HasObject}
	for i, st := range f.Steps {
		op := scenario.KubernetesOperation{Op: st.Op, Manager: st.Manager, Subresource: st.Subresource, Object: st.Object, Time: scenario.StepTime(i)}
		out, err := ref.Do(state, op)
		if err != nil {
			t.Logf("step %d: error: %v", i+1, err)
			continue
		}
		v, _ := value.FromUnstructured(out.Object)
		t.Logf("step %d:\n%s", i+1, value.ToYAML(v))
		state = out
	}
}
