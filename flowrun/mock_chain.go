package flowrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/chain"
)

// RespondChain plays the mock of call.Task for a task-chain handler. A
// mocked Return is {"Output": <json>, "Eval": "<string>"}. Without "Eval",
// a documented handler that has control tokens (chat_completion,
// execute_tool_calls, tools) gets its token as if its method had left Eval
// empty; any other handler gets the output's text (a string itself,
// anything else its JSON). A Throw is returned as an *impl.Error. A task with no
// mock returns its input unchanged, as noop does, and says so on m.Log.
func (m *Mocks) RespondChain(call chain.ChainCall) (chain.ChainResult, error) {
	var out any
	var eval *string
	e, ok := m.Next(call.Task)
	switch {
	case !ok:
		m.note("flowc: task %q has no mock; it returns its input unchanged\n", call.Task)
		out = call.Input
	case e.Throw != nil:
		return chain.ChainResult{}, e.Err()
	default:
		var err error
		if out, eval, err = decodeChainReturn(e.Return); err != nil {
			return chain.ChainResult{}, fmt.Errorf("flowc: the mock for task %q %w", call.Task, err)
		}
	}
	switch {
	case eval != nil:
		return chain.ChainResult{Output: out, Eval: *eval}, nil
	case call.EngineSetsEval():
		return chain.ChainResult{Output: out}, nil
	}
	text, err := outputText(out)
	return chain.ChainResult{Output: out, Eval: text}, err
}

func decodeChainReturn(ret json.RawMessage) (any, *string, error) {
	var fields struct {
		Output json.RawMessage
		Eval   *string
	}
	dec := json.NewDecoder(bytes.NewReader(ret))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fields); err != nil || bytes.Equal(bytes.TrimSpace(ret), []byte("null")) {
		return nil, nil, fmt.Errorf(`must return {"Output": <json>, "Eval": "<string>"}, got %s`, ret)
	}
	if fields.Output == nil {
		return nil, fields.Eval, nil
	}
	out, err := impl.DecodeChainInput(fields.Output)
	return out, fields.Eval, err
}

// RespondText plays the mock of a task whose handler answers with text (a
// route): the mocked Eval, else the Output's text.
func (m *Mocks) RespondText(call chain.ChainCall) (string, error) {
	r, err := m.RespondChain(call)
	if err != nil || r.Eval != "" {
		return r.Eval, err
	}
	return outputText(r.Output)
}

// RespondBool plays the mock of a condition_key task: true or false.
func (m *Mocks) RespondBool(call chain.ChainCall) (bool, error) {
	text, err := m.RespondText(call)
	if err != nil {
		return false, err
	}
	ok, err := strconv.ParseBool(strings.TrimSpace(text))
	if err != nil {
		return false, fmt.Errorf("flowc: the mock for task %q must answer true or false, got %q", call.Task, text)
	}
	return ok, nil
}

// RespondInt plays the mock of a prompt_to_int task that asks a model.
func (m *Mocks) RespondInt(call chain.ChainCall) (int, error) {
	text, err := m.RespondText(call)
	if err != nil {
		return 0, err
	}
	n, err := chain.ParseChainInt(text)
	if err != nil {
		return 0, fmt.Errorf("prompt_to_int: the answer: %w", err)
	}
	return n, nil
}

// outputText is a mocked output's text, as the engine reads a handler's:
// a string itself, any other value its JSON, without HTML escaping.
func outputText(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return strings.TrimSuffix(buf.String(), "\n"), err
}
