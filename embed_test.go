package flowc

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRuntimeDeps: the go.mod of `flowc run`'s temporary module requires
// every module the runtime packages build with, or an offline build of a
// workflow fails to find one.
func TestRuntimeDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./runtime/...", "./flowrun").Output()
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

// TestSourceCarriesWhatProgramsImport: every package of flowc that the
// programs of `flowc run` import (the runtime, its machinery and flowrun,
// codegen's RuntimePath, ImplPath and HarnessPath) and of `flowc build`
// (binmain, the SQLite store) is carried whole in the embedded source, or
// an offline build of a workflow fails to find it.
func TestSourceCarriesWhatProgramsImport(t *testing.T) {
	t.Run("run", func(t *testing.T) {
		carried(t, []fs.FS{RuntimeSource()}, "./runtime", "./runtime/impl", "./flowrun")
	})
	t.Run("build", func(t *testing.T) {
		carried(t, []fs.FS{RuntimeSource(), BuildSource()}, "./runtime", "./runtime/impl", "./flowrun",
			"./binmain", "./checkpoint/sqlite", "./builtin", "./observe/otel")
	})
}

// carried checks that srcs hold every non-test Go file of the packages of
// this module that pkgs need.
func carried(t *testing.T, srcs []fs.FS, pkgs ...string) {
	args := append([]string{"list", "-deps", "-f", "{{with .Module}}{{if eq .Path \"" + Module + "\"}}{{$.Dir}}{{range $.GoFiles}} {{.}}{{end}}{{end}}{{end}}"}, pkgs...)
	out, err := exec.Command("go", args...).Output()
	require.NoError(t, err)
	root, err := os.Getwd()
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		dir, err := filepath.Rel(root, f[0])
		require.NoError(t, err)
		for _, name := range f[1:] {
			path := filepath.ToSlash(filepath.Join(dir, name))
			found := slices.ContainsFunc(srcs, func(src fs.FS) bool {
				_, err := fs.Stat(src, path)
				return err == nil
			})
			assert.True(t, found, "%s is not carried", path)
		}
	}
}
