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
// runtime name lives, and a wrong package fails to compile in the golden
// cases (golden's TestGolden builds every committed case).
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
