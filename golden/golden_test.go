// Package golden holds one directory per compiler case. A valid case holds a
// definition, the committed generated Go (a real package that go vet builds)
// and a behaviour test that runs it. An error case under testdata/errors
// holds a definition and the diagnostics it must produce, in stderr.txt.
//
//	go test ./golden -update   rewrites the expected files (never deletes a case)
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/compiler"
)

var update = flag.Bool("update", false, "rewrite expected files")

// TestGenerated compiles every valid case and compares the output with the
// committed file, byte for byte.
func TestGenerated(t *testing.T) {
	var defs []string
	for _, pattern := range []string{"*/*.flow.yaml", "*/*.chain.yaml", "*/*.chain.json", "*/*.asl.json", "*/*.asl.yaml"} {
		matches, err := filepath.Glob(pattern)
		require.NoError(t, err)
		defs = append(defs, matches...)
	}
	require.NotEmpty(t, defs)
	for _, def := range defs {
		t.Run(filepath.Dir(def), func(t *testing.T) {
			out := filepath.Join(filepath.Dir(def), compiler.OutputName(def))
			files := generate(t, def, out)
			again := generate(t, def, out)
			for i, f := range files {
				want := filepath.Join(filepath.Dir(def), f.Name)
				if *update {
					require.NoError(t, os.WriteFile(want, f.Content, 0o644))
					continue
				}
				committed, err := os.ReadFile(want)
				require.NoError(t, err, "run go test ./golden -update")
				assert.Equal(t, string(committed), string(f.Content), "generated code changed; review it and run go test ./golden -update")
				assert.Equal(t, string(f.Content), string(again[i].Content), "output is not deterministic")
			}
		})
	}
}

// generate returns the workflow's file and its mock file.
func generate(t *testing.T, def, out string) []codegen.File {
	t.Helper()
	src, err := os.ReadFile(def)
	require.NoError(t, err)
	w, ds := compiler.Compile(def, src, compiler.Options{Generated: out})
	require.NotNil(t, w, "diagnostics:\n%s", ds.Lines())
	assert.Empty(t, ds.Lines(), "a valid case should compile without warnings")
	files, err := codegen.Generate(w, codegen.Options{FileName: filepath.Base(out), Source: filepath.Base(def)})
	require.NoError(t, err)
	require.Len(t, files, 2)
	return files
}

var diagLine = regexp.MustCompile(`^testdata/errors/[^:]+:\d+:\d+: \S`)

// TestErrors compiles every error case and compares its diagnostics.
func TestErrors(t *testing.T) {
	dirs, err := filepath.Glob("testdata/errors/*")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			def := definitionIn(t, dir)
			src, err := os.ReadFile(def)
			require.NoError(t, err)
			w, ds := compiler.Compile(def, src, compiler.Options{})
			assert.Nil(t, w, "an error case must not compile")
			require.True(t, ds.HasErrors(), "no errors reported")
			got := ds.Lines()
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				assert.Regexp(t, diagLine, line, "every diagnostic is file:line:col: message")
			}
			expected := filepath.Join(dir, "stderr.txt")
			if *update {
				require.NoError(t, os.WriteFile(expected, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(expected)
			require.NoError(t, err, "run go test ./golden -update")
			assert.Equal(t, string(want), got)
		})
	}
}

func definitionIn(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if compiler.IsDefinition(e.Name()) {
			return filepath.Join(dir, e.Name())
		}
	}
	t.Fatalf("no definition in %s", dir)
	return ""
}
