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

// Ref is an identifier that a package of the runtime exports, named with
// its package's import path (RuntimePath...): the plan says where each
// runtime name lives, with no table to keep equal to the runtime. A wrong
// package changes the committed golden output (golden's TestGenerated)
// and either fails to compile in the case's own tests or, for a name of
// the users' package spelled through the machinery, which re-exports it,
// fails golden's TestUserNamesThroughFlowcrt.
type Ref struct{ Pkg, Name string }

// ChainKinds are the runtime's constants of the chain handler kinds.
var ChainKinds = map[ir.ChainHandlerKind]*Ref{
	ir.ChainChatCompletion:   {ChainPath, "KindChatCompletion"},
	ir.ChainExecuteToolCalls: {ChainPath, "KindExecuteToolCalls"},
	ir.ChainTools:            {ChainPath, "KindTools"},
	ir.ChainHook:             {ChainPath, "KindTools"},
	ir.ChainRoute:            {ChainPath, "KindRoute"},
	ir.ChainConditionKey:     {ChainPath, "KindConditionKey"},
	ir.ChainPromptToString:   {ChainPath, "KindPromptToString"},
	ir.ChainPromptToInt:      {ChainPath, "KindPromptToInt"},
}
