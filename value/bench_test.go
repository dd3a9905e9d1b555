package value_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/structmerge/structmerge/internal/own"
	"github.com/structmerge/structmerge/value"
	"github.com/structmerge/structmerge/value/valuetest"
)

// benchDocument returns a Kubernetes-like list of pods of about 50 KB of
// compact JSON.
func benchDocument() value.Value {
	var items []value.Value
	for i := 0; len(items) < 40; i++ {
		name := fmt.Sprintf("web-%d", i)
		containers := listOf(
			valuetest.Map("name", vStr("app"), "image", vStr("registry.example.com/team/app:v1.2."+fmt.Sprint(i)),
				"args", listOf(vStr("--port=8080"), vStr("--verbose")),
				"ports", listOf(valuetest.Map("containerPort", vInt(8080), "protocol", vStr("TCP"), "name", vStr("http"))),
				"resources", valuetest.Map("limits", valuetest.Map("cpu", vStr("500m"), "memory", vStr("128Mi")), "requests", valuetest.Map("cpu", vFlt(0.25), "memory", vStr("64Mi"))),
				"env", listOf(valuetest.Map("name", vStr("MODE"), "value", vStr("production")), valuetest.Map("name", vStr("INDEX"), "value", vStr(fmt.Sprint(i))))),
			valuetest.Map("name", vStr("sidecar"), "image", vStr("registry.example.com/proxy:2"), "ports", listOf(valuetest.Map("containerPort", vInt(15001), "protocol", vStr("TCP"))),
				"readinessProbe", valuetest.Map("httpGet", valuetest.Map("path", vStr("/ready"), "port", vInt(15021)), "periodSeconds", vInt(5))),
		)
		items = append(items, valuetest.Map(
			"apiVersion", vStr("v1"), "kind", vStr("Pod"),
			"metadata", valuetest.Map("name", vStr(name), "namespace", vStr("default"), "uid", vStr(fmt.Sprintf("3f1c%04d-aaaa-bbbb-cccc-0123456789ab", i)),
				"labels", valuetest.Map("app", vStr("web"), "pod-template-hash", vStr("5d4f8c7b9"), "tier", vStr("frontend")),
				"annotations", valuetest.Map("note", vStr("a string with \"quotes\", <brackets> and unicode é"))),
			"spec", valuetest.Map("containers", containers, "nodeName", vStr("node-1"), "restartPolicy", vStr("Always"), "terminationGracePeriodSeconds", vInt(30)),
			"status", valuetest.Map("phase", vStr("Running"), "conditions", listOf(valuetest.Map("type", vStr("Ready"), "status", vStr("True"), "lastTransitionTime", vStr("2024-01-02T03:04:05Z")))),
		))
	}
	return valuetest.Map("apiVersion", vStr("v1"), "kind", vStr("List"), "items", listOf(items...))
}

func BenchmarkFromJSON(b *testing.B) {
	data := value.ToJSON(benchDocument())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := value.FromJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFromJSONStructOrder decodes the same document with each
// object's fields in reverse order, as encoding/json writes Go structs
// (declaration order, not sorted): the decoder sorts them.
func BenchmarkFromJSONStructOrder(b *testing.B) {
	data := reversedJSON(nil, benchDocument())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := value.FromJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

// reversedJSON appends v's JSON with the fields of every object in reverse
// order.
func reversedJSON(dst []byte, v value.Value) []byte {
	switch v.Kind() {
	case value.Map:
		fields := own.Value.Fields(v)
		dst = append(dst, '{')
		for i := len(fields) - 1; i >= 0; i-- {
			dst = value.AppendJSON(dst, value.NewString(fields[i].Name))
			dst = reversedJSON(append(dst, ':'), fields[i].Value)
			if i > 0 {
				dst = append(dst, ',')
			}
		}
		return append(dst, '}')
	case value.List:
		dst = append(dst, '[')
		for i, item := range v.Items() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = reversedJSON(dst, item)
		}
		return append(dst, ']')
	}
	return value.AppendJSON(dst, v)
}

// BenchmarkEncodingJSONUnmarshal is the reference point for BenchmarkFromJSON.
func BenchmarkEncodingJSONUnmarshal(b *testing.B) {
	data := value.ToJSON(benchDocument())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var x any
		if err := json.Unmarshal(data, &x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendJSON(b *testing.B) {
	v := benchDocument()
	buf := value.AppendJSON(nil, v)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = value.AppendJSON(buf[:0], v)
	}
}

func BenchmarkToJSON(b *testing.B) {
	v := benchDocument()
	b.SetBytes(int64(len(value.ToJSON(v))))
	b.ReportAllocs()
	for b.Loop() {
		value.ToJSON(v)
	}
}

func BenchmarkFromYAML(b *testing.B) {
	data := value.ToYAML(benchDocument())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := value.FromYAML(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToYAML(b *testing.B) {
	v := benchDocument()
	b.SetBytes(int64(len(value.ToYAML(v))))
	b.ReportAllocs()
	for b.Loop() {
		value.ToYAML(v)
	}
}

func BenchmarkEqual(b *testing.B) {
	v := benchDocument()
	w, _ := value.FromJSON(value.ToJSON(v))
	b.ReportAllocs()
	for b.Loop() {
		if !value.Equal(v, w) {
			b.Fatal("not equal")
		}
	}
}

func BenchmarkCompare(b *testing.B) {
	v := benchDocument()
	w, _ := value.FromJSON(value.ToJSON(v))
	b.ReportAllocs()
	for b.Loop() {
		if value.Compare(v, w) != 0 {
			b.Fatal("not equal")
		}
	}
}

func BenchmarkFromUnstructured(b *testing.B) {
	u := benchDocument().Unstructured()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := value.FromUnstructured(u); err != nil {
			b.Fatal(err)
		}
	}
}
