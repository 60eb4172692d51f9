// Command weather-agent runs the generated WeatherAgent task chain with a
// scripted model and a fake forecast tool, so the self-paced tool loop can
// be watched without a model server.
//
//	go run ./examples/weather-agent "Weather in Paris today?"
package main

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// scripted implements WeatherAgentHandlers. It leaves Eval empty: flowc
// derives the control tokens (tool_call, executed, tools_executed) from
// the messages.
type scripted struct{}

// ChatCompletion asks for a forecast until the history holds one.
func (scripted) ChatCompletion(_ context.Context, call flowcrt.LLMCall) (flowcrt.ChainResult, error) {
	for _, m := range call.Messages {
		if m.Role == "tool" {
			return flowcrt.ChainResult{Output: append(call.Messages, flowcrt.Message{Role: "assistant", Content: "The forecast says " + m.Content + "."})}, nil
		}
	}
	if len(call.Config.Tools) == 0 {
		return flowcrt.ChainResult{Output: append(call.Messages, flowcrt.Message{Role: "assistant", Content: "I could not look it up."})}, nil
	}
	ask := map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"name": "nws.forecast"}}}
	return flowcrt.ChainResult{Output: append(messagesOf(call.Messages), ask)}, nil
}

// ExecuteToolCalls answers the forecast call of the chat task's output.
func (scripted) ExecuteToolCalls(_ context.Context, call flowcrt.ToolCallsCall) (flowcrt.ChainResult, error) {
	units := call.Config.ToolsPolicies["nws"]["_units"]
	return flowcrt.ChainResult{Output: append(call.Messages, flowcrt.Message{Role: "tool", Content: "sunny, 18 degrees " + units})}, nil
}

// messagesOf turns typed messages back into chain values, so that a tool
// call can be added to them.
func messagesOf(ms flowcrt.Messages) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = map[string]any{"role": m.Role, "content": m.Content}
	}
	return out
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: weather-agent QUESTION")
		os.Exit(2)
	}
	ctx := flowcrt.WithChainPrinter(context.Background(), func(p flowcrt.ChainPrint) {
		fmt.Fprintf(os.Stderr, "%s: %s\n", p.Task, p.Text)
	})
	ctx = flowcrt.WithChainVars(ctx, map[string]string{"model": "scripted"})
	final, err := NewWeatherAgent(scripted{}).Run(ctx, os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "weather-agent:", err)
		os.Exit(1)
	}
	out, _ := json.MarshalIndent(final.Output, "", "  ")
	fmt.Println(string(out))
}
