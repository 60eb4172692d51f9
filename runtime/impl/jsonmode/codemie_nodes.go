package jsonmode

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// CodeMie's built-in custom nodes: the engine runs a custom node whose
// custom_node_id names one of its node modules (workflow.py,
// init_custom_node). flowc runs those whose work needs no platform service
// itself: transform_node entirely; state_processor_node with its handler
// standing for the model the engine asks about each state. The others
// (generate_documents_tree, result_finalizer_node, summarize_conversation_node,
// bedrock_flow_node, ...) call the platform or a model, and stay handlers.

// builtinHandler is the handler that runs a state of custom node t, given
// h, the state's handler: nil for a node flowc runs alone.
func (s *JSONState) builtinHandler(t *JSONTask, h JSONHandler) JSONHandler {
	if t.CustomNode == nil {
		return h
	}
	switch t.CustomNode.CustomNodeID {
	case "transform_node":
		input := s.UserInput
		return func(_ context.Context, call JSONCall) (string, error) { return transformNode(call, input) }
	case "state_processor_node":
		if h == nil {
			return nil
		}
		states := append(slices.Clip(s.Executed), executedState{State: t.State, Status: statusInProgress})
		return func(ctx context.Context, call JSONCall) (string, error) {
			states[len(states)-1].Task = call.Task
			return processStates(ctx, call, states, h)
		}
	}
	return h
}

// executedState is a state a run executed, as CodeMie's execution records
// it (WorkflowExecutionState): its id, the task it got, its output text
// (the error's, when it failed) and its status.
type executedState struct {
	State  string
	Task   string
	Output string
	Status string
}

// The statuses of an executedState (WorkflowExecutionStatusEnum).
const (
	statusInProgress = "IN_PROGRESS"
	statusSucceeded  = "SUCCEEDED"
	statusFailed     = "FAILED"
)

// recordState notes a state that ran, when the workflow reads them.
func (s *JSONState) recordState(t *JSONTask, task, output string, err error) {
	if t.Settings == nil || !t.Settings.KeepStates {
		return
	}
	rec := executedState{State: t.State, Task: engineTask(t, task), Output: output, Status: statusSucceeded}
	if err != nil {
		rec.Output, rec.Status = err.Error(), statusFailed
	}
	s.Executed = append(s.Executed, rec)
}

// engineTask is the task CodeMie records for a state (each node's
// get_task): a tool node's "Call <tool>", a transform node's task or its
// default, a documents tree's fixed text, else the task the state got.
func engineTask(t *JSONTask, task string) string {
	switch {
	case t.Tool != nil:
		return "Call " + t.Tool.Tool
	case t.CustomNode == nil:
		return task
	}
	switch t.CustomNode.CustomNodeID {
	case "transform_node":
		if task == "" {
			return "Transform data using configured mappings"
		}
	case "generate_documents_tree":
		return "List documents from datasource"
	}
	return task
}

// ordered is a Python dict built in order: an output whose JSON text keeps
// its keys in the order they were set.
type ordered struct {
	keys   []string
	values map[string]any
}

func (o *ordered) set(k string, v any) {
	if o.values == nil {
		o.values = map[string]any{}
	}
	if _, ok := o.values[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.values[k] = v
}

func (o *ordered) copyTo(m map[string]any) { maps.Copy(m, o.values) }

// pyJSON is Python's json.dumps(v, ensure_ascii=False): ", " and ": "
// between items, text unescaped but for quotes, backslashes and control
// characters. An object of a Go map has its keys sorted, where Python
// keeps their order.
func pyJSON(v any) (string, error) {
	var b strings.Builder
	if err := writePyJSON(&b, v); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writePyJSON(b *strings.Builder, v any) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case json.Number:
		b.WriteString(string(v))
	case string:
		writePyString(b, v)
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := writePyJSON(b, x); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		return writePyObject(b, slices.Sorted(maps.Keys(v)), v)
	case *ordered:
		return writePyObject(b, v.keys, v.values)
	default:
		return &impl.Error{Name: "TypeError", Cause: fmt.Sprintf("Object of type %T is not JSON serializable", v)}
	}
	return nil
}

func writePyObject(b *strings.Builder, keys []string, values map[string]any) error {
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		writePyString(b, k)
		b.WriteString(": ")
		if err := writePyJSON(b, values[k]); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

func writePyString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
