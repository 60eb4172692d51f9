package jsonmode

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/flowc-dev/flowc/runtime/pyexpr"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// Context management: what a state's output does to the context store and
// the message history, set by the flags of its `next` (CodeMie's context
// management). The zero JSONNext is CodeMie's default: the output's keys
// are stored and its messages join the history.
type JSONNext struct {
	// NoStore (store_in_context: false) keeps the output's keys out of the
	// store; OutputKey is still set.
	NoStore bool
	// NoHistory (include_in_llm_history: false, or the older keep_history)
	// keeps the state's messages out of the history.
	NoHistory bool
	// ClearMessages (clear_prior_messages) drops the history before the
	// state's own messages.
	ClearMessages bool
	// ClearStore is clear_context_store.
	ClearStore clearStore
	// ResetKeys (reset_keys_in_context_store) are removed from the store
	// after the output is merged.
	ResetKeys []string
	// OutputKey (output_key) stores the output's text under this key.
	OutputKey string
	// Append (append_to_context) accumulates each written value in a list
	// instead of replacing it.
	Append bool
	// OverrideTask (override_task) makes the output the task input of the
	// states after this one.
	OverrideTask bool
	// IteratorKeys (include_in_iterator_context) are the keys an iteration
	// this state starts copies into each item's store; nil copies all.
	IteratorKeys []string
}

// clearStore says what clear_context_store does after a state: ClearAll
// or ClearKeepCurrent, which generated code sets.
type clearStore int

const (
	clearNone        clearStore = iota // false: merge the output into the store
	ClearAll                           // true: the store ends up empty, the output's keys included
	ClearKeepCurrent                   // "keep_current": only the output's keys remain
)

// store applies a state's parsed output to the context store.
func (s *JSONState) store(n *JSONNext, out JSONOutput) {
	if n.ClearStore == ClearAll {
		s.clear()
		return
	}
	// store_in_context: false skips keep_current and the reset keys with
	// the output's keys (base_node.py, _prepare_resolved_context_store).
	if !n.NoStore {
		fresh := outputKeys(out.Value)
		if n.ClearStore == ClearKeepCurrent {
			s.clear()
		}
		for _, k := range slices.Sorted(maps.Keys(fresh)) {
			s.write(n, k, fresh[k])
		}
		for _, k := range n.ResetKeys {
			s.remove(k)
		}
	}
	if n.OutputKey != "" {
		// The output as text, parsed or not (base_node.py, _add_output_key).
		s.write(n, n.OutputKey, out.Text)
	}
	if n.OverrideTask {
		s.Input = out.Value
	}
}

// outputKeys are the keys an output stores: an object's, or those of the
// objects of a list merged in order (the last one wins).
func outputKeys(v any) map[string]any {
	switch v := v.(type) {
	case map[string]any:
		return v
	case []any:
		merged := map[string]any{}
		for _, item := range v {
			if obj, ok := item.(map[string]any); ok {
				maps.Copy(merged, obj)
			}
		}
		return merged
	}
	return nil
}

func (s *JSONState) write(n *JSONNext, k string, v any) {
	if n.Append {
		v = appendValue(s.Context[k], v)
	}
	s.set(k, v)
}

// appendValue adds v to the list old, starting one when there is none.
func appendValue(old, v any) any {
	switch old := old.(type) {
	case nil:
		return []any{v}
	case []any:
		return append(slices.Clip(old), v)
	default:
		return []any{old, v}
	}
}

// clear empties the store; in a fan-out branch the join then removes
// every key the opener had, as the branch's own store lost them.
func (s *JSONState) clear() {
	for k := range s.Context {
		s.remove(k)
	}
}

func (s *JSONState) remove(k string) {
	if _, ok := s.Context[k]; !ok {
		return
	}
	delete(s.Context, k)
	if s.branch != nil {
		s.branch.wrote[k] = deleted{}
	}
}

// deleted marks, in a branch's log, a key the branch removed.
type deleted struct{}

// record adds a state's messages to the history, as CodeMie's base_node.py
// does (_prepare_message_history_update): its output, and for the first
// state of an iteration's item the item before it, as Python's repr()
// prints it, unless it is empty. Both are the model's messages, or the
// user's with result_as_human_message; the task is not recorded.
func (s *JSONState) record(n *JSONNext, human, item bool, text string) {
	if n.ClearMessages {
		s.History = impl.Messages{}
		if s.branch != nil {
			s.branch.from = 0
			s.branch.cleared = true
		}
	}
	if n.NoHistory {
		return
	}
	role := "assistant"
	if human {
		role = "user"
	}
	if item && pyexpr.Truthy(s.Input) {
		s.History = append(s.History, impl.Message{Role: role, Content: pyexpr.Repr(s.Input)})
	}
	s.History = append(s.History, impl.Message{Role: role, Content: text})
}

// JSONSettings are the workflow-level settings of a JSON-mode workflow.
type JSONSettings struct {
	// RecursionLimit bounds the states a run executes one after another;
	// the branches of a fan-out count from the state that opened it, and
	// the join goes on from the longest. 0 means no bound.
	RecursionLimit int
	// Summarize has the history summarized, before an assistant's state
	// runs, once it holds more than MessagesLimit messages or about
	// TokensLimit tokens; CodeMie does so in every workflow with an
	// assistant (agent_node.py, before_execution).
	Summarize     bool
	MessagesLimit int
	TokensLimit   int
	// KeepStates keeps the states a run executed (JSONState.Executed), for
	// a state_processor_node to read.
	KeepStates bool
}

// ErrRecursionLimit names the error of a run that reached its
// recursion_limit.
const ErrRecursionLimit = "RecursionLimitReached"

// step counts a state against the recursion limit.
func (s *JSONState) step(set *JSONSettings, state string) error {
	s.Steps++
	if set == nil || set.RecursionLimit <= 0 || s.Steps <= set.RecursionLimit {
		return nil
	}
	return &impl.Error{Name: ErrRecursionLimit, Cause: fmt.Sprintf("recursion limit of %d steps reached before state %q", set.RecursionLimit, state)}
}

// Summarizer is implemented by the handlers of a workflow with an
// assistant state: Summarize replaces a history that crossed the limits
// by a shorter one.
type Summarizer interface {
	Summarize(ctx context.Context, history impl.Messages) (impl.Messages, error)
}

// summarize has the history summarized when it crossed the limits.
func (s *JSONState) summarize(ctx context.Context, set *JSONSettings, h any) error {
	sum, ok := h.(Summarizer)
	if set == nil || !set.Summarize || !ok || !overLimits(set, s.History) {
		return nil
	}
	short, err := sum.Summarize(ctx, slices.Clone(s.History))
	if err != nil {
		return &impl.StateError{State: "summarize", Err: err}
	}
	s.History = short
	if s.branch != nil {
		s.branch.from, s.branch.cleared = 0, true
	}
	return nil
}

func overLimits(set *JSONSettings, history impl.Messages) bool {
	chars := 0
	for _, m := range history {
		chars += len(m.Content)
	}
	// About four characters a token, as tokenizers average on English.
	return (set.MessagesLimit > 0 && len(history) > set.MessagesLimit) ||
		(set.TokensLimit > 0 && (chars+3)/4 > set.TokensLimit)
}
