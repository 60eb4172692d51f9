package emit

import (
	"fmt"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/internal/gocheck"
	"github.com/flowc-dev/flowc/ir/plan"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// typeCheckGuard type-checks a file holding only the version guard of
// version against this module's runtime, and returns the error.
func typeCheckGuard(version int) error {
	f := jen.NewFilePathName("example.com/skew", "skew")
	f.ImportAlias(plan.RuntimePath, "flowcrt")
	versionGuard(f, version)
	return gocheck.Check([]byte(fmt.Sprintf("%#v", f)))
}

// Code the runtime supports compiles; code it does not fails with an error
// that names the versions of both, not only "constant -1 overflows".
func TestVersionGuardNamesBothVersions(t *testing.T) {
	require.NoError(t, typeCheckGuard(flowcimpl.GenVersion))
	supported := fmt.Sprintf("RuntimeSupportsGeneratedCode%dTo%d", flowcimpl.MinGenVersion, flowcimpl.GenVersion)
	for _, v := range []int{flowcimpl.GenVersion + 1, flowcimpl.MinGenVersion - 1} {
		err := typeCheckGuard(v)
		require.Error(t, err, v)
		assert.Contains(t, err.Error(), supported, v)
		assert.Contains(t, err.Error(), fmt.Sprintf("missing method GeneratedCodeVersion%d", v), v)
	}
}
