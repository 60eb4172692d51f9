package plan

import "github.com/flowc-dev/flowc/ir"

// The import paths of the runtime's packages: RuntimePath is the package
// users import; ImplPath is the machinery only generated code calls, and
// ChainPath, JSONPath and ASLPath each dialect's part of it (task chains,
// JSON mode, the States Language); HarnessPath holds the mocks and the
// main of `flowc run`.
const (
	RuntimePath = "github.com/flowc-dev/flowc/runtime"
	ImplPath    = "github.com/flowc-dev/flowc/runtime/impl"
	ChainPath   = "github.com/flowc-dev/flowc/runtime/impl/chain"
	JSONPath    = "github.com/flowc-dev/flowc/runtime/impl/jsonmode"
	ASLPath     = "github.com/flowc-dev/flowc/runtime/impl/asl"
	HarnessPath = "github.com/flowc-dev/flowc/flowrun"
)

// RuntimePackage is the runtime package that exports name: the users' one
// when they may spell it too, the harness for mocks and the main of
// `flowc run`, otherwise the machinery.
func RuntimePackage(name string) string {
	switch {
	case userAPI[name]:
		return RuntimePath
	case harnessAPI[name]:
		return HarnessPath
	}
	return ImplPath
}

// KindNames are the names of the chain handler kinds in runtime/impl/chain.
var KindNames = map[ir.ChainHandlerKind]string{
	ir.ChainChatCompletion:   "KindChatCompletion",
	ir.ChainExecuteToolCalls: "KindExecuteToolCalls",
	ir.ChainTools:            "KindTools",
	ir.ChainHook:             "KindTools",
	ir.ChainRoute:            "KindRoute",
	ir.ChainConditionKey:     "KindConditionKey",
	ir.ChainPromptToString:   "KindPromptToString",
	ir.ChainPromptToInt:      "KindPromptToInt",
}

// userAPI names what package runtime (flowcrt) re-exports from package
// impl: the names a program of the user's touches. Generated code spells
// them through flowcrt, so the handlers interface and the options read as
// the user writes them, and everything else through flowcimpl. A test
// keeps this list equal to runtime's exports.
var userAPI = map[string]bool{
	"Agent":                                 true,
	"ApprovalRequest":                       true,
	"Approver":                              true,
	"ChainCall":                             true,
	"ChainPrint":                            true,
	"ChainResult":                           true,
	"ChainState":                            true,
	"ChatHistory":                           true,
	"Checkpoint":                            true,
	"Checkpointer":                          true,
	"ChildResult":                           true,
	"Clock":                                 true,
	"ConditionCall":                         true,
	"DecodeASLInput":                        true,
	"ErrCancelled":                          true,
	"ErrNoCheckpoint":                       true,
	"ErrNoDecision":                         true,
	"ErrNotRedrivable":                      true,
	"ErrOutputSchema":                       true,
	"ErrRaised":                             true,
	"ErrRecursionLimit":                     true,
	"ErrStateTimeout":                       true,
	"ErrTaskTokenInvalid":                   true,
	"ErrTaskTokenTimedOut":                  true,
	"ErrTaskTokenUnknown":                   true,
	"ErrTaskTokenUsed":                      true,
	"Error":                                 true,
	"ErrorName":                             true,
	"FakeClock":                             true,
	"Failure":                               true,
	"Interrupted":                           true,
	"IsInterrupted":                         true,
	"JSONCall":                              true,
	"JSONState":                             true,
	"LLMCall":                               true,
	"MatchError":                            true,
	"MemoryCheckpointer":                    true,
	"MemoryStore":                           true,
	"Message":                               true,
	"Messages":                              true,
	"NewError":                              true,
	"NewFakeClock":                          true,
	"NewJSONState":                          true,
	"NewMemory":                             true,
	"NewMemoryCheckpointer":                 true,
	"Object":                                true,
	"Observer":                              true,
	"Option":                                true,
	"Pending":                               true,
	"ResultLine":                            true,
	"ResultWriteRequest":                    true,
	"ResultWriter":                          true,
	"RouteCall":                             true,
	"SessionError":                          true,
	"ShapeChange":                           true,
	"ShapeField":                            true,
	"StateData":                             true,
	"StateError":                            true,
	"StateFromContext":                      true,
	"StatesExceedToleratedFailureThreshold": true,
	"StatesHeartbeatTimeout":                true,
	"StatesItemReaderFailed":                true,
	"StatusFailed":                          true,
	"StatusFinished":                        true,
	"StatusInterrupted":                     true,
	"StatusRunning":                         true,
	"StatusStopped":                         true,
	"StatusSucceeded":                       true,
	"StatusWaiting":                         true,
	"Summarizer":                            true,
	"TaskTokenWait":                         true,
	"ThisRuntime":                           true,
	"ToolCall":                              true,
	"ToolCallsCall":                         true,
	"WithChainPrinter":                      true,
	"WithChainVars":                         true,
	"WithCheckpointer":                      true,
	"WithClock":                             true,
	"WithMemory":                            true,
	"WithDoor":                              true,
	"WithObserver":                          true,
	"WithRedrive":                           true,
	"WithRand":                              true,
	"WithSchemaNotes":                       true,
	"WithState":                             true,
	"WithStateContext":                      true,
}

// harnessAPI names what generated code takes from package flowrun
// (flowcrun): the mocks of New<Workflow>Mock and the main of the programs
// `flowc run` builds.
var harnessAPI = map[string]bool{
	"DecodeInput":    true,
	"Mocks":          true,
	"RunServerMain":  true,
	"RunSessionMain": true,
	"SessionRequest": true,
}
