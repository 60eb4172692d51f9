package jsonmode

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/flowc-dev/flowc/runtime/jinja"
	"github.com/flowc-dev/flowc/runtime/pyexpr"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// CodeMie's state_processor_node (workflows/nodes/state_processor_node.py):
// it reads the states the run executed, those whose id starts with its
// state_id and whose status its states_status_filter lists, asks the model
// about each one that has an output, keeps the JSON of each answer, and
// renders its output_template over them as `items`. flowc keeps the states
// (JSONState.Executed) and asks the state's handler, which stands for the
// model, once per state.

// defaultStatesFilter is the statuses read when the node sets no filter.
var defaultStatesFilter = []any{"NOT_STARTED", statusInProgress, statusSucceeded}

// defaultItemsTemplate is the template when the node sets none
// (jinja_template_renderer.py, DEFAULT_TEMPLATE): each item's keys and
// values.
const defaultItemsTemplate = "# Summary\n{% for item in items %}\n{%- for key, value in item.items() %}\n{{ key }}: {{ value }}\n{%- endfor %}\n{% endfor %}"

// processStates is StateProcessorNode.execute over states, the run's
// executed states with the node itself, in progress, last. Each state with
// an output goes to h as the engine sends it to the model: the history is
// the one message "TASK: <task>. OUTPUT: <output>", and the task is the
// node's.
func processStates(ctx context.Context, call JSONCall, states []executedState, h JSONHandler) (string, error) {
	config := call.CustomNode.Config
	if id, _ := config["workflow_execution_id"].(string); id != "" {
		return "", &impl.Error{Name: "ValueError", Cause: "state_processor_node: flowc reads the states of its own run only, not of execution " + id}
	}
	chosen, err := fetchStates(states, config)
	if err != nil {
		return "", err
	}
	var items []any
	for _, st := range chosen {
		if st.Output == "" {
			continue
		}
		ask := call.clone()
		ask.History = impl.Messages{{Role: "assistant", Content: "TASK: " + st.Task + ". OUTPUT: " + st.Output}}
		answer, err := h(ctx, ask)
		if err != nil {
			return "", err
		}
		if v, ok := parseStructured(answer); ok && pyexpr.Truthy(v) {
			items = append(items, v)
		}
	}
	template, hasTemplate := config["output_template"].(string)
	if !hasTemplate {
		template = defaultItemsTemplate
	}
	return renderItems(template, items)
}

// fetchStates is _fetch_states: the states whose id starts with state_id
// and whose status the filter lists (an explicit null or empty filter
// lists all). None, or any not done, is the engine's ValueError, which it
// retries five times over 15 seconds: in flowc no state finishes meanwhile,
// so it fails at once.
func fetchStates(states []executedState, config map[string]any) ([]executedState, error) {
	prefix, _ := config["state_id"].(string)
	filter, set := config["states_status_filter"]
	if !set {
		filter = defaultStatesFilter
	}
	statuses, _ := filter.([]any)
	var out []executedState
	for _, st := range states {
		if strings.HasPrefix(st.State, prefix) && (len(statuses) == 0 || containsText(statuses, st.Status)) {
			out = append(out, st)
		}
	}
	for _, st := range out {
		if st.Status == statusInProgress {
			return nil, &impl.Error{Name: "ValueError", Cause: "No Completed States, retrying... (state " + st.State + " is in progress: give the node a state_id that names the states to read)"}
		}
	}
	if len(out) == 0 {
		return nil, &impl.Error{Name: "ValueError", Cause: "No Completed States, retrying..."}
	}
	return out, nil
}

func containsText(list []any, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// renderItems is TemplateRenderer.render_template_batch: of the answers,
// the objects and the text that reads as JSON, non-empty, rendered as
// `items`; "" when none is. Text that reads as a number, a boolean or null
// fails, as len() fails in the engine.
func renderItems(template string, answers []any) (string, error) {
	var items []any
	for _, a := range answers {
		switch v := a.(type) {
		case map[string]any:
			if len(v) > 0 {
				items = append(items, v)
			}
		case string:
			parsed, err := impl.DecodeValue([]byte(strings.TrimSpace(v)))
			if err != nil {
				continue
			}
			if n, ok := pyLen(parsed); !ok {
				return "", &impl.Error{Name: "TypeError", Cause: "object of type '" + pyType(parsed) + "' has no len()"}
			} else if n > 0 {
				items = append(items, parsed)
			}
		}
	}
	if len(items) == 0 {
		return "", nil
	}
	out, err := jinja.RenderSecure(template, map[string]any{"items": items})
	if err != nil {
		return "", errors.New("state_processor_node: output_template: " + err.Error())
	}
	return out, nil
}

func pyLen(v any) (int, bool) {
	switch v := v.(type) {
	case map[string]any:
		return len(v), true
	case []any:
		return len(v), true
	case string:
		return utf8.RuneCountInString(v), true
	}
	return 0, false
}
