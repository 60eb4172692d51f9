package aslcallback

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/console"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	"github.com/flowc-dev/flowc/session"
	"github.com/flowc-dev/flowc/session/cli"
)

// sessions runs `flowc sessions ARGS` on store, as the store's program
// does, and returns what it prints.
func sessions(t *testing.T, store cli.Store, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	require.Equal(t, 0, cli.Main(context.Background(), store, args, &out, &errOut), errOut.String())
	return out.String()
}

// secretOf is what of a task token must never be shown: the token, and the
// random part it carries (runtime/impl/token.go: "flowc1." and base64 JSON).
func secretOf(t *testing.T, token string) []string {
	t.Helper()
	_, payload, ok := strings.Cut(token, ".")
	require.True(t, ok, token)
	var claims struct{ N string }
	data, err := base64.RawURLEncoding.DecodeString(payload)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &claims))
	require.NotEmpty(t, claims.N)
	return []string{token, claims.N}
}

// A task-token session's history, as Step Functions' execution history
// has it (TaskScheduled ... TaskSucceeded), in flowc's kinds: the token is
// issued at AskApproval, known by its hash only; a heartbeat and the
// success arrive through the doors they came by. Neither the history,
// nor `flowc sessions show/history/list --json`, nor the console's page
// ever shows the token (issue 36: "task token issued, identified by its
// hash, never the token").
func TestTaskTokenHistory(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	w := NewOrder(&shop{}, flowcrt.WithCheckpointer(store))
	token := waitFor(t, w, "o1")
	hash := session.TokenHash(token)

	shown := sessions(t, store, "show", "o1", "--json")
	var show struct {
		Status string
		Stops  []session.StopInfo
	}
	require.NoError(t, json.Unmarshal([]byte(shown), &show))
	assert.Equal(t, "waiting", show.Status)
	assert.Equal(t, []session.StopInfo{{Key: "AskApproval", State: "AskApproval", Kind: "task_token", TokenHash: hash}}, show.Stops)
	page := consolePage(t, store, "/sessions/o1")
	assert.Contains(t, page, hash)

	require.NoError(t, w.SendTaskHeartbeat(flowcrt.WithDoor(ctx, session.DoorCLI), token))
	_, err := w.SendTaskSuccess(flowcrt.WithDoor(ctx, session.DoorConsole), token, json.RawMessage(`{"approver": "ana"}`))
	require.NoError(t, err)

	events, _, err := store.History(ctx, "o1", 0, 0)
	require.NoError(t, err)
	var got []string
	for _, e := range events {
		got = append(got, string(e.Kind)+" "+e.State)
	}
	assert.Equal(t, []string{
		"run_started ", "state_entered Reserve", "state_succeeded Reserve", "state_entered AskApproval",
		"task_token_issued AskApproval", "answer_received AskApproval", "answer_received AskApproval",
		"state_entered AskApproval", "state_succeeded AskApproval", "state_entered Ship", "state_succeeded Ship", "run_succeeded ",
	}, got)
	assert.JSONEq(t, `{"key": "AskApproval", "token_hash": "`+hash+`"}`, string(events[4].Fields))
	assert.JSONEq(t, `{"key": "AskApproval", "token_hash": "`+hash+`", "outcome": "heartbeat", "door": "cli"}`, string(events[5].Fields))
	assert.JSONEq(t, `{"key": "AskApproval", "token_hash": "`+hash+`", "outcome": "success", "output": {"approver": "ana"}, "door": "console"}`, string(events[6].Fields))

	outputs := map[string]string{
		"show --json":    shown + sessions(t, store, "show", "o1", "--json"),
		"history --json": sessions(t, store, "history", "o1", "--json"),
		"history":        sessions(t, store, "history", "o1"),
		"list --json":    sessions(t, store, "list", "--json"),
		"console page":   page + consolePage(t, store, "/sessions/o1"),
	}
	assert.Contains(t, outputs["history --json"], hash)
	for _, secret := range secretOf(t, token) {
		for _, e := range events {
			assert.NotContains(t, string(e.Fields), secret, "event %d", e.Seq)
		}
		for what, out := range outputs {
			assert.NotContains(t, out, secret, what)
		}
	}
}

// consolePage is the console's page at path over store, read-only.
func consolePage(t *testing.T, store session.Checkpointer, path string) string {
	t.Helper()
	srv := httptest.NewServer(console.New(console.FromStore(store)))
	defer srv.Close()
	resp, err := http.Get(srv.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return string(body)
}
