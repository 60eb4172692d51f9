package jsonmode

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// JSON-mode fan-out. Each branch of a `state_ids` fan-out and each item of
// an iteration runs on its own copy of the context store and message
// history; Join then merges them into the state that opened the fan-out,
// in branch or item order: the keys each one set, the last one winning,
// and the messages each one added, one after another. Only what a branch
// set is merged, so a branch that leaves a key alone cannot undo another
// branch's change to it.

// Items returns the items of an iteration over the whole output (iter_key
// `.`): the output if it is a list, else the output as the only item.
func (o JSONOutput) Items() []any { return listOf(o.Value) }

// ItemsKey returns the items of an iteration over key (iter_key naming a
// key): an object's value at key, a list output as a whole, and any other
// output as the only item. A value that is not a list is the only item. An
// object without key is an error.
func (o JSONOutput) ItemsKey(key string) ([]any, error) {
	obj, ok := o.Value.(map[string]any)
	if !ok {
		return listOf(o.Value), nil
	}
	v, ok := obj[key]
	if !ok {
		return nil, impl.ItemsError(key, "/"+escapeToken(key))
	}
	return listOf(v), nil
}

// ItemsAt returns the items of an iteration over a JSON pointer into the
// output, given as written and as its unescaped reference tokens: the
// value it points to, as a list. A pointer that leads nowhere is an error.
func (o JSONOutput) ItemsAt(pointer string, tokens ...string) ([]any, error) {
	v := o.Value
	for i, tok := range tokens {
		var ok bool
		if v, ok = pointerStep(v, tok); !ok {
			return nil, impl.ItemsError(pointer, "/"+strings.Join(escapeTokens(tokens[:i+1]), "/"))
		}
	}
	return listOf(v), nil
}

// pointerStep follows one reference token into an object or a list.
func pointerStep(v any, tok string) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		item, ok := v[tok]
		return item, ok
	case []any:
		i, err := strconv.Atoi(tok)
		// RFC 6901: an index is digits without a leading zero.
		if err != nil || i < 0 || i >= len(v) || tok != strconv.Itoa(i) {
			return nil, false
		}
		return v[i], true
	}
	return nil, false
}

func listOf(v any) []any {
	if list, ok := v.([]any); ok {
		return list
	}
	return []any{v}
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func escapeToken(tok string) string { return tokenEscaper.Replace(tok) }

func escapeTokens(toks []string) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = escapeToken(t)
	}
	return out
}

// Iterations returns the states the items of an iteration run on: copies
// of s whose task input is the item, and whose context store also holds
// the item's keys when it is an object.
// With keys (include_in_iterator_context), the copies hold only those
// keys of s's store.
func (s *JSONState) Iterations(items []any, keys ...string) []JSONState {
	out := make([]JSONState, len(items))
	for i, item := range items {
		out[i] = s.fork(item)
		out[i].iterating, out[i].itemPending = true, true
		if keys != nil {
			maps.DeleteFunc(out[i].Context, func(k string, _ any) bool { return !slices.Contains(keys, k) })
		}
		if obj, ok := item.(map[string]any); ok {
			for k, v := range obj {
				out[i].set(k, v)
			}
		}
	}
	return out
}

// Branches returns the states the n branches of a parallel fan-out run on:
// copies of s.
func (s *JSONState) Branches(n int) []JSONState {
	out := make([]JSONState, n)
	for i := range out {
		out[i] = s.fork(s.Input)
	}
	return out
}

func (s *JSONState) fork(input any) JSONState {
	return JSONState{
		Context: maps.Clone(s.Context),
		// Clipped, so that a branch's messages go to an array of its own.
		History:   slices.Clip(s.History),
		Input:     input,
		UserInput: s.UserInput,
		Executed:  slices.Clip(s.Executed),
		Steps:     s.Steps,
		branch:    &branchLog{wrote: map[string]any{}, from: len(s.History), ran: len(s.Executed)},
		// A branch inside an iteration chain is still in it.
		iterating: s.iterating,
	}
}

// Join merges branches, made by Iterations or Branches of s and run to
// their end, into s in order: the keys each one set or removed in its
// context store, the last one winning, and the messages each one added to
// its history (a branch that cleared its history clears s's too). The run
// goes on counting steps from the longest branch.
func (s *JSONState) Join(branches []JSONState) {
	for i := range branches {
		b := &branches[i]
		for _, k := range slices.Sorted(maps.Keys(b.branch.wrote)) {
			if v := b.branch.wrote[k]; v == (deleted{}) {
				s.remove(k)
			} else {
				s.set(k, v)
			}
		}
		if b.branch.cleared {
			s.History = impl.Messages{}
		}
		s.History = append(s.History, b.History[b.branch.from:]...)
		s.Executed = append(s.Executed, b.Executed[b.branch.ran:]...)
		s.Steps = max(s.Steps, b.Steps)
	}
}

// inOrderHandlers is implemented by handlers whose answers depend on the
// order of their calls, as mocks' do: the k-th invocation of a state gets
// the k-th answer. For them JSON-mode fan-outs run one branch or item at a
// time, in order, so that each one gets a known answer.
type inOrderHandlers interface {
	AnswersInOrder()
}

// FanOutLimit is the bound of a fan-out whose max_concurrency is limit,
// run over handlers h: 1 for inOrderHandlers, else limit.
func FanOutLimit(h any, limit int) int {
	if _, ok := h.(inOrderHandlers); ok {
		return 1
	}
	return limit
}
