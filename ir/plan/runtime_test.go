package plan

import (
	"go/token"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// TestUserAPIMatchesRuntime: generated code spells a name through flowcrt
// exactly when package runtime exports it, or it would not compile. The
// runtime's names come from its type-checked package scope.
func TestUserAPIMatchesRuntime(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes}, RuntimePath)
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Empty(t, pkgs[0].Errors)
	var exported []string
	for _, name := range pkgs[0].Types.Scope().Names() {
		if token.IsExported(name) {
			exported = append(exported, name)
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
