package subflownested

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// script returns the scripted action of each call of a state, "" once
// they run out, and records the calls.
type script map[string][]string

func (s script) act(state string) (OuterUpdate, string) {
	action := ""
	if len(s[state]) > 0 {
		action, s[state] = s[state][0], s[state][1:]
	}
	return OuterUpdate{}.WithTrail([]string{state}), action
}

func (s script) Write(context.Context, OuterState) (OuterUpdate, string, error) {
	u, a := s.act("write")
	return u, a, nil
}

func (s script) Polish(context.Context, OuterState) (OuterUpdate, error) {
	u, _ := s.act("polish")
	return u, nil
}

func (s script) Check(context.Context, OuterState) (OuterUpdate, string, error) {
	u, a := s.act("check")
	return u, a, nil
}

func (s script) Archive(context.Context, OuterState) (OuterUpdate, error) {
	u, _ := s.act("archive")
	return u, nil
}

func (s script) Publish(context.Context, OuterState) (OuterUpdate, error) {
	u, _ := s.act("publish")
	return u, nil
}

func trail(t *testing.T, s script) []string {
	t.Helper()
	out, err := NewOuter(s).Run(context.Background(), OuterState{})
	require.NoError(t, err)
	return out.Trail
}

func TestNestedChildren(t *testing.T) {
	// write's "skip" is not routed in inner: inner ends, middle goes on to check.
	assert.Equal(t, []string{"write", "check", "archive"}, trail(t, script{"write": {"skip"}}))
	// check's "redo" goes back into inner; its "publish" ends middle with
	// that action, which outer routes.
	assert.Equal(t, []string{"write", "polish", "check", "write", "check", "publish"},
		trail(t, script{"write": {"polish"}, "check": {"redo", "publish"}}))
}
