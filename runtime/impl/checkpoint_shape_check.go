package impl

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
)

// jsonSchema is the Schema of workflows whose state is JSON: it has no
// shape to check.
const jsonSchema = "json"

// schema is what a checkpoint saves as its Schema: for a typed state, the
// hash of its top-level fields, a space and its shape (see Shape), so that
// every store keeps the shape where it keeps the hash; "json" otherwise.
func (c *Sessions[S, U]) schema() string {
	if c.Schema == jsonSchema {
		return c.Schema
	}
	return c.Schema + " " + shapeOf(reflect.TypeFor[S]())
}

// checkSchema refuses a checkpoint whose state the workflow cannot read:
// one saved with a shape that has since lost, renamed or retyped a field,
// or, for a checkpoint that saved only a hash (flowc before shapes), one
// whose hash differs. Fields added since are carried over as their zero
// values: each one is a note (see WithSchemaNotes).
func (c *Sessions[S, U]) checkSchema(ctx context.Context, id, saved, current string) error {
	if saved == current {
		return nil
	}
	_, savedShape, shaped := strings.Cut(saved, " ")
	_, currentShape, _ := strings.Cut(current, " ")
	if !shaped || c.Schema == jsonSchema {
		if saved == c.Schema {
			return nil
		}
		return SessionErr(id, fmt.Errorf("its checkpoint was saved with state schema %s, but this workflow's state schema is %s: "+
			"the state has changed shape since; finish the session with the code that started it, or delete it", saved, c.Schema))
	}
	var was, now Shape
	if err := json.Unmarshal([]byte(savedShape), &was); err != nil {
		return SessionErr(id, fmt.Errorf("its checkpoint's state shape does not decode: %w", err))
	}
	if err := json.Unmarshal([]byte(currentShape), &now); err != nil {
		return fmt.Errorf("flowc: the state shape does not decode: %w", err) // a runtime bug
	}
	var breaking []string
	changes := DiffShapes(was, now)
	for _, ch := range changes {
		if ch.Breaking {
			breaking = append(breaking, ch.String())
		}
	}
	if len(breaking) > 0 {
		return SessionErr(id, fmt.Errorf("its checkpoint was saved with a state this workflow cannot read: %s; "+
			"finish the session with the code that started it, or delete it", strings.Join(breaking, "; ")))
	}
	for _, ch := range changes {
		noteSchema(ctx, id, ch)
	}
	return nil
}

type schemaNotesKey struct{}

// WithSchemaNotes returns a context under which a session resumed from a
// checkpoint saved with an older shape of the state calls fn with each
// change it carried over: a field added since, which starts as its zero
// value. Without it, the notes go to the default slog logger as warnings.
func WithSchemaNotes(ctx context.Context, fn func(session string, change ShapeChange)) context.Context {
	return context.WithValue(ctx, schemaNotesKey{}, fn)
}

func noteSchema(ctx context.Context, session string, ch ShapeChange) {
	if fn, ok := ctx.Value(schemaNotesKey{}).(func(string, ShapeChange)); ok {
		fn(session, ch)
		return
	}
	slog.WarnContext(ctx, "flowc: the checkpoint's state has changed shape", "session", session, "change", ch.String())
}
