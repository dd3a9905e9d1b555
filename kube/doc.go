// Package kube does to whole Kubernetes objects what the Kubernetes 1.37
// API server's field manager (k8s.io/apimachinery/pkg/util/managedfields)
// does: it merges server-side apply requests, records ownership in
// metadata.managedFields, and refuses conflicting applies with the API
// server's own error text. It works offline, on the objects and the schema
// it is given.
//
// A FieldManager is built from a TypeResolver, which maps each apiVersion
// and kind to its schema type: BuiltinTypes for the built-in kinds of
// Kubernetes (package kube/builtin), NewSchemaResolver for a compiled
// schema and a table of kinds (custom resources, for example), and
// ChainResolvers to combine them. Its two operations take and return whole
// objects as value trees:
//
//	m, _ := kube.NewFieldManager(kube.BuiltinTypes())
//	obj, err := m.Apply(live, manifest, "kubectl")            // server-side apply
//	obj, err = m.Update(obj, edited, "my-controller")          // create, update, patch
//	obj, err = m.Update(obj, scale, "hpa", kube.Subresource("scale"))
//
// A Server (NewServer) adds what the API server's request path does around
// its field manager: defaulting (a Defaulter; package kube/defaulting has
// Kubernetes' own for the built-in kinds) of the live object, of an
// update's body before the field manager and of an apply's result after
// it, and the storage's reset of the fields the kind resets:
//
//	s, _ := kube.NewServer(m, defaulting.Builtin())
//	obj, err := s.Apply(live, manifest, "kubectl")             // as the server stores it
//
// A Setup (NewSetup) is the types of a cluster with some
// CustomResourceDefinitions: the built-in kinds and the CRDs' versions,
// with what the API server's registry says of them (reset fields, scale
// subresources, generation), and the storage's structural pruning of
// custom resources (Prune, ReadAt):
//
//	setup, _ := kube.NewSetup(kube.CRDFile{Name: "crd.yaml", Text: crd})
//	m, _ := kube.NewFieldManager(setup.Resolver, setup.Options(time.Now())...)
//	obj, pruned := setup.Prune(manifest)                        // as the server stores it
//
// A null live object stands for one that does not exist yet.
//
// Objects in the forms callers hold go in and come out in the same form,
// through methods that convert the request's object like the live one
// (value.Like), so that the two share their unchanged parts and the
// operation checks and compares only the parts that differ, and that give
// back the callers' own data for what did not change:
//
//	out, err := m.ApplyUnstructured(liveMap, configMap, "kubectl")   // map[string]any
//	out, err := m.UpdateJSON(liveJSON, bodyJSON, "my-controller")     // JSON bytes
//	pod, err := kube.UpdateStruct(m, livePod, editedPod, "my-controller") // k8s.io/api structs
//
// (Server has ApplyUnstructured, UpdateUnstructured, ApplyJSON and
// UpdateJSON too.) A FieldManager given the Go types it will see
// (WithStructTypes) builds their conversions once.
//
// # What the field manager does
//
//   - Entries: one managedFields entry per manager identity, which is the
//     manager name, the operation (Apply or Update), the subresource and,
//     for Update only, the apiVersion written (ManagedFieldsEntry.
//     ManagerIdentity). Entries are written in the API server's order
//     (Apply first, then by time, manager, apiVersion, subresource) and
//     byte form (MarshalManagedFields); a request without a manager name
//     is "unknown".
//   - Nobody owns apiVersion, kind, metadata itself and the metadata the
//     server sets (name, namespace, uid, resourceVersion, generation,
//     creationTimestamp, selfLink, managedFields), nor the fields the
//     kind's registry resets on the subresource written (the status on the
//     main resource, the spec on the status subresource, and what the
//     strategies of other subresources such as a CertificateSigningRequest's
//     approval reset: RegistryResetFields, or WithResetFields). The
//     registry tables are generated from the strategies in the source of
//     Kubernetes (kube/internal/registrygen, run by go generate).
//   - Time: an entry's time is stamped from the clock (WithClock) when its
//     write changed the object; an apply that changes nothing leaves the
//     object and every time alone.
//   - Update entries beyond DefaultMaxUpdateManagers are merged, oldest
//     first, into one "ancient-changes" entry per API version.
//   - An object that exists without managedFields is not tracked by
//     updates; its first apply gives the fields it has to a
//     "before-first-apply" entry. An update may carry managedFields, which
//     replace the live ones (an empty list clears them); an apply may not.
//   - kubectl moving from client-side to server-side apply: an apply by
//     "kubectl" that conflicts only on fields its
//     kubectl.kubernetes.io/last-applied-configuration annotation set to
//     their live values is forced, and the annotation, when present, is
//     rewritten from the applied configuration.
//   - The scale subresource: the request is an autoscaling/v1 Scale; the
//     owners of the object's replicas (RegistryReplicasPaths, or
//     WithReplicasPaths) are translated to the Scale and back, as the API
//     server's scale handler does it.
//   - Versions: each kind has the single version of the live object, and a
//     request at another is refused, unless a VersionConverter
//     (WithVersionConverter) converts the kind. Then the request is served
//     at its own version: the live object is converted to it, the result
//     is at that version, and each manager's fields are compared at the
//     version its entry names. NoneConverter is the API server's for
//     custom resources whose CRD has conversion None.
//   - Errors: conflicts are a *ConflictError whose message is the API
//     server's and whose Conflicts say who owns what, with the live and
//     the desired value; a malformed request is a *BadRequestError
//     (errors.Is ErrConflict and ErrBadRequest tell the two apart);
//     managedFields that cannot be decoded fail an apply and are dropped
//     by an update; a live object that does not fit the request's schema
//     is a *LiveObjectError.
//
// The reference behaviour, quirks included (for example entries written
// by the scale subresource have no time), is checked by running the
// Kubernetes scenarios of testdata/scenarios/kubernetes on apimachinery's
// field manager in the conformance module. What the API server's storage
// does after the field manager (keeping the live values of the reset
// fields) is ResetValues.
//
// # Concurrency
//
// A FieldManager is immutable after NewFieldManager; safe for concurrent
// use, provided its TypeResolver and clock are. Apply and Update never
// modify their arguments; the objects they return may share subtrees with
// them. The package has no mutable package-level state.
package kube
