package impl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A token sent again after its wait ended is told apart from one the
// session never issued (issue 22 item 3: "refused with a clear error once
// used, after its timeout, or when it is not known"): the checkpoint
// remembers the hashes of the tokens whose waits it no longer holds.
func TestSpentTokensAreRemembered(t *testing.T) {
	answered := &CallbackWait{State: "Ask", Token: "t-answered", Answer: &CallbackAnswer{Output: []byte(`1`)}}
	lapsed := &CallbackWait{State: "Branch", Token: "t-lapsed"}
	before := Position{State: "Map", FanOut: &FanOutProgress{Stopped: map[int]*BranchStop{
		0: {State: "Ask", Callback: answered},
		1: {State: "Branch", Callback: lapsed},
	}}}
	spent := spend(nil, heldTokens(&before), nil)
	cp := &Checkpoint{Position: Position{State: "After", Spent: spent}}
	clock := NewFakeClock(time.Now())

	for token, want := range map[string]error{"t-answered": ErrTaskTokenUsed, "t-lapsed": ErrTaskTokenTimedOut, "t-forged": ErrTaskTokenUnknown} {
		_, err := checkOutstanding(cp, tokenClaims{Session: "s", State: "Ask"}, token, clock)
		assert.ErrorIs(t, err, want, token)
	}
	for _, s := range cp.Position.Spent {
		assert.NotContains(t, s.Hash, "t-", "the checkpoint keeps hashes, never a token")
	}
}

// A wait still held is not spent, and the memory keeps the newest tokens.
func TestSpentTokensAreBounded(t *testing.T) {
	held := &Position{State: "Ask", Callback: &CallbackWait{State: "Ask", Token: "t-held"}}
	assert.Empty(t, spend(nil, heldTokens(held), heldTokens(held)))

	var spent []spentToken
	for i := range spentTokens + 10 {
		pos := &Position{State: "Ask", Callback: &CallbackWait{State: "Ask", Token: "t-" + string(rune('a'+i%26)) + time.Duration(i).String()}}
		spent = spend(spent, heldTokens(pos), nil)
	}
	assert.Len(t, spent, spentTokens)
	_, known := spentAs(spent, "t-"+string(rune('a'+(spentTokens+9)%26))+time.Duration(spentTokens+9).String())
	assert.True(t, known, "the newest is kept")
	_, known = spentAs(spent, "t-a0s")
	assert.False(t, known, "the oldest is forgotten")
}
