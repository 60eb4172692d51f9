package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func TestChatCallsTheToolThenStops(t *testing.T) {
	final, err := NewChat(scripted{}).Run(context.Background(), flowcrt.Messages{{Role: "user", Content: "weather?"}})
	require.NoError(t, err)
	history, ok := flowcrt.ChatHistory(final.Vars["history"])
	require.True(t, ok, "history is a chat history")
	// merge_chat_histories puts each task's output before the history so far.
	var contents []string
	for _, m := range history {
		contents = append(contents, m.Role+": "+m.Content)
	}
	assert.Equal(t, []string{
		"assistant: The weather service says 18°C and sunny.",
		"tool: 18°C and sunny",
		"assistant: weather(Paris)",
	}, contents)
}
