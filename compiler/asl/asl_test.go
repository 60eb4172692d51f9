package asl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/compiler"
)

// FuzzCompile checks that no definition makes the front-end or the code
// generator panic, and that a definition that compiles generates Go. Run
// it with go test -fuzz FuzzCompile ./compiler/asl/.
func FuzzCompile(f *testing.F) {
	seeds, err := filepath.Glob("../../golden/*/*.asl.*")
	require.NoError(f, err)
	errs, err := filepath.Glob("../../golden/testdata/errors/asl-*/input.asl.*")
	require.NoError(f, err)
	for _, p := range append(seeds, errs...) {
		src, err := os.ReadFile(p)
		require.NoError(f, err)
		f.Add(string(src), strings.HasSuffix(p, ".json"))
	}
	f.Fuzz(func(t *testing.T, src string, isJSON bool) {
		name := "fuzz.asl.yaml"
		if isJSON {
			name = "fuzz.asl.json"
		}
		w, ds := compiler.Compile(filepath.Join(t.TempDir(), name), []byte(src), compiler.Options{})
		if w == nil {
			assert.True(t, ds.HasErrors(), "no workflow and no error")
			return
		}
		_, err := codegen.Generate(w, codegen.Options{FileName: "fuzz_flow.go"})
		assert.NoError(t, err)
		codegen.Mermaid(w)
		codegen.Dot(w)
	})
}
