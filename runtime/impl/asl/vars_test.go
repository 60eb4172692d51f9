package asl

import (
	"context"
	"errors"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func varPath(name string, segs ...PathSeg) *JSONPath {
	return &JSONPath{Src: "$" + name, Var: name, Segs: segs}
}

// Assign reads the task's raw result (before ResultSelector) and the
// variables as they were when the state began; they change only once the
// state has succeeded.
func TestAssignOrder(t *testing.T) {
	x, in, err := NewASLExec(&impl.Config{}, "m", nil, map[string]any{})
	require.NoError(t, err)
	ctx := context.Background()
	x.vars.vals["a"], x.vars.vals["b"] = "A", "B"
	st := &ASLState{
		Name: "S",
		Assign: TObject(
			TField("a", TPath(varPath("b"))), TField("b", TPath(varPath("a"))),
			TField("raw", TPath(path("$.raw", Field("raw")))),
		),
		ResultSelector: TObject(TField("seen", TPath(varPath("a")))),
	}
	body := func(context.Context, *aslContext, any) (any, error) { return Obj("raw", 1.0), nil }
	out, err := x.Do(ctx, st, x.Enter(ctx, "S"), in, body)
	require.NoError(t, err)
	assert.Equal(t, `{"seen":"A"}`, impl.JSONText(out), "ResultSelector reads the old value")
	assert.Equal(t, "B", x.vars.vals["a"], "the values were swapped")
	assert.Equal(t, "A", x.vars.vals["b"])
	assert.Equal(t, 1.0, x.vars.vals["raw"])

	failing := func(context.Context, *aslContext, any) (any, error) { return nil, impl.NewError("E", "") }
	_, err = x.Do(ctx, &ASLState{Name: "F", Assign: TObject(TField("a", TValue("no")))}, x.Enter(ctx, "F"), in, failing)
	require.Error(t, err)
	assert.Equal(t, "B", x.vars.vals["a"], "a failed state assigns nothing")
}

// A branch's scope reads the outer variables, keeps its own, and cannot
// assign an outer one.
func TestInnerScope(t *testing.T) {
	x, in, err := NewASLExec(&impl.Config{}, "m", nil, map[string]any{})
	require.NoError(t, err)
	x.vars.vals["outer"] = "o"
	ctx := x.innerScope(context.Background())
	pass := func(_ context.Context, _ *aslContext, in any) (any, error) { return in, nil }

	_, err = x.Do(ctx, &ASLState{Name: "L", Assign: TObject(TField("local", TPath(varPath("outer"))))}, x.Enter(ctx, "L"), in, pass)
	require.NoError(t, err)
	v, ok := x.Enter(ctx, "R").lookupVar("local")
	assert.True(t, ok)
	assert.Equal(t, "o", v)
	_, ok = x.Enter(context.Background(), "R").lookupVar("local")
	assert.False(t, ok, "the outer scope does not see the branch's variable")

	_, err = x.Do(ctx, &ASLState{Name: "W", Assign: TObject(TField("outer", TValue("x")))}, x.Enter(ctx, "W"), in, pass)
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err))
	assert.Equal(t, "o", x.vars.vals["outer"])
}

// A session's checkpoint holds the top-level variables: a resumed run goes
// on with them.
func TestSessionKeepsVariables(t *testing.T) {
	cfg := impl.NewConfig(impl.WithCheckpointer(&impl.MemoryCheckpointer{}))
	crash := errors.New("crash")
	var seen any
	s := &impl.Sessions[any, any]{Workflow: "w", Schema: "json", Start: "A", Fresh: EmptyASLInput, Decode: DecodeASLInput, Merge: MergeASLInput,
		Run: func(ctx context.Context, sess *impl.Session, in any, state string) (any, error) {
			x, in, err := NewASLExec(&cfg, "w", nil, in)
			require.NoError(t, err)
			x.SetSession(sess)
			if state == "A" {
				x.vars.vals["n"] = Obj("deep", []any{1.0})
				require.NoError(t, x.Save(ctx, "B", in, nil))
				return nil, crash // the process dies before B
			}
			seen, _ = x.Enter(ctx, "B").lookupVar("n")
			return in, x.Save(ctx, "", in, nil)
		}}
	_, err := s.Invoke(context.Background(), &cfg, "s1", nil)
	require.ErrorIs(t, err, crash)
	_, err = s.Resume(context.Background(), &cfg, "s1")
	require.NoError(t, err)
	assert.Equal(t, `{"deep":[1]}`, impl.JSONText(seen))
}
