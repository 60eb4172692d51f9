// Command chat-tools runs the generated Chat task chain with a scripted model
// and one tool, so the tool-call loop can be watched without an API key.
//
//	go run ./examples/chat-tools "What is the weather in Paris?"
package main

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// scripted implements ChatHandlers: the model asks for the weather once,
// then answers from the tool's result.
type scripted struct{}

func (scripted) ChatCompletion(_ context.Context, call flowcrt.LLMCall) (flowcrt.ChainResult, error) {
	history, _ := call.History("history")
	for _, m := range history {
		if m.Role == "tool" {
			reply := flowcrt.Messages{{Role: "assistant", Content: "The weather service says " + m.Content + "."}}
			return flowcrt.ChainResult{Output: reply, Eval: "stop"}, nil
		}
	}
	ask := flowcrt.Messages{{Role: "assistant", Content: "weather(Paris)"}}
	return flowcrt.ChainResult{Output: ask, Eval: "tool-call"}, nil
}

func (scripted) ExecuteToolCalls(_ context.Context, call flowcrt.ToolCallsCall) (flowcrt.ChainResult, error) {
	history, _ := call.History("history")
	if len(history) == 0 || !strings.HasPrefix(history[0].Content, "weather(") {
		return flowcrt.ChainResult{Output: flowcrt.Messages{}, Eval: "error"}, nil
	}
	result := flowcrt.Messages{{Role: "tool", Content: "18°C and sunny"}}
	return flowcrt.ChainResult{Output: result, Eval: "ok"}, nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: chat-tools QUESTION")
		os.Exit(2)
	}
	question := flowcrt.Messages{{Role: "user", Content: os.Args[1]}}
	final, err := NewChat(scripted{}).Run(context.Background(), question)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chat-tools:", err)
		os.Exit(1)
	}
	out, _ := json.MarshalIndent(final, "", "  ")
	fmt.Println(string(out))
}
