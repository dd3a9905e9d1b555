package cli

import (
	"errors"
	"os"
	"sigs.k8s.io/yaml"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/internal/scenario"
	"github.com/structmerge/structmerge/internal/scenario/native"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/kube/builtin"
	"github.com/structmerge/structmerge/kube/defaulting"
	"github.com/structmerge/structmerge/kube/registry"
	"github.com/structmerge/structmerge/openapi"
	"github.com/structmerge/structmerge/schema"
	"github.com/structmerge/structmerge/value"
)

// nowEnv names the environment variable that fixes the clock (RFC 3339), so
// that tests and reproducible runs get stable times.
const nowEnv = "STRUCTMERGE_NOW"

// now returns the time the command runs at: $STRUCTMERGE_NOW when set.
func now() (time.Time, error) {
	if s := os.Getenv(nowEnv); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return time.Time{}, badf("$%s: %v", nowEnv, err)
		}
		return t, nil
	}
	return time.Now().UTC().Truncate(time.Second), nil
}

// inputFlags are the flags shared by the commands that read manifests.
type inputFlags struct {
	files     []string
	recursive bool
	crds      []string
	openapis  []string
	// clusterCRDs are the CRDs read from a cluster (those of --crd
	// files win).
	clusterCRDs []scenario.Source
}

func (f *inputFlags) register(cmd *cobra.Command, what string) {
	cmd.Flags().StringArrayVarP(&f.files, "filename", "f", nil, what+" (FILE, DIR or - for standard input; repeatable)")
	cmd.Flags().BoolVarP(&f.recursive, "recursive", "R", false, "read the directories given with -f and --live recursively")
	cmd.Flags().StringArrayVar(&f.crds, "crd", nil, "a CustomResourceDefinition YAML file whose types to add (repeatable)")
	cmd.Flags().StringArrayVar(&f.openapis, "openapi", nil, "an OpenAPI v2 or v3 document whose types to add (repeatable)")
}

// read reads the manifests and warns about repeated mapping keys.
func (f *inputFlags) read(cmd *cobra.Command) ([]object, error) {
	objs, err := f.readQuiet(cmd)
	if err != nil {
		return nil, err
	}
	warnDuplicates(cmd.ErrOrStderr(), objs)
	return objs, nil
}

// readQuiet reads the manifests.
func (f *inputFlags) readQuiet(cmd *cobra.Command) ([]object, error) {
	if len(f.files) == 0 {
		return nil, badf("must give a manifest with -f FILE|DIR|-")
	}
	return readObjects(f.files, f.recursive, cmd.InOrStdin())
}

// types is the schema the commands work with, and what the registry says
// about the kinds (reset fields, replicas paths).
type types struct {
	resolver      kube.TypeResolver
	resetFields   kube.ResetFieldsFunc
	replicasPaths kube.ReplicasPathsFunc
	generation    kube.GenerationFunc
	crDefaults    kube.Defaulter        // the CRDs' structural defaults (nil without CRDs)
	converter     kube.VersionConverter // nil: no kind has several versions
	// readAt serves a live custom resource at another version as the
	// API server's storage does (nil without CRDs).
	readAt func(live value.Value, gvk kube.GroupVersionKind) (value.Value, []fieldpath.Path, error)
}

func (f *inputFlags) types() (*types, error) {
	var srcs []scenario.Source
	for _, c := range f.crds {
		data, err := os.ReadFile(c)
		if err != nil {
			return nil, badf("--crd: %v", err)
		}
		srcs = append(srcs, scenario.Source{File: c, Text: data})
	}
	fromFiles := map[string]bool{}
	for _, src := range srcs {
		fromFiles[crdName(src.Text)] = true
	}
	for _, src := range f.clusterCRDs {
		if !fromFiles[crdName(src.Text)] {
			srcs = append(srcs, src)
		}
	}
	// The built-in types alone need no merged schema document.
	t := &types{resolver: kube.BuiltinTypes(), resetFields: builtin.ResetFields, replicasPaths: builtin.ReplicasPaths, generation: builtin.Generation}
	if len(srcs) > 0 {
		setup, err := kube.NewSetup(native.CRDFiles(srcs)...)
		if err != nil {
			return nil, badf("--crd %v", err)
		}
		var texts [][]byte
		for _, src := range srcs {
			texts = append(texts, src.Text)
		}
		crd, err := defaulting.CustomResources(texts...)
		if err != nil {
			return nil, badf("--crd: %v", err)
		}
		t = &types{resolver: setup.Resolver, resetFields: setup.ResetFields, replicasPaths: setup.ReplicasPaths, generation: setup.Generation,
			crDefaults: crd, converter: setup.Converter, readAt: setup.ReadAt}
	}
	// The strategies' own reset fields first: they also cover the kinds
	// the generated tables do not (CustomResourceDefinitions).
	t.resetFields = strategyResets(t.resetFields)
	for _, p := range f.openapis {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, badf("--openapi: %v", err)
		}
		res, err := openapi.FromV2(data)
		if err != nil {
			if res3, err3 := openapi.FromV3(data); err3 == nil {
				res, err = res3, nil
			}
		}
		if err != nil {
			return nil, badf("--openapi %s: %v", p, err)
		}
		s, err := schema.Compile(res.Document)
		if err != nil {
			return nil, badf("--openapi %s: %v", p, err)
		}
		kinds := map[kube.GroupVersionKind]string{}
		for _, k := range res.Kinds {
			kinds[kube.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}] = k.TypeName
		}
		r, err := kube.NewSchemaResolver(s, kinds)
		if err != nil {
			return nil, badf("--openapi %s: %v", p, err)
		}
		t.resolver = kube.ChainResolvers(r, t.resolver)
	}
	return t, nil
}

// builtinDefaults is Kubernetes' own defaulting of the built-in kinds,
// built once (installing every API group's scheme takes a few
// milliseconds).
var builtinDefaults = sync.OnceValue(defaulting.Builtin)

// builtinStrategies are Kubernetes' own registry strategies of the
// built-in kinds: what a server clears, keeps, computes and refuses
// between its field manager and its storage.
var builtinStrategies = sync.OnceValue(registry.Builtin)

// strategyResets returns the reset fields of the built-in strategies, and
// next's for the endpoints they do not reset (custom resources).
func strategyResets(next kube.ResetFieldsFunc) kube.ResetFieldsFunc {
	return func(gvk kube.GroupVersionKind, subresource string) map[string]*fieldpath.Set {
		if m := builtinStrategies().ResetFields(gvk, subresource); m != nil {
			return m
		}
		return next(gvk, subresource)
	}
}

// server returns what the commands write with: the field manager with the
// API server's defaulting and storage around it.
func (t *types) server(at time.Time) (*kube.Server, error) {
	m, err := t.manager(at)
	if err != nil {
		return nil, err
	}
	return kube.NewServer(m, kube.ChainDefaulters(builtinDefaults(), t.crDefaults), kube.WithGeneration(t.generation), kube.WithStrategy(builtinStrategies()))
}

func (t *types) manager(at time.Time) (*kube.FieldManager, error) {
	opts := []kube.Option{
		kube.WithClock(func() time.Time { return at }),
		kube.WithResetFields(t.resetFields),
		kube.WithReplicasPaths(t.replicasPaths),
	}
	if t.converter != nil {
		opts = append(opts, kube.WithVersionConverter(t.converter))
	}
	return kube.NewFieldManager(t.resolver, opts...)
}

// resetValues keeps the live values of the fields the kind's registry
// resets on the subresource written, as the API server's storage does.
func (t *types) resetValues(obj, live value.Value, subresource string) value.Value {
	if subresource == kube.ScaleSubresource {
		return obj
	}
	gvk := kube.GVKOf(obj)
	set := t.resetFields(gvk, subresource)[gvk.APIVersion()]
	if set.Empty() {
		return obj
	}
	if live.IsNull() {
		live = value.NewMap(nil)
	}
	return kube.ResetValues(obj, live, set)
}

// exitCode maps an error to the command's exit status.
func exitCode(err error) int {
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 2
}

// crdName is the metadata.name of a CRD's YAML ("" when it has none).
func crdName(text []byte) string {
	var crd struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	_ = yaml.Unmarshal(text, &crd)
	return crd.Metadata.Name
}
