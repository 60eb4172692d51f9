package impl_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The guard that generated code of the supported version (13) writes must
// compile; mock files of version 12 and older name the mocks through
// package runtime, which no longer has them (they are in package flowrun).
var (
	// The type a skew error names (docs/generated-api.md).
	_ impl.RuntimeSupportsGeneratedCode13To15 = impl.ThisRuntime

	_ interface{ GeneratedCodeVersion13() } = impl.ThisRuntime
)

const (
	_ = impl.EnforceVersion(impl.GenVersion - 13)
	_ = impl.EnforceVersion(13 - impl.MinGenVersion)
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
