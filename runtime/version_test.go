package runtime_test

import flowcrt "github.com/flowc-dev/flowc/runtime"

// The guards that generated code of the current version (8) writes must
// compile; code of version 7 and older uses what this runtime dropped.
const (
	_ = flowcrt.EnforceVersion(flowcrt.GenVersion - 8)
	_ = flowcrt.EnforceVersion(8 - flowcrt.MinGenVersion)
)
