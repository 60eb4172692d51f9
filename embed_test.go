package flowc

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestRuntimeDeps: the go.mod of `flowc run`'s temporary module requires
// every module the runtime packages build with, or an offline build of a
// workflow fails to find one.
func TestRuntimeDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./runtime/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	for _, m := range strings.Fields(string(out)) {
		if m != Module && !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	slices.Sort(mods)
	if !slices.Equal(mods, runtimeDeps) {
		t.Errorf("runtimeDeps = %q, the runtime packages build with %q", runtimeDeps, mods)
	}
}

// TestCLIBuildsWhatTheRuntimeNeeds: building flowc downloads every module
// the runtime packages need, so that `flowc run` builds a workflow offline
// on a machine that has only built flowc.
func TestCLIBuildsWhatTheRuntimeNeeds(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./cmd/flowc").Output()
	if err != nil {
		t.Fatal(err)
	}
	linked := strings.Fields(string(out))
	for _, m := range runtimeDeps {
		if !slices.Contains(linked, m) {
			t.Errorf("flowc does not build with %s, which the runtime needs", m)
		}
	}
}
