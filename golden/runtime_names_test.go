package golden

import (
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"

	"github.com/flowc-dev/flowc/ir/plan"
)

// implName is a name the generated code takes from the runtime's
// machinery (flowcimpl, runtime/impl).
var implName = regexp.MustCompile(`\bflowcimpl\.([A-Z]\w*)`)

// TestUserNamesThroughFlowcrt: the generator names each runtime
// identifier with its package (plan.RtType, emit.Flowcrt...), and a name
// the users' package (runtime, imported as flowcrt) exports must be
// spelled through it, so the handlers interface and the options read as
// the user writes them. Package runtime re-exports those names from
// runtime/impl, so spelling one through flowcimpl still compiles: this
// reads every committed generated file for one. The runtime's names come
// from its type-checked package scope. A name in a package that does not
// export it fails to compile in the case's own tests instead.
func TestUserNamesThroughFlowcrt(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes}, plan.RuntimePath)
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Empty(t, pkgs[0].Errors)
	user := map[string]bool{}
	for _, name := range pkgs[0].Types.Scope().Names() {
		user[name] = token.IsExported(name)
	}
	files, err := filepath.Glob("*/*_flow.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range implName.FindAllSubmatch(src, -1) {
			if name := string(m[1]); user[name] {
				t.Errorf("%s: flowcimpl.%s, which the users' package exports: name it flowcrt.%s", f, name, name)
			}
		}
	}
}
