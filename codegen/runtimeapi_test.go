package codegen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUserAPIMatchesRuntime: generated code spells a name through flowcrt
// exactly when package runtime exports it, or it would not compile.
func TestUserAPIMatchesRuntime(t *testing.T) {
	notTest := func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") } // examples are not exports
	pkgs, err := parser.ParseDir(token.NewFileSet(), filepath.Join("..", "runtime"), notTest, 0)
	require.NoError(t, err)
	var exported []string
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for name, obj := range f.Scope.Objects {
				if ast.IsExported(name) && obj.Kind != ast.Bad {
					exported = append(exported, name)
				}
			}
		}
	}
	var listed []string
	for name := range userAPI {
		listed = append(listed, name)
	}
	slices.Sort(exported)
	slices.Sort(listed)
	assert.Equal(t, exported, listed)
}
