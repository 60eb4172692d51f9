package emit

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typeCheckGuard type-checks a file holding only the version guard of
// version against this module's runtime, and returns the error.
func typeCheckGuard(t *testing.T, version int) error {
	f := jen.NewFilePathName("example.com/skew", "skew")
	f.ImportAlias(RuntimePath, "flowcrt")
	versionGuard(f, version)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "skew_flow.go", fmt.Sprintf("%#v", f), 0)
	require.NoError(t, err)
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", exportData)}
	_, err = conf.Check("example.com/skew", fset, []*ast.File{file}, nil)
	return err
}

// exportData finds a package's compiled form with the go command, which
// builds it if the build cache lacks it.
func exportData(path string) (io.ReadCloser, error) {
	out, err := exec.Command("go", "list", "-export", "-f", "{{.Export}}", path).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w", path, err)
	}
	return os.Open(strings.TrimSpace(string(out)))
}

// Code the runtime supports compiles; code it does not fails with an error
// that names the versions of both, not only "constant -1 overflows".
func TestVersionGuardNamesBothVersions(t *testing.T) {
	require.NoError(t, typeCheckGuard(t, flowcimpl.GenVersion))
	supported := fmt.Sprintf("RuntimeSupportsGeneratedCode%dTo%d", flowcimpl.MinGenVersion, flowcimpl.GenVersion)
	for _, v := range []int{flowcimpl.GenVersion + 1, flowcimpl.MinGenVersion - 1} {
		err := typeCheckGuard(t, v)
		require.Error(t, err, v)
		assert.Contains(t, err.Error(), supported, v)
		assert.Contains(t, err.Error(), fmt.Sprintf("missing method GeneratedCodeVersion%d", v), v)
	}
}
