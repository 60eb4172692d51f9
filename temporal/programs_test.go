package temporal_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flowc-dev/flowc/codegen/program"
	"github.com/flowc-dev/flowc/compiler"
)

// TestRunnerPrograms holds programs/<case>/main.go to the program `flowc
// run --engine temporal` writes for golden/<case>, committed so that its
// generated code is reviewed as the workflows' is; here it imports the
// case's package, where `flowc run` imports a copy. `go vet ./...` builds
// it; TestRunSameLine and TestRunSessionsOnServer run what it does.
func TestRunnerPrograms(t *testing.T) {
	dirs, err := os.ReadDir("programs")
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
			c, diags := compiler.Compile(def, src, compiler.Options{Generated: filepath.Join(filepath.Dir(def), compiler.OutputName(def))})
			if c == nil {
				t.Fatalf("%s does not compile: %v", def, diags)
			}
			f, err := program.TemporalRunner(c, "github.com/flowc-dev/flowc/temporal/golden/"+d.Name())
			if err != nil {
				t.Fatal(err)
			}
			compare(t, filepath.Join("programs", d.Name(), f.Name), f.Content)
		})
	}
}
