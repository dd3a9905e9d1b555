module github.com/structmerge/structmerge/conformance/seedrace/smd

go 1.26

require sigs.k8s.io/structured-merge-diff/v6 v6.3.0

require (
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
)
