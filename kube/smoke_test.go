package kube_test

import (
	"testing"

	"github.com/structmerge/structmerge/value"
)

func TestSmoke(t *testing.T) {
	m := newManager(t)
	obj, err := m.Apply(value.Value{}, yv(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: web
        image: nginx
`), "kubectl")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", value.ToYAML(obj))
	obj, err = m.Update(obj, yv(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 5
  template:
    spec:
      containers:
      - name: web
        image: nginx
`), "hpa")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", value.ToYAML(obj))
	_, err = m.Apply(obj, yv(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
`), "kubectl")
	t.Logf("%v", err)
}
