package impl

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The states of one workflow before and after its types changed. encoding/json
// (its typeFields) decides which fields a state decodes: exported ones under
// their tag's name, untagged embedded structs promoted, "-" left out.
type (
	level     string
	shapeNode struct {
		Name     string       `json:"name"`
		Children []*shapeNode `json:"children"`
	}
	shapeMeta struct {
		Owner string `json:"owner"`
	}
	reviewV1 struct {
		Score int `json:"score"`
		Level level
		shapeMeta
		hidden int
		Skip   string `json:"-"`
	}
	stateV1 struct {
		Review  reviewV1             `json:"review"`
		History []reviewV1           `json:"history"`
		Tree    *shapeNode           `json:"tree"`
		Seen    map[string]time.Time `json:"seen"`
	}
	reviewAdded struct {
		Score    int `json:"score"`
		Level    level
		Reviewer string `json:"reviewer"`
		shapeMeta
	}
	stateAdded struct {
		Review  reviewAdded          `json:"review"`
		History []reviewAdded        `json:"history"`
		Tree    *shapeNode           `json:"tree"`
		Seen    map[string]time.Time `json:"seen"`
	}
	reviewRetyped struct {
		Score string `json:"score"`
		Level level
		shapeMeta
	}
	stateRetyped struct {
		Review  reviewRetyped        `json:"review"`
		History []reviewRetyped      `json:"history"`
		Tree    *shapeNode           `json:"tree"`
		Seen    map[string]time.Time `json:"seen"`
	}
)

func decodeShape(t *testing.T, typ reflect.Type) Shape {
	var s Shape
	require.NoError(t, json.Unmarshal([]byte(shapeOf(typ)), &s))
	return s
}

func TestShapeOfCoversNamedTypesRecursively(t *testing.T) {
	s := decodeShape(t, reflect.TypeFor[stateV1]())
	assert.Equal(t, "stateV1", s.Root)
	assert.Equal(t, map[string]ShapeType{
		"stateV1":   {Fields: map[string]string{"review": "reviewV1", "history": "[]reviewV1", "tree": "*shapeNode", "seen": "map[string]time.Time"}},
		"reviewV1":  {Fields: map[string]string{"score": "int", "Level": "level", "owner": "string"}},
		"level":     {Is: "string"},
		"shapeNode": {Fields: map[string]string{"name": "string", "children": "[]*shapeNode"}},
		"time.Time": {Is: ShapeCustom},
	}, s.Types)
	assert.Equal(t, shapeOf(reflect.TypeFor[stateV1]()), shapeOf(reflect.TypeFor[stateV1]()))
}

func TestDiffShapes(t *testing.T) {
	v1 := decodeShape(t, reflect.TypeFor[stateV1]())
	assert.Empty(t, DiffShapes(v1, v1))
	assert.Equal(t, []ShapeChange{{
		Path: "state.history[].reviewer", Message: "added (string): carried over as its zero value",
		In: ShapeField{Old: "reviewV1", New: "reviewAdded", Key: "reviewer"},
	}}, DiffShapes(v1, decodeShape(t, reflect.TypeFor[stateAdded]())), "a type reached twice is reported once")
	assert.Equal(t, []ShapeChange{{
		Path: "state.history[].score", Message: "was int, now string", Breaking: true,
		In: ShapeField{Old: "reviewV1", New: "reviewRetyped", Key: "score"},
	}}, DiffShapes(v1, decodeShape(t, reflect.TypeFor[stateRetyped]())))
	removed := DiffShapes(decodeShape(t, reflect.TypeFor[stateAdded]()), v1)
	assert.Equal(t, []string{"state.history[].reviewer: removed (was string)"}, changeStrings(removed))
	assert.True(t, removed[0].Breaking)
}

func TestDiffShapesRenamesAndContainers(t *testing.T) {
	was := Shape{Root: "S", Types: map[string]ShapeType{
		"S": {Fields: map[string]string{"a": "int", "m": "map[string][]T", "l": "L"}},
		"T": {Fields: map[string]string{"x": "int"}},
		"L": {Is: "string"},
	}}
	now := Shape{Root: "S2", Types: map[string]ShapeType{
		"S2": {Fields: map[string]string{"b": "int", "m": "map[int][]T", "l": "string"}},
		"T":  {Fields: map[string]string{"x": "int"}},
	}}
	assert.Equal(t, []string{
		"state.a: removed (was int), or renamed to b",
		"state.b: added (int): carried over as its zero value",
		"state.m{}: was key string, now key int",
	}, changeStrings(DiffShapes(was, now)), "a named type and its underlying type read the same JSON")
	assert.Equal(t, []string{"state[].x: was int, now string"}, changeStrings(DiffShapes(
		Shape{Root: "[]T", Types: map[string]ShapeType{"T": {Fields: map[string]string{"x": "int"}}}},
		Shape{Root: "[]*T", Types: map[string]ShapeType{"T": {Fields: map[string]string{"x": "*string"}}}},
	)), "a pointer reads the JSON of what it points to")
}

// A saved shape is data a checkpoint holds: one that names itself ends.
func TestDiffShapesSelfReference(t *testing.T) {
	was := Shape{Root: "A", Types: map[string]ShapeType{"A": {Is: "A"}}}
	assert.Equal(t, []string{"state: was A, now int"}, changeStrings(DiffShapes(was, Shape{Root: "int"})))
}

func changeStrings(cs []ShapeChange) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// sessionsOf runs no state: it saves the state it is given, at state b.
func sessionsOf[S any](schema string) *Sessions[S, S] {
	return &Sessions[S, S]{
		Workflow: "W", Schema: schema, Start: "a",
		Merge: func(s *S, in S) { *s = in },
		Run: func(ctx context.Context, sess *Session, s S, _ string) (S, error) {
			return s, sess.Save(ctx, "b", s, nil)
		},
	}
}

func TestResumeAcrossShapes(t *testing.T) {
	ctx := context.Background()
	cp := NewMemoryCheckpointer()
	cfg := NewConfig(WithCheckpointer(cp))
	in := stateV1{Review: reviewV1{Score: 4, Level: "high"}}
	_, err := sessionsOf[stateV1]("sha256:01").Invoke(ctx, &cfg, "s1", &in)
	require.NoError(t, err)

	var notes []string
	noted := WithSchemaNotes(ctx, func(session string, c ShapeChange) { notes = append(notes, session+" "+c.String()) })
	got, err := sessionsOf[stateAdded]("sha256:02").Resume(noted, &cfg, "s1")
	require.NoError(t, err)
	assert.Equal(t, reviewAdded{Score: 4, Level: "high"}, got.Review, "the saved values are kept, the new field is zero")
	assert.Equal(t, []string{"s1 state.history[].reviewer: added (string): carried over as its zero value"}, notes)

	_, err = sessionsOf[stateV1]("sha256:01").Invoke(ctx, &cfg, "s2", &in)
	require.NoError(t, err)
	_, err = sessionsOf[stateRetyped]("sha256:01").Resume(ctx, &cfg, "s2")
	var se *SessionError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), "state.history[].score: was int, now string")
}

// A checkpoint saved before shapes holds only the hash: it resumes when
// the hash is the same, and is refused otherwise, as it always was.
func TestResumeHashOnlyCheckpoint(t *testing.T) {
	ctx := context.Background()
	cp := NewMemoryCheckpointer()
	cfg := NewConfig(WithCheckpointer(cp))
	for _, id := range []string{"s1", "s2"} {
		require.NoError(t, cp.Save(ctx, &Checkpoint{Session: id, Workflow: "W", Schema: "sha256:01", Status: StatusRunning,
			Position: Position{State: "a"}, State: json.RawMessage(`{"review":{"score":2}}`)}))
	}
	got, err := sessionsOf[stateV1]("sha256:01").Resume(ctx, &cfg, "s1")
	require.NoError(t, err)
	assert.Equal(t, 2, got.Review.Score)
	_, err = sessionsOf[stateV1]("sha256:02").Resume(ctx, &cfg, "s2")
	assert.ErrorContains(t, err, "saved with state schema sha256:01, but this workflow's state schema is sha256:02")
}
