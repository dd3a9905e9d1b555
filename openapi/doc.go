// Package openapi builds schemas (schema.Document) from OpenAPI documents and
// CustomResourceDefinitions, exactly as Kubernetes builds the schema its
// field manager uses for server-side apply.
//
// There are three entry points:
//
//   - FromV2 converts the definitions of an OpenAPI v2 (Swagger) document
//     as the API server would; FromV2Proto converts them the way
//     client-side tools do (kube-openapi's proto models, as
//     managedfields.NewGVKParser), which differs in a few points listed
//     there, unions among them;
//   - FromV3 converts components.schemas of an OpenAPI v3 document, and
//     FromV3Documents the union of several (Kubernetes publishes one per
//     group-version);
//   - FromCRD converts each version of an apiextensions.k8s.io/v1
//     CustomResourceDefinition, adding what the API server adds to a custom
//     resource's schema (apiVersion, kind, metadata as ObjectMeta), under
//     the name CRDTypeName(group, version, kind).
//
// Each returns a Result: the Document, one named type per definition plus the
// helper types UntypedAtomic and UntypedDeduced, and the group-version-kinds
// (from x-kubernetes-group-version-kind) with the name of their type. Merge
// joins documents, for example a CRD's with the built-in types it refers to.
//
// # What the conversion honours
//
// The conversion is that of k8s.io/kube-openapi's
// schemaconv.ToSchemaFromOpenAPI with preserveUnknownFields false, the one
// apimachinery's managedfields.NewTypeConverter runs:
//
//   - type: "object" gives a map, "array" a list, "integer" and "number"
//     numeric, "boolean" boolean, "string" string — or untyped when it has
//     a format other than "byte" (int-or-string, date-time, ...); no type at
//     all gives an untyped scalar together with a list and a map;
//   - properties give fields (sorted by name), with their default;
//     additionalProperties a schema gives the type of other fields,
//     additionalProperties true (or no properties at all) makes other
//     fields UntypedDeduced, and otherwise other fields are not allowed;
//   - $ref, or an allOf with a single $ref, refers to the named definition
//     (its last path segment); a definition that is only a $ref is skipped;
//   - x-kubernetes-list-type atomic, set or map (with
//     x-kubernetes-list-map-keys) makes a list atomic or associative; when
//     it is absent, x-kubernetes-patch-strategy merge (with
//     x-kubernetes-patch-merge-key as the key) makes it associative and
//     retainKeys atomic; a list is atomic by default;
//   - x-kubernetes-map-type atomic or granular sets a map's relationship, on
//     the map itself or, beside a $ref, as an override of the referenced
//     type's;
//   - x-kubernetes-preserve-unknown-fields: true lets unknown fields of that
//     schema and of every schema inlined below it be UntypedDeduced;
//   - nullable is kept on references;
//   - io.k8s.apimachinery.pkg.api.resource.Quantity is an untyped scalar and
//     io.k8s.apimachinery.pkg.runtime.RawExtension is UntypedAtomic's shape,
//     whatever their schemas say;
//   - x-kubernetes-unions are ignored, as this conversion ignores them
//     (FromV2Proto keeps them).
//
// For a CRD, x-kubernetes-int-or-string and x-kubernetes-embedded-resource
// act through what the API server does with them: an int-or-string schema
// has no type (so it is untyped), and an embedded resource gets apiVersion,
// kind and metadata fields.
//
// # Errors
//
// Every problem found is reported, sorted, in an *Error whose Problems name
// the definition and the JSON pointer of the schema inside it:
//
//	openapi: definition "io.k8s.api.core.v1.PodSpec" at /properties/containers: unknown list type "maps" (want "atomic", "set" or "map")
//
// Each Problem wraps one of ErrSyntax, ErrType, ErrExtension, ErrReference,
// ErrDuplicate or ErrCRD. Where Kubernetes would report an error (an unknown
// list type, list-type map without keys, an array without items), so does
// this package; where Kubernetes would build a schema that cannot be used (a
// $ref to a missing definition), this package reports it at once. Where
// Kubernetes silently skips malformed input (a list-map key that is not a
// string, a group-version-kind entry without a kind), so does this package.
// Input is bounded by the limits of package value (size and nesting).
//
// # Concurrency
//
// The functions keep no state between calls and never modify their
// arguments; they are safe to call from many goroutines at once. The Result
// is new, ordinary mutable data owned by the caller.
package openapi
