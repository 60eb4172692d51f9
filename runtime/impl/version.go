package impl

// The guard against a skew between generated code and this package. Code
// of generator version N holds
//
//	var _ interface{ GeneratedCodeVersionN() } = flowcrt.ThisRuntime
//
// and ThisRuntime's type has the method GeneratedCodeVersionN for each N
// from MinGenVersion to GenVersion, and is named after the two. Code this
// package does not support (too new, or too old) then fails to compile
// with a message that names both sides, such as
//
//	flowcrt.RuntimeSupportsGeneratedCode10To10 does not implement
//	interface{GeneratedCodeVersion9()} (missing method GeneratedCodeVersion9)
//
// The fix is to regenerate with the flowc of this runtime, or to update
// github.com/flowc-dev/flowc to the version that wrote the code (`flowc
// version` prints the range a flowc supports). protobuf-go's constant
// guard (EnforceVersion below) fails with "constant -1 overflows", which
// names neither version.

// ThisRuntime is what generated code checks its version against.
var ThisRuntime RuntimeSupportsGeneratedCode13To15

// RuntimeSupportsGeneratedCode13To15 has a method for each version of
// generated code this package supports; its name must change with
// MinGenVersion and GenVersion (version_test.go checks that it does).
type RuntimeSupportsGeneratedCode13To15 struct{}

// GeneratedCodeVersion13 marks support for code of generator version 13.
func (RuntimeSupportsGeneratedCode13To15) GeneratedCodeVersion13() {}

// GeneratedCodeVersion14 marks support for code of generator version 14.
func (RuntimeSupportsGeneratedCode13To15) GeneratedCodeVersion14() {}

// GeneratedCodeVersion15 marks support for code of generator version 15.
func (RuntimeSupportsGeneratedCode13To15) GeneratedCodeVersion15() {}

// EnforceVersion is the guard of code generated before ThisRuntime existed:
//
//	const _ = flowcrt.EnforceVersion(flowcrt.GenVersion - N)
//	const _ = flowcrt.EnforceVersion(N - flowcrt.MinGenVersion)
//
// A negative constant converted to an unsigned type does not compile.
type EnforceVersion uint

const (
	// GenVersion is the newest version of generated code that this package
	// supports. It is raised whenever the generator starts to use something
	// new from this package.
	GenVersion = 15 // 2: task chains (ChainState and friends); 3: typed fan-out (Records, AppendOwned...); 4: States Language (ASLExec and friends); 5: JSON mode (JSONState and friends); 6: sessions and approvals (Session, Sessions, Approve...); 7: CodeMie configuration in JSON mode (JSONSettings, JSONNext, DecodeConfig, JSON sessions...); 8: the shared emitter, contenox chains (ChainTask, typed handler calls), ASL variables, JSONata and Agent State Language fields; 9: observers (Config.Observer, ObserveRun); 10: the machinery in runtime/impl, mocks in their own file, JSONPath and JSONata evaluated by runtime/jsonpath and runtime/jsonata, CodeMie conditions by runtime/pyexpr; 11: task-chain sessions (FreshChainState, ChainState.Save...), CodeMie's engine defaults (JSONTask.CurrentTask...); 12: stops inside fan-outs (ResumeBranch, FanOutStops, DecideAt...), task tokens (EnterCallback, SendTask*...), CodeMie's built-in nodes (JSONSettings.KeepStates...); 13: mocks and the main of `flowc run` in package flowrun, the task-chain machinery in runtime/impl/chain; 14: States Language stops inside compiled-in children that branches run (ResumeChild, SaveChild in a branch), durable callbacks in compiled-in children; 15: a distributed Map's ResultWriter as in Step Functions (ResultWriterSpec's WriterConfig fields, EngineResults.CloseResults without counts)

	// MinGenVersion is the oldest version of generated code that this
	// package still supports. It is raised when this package drops something
	// that older generated code uses.
	MinGenVersion = 13 // 13: mock files name the mocks through package flowrun, no longer through the runtime, task chains their machinery through runtime/impl/chain and JSON mode its through runtime/impl/jsonmode; 10: generated code names the machinery through runtime/impl
)
