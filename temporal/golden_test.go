package temporal_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/flowc-dev/flowc/codegen"
	"github.com/flowc-dev/flowc/compiler"
)

var update = flag.Bool("update", false, "rewrite the generated files of golden/")

// TestGolden holds each case of golden/ to what `flowc gen --target
// temporal` writes: its native file and its Temporal file. The cases are
// built by `go vet ./...` and checked by workflowcheck in .ci/run.
func TestGolden(t *testing.T) {
	dirs, err := os.ReadDir("golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		t.Run(d.Name(), func(t *testing.T) {
			def := definition(t, filepath.Join("golden", d.Name()))
			src, err := os.ReadFile(def)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(filepath.Dir(def), compiler.OutputName(def))
			w, diags := compiler.Compile(def, src, compiler.Options{Generated: out})
			if w == nil {
				t.Fatalf("%s does not compile: %v", def, diags)
			}
			opts := codegen.Options{FileName: filepath.Base(out), Source: filepath.Base(def)}
			files, err := codegen.Generate(w, opts)
			if err != nil {
				t.Fatal(err)
			}
			tf, err := codegen.GenerateTemporal(w, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range append(files, tf) {
				compare(t, filepath.Join(filepath.Dir(def), f.Name), f.Content)
			}
		})
	}
}

func definition(t *testing.T, dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if compiler.IsDefinition(e.Name()) {
			return filepath.Join(dir, e.Name())
		}
	}
	t.Fatalf("%s holds no definition", dir)
	return ""
}

func compare(t *testing.T, path string, want []byte) {
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: go test -update regenerates it; review the diff", path)
	}
}
