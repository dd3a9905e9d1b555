package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/structmerge/structmerge/conformance/smdengine"
	"github.com/structmerge/structmerge/internal/scenario"
)

func TestZZDebug(t *testing.T) {
	p := os.Getenv("SCENARIO")
	if p == "" {
		t.Skip()
	}
	f, err := scenario.LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	e := smdengine.Engine{}
	ty, err := e.Compile(f.Schema.Text, f.Type)
	if err != nil {
		t.Fatal(err)
	}
	st := f.Live
	for i, s := range f.Steps {
		if s.Schema != nil {
			ty, _ = e.Compile(s.Schema.Text, f.Type)
		}
		out, err := ty.Do(st, scenario.Operation{Op: s.Op, Manager: s.Manager, APIVersion: s.APIVersion, Object: s.Object})
		fmt.Printf("== step %d %s %s err=%v\n", i+1, s.Op, s.Manager, err)
		if err == nil {
			st = out
		}
		o, _ := json.Marshal(st.Object)
		fmt.Printf("object: %s (%#v)\n", o, st.Object)
		for n, m := range st.Managers {
			fmt.Printf("  %s %s applied=%v %s\n", n, m.APIVersion, m.Applied, m.FieldsV1)
		}
	}
}
