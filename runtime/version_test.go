package runtime_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// The guards that generated code of the current version (9) and of version
// 8 writes must compile; code of version 7 and older uses what this runtime
// dropped.
var (
	_ interface{ GeneratedCodeVersion8() } = flowcrt.ThisRuntime
	_ interface{ GeneratedCodeVersion9() } = flowcrt.ThisRuntime
)

const (
	_ = flowcrt.EnforceVersion(flowcrt.GenVersion - 9)
	_ = flowcrt.EnforceVersion(8 - flowcrt.MinGenVersion)
)

// ThisRuntime's type, whose name a skew error shows, tells the truth: it
// is named after MinGenVersion and GenVersion, and has a method for each
// version between them and for no other.
func TestThisRuntimeNamesTheVersions(t *testing.T) {
	typ := reflect.TypeOf(flowcrt.ThisRuntime)
	assert.Equal(t, fmt.Sprintf("RuntimeSupportsGeneratedCode%dTo%d", flowcrt.MinGenVersion, flowcrt.GenVersion), typ.Name())
	var want, got []string
	for v := flowcrt.MinGenVersion; v <= flowcrt.GenVersion; v++ {
		want = append(want, fmt.Sprintf("GeneratedCodeVersion%d", v))
	}
	for i := range typ.NumMethod() {
		got = append(got, typ.Method(i).Name)
	}
	assert.Equal(t, want, got)
}
