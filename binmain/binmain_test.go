package binmain

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// echo runs a workflow whose output is its input, parsed.
func echo(ctx context.Context, input []byte, env *Env, opts ...flowcrt.Option) (any, error) {
	if env == nil || env.LLM == nil {
		return nil, errors.New("no environment")
	}
	return flowcimpl.DecodeChainInput(input)
}

func run(t *testing.T, stdin string, run runFunc, session sessionFunc, args ...string) (string, string, int) {
	t.Setenv("OPENAI_TIMEOUT", "")
	var stdout, stderr bytes.Buffer
	code := Main(append([]string{"/bin/prog"}, args...), strings.NewReader(stdin), &stdout, &stderr, run, session)
	return stdout.String(), stderr.String(), code
}

func TestMain(t *testing.T) {
	out, _, code := run(t, "", echo, nil)
	assert.Equal(t, 0, code)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{}}`+"\n", out)

	out, _, code = run(t, `{"a": [1]}`, echo, nil, "--input", "-", "--quiet")
	assert.Equal(t, 0, code)
	assert.Equal(t, `{"status":"SUCCEEDED","output":{"a":[1]}}`+"\n", out)

	_, errOut, code := run(t, `{"a": `, echo, nil, "--input", "-")
	assert.Equal(t, 2, code, "bad input is a usage error")
	assert.Contains(t, errOut, "prog: ")

	fail := func(context.Context, []byte, *Env, ...flowcrt.Option) (any, error) {
		return nil, flowcrt.NewError("LLM.ServerError", "HTTP 500")
	}
	out, _, code = run(t, "", fail, nil)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `"error":"LLM.ServerError"`)
}

func TestMainUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--checkpoint-db", "x.db"},
		{"--decision", "continue"},
		{"--session", "s", "--checkpoint-db", "x.db"}, // no sessions for this workflow
		{"stray"},
		{"--input", "/no/such/file"},
		{"--unknown"},
	} {
		_, errOut, code := run(t, "", echo, nil, args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.NotEmpty(t, errOut, "%v", args)
	}
	t.Setenv("OPENAI_TIMEOUT", "later")
	var stderr bytes.Buffer
	assert.Equal(t, 2, Main([]string{"prog"}, nil, &bytes.Buffer{}, &stderr, echo, nil))
	assert.Contains(t, stderr.String(), "OPENAI_TIMEOUT")
}

func TestMainSession(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	var got []string
	session := func(ctx context.Context, id string, input []byte, decision string, env *Env, opts ...flowcrt.Option) (any, error) {
		got = append(got, id+"|"+string(input)+"|"+decision)
		if flowcimpl.NewConfig(opts...).Checkpointer == nil {
			return nil, errors.New("no checkpointer")
		}
		return map[string]any{"ok": true}, nil
	}
	_, errOut, code := run(t, `{"x": 1}`, echo, session, "--checkpoint-db", db, "--session", "s1", "--input", "-")
	assert.Equal(t, 0, code, errOut)
	_, errOut, code = run(t, "", echo, session, "--checkpoint-db", db, "--session", "s1", "--decision", "yes")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, []string{`s1|{"x": 1}|`, "s1||yes"}, got)
	assert.FileExists(t, db)

	_, _, code = run(t, "", echo, session, "--checkpoint-db", t.TempDir(), "--session", "s1")
	assert.Equal(t, 2, code, "a directory is no checkpoint file")
}
