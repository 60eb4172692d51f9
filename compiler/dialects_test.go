package compiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler/yamlx"
)

// A dialect is one record in Dialects (docs/targets.md, "Adding a
// dialect"): a record that leaves out a part would fail only when a file
// of it is compiled, or `flowc schema` run.
func TestDialectsAreWhole(t *testing.T) {
	names := map[string]bool{}
	for _, d := range Dialects {
		assert.NotEmpty(t, d.Name)
		for _, n := range append([]string{d.Name}, d.Aliases...) {
			assert.False(t, names[n], "two dialects are called %q", n)
			names[n] = true
		}
		assert.NotEmpty(t, d.About, d.Name)
		assert.NotEmpty(t, d.Marker, d.Name)
		assert.NotEmpty(t, d.Suffixes, d.Name)
		assert.NotNil(t, d.Detect, d.Name)
		assert.NotNil(t, d.Lower, d.Name)
		assert.NotNil(t, d.Schema, d.Name)
		assert.NotEmpty(t, d.Plans, d.Name)
		for mode, planner := range d.Plans {
			assert.NotNil(t, planner, "%s: mode %d", d.Name, mode)
		}
	}
}

// Every suffix registered is a definition's, and Stem takes it off whole,
// whichever dialect it is of.
func TestEverySuffixIsADefinition(t *testing.T) {
	for _, d := range Dialects {
		for _, suf := range d.Suffixes {
			require.True(t, strings.HasPrefix(suf, "."), "%s: suffix %q", d.Name, suf)
			assert.True(t, IsDefinition("dir/review"+suf), suf)
			assert.Equal(t, "review", Stem("dir/review"+suf), suf)
		}
	}
	assert.False(t, IsDefinition("review.yaml"))
}

// Every golden definition is detected as the dialect its suffix names,
// the first of the list to detect it: detection goes in the list's order.
func TestDetectionAgreesWithSuffix(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "golden", "*", "*"))
	require.NoError(t, err)
	seen := map[string]int{}
	for _, path := range paths {
		want := dialectOfSuffix(path)
		if want == nil {
			continue
		}
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		r := &yamlx.Reader{File: path}
		root, _ := r.ParseSource(src)
		require.NotNil(t, root, path)
		if got := detect(root); assert.NotNil(t, got, path) {
			assert.Equal(t, want.Name, got.Name, path)
		}
		seen[want.Name]++
	}
	for _, d := range Dialects {
		assert.Positive(t, seen[d.Name], "no golden case of %s", d.Name)
	}
}

func dialectOfSuffix(path string) *Dialect {
	for _, d := range Dialects {
		for _, suf := range d.Suffixes {
			if strings.HasSuffix(path, suf) {
				return d
			}
		}
	}
	return nil
}

// A file no dialect detects is an error at its first line that says what
// each dialect looks for, in the order they are tried.
func TestNotAWorkflowNamesEveryMarker(t *testing.T) {
	_, ds := Compile("x.flow.yaml", []byte("name: review\n"), Options{NoPackage: true})
	require.Len(t, ds, 1)
	assert.True(t, ds.HasErrors())
	msg := ds[0].String()
	require.True(t, strings.HasPrefix(msg, "x.flow.yaml:1:1: not a workflow: expected "), msg)
	at := 0
	for _, d := range Dialects {
		i := strings.Index(msg, d.Marker)
		assert.Greater(t, i, at, "%s's marker, after the one before", d.Name)
		at = i
	}
}
