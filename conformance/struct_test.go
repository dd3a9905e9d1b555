package conformance

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	clientscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/gostruct"
)

// structFixtures reads k8s.io/api's round-trip fixtures
// (testdata/HEAD/<group>.<version>.<Kind>.json: every field of the type
// filled) into the Go types client-go's scheme has for them, each beside
// an empty object of its type (<name>/empty).
func structFixtures(t *testing.T) map[string]runtime.Object {
	t.Helper()
	dir := filepath.Join(moduleDirOf(t, "k8s.io/api"), "testdata", "HEAD")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	out := map[string]runtime.Object{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		i := strings.LastIndexByte(name, '.')
		j := strings.LastIndexByte(name[:i], '.')
		group, version, kind := name[:j], name[j+1:i], name[i+1:]
		if group == "core" {
			group = ""
		}
		obj, err := clientscheme.Scheme.New(kschema.GroupVersionKind{Group: group, Version: version, Kind: kind})
		if err != nil {
			continue // not a kind client-go serves (admission reviews and the like)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, obj); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = obj
		// And the empty object, where omitempty and omitzero matter.
		empty, _ := clientscheme.Scheme.New(kschema.GroupVersionKind{Group: group, Version: version, Kind: kind})
		out[name+"/empty"] = empty
	}
	if len(out) < 100 {
		t.Fatalf("only %d fixtures have a type in client-go's scheme", len(out))
	}
	return out
}

func moduleDirOf(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", path).Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("locating module %s: %v", path, err)
	}
	return strings.TrimSpace(string(out))
}

// TestStructCodecAgainstUnstructuredConverter converts every fixture of
// k8s.io/api with gostruct.Codec and with apimachinery's
// runtime.DefaultUnstructuredConverter: the same tree from the struct, the
// same struct back from the tree, and a round trip that changes nothing.
func TestStructCodecAgainstUnstructuredConverter(t *testing.T) {
	fixtures := structFixtures(t)
	for name, obj := range fixtures {
		t.Run(name, func(t *testing.T) {
			typ := reflect.TypeOf(obj).Elem()
			c, err := gostruct.NewCodec(typ)
			if err != nil {
				t.Fatal(err)
			}
			refMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
			if err != nil {
				t.Fatal(err)
			}
			want, err := value.FromUnstructured(refMap)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.FromStruct(obj)
			if err != nil {
				t.Fatal(err)
			}
			if !value.Equal(got, want) {
				t.Fatalf("FromStruct differs from ToUnstructured:\n got %.3000s\nwant %.3000s", got, want)
			}

			ref := reflect.New(typ).Interface()
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(refMap, ref); err != nil {
				t.Fatal(err)
			}
			back := reflect.New(typ).Interface()
			if err := c.ToStruct(got, back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, ref) {
				t.Fatalf("ToStruct differs from FromUnstructured:\n got %+v\nwant %+v", back, ref)
			}
			again, err := c.FromStruct(back)
			if err != nil {
				t.Fatal(err)
			}
			if !value.Equal(again, want) {
				t.Fatalf("the round trip changed the object:\n got %.3000s\nwant %.3000s", again, want)
			}
		})
	}
}

// TestStructCodecConcurrentKube converts fixtures with one codec per type
// from many goroutines; run it with -race.
func TestStructCodecConcurrentKube(t *testing.T) {
	fixtures := structFixtures(t)
	var objs []runtime.Object
	for _, name := range []string{"core.v1.Pod", "apps.v1.Deployment", "core.v1.Node"} {
		objs = append(objs, fixtures[name])
	}
	codecs := make([]*gostruct.Codec, len(objs))
	wants := make([]value.Value, len(objs))
	for i, o := range objs {
		c, err := gostruct.NewCodec(reflect.TypeOf(o).Elem())
		if err != nil {
			t.Fatal(err)
		}
		codecs[i] = c
		if wants[i], err = c.FromStruct(o); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				k := (g + i) % len(objs)
				back := reflect.New(codecs[k].Type()).Interface()
				if err := codecs[k].ToStruct(wants[k], back); err != nil {
					errs <- err
					return
				}
				v, err := codecs[k].FromStruct(back)
				if err != nil {
					errs <- err
					return
				}
				if !value.Equal(v, wants[k]) {
					errs <- &gostruct.Error{Msg: "a round trip differs"}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
