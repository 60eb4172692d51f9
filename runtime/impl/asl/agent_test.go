package asl

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgentIntrinsics(t *testing.T) {
	assert.Equal(t, `6`, call(t, StatesMathAdd, 1.0, 2.0, 3.0))
	assert.Equal(t, `-1.5`, call(t, StatesMathSubtract, 1.0, 2.5))
	assert.Equal(t, `7.5`, call(t, StatesMathMultiply, 3.0, 2.5))
	assert.Equal(t, `[1,2,3]`, call(t, StatesArrayConcat, []any{1.0}, []any{}, []any{2.0, 3.0}))
	assert.Equal(t, `"b"`, call(t, StatesCoalesce, nil, "b", "c"))
	assert.Equal(t, `null`, call(t, StatesCoalesce, nil, nil))
	a, b := mustJSON(t, `{"x": {"x1": 1}, "y": 2}`), mustJSON(t, `{"x": {"x2": 2}}`)
	assert.Equal(t, `{"x":{"x1":1,"x2":2},"y":2}`, call(t, StatesMerge, a, b))
	user := mustJSON(t, `{"id": 1, "name": "n", "password": "p"}`)
	assert.Equal(t, `{"id":1,"name":"n"}`, call(t, StatesPick, user, "name", "id"))
	assert.Equal(t, `{"id":1,"name":"n"}`, call(t, StatesOmit, user, "password"))
	assert.Equal(t, `3`, call(t, StatesTokenCount, "123456789"))
	assert.Equal(t, `2`, call(t, StatesTokenCount, mustJSON(t, `{"a":1}`)), "7 bytes of JSON")
	assert.Equal(t, `"abcd..."`, call(t, StatesTruncate, "abcdefgh", 1.0))
	assert.Equal(t, `"short"`, call(t, StatesTruncate, "short", 5.0))
	assert.Equal(t, `"aé..."`, call(t, StatesTruncate, "aééé", 1.0), "cut at a character boundary")
	assert.Equal(t, `0.000045`, call(t, StatesEstimateCost, "123456789", "any-model"))

	_, err := StatesPick([]any{mustJSON(t, `{}`), 1.0})
	assert.Error(t, err)
}

// A path that points nowhere is null to States.Coalesce, an error to the
// others.
func TestCoalesceMissingPath(t *testing.T) {
	missing := &JSONPath{Src: "$.missing", Segs: []PathSeg{Field("missing")}}
	c := &Intrinsic{Name: "States.Coalesce", Fn: StatesCoalesce, Args: []IntrinsicArg{{Path: missing}, {Value: "fallback"}}}
	v, err := c.Eval(mustJSON(t, `{}`), nil)
	require.NoError(t, err)
	assert.Equal(t, "fallback", v)
	c = &Intrinsic{Name: "States.ArrayConcat", Fn: StatesArrayConcat, Args: []IntrinsicArg{{Path: missing}}}
	_, err = c.Eval(mustJSON(t, `{}`), nil)
	assert.Equal(t, impl.StatesRuntime, impl.ErrorName(err))
}

func readAll(t *testing.T, req ItemReadRequest) ([]string, error) {
	var got []string
	err := ReadLocalItems(context.Background(), req, func(v any) error {
		got = append(got, impl.JSONText(v))
		return nil
	})
	return got, err
}

func TestReadLocalItems(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("a.json", `[{"b": 1, "a": 2}, 3]`)
	write("b.jsonl", "{\"n\":1}\n\n{\"n\":2}\n")
	write("c.csv", "x|y\n1|2\n3\n")
	write("in/d.txt", "four")
	params := func(key string) any { return map[string]any{"Bucket": dir, "Key": key} }

	got, err := readAll(t, ItemReadRequest{Format: "JSON", Parameters: params("a.json")})
	require.NoError(t, err)
	assert.Equal(t, []string{`{"b":1,"a":2}`, `3`}, got, "member order kept")
	got, err = readAll(t, ItemReadRequest{Format: "JSONL", Parameters: params("b.jsonl")})
	require.NoError(t, err)
	assert.Equal(t, []string{`{"n":1}`, `{"n":2}`}, got)
	got, err = readAll(t, ItemReadRequest{Format: "CSV", Delimiter: '|', Parameters: params("c.csv")})
	require.NoError(t, err)
	assert.Equal(t, []string{`{"x":"1","y":"2"}`, `{"x":"3","y":""}`}, got)
	got, err = readAll(t, ItemReadRequest{Format: "CSV", Delimiter: '|', CSVHeaders: []string{"p", "q"}, Parameters: params("c.csv")})
	require.NoError(t, err)
	assert.Equal(t, `{"p":"x","q":"y"}`, got[0], "given headers: the first row is data")
	got, err = readAll(t, ItemReadRequest{Parameters: map[string]any{"Bucket": dir, "Prefix": "in/"}})
	require.NoError(t, err)
	assert.Equal(t, []string{`{"Key":"in/d.txt","Size":4}`}, got)

	_, err = readAll(t, ItemReadRequest{Format: "JSON", Parameters: params("b.jsonl")})
	assert.ErrorContains(t, err, "array")
	_, err = readAll(t, ItemReadRequest{Format: "MANIFEST", Parameters: params("a.json")})
	assert.ErrorContains(t, err, "MANIFEST")
	write("wide.csv", "x\n1,2\n")
	_, err = readAll(t, ItemReadRequest{Format: "CSV", Delimiter: ',', Parameters: params("wide.csv")})
	assert.ErrorContains(t, err, "2 fields for 1 headers")
}

// Batches close at the item count or before the byte limit.
func TestBatcher(t *testing.T) {
	var batches []string
	start := func(i int, in any) error {
		batches = append(batches, impl.JSONText(in))
		return nil
	}
	b := batcher{on: true, maxBytes: 8, input: "in"}
	feed := b.feed(start)
	for i, item := range []any{"aaa", "bbb", "ccc"} { // 5 bytes of JSON each
		require.NoError(t, feed(i, item))
	}
	require.NoError(t, b.flush(start))
	assert.Equal(t, []string{`{"BatchInput":"in","Items":["aaa"]}`, `{"BatchInput":"in","Items":["bbb"]}`, `{"BatchInput":"in","Items":["ccc"]}`}, batches)
}

func TestMemoryStore(t *testing.T) {
	cfg := impl.NewConfig(impl.WithMemory(impl.NewMemory()))
	x, in, err := NewASLExec(&cfg, "m", nil, map[string]any{"q": 1})
	require.NoError(t, err)
	m := &Memory{
		Reads:  []MemoryRead{{Keys: []string{"k"}, Default: TValue("none")}},
		Writes: []MemoryWrite{{Key: "k", Value: TPath(&JSONPath{Src: "$.q", Segs: []PathSeg{Field("q")}})}},
	}
	body := x.Recalling(m, Identity)
	out, err := body(context.Background(), x.Enter(context.Background(), "S"), in)
	require.NoError(t, err)
	assert.Equal(t, `{"q":1,"_memory":"none"}`, impl.JSONText(out))
	require.NoError(t, x.Remember(context.Background(), m, x.Enter(context.Background(), "S"), in))

	y, in2, err := NewASLExec(&cfg, "m", nil, map[string]any{})
	require.NoError(t, err)
	out, err = y.Recalling(m, Identity)(context.Background(), y.Enter(context.Background(), "S"), in2)
	require.NoError(t, err)
	assert.Equal(t, `{"_memory":{"k":1}}`, impl.JSONText(out), "a store given by WithMemory outlives the run")
}

// A distributed Map whose run is cancelled stops reading, waits for its
// children and returns the context's error; goleak (TestMain) checks that
// no goroutine is left.
func TestDistributedMapCancelled(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "items.jsonl"), []byte("1\n2\n3\n4\n5\n6\n"), 0o644))
	cfg := impl.NewConfig()
	x, in, err := NewASLExec(&cfg, "m", nil, map[string]any{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var started atomic.Int32
	child := func(ctx context.Context, _ *ASLExec, in any) (any, error) {
		if started.Add(1) == 1 {
			cancel()
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	d := &DistributedSpec{Reader: &ItemReaderSpec{Format: "JSONL", Parameters: TValue(Obj("Bucket", dir, "Key", "items.jsonl"))}}
	body := x.DistributedMap("M", &MapSpec{MaxConcurrency: 1}, d, child)
	_, err = body(ctx, x.Enter(ctx, "M"), in)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int32(1), started.Load(), "no child starts after the cancellation")
}
