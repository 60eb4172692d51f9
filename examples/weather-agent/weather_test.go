package main

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func TestScriptedAgentLooksUpOnce(t *testing.T) {
	var prints []string
	ctx := flowcrt.WithChainPrinter(context.Background(), func(p flowcrt.ChainPrint) { prints = append(prints, p.Text) })
	final, err := NewWeatherAgent(scripted{}).Run(ctx, "Weather in Paris?")
	require.NoError(t, err)
	history, ok := flowcrt.ChatHistory(final.Output)
	require.True(t, ok, "the last chat output is a history")
	assert.Equal(t, "The forecast says sunny, 18 degrees metric.", history[len(history)-1].Content)
	assert.Equal(t, []string{"chat round 0", "chat round 1"}, prints)
}

func TestMockedBudget(t *testing.T) {
	data, err := os.ReadFile("mocks.json")
	require.NoError(t, err)
	cfg, err := flowcrun.ParseMockConfig(data)
	require.NoError(t, err)
	m, err := cfg.Case("weather-agent", "over-budget")
	require.NoError(t, err)
	final, err := NewWeatherAgentMock(m).Run(context.Background(), "Weather?")
	require.NoError(t, err)
	assert.Equal(t, 3, final.Traversed("chat->run_tools"), "the budget stops the loop")
	assert.Equal(t, []any{map[string]any{"role": "assistant", "content": "Probably sunny."}}, final.Output)
}
