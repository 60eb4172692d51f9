package session

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strconv"
)

// Stop kinds, as StopInfo.Kind names them.
const (
	KindApproval  = "approval"   // an approval state or a CodeMie interrupt waits for a decision
	KindTaskToken = "task_token" // a Task state waits for a task token's success or failure
)

// StopInfo is one stop a session waits at, as people and scripts see it.
type StopInfo struct {
	// Key answers the stop: a Pending's key (the state's id outside
	// fan-outs, "<fan-out state>/<index>/<state>" inside them).
	Key     string   `json:"key"`
	State   string   `json:"state"`
	Kind    string   `json:"kind"`
	Prompt  string   `json:"prompt,omitempty"`
	Options []string `json:"options,omitempty"`
	// TokenHash identifies a task token (TokenHash), never the token.
	TokenHash string `json:"token_hash,omitempty"`
	// Answered is set when an answer was recorded and the run has not yet
	// taken it.
	Answered bool `json:"answered,omitempty"`
}

// Stops lists the stops cp waits at: its approvals, then its task tokens,
// each in branch order. A session that waits for nothing has none.
func Stops(cp *Checkpoint) []StopInfo {
	if cp == nil || cp.Status.Ended() {
		return nil
	}
	var out []StopInfo
	for _, p := range cp.Waiting() {
		out = append(out, StopInfo{Key: p.StopKey(), State: p.State, Kind: KindApproval, Prompt: p.Prompt,
			Options: slices.Clone(p.Options), Answered: p.Answer != nil})
	}
	if w := cp.Position.Callback; w != nil {
		out = append(out, tokenStop(w.State, w))
	}
	keys, waits := cp.Position.FanOutTokens()
	for i, w := range waits {
		out = append(out, tokenStop(keys[i], w))
	}
	return out
}

func tokenStop(key string, w *CallbackWait) StopInfo {
	return StopInfo{Key: key, State: w.State, Kind: KindTaskToken, TokenHash: TokenHash(w.Token), Answered: w.Answer != nil}
}

// TokenHash identifies a task token in history and listings without
// giving it away: the first 16 hex digits of its SHA-256.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:8])
}

// StopKey names the stop a decision answers: its Key, or for a stop
// outside any fan-out, its state.
func (p *Pending) StopKey() string {
	if p.Key != "" {
		return p.Key
	}
	return p.State
}

// Waiting lists the stops of an interrupted checkpoint: those its
// fan-out progress holds, in branch order, else its Pending.
func (c *Checkpoint) Waiting() []Pending {
	if stops := c.Position.Progress().Waiting(); len(stops) > 0 {
		return stops
	}
	if c.Pending != nil {
		return []Pending{*c.Pending}
	}
	return nil
}

// Waiting lists the stops of f and of the fan-outs inside it.
func (f *FanOutProgress) Waiting() []Pending {
	if f == nil {
		return nil
	}
	var out []Pending
	for _, i := range slices.Sorted(maps.Keys(f.Stopped)) {
		out = f.Stopped[i].appendWaiting(out)
	}
	return out
}

// appendWaiting appends to out the stop of b and those of the fan-out or
// compiled-in child it waits in.
func (b *BranchStop) appendWaiting(out []Pending) []Pending {
	if b == nil {
		return out
	}
	if b.Pending != nil {
		out = append(out, *b.Pending)
	}
	return b.Child.appendWaiting(append(out, b.FanOut.Waiting()...))
}

// Progress is the progress of the fan-out pos stopped inside: the one its
// state opens, or one in the compiled-in child its state runs; nil when
// it stopped in none.
func (pos *Position) Progress() *FanOutProgress {
	if n := len(pos.Inside); pos.FanOut == nil && n > 0 {
		return pos.Inside[n-1].FanOut
	}
	return pos.FanOut
}

// FanOutTokens lists the task tokens the branches of the fan-out pos
// stopped inside wait for (Progress), with their stops' keys.
func (pos *Position) FanOutTokens() (keys []string, waits []*CallbackWait) {
	if n := len(pos.Inside); pos.FanOut == nil && n > 0 {
		return pos.Inside[n-1].FanOut.Tokens(pos.Inside[n-1].State + "/")
	}
	return pos.FanOut.Tokens(pos.State + "/")
}

// WaitsForToken reports whether a branch or item of f, at any depth,
// waits for a task token: a fan-out whose stops are all callbacks leaves
// its run waiting, not running.
func (f *FanOutProgress) WaitsForToken() bool {
	if f == nil {
		return false
	}
	for _, b := range f.Stopped {
		if b.WaitsForToken() {
			return true
		}
	}
	return false
}

// WaitsForToken reports whether b, or a branch inside it, waits for a
// task token.
func (b *BranchStop) WaitsForToken() bool {
	return b != nil && (b.Callback != nil || b.FanOut.WaitsForToken() || b.Child.WaitsForToken())
}

// Tokens lists the task tokens the branches of f, and of the fan-outs
// inside them, wait for, in branch order, with the key of each stop;
// prefix is the key of f and a slash.
func (f *FanOutProgress) Tokens(prefix string) (keys []string, waits []*CallbackWait) {
	if f == nil {
		return nil, nil
	}
	for _, i := range slices.Sorted(maps.Keys(f.Stopped)) {
		k, w := f.Stopped[i].Tokens(prefix + strconv.Itoa(i) + "/")
		keys, waits = append(keys, k...), append(waits, w...)
	}
	return keys, waits
}

// Tokens lists the task tokens b waits for: at its state, in the fan-out
// it opens, or, when its state runs a compiled-in child, in the child,
// whose states' ids name them (a stop's key is the branch's prefix and the
// id of the state that waits).
func (b *BranchStop) Tokens(prefix string) (keys []string, waits []*CallbackWait) {
	if b.Child != nil {
		return b.Child.Tokens(prefix)
	}
	key := prefix + b.State
	if b.Callback != nil {
		keys, waits = append(keys, key), append(waits, b.Callback)
	}
	k, w := b.FanOut.Tokens(key + "/")
	return append(keys, k...), append(waits, w...)
}

func sortedKeys[V any](m map[int]V) []int { return slices.Sorted(maps.Keys(m)) }
