package schemachange

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/golden/schemachange/added"
	"github.com/flowc-dev/flowc/golden/schemachange/old"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// oldHandlers are the handlers of the version that saved the checkpoints.
type oldHandlers struct{}

func (oldHandlers) Write(context.Context, old.ReviewState) (old.ReviewUpdate, error) {
	return old.ReviewUpdate{}.WithReview(old.Assessment{Score: 4, Notes: []old.Note{{Text: "clear"}}}), nil
}

func (oldHandlers) Publish(context.Context, old.ReviewState) (old.ReviewUpdate, error) {
	return old.ReviewUpdate{}.WithDraft("published"), nil
}

type addedHandlers struct{}

func (addedHandlers) Write(context.Context, added.ReviewState) (added.ReviewUpdate, error) {
	return added.ReviewUpdate{}, errors.New("write ran again")
}

func (addedHandlers) Publish(context.Context, added.ReviewState) (added.ReviewUpdate, error) {
	return added.ReviewUpdate{}.WithDraft("published"), nil
}

// handlers of this version: a session resumed here must not run at all.
type handlers struct{ ran *int }

func (h handlers) Write(context.Context, ReviewState) (ReviewUpdate, error) {
	*h.ran++
	return ReviewUpdate{}, nil
}

func (h handlers) Release(context.Context, ReviewState) (ReviewUpdate, error) {
	*h.ran++
	return ReviewUpdate{}, nil
}

// waitingSession runs session id of the old version up to its approval,
// where it waits with a checkpoint in store.
func waitingSession(t *testing.T, store flowcrt.Checkpointer, id string) {
	t.Helper()
	_, err := old.NewReview(oldHandlers{}, flowcrt.WithCheckpointer(store)).Invoke(context.Background(), id, &old.ReviewState{Draft: "d"})
	var wait *flowcrt.Interrupted
	require.ErrorAs(t, err, &wait)
}

func sqliteStore(t *testing.T) *sqlite.Store {
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "review.db"))
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return store
}

// A field added to a named type two levels down (Note.author) is carried
// over as its zero value, and a note says so; the saved values are kept.
// On the SQLite store, which keeps the shape with the schema.
func TestCheckpointAddedFieldCarriedOver(t *testing.T) {
	store := sqliteStore(t)
	waitingSession(t, store, "s1")
	var notes []string
	ctx := flowcimpl.WithSchemaNotes(context.Background(), func(session string, c flowcimpl.ShapeChange) {
		notes = append(notes, session+": "+c.String())
	})
	s, err := added.NewReview(addedHandlers{}, flowcrt.WithCheckpointer(store)).Decide(ctx, "s1", "yes")
	require.NoError(t, err)
	assert.Equal(t, added.ReviewState{Draft: "published", Review: added.Assessment{Score: 4, Notes: []added.Note{{Text: "clear"}}}}, s)
	assert.Equal(t, []string{"s1: state.review.notes[].author: added (string): carried over as its zero value"}, notes)
}

// A field whose type changed (Assessment.score, int to string) refuses the
// checkpoint, naming the field's path, and nothing runs.
func TestCheckpointRetypedFieldRefused(t *testing.T) {
	for name, store := range map[string]flowcrt.Checkpointer{"memory": flowcrt.NewMemoryCheckpointer(), "sqlite": sqliteStore(t)} {
		t.Run(name, func(t *testing.T) {
			waitingSession(t, store, "s1")
			ran := 0
			_, err := NewReview(handlers{ran: &ran}, flowcrt.WithCheckpointer(store)).Decide(context.Background(), "s1", "yes")
			var se *flowcrt.SessionError
			require.ErrorAs(t, err, &se)
			assert.ErrorContains(t, err, "state.review.score: was int, now string")
			assert.Zero(t, ran)
		})
	}
}
