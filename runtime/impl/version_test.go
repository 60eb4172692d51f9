package impl_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The guards that generated code of the supported versions (10 and 11)
// write must compile; code of version 9 and older names the machinery
// through package runtime, which now re-exports only what programs use.
var (
	// The type a skew error names (docs/generated-api.md).
	_ impl.RuntimeSupportsGeneratedCode10To12 = impl.ThisRuntime

	_ interface{ GeneratedCodeVersion10() } = impl.ThisRuntime
	_ interface{ GeneratedCodeVersion11() } = impl.ThisRuntime
	_ interface{ GeneratedCodeVersion12() } = impl.ThisRuntime
)

const (
	_ = impl.EnforceVersion(impl.GenVersion - 11)
	_ = impl.EnforceVersion(10 - impl.MinGenVersion)
)

// ThisRuntime's type, whose name a skew error shows, tells the truth: it
// is named after MinGenVersion and GenVersion, and has a method for each
// version between them and for no other.
func TestThisRuntimeNamesTheVersions(t *testing.T) {
	typ := reflect.TypeOf(impl.ThisRuntime)
	assert.Equal(t, fmt.Sprintf("RuntimeSupportsGeneratedCode%dTo%d", impl.MinGenVersion, impl.GenVersion), typ.Name())
	var want, got []string
	for v := impl.MinGenVersion; v <= impl.GenVersion; v++ {
		want = append(want, fmt.Sprintf("GeneratedCodeVersion%d", v))
	}
	for i := range typ.NumMethod() {
		got = append(got, typ.Method(i).Name)
	}
	assert.Equal(t, want, got)
}
