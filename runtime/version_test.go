package runtime_test

import flowcrt "github.com/flowc-dev/flowc/runtime"

// The guards that generated code of version 1 writes must compile.
const (
	_ = flowcrt.EnforceVersion(flowcrt.GenVersion - 1)
	_ = flowcrt.EnforceVersion(1 - flowcrt.MinGenVersion)
)
