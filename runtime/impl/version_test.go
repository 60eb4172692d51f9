package impl_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The guards that generated code of the current version (9) and of version
// 8 writes must compile; code of version 7 and older uses what this runtime
// dropped.
var (
	_ interface{ GeneratedCodeVersion8() } = impl.ThisRuntime
	_ interface{ GeneratedCodeVersion9() } = impl.ThisRuntime
)

const (
	_ = impl.EnforceVersion(impl.GenVersion - 9)
	_ = impl.EnforceVersion(8 - impl.MinGenVersion)
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
