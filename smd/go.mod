module sigs.k8s.io/structured-merge-diff/v6

go 1.26.0

require (
	github.com/structmerge/structmerge v0.0.0
	go.yaml.in/yaml/v2 v2.4.4
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect

replace github.com/structmerge/structmerge => ../
