package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/structmerge/structmerge/fieldpath"
	"github.com/structmerge/structmerge/kube"
	"github.com/structmerge/structmerge/typed"
	"github.com/structmerge/structmerge/value"
)

// conflictAdvice is what kubectl adds to the API server's message when a
// server-side apply conflicts.
const conflictAdvice = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the ` + "`--force-conflicts`" + ` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`

// applyFlags are the flags of apply and diff.
type applyFlags struct {
	inputFlags
	cluster      clusterFlags
	live         []string
	fieldManager string
	force        bool
	subresource  string
}

func (f *applyFlags) register(cmd *cobra.Command) {
	f.inputFlags.register(cmd, "the manifests to apply")
	cmd.Flags().StringArrayVar(&f.live, "live", nil, "the live objects, with their managedFields (kubectl get --show-managed-fields -o yaml; FILE, DIR or -; repeatable); a manifest without one is created")
	cmd.Flags().StringVar(&f.fieldManager, "field-manager", "kubectl", "the name of the manager that applies")
	cmd.Flags().BoolVar(&f.force, "force-conflicts", false, "take the fields other managers own instead of failing")
	cmd.Flags().StringVar(&f.subresource, "subresource", "", "apply to this subresource (status or scale)")
	f.cluster.register(cmd)
}

// applied is the outcome of applying one manifest.
type applied struct {
	manifest object
	liveObj  object      // where live was read from (zero when created)
	live     value.Value // null when created
	result   value.Value
	conflict *kube.ConflictError
}

// runApply applies every manifest to its live object.
func (f *applyFlags) run(cmd *cobra.Command) ([]applied, *types, error) {
	if f.subresource != "" && f.subresource != "status" && f.subresource != "scale" {
		return nil, nil, badf("--subresource: %q is not status or scale", f.subresource)
	}
	objs, err := f.read(cmd)
	if err != nil {
		return nil, nil, err
	}
	var live []object
	switch {
	case f.cluster.enabled() && len(f.live) > 0:
		return nil, nil, badf("--live and --kubeconfig/--context exclude each other: the live objects come from files or from a cluster")
	case f.cluster.enabled():
		c, err := f.cluster.connect(cmd.ErrOrStderr())
		if err != nil {
			return nil, nil, err
		}
		if live, f.clusterCRDs, err = c.live(cmd.Context(), objs, kube.BuiltinTypes()); err != nil {
			return nil, nil, err
		}
	case len(f.live) > 0:
		if live, err = readObjects(f.live, f.recursive, cmd.InOrStdin()); err != nil {
			return nil, nil, err
		}
		warnDuplicates(cmd.ErrOrStderr(), live)
		warnUntracked(cmd.ErrOrStderr(), live)
	}
	t, err := f.types()
	if err != nil {
		return nil, nil, err
	}
	at, err := now()
	if err != nil {
		return nil, nil, err
	}
	srv, err := t.server(at)
	if err != nil {
		return nil, nil, err
	}
	var opts []kube.RequestOption
	if f.force {
		opts = append(opts, kube.Force())
	}
	if f.subresource != "" {
		opts = append(opts, kube.Subresource(f.subresource))
	}
	var out []applied
	for _, o := range objs {
		if _, ok := t.resolver.ResolveType(o.gvk()); !ok {
			return nil, nil, badf("%s: no schema for %s (add it with --crd or --openapi)", o.where(), o.gvk())
		}
		a := applied{manifest: o}
		if l, ok := findLive(live, o); ok {
			if err := checkVersion(t, l, o); err != nil {
				return nil, nil, err
			}
			a.live, a.liveObj = l.Value, l
			if t.readAt != nil {
				// The API server's storage serves the live object at the
				// manifest's version, pruned to that version's schema.
				if r, pruned, err := t.readAt(l.Value, o.gvk()); err == nil {
					for _, p := range pruned {
						fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s: %s: %s: %s does not declare this field: the API server drops it "+
							"when it serves the object at that version, and the apply writes the object without it\n",
							l.at(p), l.resource(), p, o.gvk().APIVersion())
					}
					a.live = r
				}
			}
		} else if f.subresource == kube.ScaleSubresource && o.gvk().Kind == "Scale" {
			// A Scale applies to the scale subresource of its parent,
			// found by namespace and name.
			l, err := findParent(live, o)
			if err != nil {
				return nil, nil, err
			}
			a.live, a.liveObj = l.Value, l
		}
		// The live object as the API server's storage reads it:
		// defaulted, as diff shows it.
		if a.live, err = srv.Read(a.live); err != nil {
			return nil, nil, badf("%s: %s: %v", a.liveObj.where(), a.liveObj.resource(), err)
		}
		res, err := srv.Apply(a.live, o.Value, f.fieldManager, opts...)
		var ce *kube.ConflictError
		switch {
		case errors.As(err, &ce):
			a.conflict = ce
		case err != nil:
			return nil, nil, fieldManagerError(a, err)
		default:
			a.result = res
		}
		out = append(out, a)
	}
	var created []object
	for _, a := range out {
		if a.live.IsNull() {
			created = append(created, a.manifest)
		}
	}
	warnBeyondOffline(cmd.ErrOrStderr(), created)
	return out, t, nil
}

// checkVersion refuses a manifest at another version of its kind than its
// live object when no converter handles the kind (a CRD whose conversion
// is a webhook, a built-in kind): the field manager cannot convert it.
func checkVersion(t *types, l, o object) error {
	lg, og := l.gvk(), o.gvk()
	if lg == og {
		return nil
	}
	if t.converter != nil {
		if _, err := t.converter.ConvertVersion(l.Value, og); !errors.Is(err, kube.ErrNotConvertible) {
			return nil
		}
	}
	return badf("%s: %s is at %s but its live object (%s) is at %s, and structmerge cannot convert %s between versions "+
		"(only custom resources whose CRD, given with --crd, has conversion None): give the live object at %s",
		o.where(), o.resource(), og.APIVersion(), l.where(), lg.APIVersion(), og.Kind, og.APIVersion())
}

// warnUntracked warns about live objects that came from a server (they
// have a resourceVersion or a uid) but have no managedFields: kubectl get
// leaves them out unless asked, and the field manager then takes the
// object as never tracked.
func warnUntracked(w io.Writer, live []object) {
	for _, l := range live {
		md, _ := l.Value.Get("metadata")
		if md.Kind() != value.Map {
			continue
		}
		var from []string
		for _, f := range []string{"resourceVersion", "uid"} {
			if v, ok := md.Get(f); ok && !v.IsNull() && !(v.Kind() == value.String && v.AsString() == "") {
				from = append(from, f)
			}
		}
		if mf, ok := md.Get("managedFields"); len(from) == 0 || (ok && mf.Len() > 0) {
			continue
		}
		fmt.Fprintf(w, "warning: %s: %s has a %s but no managedFields: it is taken as never applied, and every field "+
			"goes to the manager %q. kubectl get leaves managedFields out; get the live object with "+
			"\"kubectl get --show-managed-fields -o yaml\".\n",
			l.at(fieldpath.Path{fieldpath.FieldName("metadata")}), l.resource(), strings.Join(from, " and a "), kube.BeforeFirstApplyManager)
	}
}

// fieldManagerError describes an error of the field manager. Schema
// problems are one line each, at the line and column of the field in the
// file it was read from (the manifest, or the live object when the
// problem is there): "file:line:col: Kind name: .path: message".
func fieldManagerError(a applied, err error) error {
	o, note := a.manifest, ""
	var le *kube.LiveObjectError
	if errors.As(err, &le) && a.liveObj.Value.Kind() == value.Map {
		o, note = a.liveObj, " (in the live object"
		if lv, mv := a.liveObj.gvk().APIVersion(), a.manifest.gvk().APIVersion(); lv != mv {
			note += ", read at " + mv
		}
		note += ")"
	}
	var errs typed.Errors
	if !errors.As(err, &errs) || len(errs) == 0 {
		var e *typed.Error
		if !errors.As(err, &e) {
			return badf("%s: %s: %v", o.at(nil), o.resource(), err)
		}
		errs = typed.Errors{e}
	}
	lines := make([]string, len(errs))
	for i, e := range errs {
		ps := e.Path.String()
		if ps == "" {
			ps = "."
		}
		lines[i] = fmt.Sprintf("%s: %s: %s: %s%s", o.at(e.Path), o.resource(), ps, e.Message, note)
	}
	return badf("%s", strings.Join(lines, "\nerror: "))
}

// errorPath returns the path of the first field an error of the field
// manager names, or nil.
func errorPath(err error) fieldpath.Path {
	var errs typed.Errors
	if errors.As(err, &errs) && len(errs) > 0 {
		return errs[0].Path
	}
	var e *typed.Error
	if errors.As(err, &e) {
		return e.Path
	}
	return nil
}

func newApply() *cobra.Command {
	var f applyFlags
	var output string
	cmd := &cobra.Command{
		Use:   "apply -f FILE|DIR|- [--live FILE|DIR|- | --context NAME]",
		Short: "Server-side apply manifests to live objects, offline",
		Long: "Applies the manifests to the live objects (matched by apiVersion, kind, namespace and name, or by another\n" +
			"version of the kind: a custom resource whose CRD has conversion None is served at the manifest's version) as the\n" +
			"Kubernetes API server's field manager does, and prints the resulting objects with their managedFields.\n" +
			"A manifest without a live object is created. On conflict it prints the API server's message, kubectl's\n" +
			"advice and, per conflict, the field at its file:line:col in the manifest, the owner and the live and desired values.\n" +
			"With --kubeconfig or --context the live objects (and the CRDs of custom resources) are read from that\n" +
			"cluster with GET only, as a dry run: nothing is written.\n" +
			"Times come from the clock, or from $STRUCTMERGE_NOW (RFC 3339) when set.\n" +
			"Exit status: 0 applied, 1 conflicts, 2 bad input.",
		Example: "  structmerge apply -f examples/deployment.yaml --live examples/live/deployment.yaml\n" +
			"  structmerge apply -f deploy.yaml --context readonly -o json\n" +
			"  structmerge apply -f manifests/ -R --live live/ --force-conflicts -o json\n" +
			"  cat cr.yaml | structmerge apply -f - --crd crd.yaml",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if output != "yaml" && output != "json" {
				return badf("-o: %q is not yaml or json", output)
			}
			res, _, err := f.run(cmd)
			if err != nil {
				return err
			}
			if len(res) == 0 {
				// kubectl's words for files that hold no object.
				return badf("no objects passed to apply")
			}
			var objs []value.Value
			conflicts := false
			for _, a := range res {
				if a.conflict != nil {
					conflicts = true
					continue
				}
				objs = append(objs, a.result)
			}
			if len(objs) > 0 {
				printObjects(cmd.OutOrStdout(), objs, output)
			}
			if conflicts {
				w := cmd.ErrOrStderr()
				for _, a := range res {
					if a.conflict != nil {
						printConflict(w, a, f.fieldManager)
					}
				}
				return exitError{1}
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "yaml", "output format: yaml or json")
	return cmd
}

// printObjects prints one object, or several as a List, as kubectl does.
func printObjects(w io.Writer, objs []value.Value, format string) {
	v := objs[0]
	if len(objs) > 1 {
		v = value.NewMap([]value.Field{
			{Name: "apiVersion", Value: value.NewString("v1")},
			{Name: "items", Value: value.NewList(objs)},
			{Name: "kind", Value: value.NewString("List")},
			{Name: "metadata", Value: value.NewMap([]value.Field{{Name: "resourceVersion", Value: value.NewString("")}})},
		})
	}
	if format == "json" {
		b := value.AppendJSONIndent(nil, v, "", "    ")
		w.Write(append(b, '\n'))
		return
	}
	w.Write(value.ToYAML(v))
}

// printConflict prints what kubectl prints for a conflicting apply, then
// each conflict in detail.
// printConflict prints a conflict as kubectl does, then each conflicting
// field: where the manifest sets it, its owner (manager, operation, API
// version, subresource), the live and the desired value, and what
// --force-conflicts would do.
func printConflict(w io.Writer, a applied, manager string) {
	fmt.Fprintf(w, "error: %s: %s\n%s\n", a.manifest.where(), a.conflict.Error(), conflictAdvice)
	fmt.Fprintf(w, "Conflicts on %s:\n", a.manifest.resource())
	for _, c := range a.conflict.Conflicts {
		owner := fmt.Sprintf("%q (%s", c.Manager, c.Operation)
		if c.APIVersion != "" {
			owner += " using " + c.APIVersion
		}
		if c.Subresource != "" {
			owner += ", subresource " + c.Subresource
		}
		owner += ")"
		fmt.Fprintf(w, "%s: %s: %s: conflict with %s\n    live:    %s\n    desired: %s\n    with --force-conflicts: %q takes it from %q and sets the desired value\n",
			a.manifest.at(c.Path), a.manifest.resource(), c.Path, owner, short(c.Live), short(c.Desired), manager, c.Manager)
	}
}

// short renders a value on one line as JSON, "(none)" when absent.
func short(v *value.Value) string {
	if v == nil {
		return "(none)"
	}
	s := string(value.ToJSON(*v))
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return strings.TrimSpace(s)
}

// findParent finds the one live object a Scale belongs to: the one with
// its namespace and name.
func findParent(live []object, scale object) (object, error) {
	var found []object
	for _, l := range live {
		if l.name() == scale.name() && nsKey(l) == nsKey(scale) {
			found = append(found, l)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return object{}, badf("%s: no live object %s for the scale subresource (give it with --live)", scale.where(), scale.resource())
	}
	return object{}, badf("%s: several live objects are named %s; the scale subresource needs one", scale.where(), scale.resource())
}

func nsKey(o object) string {
	if ns := o.namespace(); ns != "" {
		return ns
	}
	return "default"
}
