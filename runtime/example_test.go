package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/flowc-dev/flowc/bench/distributed"
	"github.com/flowc-dev/flowc/golden/aslbudget"
	"github.com/flowc-dev/flowc/golden/schemachange/added"
	"github.com/flowc-dev/flowc/golden/schemachange/old"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// researcher answers the agents of golden/aslbudget/research.asl.json,
// whose Research task reads the memory key "notes" (Memory.Read, injected
// at $.recalled) and writes its findings there (Memory.Write).
type researcher struct{}

func (researcher) Researcher(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	fmt.Println("recalled:", in.(map[string]any)["recalled"].(map[string]any)["notes"])
	return map[string]any{"findings": "Go compiles fast", "_tokens": 100}, nil
}

func (researcher) Summarizer(context.Context, any, flowcrt.Agent) (any, error) {
	return map[string]any{"text": "fast"}, nil
}

// loggedMemory is a MemoryStore of your own: here the in-process one,
// saying what the workflow stores in it. A store backed by a database
// makes the memory outlive the process.
type loggedMemory struct{ flowcrt.MemoryStore }

func (m loggedMemory) Remember(ctx context.Context, key string, value any) error {
	fmt.Printf("remember %s = %v\n", key, value)
	return m.MemoryStore.Remember(ctx, key, value)
}

// A workflow given a MemoryStore keeps what its Memory blocks write for
// its later runs: the second run recalls the first one's findings, where
// the first found only the Read's Default.
func ExampleMemoryStore() {
	w := aslbudget.NewResearch(researcher{}, flowcrt.WithMemory(loggedMemory{flowcrt.NewMemory()}))
	input := map[string]any{"query": "Go", "sources": []any{"web"}}
	for range 2 {
		if _, err := w.Run(context.Background(), input); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// recalled: none yet
	// remember notes = Go compiles fast
	// recalled: Go compiles fast
	// remember notes = Go compiles fast
}

// scorer answers the Score task of bench/distributed/distributed.asl.json,
// a distributed Map over the lines of a JSONL file, and takes its results
// itself instead of the built-in writer of local files.
type scorer struct {
	mu      sync.Mutex
	written []string
}

func (*scorer) Score(_ context.Context, in any) (any, error) {
	return in.(map[string]any)["n"].(float64) * 10, nil
}

// WriteResult gets the Output of a child that succeeded, or the Error and
// Cause of one that failed.
func (s *scorer) WriteResult(_ context.Context, req flowcrt.ResultWriteRequest, r flowcrt.ChildResult) error {
	line := fmt.Sprintf("%s item %d of %v: %v", req.State, r.Index, r.Input, r.Output)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.written = append(s.written, line)
	return nil
}

// scorer takes the results itself: without WriteResult the engine would
// write them with its built-in writer, so the handlers say what they are.
var _ flowcrt.ResultWriter = (*scorer)(nil)

// Handlers that implement ResultWriter get each child's result of a
// distributed Map with a ResultWriter as the child ends, wherever the
// results must go. The children run at once, so the results come in any
// order; Index says which item each is.
func ExampleResultWriter() {
	dir, err := os.MkdirTemp("", "flowc-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	items := "{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n"
	if err := os.WriteFile(filepath.Join(dir, "items.jsonl"), []byte(items), 0o644); err != nil {
		panic(err)
	}
	s := &scorer{}
	if _, err := distributed.NewDistributed(s).Run(context.Background(), map[string]any{"dir": dir}); err != nil {
		panic(err)
	}
	slices.Sort(s.written)
	for _, line := range s.written {
		fmt.Println(line)
	}
	// Output:
	// ScoreAll item 0 of map[n:1]: 10
	// ScoreAll item 1 of map[n:2]: 20
	// ScoreAll item 2 of map[n:3]: 30
}

// The handlers of the two versions of golden/schemachange/review.flow.yaml:
// the old one wrote the notes of a review without authors, the added one
// has Note.Author.
type oldReview struct{}

func (oldReview) Write(context.Context, old.ReviewState) (old.ReviewUpdate, error) {
	return old.ReviewUpdate{}.WithReview(old.Assessment{Score: 4, Notes: []old.Note{{Text: "clear"}}}), nil
}

func (oldReview) Publish(context.Context, old.ReviewState) (old.ReviewUpdate, error) {
	return old.ReviewUpdate{}.WithDraft("published"), nil
}

type addedReview struct{}

func (addedReview) Write(context.Context, added.ReviewState) (added.ReviewUpdate, error) {
	return added.ReviewUpdate{}, errors.New("the review is written already")
}

func (addedReview) Publish(context.Context, added.ReviewState) (added.ReviewUpdate, error) {
	return added.ReviewUpdate{}.WithDraft("published"), nil
}

// declaredIn says where a tool would point for a field that changed: the
// named struct type that declares it in each version, and its JSON key.
func declaredIn(f flowcrt.ShapeField) string {
	return fmt.Sprintf("the field %q of type %s (type %s in the saved version)", f.Key, f.New, f.Old)
}

// A session saved by an older version of a workflow goes on in the new
// one when the state only gained fields; each field it carries over as its
// zero value is a ShapeChange, which WithSchemaNotes hands to a function
// of yours (without it, they are logged as warnings). ShapeChange.In names
// the field in the named types of both versions, for tools that point at
// their declarations.
func ExampleWithSchemaNotes() {
	store := flowcrt.NewMemoryCheckpointer()
	ctx := context.Background()
	_, err := old.NewReview(oldReview{}, flowcrt.WithCheckpointer(store)).Invoke(ctx, "s1", &old.ReviewState{Draft: "d"})
	fmt.Println("old version:", flowcrt.IsInterrupted(err))

	ctx = flowcrt.WithSchemaNotes(ctx, func(session string, c flowcrt.ShapeChange) {
		fmt.Printf("session %s: %s (breaking: %v)\n", session, c, c.Breaking)
		fmt.Println(declaredIn(c.In))
	})
	s, err := added.NewReview(addedReview{}, flowcrt.WithCheckpointer(store)).Decide(ctx, "s1", "yes")
	fmt.Println("new version:", s.Draft, s.Review.Notes, err)
	// Output:
	// old version: true
	// session s1: state.review.notes[].author: added (string): carried over as its zero value (breaking: false)
	// the field "author" of type Note (type Note in the saved version)
	// new version: published [{clear }] <nil>
}
