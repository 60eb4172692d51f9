package asl

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func resumedExec(t *testing.T) *ASLExec {
	cfg := impl.NewConfig()
	x, _, err := NewASLExec(&cfg, "m", nil, Obj())
	require.NoError(t, err)
	x.SetSession(savedSession(t, &cfg, "s", impl.Position{State: "A", Inside: []impl.ChildPosition{
		{State: "A/B", Input: json.RawMessage(`{"at":1}`)},
		{State: "A/B/C", Input: json.RawMessage(`{"at":2}`), Vars: json.RawMessage(`{"v":3}`)},
	}}))
	return x
}

func child(ctx context.Context, x *ASLExec, state string) context.Context {
	return enterChild(ctx, x, &aslContext{state: state}, x.scope(ctx))
}

// The children of the checkpoint are entered again one inside the other,
// each getting its own position once.
func TestResumeInsideChildren(t *testing.T) {
	x := resumedExec(t)
	ctx := child(context.Background(), x, "A")
	require.Equal(t, "A/B", x.resumeIn(ctx).State)
	ctx = child(x.innerScope(ctx), x, "A/B") // a scope of its own, as IncludeWith gives
	pos := x.resumeIn(ctx)
	require.NotNil(t, pos)
	in, err := x.restoreChild(ctx, pos)
	require.NoError(t, err)
	assert.Equal(t, `{"at":2}`, impl.JSONText(in))
	v, _ := x.scope(ctx).get("v")
	assert.Equal(t, 3.0, v)
	assert.Nil(t, x.resumeIn(ctx), "restored once")
}

// Entering another child first means the run has left the checkpoint's:
// nothing is restored after that, not even in the right one.
func TestResumeLeftChildren(t *testing.T) {
	x := resumedExec(t)
	assert.Nil(t, x.resumeIn(child(context.Background(), x, "Z")))
	assert.Nil(t, x.resumeIn(child(context.Background(), x, "A")))
}
