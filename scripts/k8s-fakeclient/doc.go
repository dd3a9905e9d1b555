// Package fakeclient is a test module: client-go's fake clientset, with
// field management, running on structmerge's drop-in for
// structured-merge-diff (the replace lines of its go.mod). Its test
// applies a Deployment as two managers and sees the conflict.
//
// Run with scripts/k8s-suite.sh, or: cd scripts/k8s-fakeclient && go test -race ./...
package fakeclient
