package bench

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// concurrentTotal is the number of validations one iteration of
// BenchmarkConcurrentValidate performs, whatever the number of goroutines.
const concurrentTotal = 64

// overrideFile is the schema where every field reference carries an
// element-relationship override: each such reference resolves through
// SMD's mutex-guarded cache of overridden types (shared by all users of a
// parser), while structmerge resolved them all when compiling.
const overrideFile = "k8s-schema-100pct-fieldoverride.yaml"

// concurrentObjects are the objects validated, alternately.
var concurrentObjects = []struct{ typeName, file string }{
	{"io.k8s.api.core.v1.Node", "node.yaml"},
	{"io.k8s.api.core.v1.Endpoints", "endpoints.yaml"},
}

// workerPool keeps g goroutines alive across iterations. run hands every
// worker its share of one iteration's work and waits for all of them: a
// channel send per worker and one WaitGroup wait, which is small next to
// the validations.
type workerPool struct {
	start []chan struct{}
	wg    sync.WaitGroup
	errs  []error
}

// newWorkerPool starts g workers; on each run worker i performs the i-th
// of g contiguous blocks of the jobs 0 to total-1. do(j) performs job j.
func newWorkerPool(g, total int, do func(job int) error) *workerPool {
	p := &workerPool{start: make([]chan struct{}, g), errs: make([]error, g)}
	for i := range g {
		p.start[i] = make(chan struct{})
		go func() {
			for range p.start[i] {
				// A contiguous block of jobs, so that every worker gets
				// the same mix of objects (jobs alternate between them).
				for j := i * total / g; j < (i+1)*total/g; j++ {
					if err := do(j); err != nil && p.errs[i] == nil {
						p.errs[i] = err
					}
				}
				p.wg.Done()
			}
		}()
	}
	return p
}

// run performs one iteration and returns the first error of any worker.
func (p *workerPool) run() error {
	p.wg.Add(len(p.start))
	for _, c := range p.start {
		c <- struct{}{}
	}
	p.wg.Wait()
	for _, err := range p.errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *workerPool) stop() {
	for _, c := range p.start {
		close(c)
	}
}

// concurrencyLevels are the sub-benchmark names and goroutine counts.
func concurrencyLevels() []struct {
	name string
	g    int
} {
	return []struct {
		name string
		g    int
	}{{"g1", 1}, {"g2", 2}, {"gmax", runtime.GOMAXPROCS(0)}}
}

// smdConcurrentJob validates job j's object on SMD. All goroutines share
// one parser, as the API server's type converter is shared by all
// requests; each validation starts from the parser (p.Type) as a request
// does, so every overridden reference takes the schema's shared lock.
func smdConcurrentJob(tb testing.TB) func(int) error {
	tb.Helper()
	p := smdParser(tb, overrideFile)
	objs := make([]map[string]any, len(concurrentObjects))
	for i, o := range concurrentObjects {
		objs[i] = unstructuredObject(tb, o.file)
	}
	return func(j int) error {
		k := j % len(concurrentObjects)
		_, err := p.Type(concurrentObjects[k].typeName).FromUnstructured(objs[k])
		return err
	}
}

// smConcurrentJob validates job j's object on structmerge, all goroutines
// sharing one compiled schema. Like SMD's side it starts from the decoded
// map: the conversion to a value is part of each job.
func smConcurrentJob(tb testing.TB) func(int) error {
	tb.Helper()
	s := smSchema(tb, overrideFile)
	objs := make([]map[string]any, len(concurrentObjects))
	for i, o := range concurrentObjects {
		objs[i] = unstructuredObject(tb, o.file)
	}
	return func(j int) error {
		k := j % len(concurrentObjects)
		t, ok := s.Type(concurrentObjects[k].typeName)
		if !ok {
			return fmt.Errorf("no type %s", concurrentObjects[k].typeName)
		}
		_, err := smValidate(t, objs[k])
		return err
	}
}

// BenchmarkConcurrentValidate validates Node and Endpoints objects on the
// override-heavy schema, both libraries starting each validation from the
// same decoded map as BenchmarkValidate does, concurrentTotal validations per iteration split
// across g goroutines (1, 2, GOMAXPROCS). The work per iteration is fixed,
// so time(g1)/time(gN) is the throughput gained from N goroutines.
func BenchmarkConcurrentValidate(b *testing.B) {
	for _, lv := range concurrencyLevels() {
		for _, lib := range []struct {
			name string
			job  func(testing.TB) func(int) error
		}{{"smd", smdConcurrentJob}, {"structmerge", smConcurrentJob}} {
			b.Run(lv.name+"/"+lib.name, func(b *testing.B) {
				p := newWorkerPool(lv.g, concurrentTotal, lib.job(b))
				defer p.stop()
				bench(b, p.run)
			})
		}
	}
}

// TestConcurrentValidatePool runs one iteration of the concurrent workload
// on both libraries with several goroutines and checks that every job ran
// and succeeded.
func TestConcurrentValidatePool(t *testing.T) {
	for _, lib := range []struct {
		name string
		job  func(testing.TB) func(int) error
	}{{"smd", smdConcurrentJob}, {"structmerge", smConcurrentJob}} {
		t.Run(lib.name, func(t *testing.T) {
			job := lib.job(t)
			var mu sync.Mutex
			seen := make([]int, concurrentTotal)
			p := newWorkerPool(3, concurrentTotal, func(j int) error {
				mu.Lock()
				seen[j]++
				mu.Unlock()
				return job(j)
			})
			defer p.stop()
			for range 2 {
				if err := p.run(); err != nil {
					t.Fatal(err)
				}
			}
			for j, n := range seen {
				if n != 2 {
					t.Errorf("job %d ran %d times, want 2", j, n)
				}
			}
		})
	}
	// A failing job is reported.
	p := newWorkerPool(2, 4, func(j int) error {
		if j == 3 {
			return fmt.Errorf("job 3 failed")
		}
		return nil
	})
	defer p.stop()
	if err := p.run(); err == nil {
		t.Error("pool hid a job's error")
	}
}
