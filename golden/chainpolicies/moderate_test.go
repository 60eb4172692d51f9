package chainpolicies

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcchain "github.com/flowc-dev/flowc/runtime/impl/chain"
)

// model is a hand-written ModerateHandlers: it answers with answer, and
// politely when asked to rewrite; it records the calls.
type model struct {
	answer string
	calls  []flowcrt.LLMCall
}

func (m *model) PromptToString(_ context.Context, call flowcrt.LLMCall) (string, error) {
	m.calls = append(m.calls, call)
	if call.Task == "rewrite" {
		return "Politely: it is 4.", nil
	}
	return m.answer, nil
}

// The retry_policy and compact_policy of execute_config reach the handler
// as written, durations parsed, beside the chain's token_limit: the client
// that asks the model applies them (contenox's execute_config).
func TestPoliciesReachTheHandler(t *testing.T) {
	m := &model{answer: "It is 4."}
	_, err := NewModerate(m).Run(context.Background(), "What is 2+2?")
	require.NoError(t, err)
	require.Len(t, m.calls, 1)
	cfg := m.calls[0].Config
	assert.Equal(t, &flowcchain.LLMRetryPolicy{
		MaxAttempts: 3, InitialBackoff: time.Second, MaxBackoff: 10 * time.Second, Jitter: 0.2,
		RateLimitMinWait: 5 * time.Second, FallbackModel: "large", FallbackAfter: 2,
	}, cfg.Retry)
	assert.Equal(t, &flowcchain.CompactPolicy{
		Model: "small", TriggerFraction: 0.8, KeepRecent: 4, MinReplacedMessages: 2, MaxFailures: 1,
	}, cfg.Compact)
	assert.Equal(t, "small", cfg.Model)
	assert.Equal(t, "ollama", cfg.Provider)
	assert.Equal(t, 4096, cfg.TokenLimit)
	assert.Equal(t, "Answer briefly: What is 2+2?", m.calls[0].Prompt)
}

// The answer is the eval: one without "Obviously" takes the default
// branch and ends the chain as its output.
func TestPlainAnswerEnds(t *testing.T) {
	s, err := NewModerate(&model{answer: "It is 4."}).Run(context.Background(), "What is 2+2?")
	require.NoError(t, err)
	assert.Equal(t, "It is 4.", s.Output)
	assert.Empty(t, s.Vars)
}

// An answer that contains "Obviously" is composed into the variable
// answer and rewritten: the rewrite's prompt renders it, its policies are
// its own (none), and its answer is the chain's output.
func TestRudeAnswerIsRewritten(t *testing.T) {
	m := &model{answer: "Obviously 4."}
	s, err := NewModerate(m).Run(context.Background(), "What is 2+2?")
	require.NoError(t, err)
	require.Len(t, m.calls, 2)
	assert.Equal(t, "Rewrite politely: Obviously 4.", m.calls[1].Prompt)
	assert.Nil(t, m.calls[1].Config.Retry)
	assert.Nil(t, m.calls[1].Config.Compact)
	assert.Equal(t, "Politely: it is 4.", s.Output)
	assert.Equal(t, map[string]any{"answer": "Obviously 4."}, s.Vars)
	assert.Equal(t, map[string]int{"answer->rewrite": 1}, s.Edges)
}

// The mocks answer prompt_to_string with text, as `flowc run
// --mock-config mocks.json` does.
func TestMocked(t *testing.T) {
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	for testCase, want := range map[string]string{"plain": "It is 4.", "rude": "It is 4, I believe."} {
		m, err := cfg.Case("moderate", testCase)
		require.NoError(t, err)
		s, err := NewModerateMock(m).Run(context.Background(), "What is 2+2?")
		require.NoError(t, err, testCase)
		assert.Equal(t, want, s.Output, testCase)
	}
}
