package plan_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/compiler"
	"github.com/flowc-dev/flowc/ir/plan"
)

func planOf(t *testing.T, path string, src []byte) *plan.Plan {
	t.Helper()
	p, ds := compiler.Compile(path, src, compiler.Options{NoPackage: true})
	require.NotNil(t, p, "%v", ds)
	return p
}

func planOfFile(t *testing.T, path string) *plan.Plan {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	return planOf(t, path, src)
}

// The built-ins a `flowc build` program may run a handler with
// (docs/build.md, "Built-in handlers"): a chain's model-asking kinds,
// CodeMie's assistants and summarization, Step Functions' HTTP task and
// agents whose tasks all name a model; never a chain hook, a CodeMie tool or a
// Lambda's resource, which are the user's code.
func TestBuiltins(t *testing.T) {
	hooked := filepath.Join(t.TempDir(), "hooked.chain.yaml")
	assert.Empty(t, planOf(t, hooked, []byte(`tasks:
  - id: hook
    handler: hook
    hook: {name: my_hook}
    transition: {branches: [{operator: default, goto: end}]}
`)).Builtins)
	assert.Equal(t, map[string]plan.Builtin{"ChatCompletion": plan.BuiltinChainModel},
		planOfFile(t, "../../examples/chat-tools/chat.chain.yaml").Builtins)

	review := planOfFile(t, "../../examples/codemie-review/review.flow.yaml")
	assert.Equal(t, map[string]plan.Builtin{"Fixer": plan.BuiltinAssistant, "Triager": plan.BuiltinAssistant, "Summarize": plan.BuiltinSummarize},
		review.Builtins, "the tool handler Tracker is not built in")

	lambda := filepath.Join(t.TempDir(), "fetch.asl.json")
	assert.Equal(t, map[string]plan.Builtin{"Invoke": plan.BuiltinHTTP}, planOf(t, lambda, []byte(`{"StartAt": "Fetch", "States": {
  "Fetch": {"Type": "Task", "Resource": "arn:aws:states:::http:invoke", "Parameters": {"ApiEndpoint": "https://example.com", "Method": "GET"}, "Next": "Work"},
  "Work": {"Type": "Task", "Resource": "arn:aws:lambda:::function:work", "End": true}}}`)).Builtins)
	assert.Equal(t, map[string]plan.Builtin{"Editor": plan.BuiltinAgent, "Writer": plan.BuiltinAgent},
		planOfFile(t, "../../golden/aslmodel/drafting.asl.json").Builtins)
	assert.Empty(t, planOfFile(t, "../../golden/aslagent/agent.asl.json").Builtins, "its agents' tasks name no model")
}
