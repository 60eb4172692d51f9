package mappointer

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

type handlers struct{ t *testing.T }

func (handlers) Fetch(context.Context, PointerState) (PointerUpdate, error) {
	return PointerUpdate{}.WithResults([]string{"fetched"}), nil
}

// Greet gets each user of /data/users.
func (handlers) Greet(_ context.Context, _ PointerState, item User) (PointerUpdate, error) {
	return PointerUpdate{}.WithResults([]string{"hello " + item.Name}), nil
}

func (handlers) Pick(context.Context, PointerState) (PointerUpdate, error) {
	return PointerUpdate{}, nil
}

// Tag gets each name of the map entry /groups/admins; it writes into its
// copy of groups, which no other item and not the caller may see.
func (handlers) Tag(_ context.Context, s PointerState, item string) (PointerUpdate, error) {
	s.Groups["admins"][0] = "scribbled"
	return PointerUpdate{}.WithResults([]string{"tag " + item}), nil
}

func (handlers) Lead(context.Context, PointerState) (PointerUpdate, error) {
	return PointerUpdate{}, nil
}

// Notify gets /data/teams/0/lead, which is not a list: it is the only item.
func (handlers) Notify(_ context.Context, _ PointerState, item User) (PointerUpdate, error) {
	return PointerUpdate{}.WithResults([]string{"lead " + item.Name}), nil
}

func (handlers) AuditAll(context.Context, PointerState) (PointerUpdate, error) {
	return PointerUpdate{}, nil
}

// Audit gets the whole state (`iter_key: .`), once.
func (h handlers) Audit(_ context.Context, s PointerState, item PointerState) (PointerUpdate, error) {
	assert.Equal(h.t, s.Results, item.Results)
	return PointerUpdate{}.WithResults([]string{"audited " + item.Results[len(item.Results)-1]}), nil
}

func input() PointerState {
	return PointerState{
		Data: Batch{
			Users: []User{{Name: "Alice"}, {Name: "Bob"}},
			Teams: []Team{{Lead: User{Name: "Carol"}, Members: []string{"Alice"}}},
		},
		Groups: map[string][]string{"admins": {"root", "ops"}},
	}
}

func TestPointers(t *testing.T) {
	in := input()
	out, err := NewPointer(handlers{t}).Run(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, []string{"fetched", "hello Alice", "hello Bob", "tag root", "tag ops", "lead Carol", "audited lead Carol"}, out.Results)
	assert.Equal(t, input(), in, "the caller's input is untouched")
}

// A pointer that leads nowhere fails the state that opens the fan-out.
func TestPointerToNothing(t *testing.T) {
	for name, tc := range map[string]struct {
		edit          func(*PointerState)
		state, detail string
	}{
		"missing key":  {func(s *PointerState) { delete(s.Groups, "admins") }, "pick", `iter_key "/groups/admins": there is no value at /groups/admins`},
		"missing item": {func(s *PointerState) { s.Data.Teams = nil }, "lead", `iter_key "/data/teams/0/lead": there is no value at /data/teams/0`},
	} {
		t.Run(name, func(t *testing.T) {
			in := input()
			tc.edit(&in)
			_, err := NewPointer(handlers{t}).Run(context.Background(), in)
			require.Error(t, err)
			var se *flowcrt.StateError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.state, se.State)
			assert.ErrorContains(t, err, tc.detail)
		})
	}
}
