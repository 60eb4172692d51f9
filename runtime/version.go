package runtime

// EnforceVersion turns a skew between generated code and this package into a
// compile error. Generated code holds the two declarations
//
//	const _ = flowcrt.EnforceVersion(flowcrt.GenVersion - N)
//	const _ = flowcrt.EnforceVersion(N - flowcrt.MinGenVersion)
//
// where N is the version of the generator that wrote it. The first stops
// compiling when this package is older than the generated code
// (GenVersion < N), the second when it no longer supports code that old
// (MinGenVersion > N): converting a negative constant to an unsigned type is
// rejected by the compiler. This is the scheme of protobuf-go's
// protoimpl.EnforceVersion.
type EnforceVersion uint

const (
	// GenVersion is the newest version of generated code that this package
	// supports. It is raised whenever the generator starts to use something
	// new from this package.
	GenVersion = 8 // 2: task chains (ChainState and friends); 3: typed fan-out (Records, AppendOwned...); 4: States Language (ASLExec and friends); 5: JSON mode (JSONState and friends); 6: sessions and approvals (Session, Sessions, Approve...); 7: CodeMie configuration in JSON mode (JSONSettings, JSONNext, DecodeConfig, JSON sessions...); 8: the shared emitter, contenox chains (ChainTask, typed handler calls), ASL variables, JSONata and Agent State Language fields

	// MinGenVersion is the oldest version of generated code that this
	// package still supports. It is raised when this package drops something
	// that older generated code uses.
	MinGenVersion = 8 // 8: ASL steps enter with a context, chain handlers take typed calls
)
