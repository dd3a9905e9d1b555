package scenario

import (
	"errors"
	"testing"
)

// FuzzParse checks that no input makes the parser panic or hang, that every
// error is a *ParseError, and that every file it accepts runs to a result.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		passing, failing, twoManagers, kubeScenario,
		fakeHead + "steps:\n- {op: apply, manager: a, object: {x: 1}, schema: {inline: 'types: []'}}\n",
		fakeHead + "live: {object: {a: [1, {b: null}]}, managers: {m: {apiVersion: v2, applied: true, fields: {\"f:a\": {}}}}}\nsteps:\n- {op: update, manager: a, object: &x {y: *x}}\n",
		"a: [\n",
		"- a\n",
		"",
		"kubernetes: true\nlive: {a: 1}\nsteps:\n- {op: apply, manager: m, subresource: scale, object: {}}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		noFiles := func(string) ([]byte, error) { return nil, errors.New("no files while fuzzing") }
		file, err := parse("fuzz.yaml", data, noFiles)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			return
		}
		if len(file.Steps) == 0 {
			t.Fatalf("accepted a scenario without steps")
		}
		r := Run(fakeKube{}, file)
		if r.File != "fuzz.yaml" || (!r.Passed && r.Detail == "") {
			t.Fatalf("bad result %+v", r)
		}
	})
}
