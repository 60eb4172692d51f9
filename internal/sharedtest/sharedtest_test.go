package sharedtest

import (
	"path/filepath"
	"runtime"
	"testing"
)

// ended records how a helper ended the test it was given.
type ended struct {
	testing.TB
	how string
}

func (e *ended) Helper()               {}
func (e *ended) Fatal(...any)          { e.stop("failed") }
func (e *ended) Fatalf(string, ...any) { e.stop("failed") }
func (e *ended) Skipf(string, ...any)  { e.stop("skipped") }
func (e *ended) stop(how string)       { e.how = how; runtime.Goexit() }

// run calls f with a recording TB on its own goroutine, as the testing
// package runs a test, so that Goexit ends only f.
func run(f func(tb testing.TB)) string {
	e := &ended{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(e)
		e.how = "ran"
	}()
	<-done
	return e.how
}

func TestMissingSuiteSkipsOutsideCIAndFailsInCI(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "absent.json")
	for _, c := range []struct{ ci, want string }{{"", "skipped"}, {"false", "skipped"}, {"true", "failed"}} {
		t.Setenv("CI", c.ci)
		if got := run(func(tb testing.TB) { ReadFile(tb, missing) }); got != c.want {
			t.Errorf("CI=%q, ReadFile of a missing file: %s, want %s", c.ci, got, c.want)
		}
		if got := run(func(tb testing.TB) { Glob(tb, missing+"*") }); got != c.want {
			t.Errorf("CI=%q, Glob matching nothing: %s, want %s", c.ci, got, c.want)
		}
	}
}

func TestPresentSuiteRuns(t *testing.T) {
	t.Setenv("CI", "true")
	if got := run(func(tb testing.TB) { ReadFile(tb, "sharedtest.go") }); got != "ran" {
		t.Errorf("ReadFile of a present file: %s", got)
	}
	if got := run(func(tb testing.TB) { Glob(tb, "*.go") }); got != "ran" {
		t.Errorf("Glob matching files: %s", got)
	}
}
