package asl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
)

// HTTP Tasks with literal parameters Step Functions would reject fail to
// compile, each problem at its position; values from paths and
// expressions are left to run time. Each testdata/http definition's
// diagnostics are in the .txt file beside it.
func TestHTTPTaskDiagnostics(t *testing.T) {
	defs, err := filepath.Glob("testdata/http/*.asl.json")
	require.NoError(t, err)
	require.NotEmpty(t, defs)
	for _, def := range defs {
		t.Run(filepath.Base(def), func(t *testing.T) {
			src, err := os.ReadFile(def)
			require.NoError(t, err)
			w, ds := compiler.Compile(def, src, compiler.Options{})
			assert.Nil(t, w)
			got := ds.Lines()
			want := strings.TrimSuffix(def, ".asl.json") + ".txt"
			if *update {
				require.NoError(t, os.WriteFile(want, []byte(got), 0o644))
			}
			data, err := os.ReadFile(want)
			require.NoError(t, err, "run go test ./compiler/asl -run HTTPTask -update")
			assert.Equal(t, string(data), got)
		})
	}
}
