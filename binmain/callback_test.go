package binmain

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/aslcallback"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// queue answers the callback machine's tasks; its approval requests go
// nowhere, as a queue's would.
type queue struct{}

func (queue) Reserve(context.Context, any) (any, error)                     { return "r-1", nil }
func (queue) SendMessageWaitForTaskToken(context.Context, any) (any, error) { return nil, nil }
func (queue) Ship(context.Context, any) (any, error)                        { return true, nil }

// A built program of a callback machine stops with the token on its
// result line; --task-success then finishes the session, as in flowc run.
func TestMainTaskToken(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	session := func(ctx context.Context, id string, input []byte, decision string, _ *Env, opts ...flowcrt.Option) (any, error) {
		var in any
		if input != nil {
			in = map[string]any{}
			require.NoError(t, json.Unmarshal(input, &in))
		}
		return aslcallback.NewOrder(queue{}, opts...).Invoke(ctx, id, in)
	}
	out, errOut, code := run(t, `{"order": {"id": "o-1"}}`, echo, session, "--checkpoint-db", db, "--session", "o-1", "--input", "-")
	require.Equal(t, 0, code, errOut)
	var wait struct{ Status, TaskToken string }
	require.NoError(t, json.Unmarshal([]byte(out), &struct {
		Status    *string `json:"status"`
		TaskToken *string `json:"task_token"`
	}{&wait.Status, &wait.TaskToken}))
	assert.Equal(t, "WAITING", wait.Status)

	out, errOut, code = run(t, "", echo, session, "--checkpoint-db", db, "--session", "o-1",
		"--task-success", wait.TaskToken, "--task-output", `{"approver": "ana"}`)
	assert.Equal(t, 0, code, errOut)
	assert.JSONEq(t, `{"status": "SUCCEEDED", "output": {"order": {"id": "o-1"}, "reservation": "r-1", "approval": {"approvedBy": "ana"}, "shipped": true}}`, out)

	_, errOut, code = run(t, "", echo, session, "--checkpoint-db", db, "--session", "o-1", "--task-heartbeat", wait.TaskToken)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "task token was used already")
}
