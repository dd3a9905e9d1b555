package fakeclient

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

func deployment(name string, replicas int32, image string) *appsv1ac.DeploymentApplyConfiguration {
	return appsv1ac.Deployment(name, "default").WithSpec(appsv1ac.DeploymentSpec().
		WithReplicas(replicas).
		WithSelector(metav1ac.LabelSelector().WithMatchLabels(map[string]string{"app": "web"})).
		WithTemplate(corev1ac.PodTemplateSpec().
			WithLabels(map[string]string{"app": "web"}).
			WithSpec(corev1ac.PodSpec().WithContainers(
				corev1ac.Container().WithName("web").WithImage(image)))))
}

// owns reports whether the manager's entries in the object's managedFields
// name the field (f:<field>, anywhere in the FieldsV1).
func owns(d *appsv1.Deployment, manager, field string) bool {
	for _, m := range d.ManagedFields {
		if m.Manager == manager && m.FieldsV1 != nil &&
			strings.Contains(string(m.FieldsV1.Raw), `"f:`+field+`"`) {
			return true
		}
	}
	return false
}

// TestTwoManagersConflict: kubectl applies a Deployment with 3 replicas;
// the autoscaler applying 5 replicas gets a conflict naming kubectl and
// .spec.replicas; forcing takes the field over.
func TestTwoManagersConflict(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset()
	deployments := client.AppsV1().Deployments("default")

	d, err := deployments.Apply(ctx, deployment("web", 3, "nginx:1"), metav1.ApplyOptions{FieldManager: "kubectl"})
	if err != nil {
		t.Fatal(err)
	}
	if *d.Spec.Replicas != 3 || !owns(d, "kubectl", "replicas") {
		t.Fatalf("after kubectl's apply: replicas %d, managedFields %v", *d.Spec.Replicas, d.ManagedFields)
	}

	hpa := appsv1ac.Deployment("web", "default").WithSpec(appsv1ac.DeploymentSpec().WithReplicas(5))
	_, err = deployments.Apply(ctx, hpa, metav1.ApplyOptions{FieldManager: "hpa"})
	if !apierrors.IsConflict(err) {
		t.Fatalf("the second manager's apply: %v, want a conflict", err)
	}
	if want := `Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas`; err.Error() != want {
		t.Errorf("conflict message %q, want %q", err.Error(), want)
	}

	d, err = deployments.Apply(ctx, hpa, metav1.ApplyOptions{FieldManager: "hpa", Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if *d.Spec.Replicas != 5 || !owns(d, "hpa", "replicas") || owns(d, "kubectl", "replicas") {
		t.Errorf("after the forced apply: replicas %d, managedFields %v", *d.Spec.Replicas, d.ManagedFields)
	}
	if d.Spec.Template.Spec.Containers[0].Image != "nginx:1" || !owns(d, "kubectl", "image") {
		t.Errorf("kubectl's image was lost: %v", d.Spec.Template.Spec.Containers)
	}

	// kubectl applying the value the field has now shares it without a
	// conflict, and changes its image.
	d, err = deployments.Apply(ctx, deployment("web", 5, "nginx:2"), metav1.ApplyOptions{FieldManager: "kubectl"})
	if err != nil {
		t.Fatalf("kubectl applying the current replicas: %v", err)
	}
	if !owns(d, "hpa", "replicas") || !owns(d, "kubectl", "replicas") || d.Spec.Template.Spec.Containers[0].Image != "nginx:2" {
		t.Errorf("after the shared apply: image %s, managedFields %v", d.Spec.Template.Spec.Containers[0].Image, d.ManagedFields)
	}
}

// TestConcurrentApplies: many goroutines apply through one clientset
// (run under -race: the engine and the adapter share the schema).
func TestConcurrentApplies(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset()
	deployments := client.AppsV1().Deployments("default")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("web-%d", i)
			for r := range 5 {
				if _, err := deployments.Apply(ctx, deployment(name, int32(r+1), "nginx"), metav1.ApplyOptions{FieldManager: "kubectl"}); err != nil {
					errs <- err
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
	list, err := deployments.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 8 {
		t.Fatalf("%d deployments, want 8", len(list.Items))
	}
	for _, d := range list.Items {
		if *d.Spec.Replicas != 5 {
			t.Errorf("%s: replicas %d, want 5", d.Name, *d.Spec.Replicas)
		}
	}
}
