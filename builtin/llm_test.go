package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcchain "github.com/flowc-dev/flowc/runtime/impl/chain"
	flowcjson "github.com/flowc-dev/flowc/runtime/impl/jsonmode"
)

// fake is an OpenAI-compatible endpoint that answers with reply and keeps
// the requests it got.
type fake struct {
	requests []map[string]any
	auth     []string
	status   int
	reply    string // the body
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	f.requests = append(f.requests, req)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	if f.status != 0 {
		w.WriteHeader(f.status)
	}
	_, _ = io.WriteString(w, f.reply)
}

func answer(content string) string {
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	return string(b)
}

func client(t *testing.T, f *fake) *LLM {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("OPENAI_MODEL", "")
	t.Setenv("OPENAI_TIMEOUT", "")
	c, err := FromEnv()
	require.NoError(t, err)
	return c
}

func TestErrorsAreNamed(t *testing.T) {
	for _, tc := range []struct {
		status int
		reply  string
		name   string
	}{
		{429, `{"error": "slow down"}`, errRateLimited},
		{500, `oops`, errServer},
		{503, ``, errServer},
		{401, `{"error": "bad key"}`, errRequest},
		{200, `not json`, errBadReply},
		{200, `{"choices": []}`, errBadReply},
	} {
		c := client(t, &fake{status: tc.status, reply: tc.reply})
		_, err := c.chat(context.Background(), chatRequest{Model: "m"})
		var named *flowcrt.Error
		require.ErrorAs(t, err, &named, "HTTP %d %q", tc.status, tc.reply)
		assert.Equal(t, tc.name, named.Name, "HTTP %d %q", tc.status, tc.reply)
	}
}

func TestTimeoutAndUnreachable(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer slow.Close()
	defer close(release)
	t.Setenv("OPENAI_BASE_URL", slow.URL)
	t.Setenv("OPENAI_TIMEOUT", "50ms")
	c, err := FromEnv()
	require.NoError(t, err)
	_, err = c.chat(context.Background(), chatRequest{Model: "m"})
	assert.Equal(t, errTimeout, err.(*flowcrt.Error).Name)

	// The run's own deadline is not the endpoint's fault: it stays as it is.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	c.Client.Timeout = 0
	_, err = c.chat(ctx, chatRequest{Model: "m"})
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)

	c.BaseURL = "http://127.0.0.1:1"
	_, err = c.chat(context.Background(), chatRequest{Model: "m"})
	assert.Equal(t, errUnreachable, err.(*flowcrt.Error).Name)

	t.Setenv("OPENAI_TIMEOUT", "soon")
	_, err = FromEnv()
	assert.ErrorContains(t, err, "OPENAI_TIMEOUT")
}

func TestNoModel(t *testing.T) {
	f := &fake{reply: answer("hi")}
	c := client(t, f)
	_, err := c.chat(context.Background(), chatRequest{})
	assert.Equal(t, errNoModel, err.(*flowcrt.Error).Name)
	assert.Empty(t, f.requests)
	c.Model = "from-env"
	_, err = c.chat(context.Background(), chatRequest{})
	require.NoError(t, err)
	assert.Equal(t, "from-env", f.requests[0]["model"])
}

func TestAssistant(t *testing.T) {
	f := &fake{reply: answer(`{"ok": true}`)}
	c := client(t, f)
	temp := 0.3
	out, err := c.Assistant(context.Background(), flowcrt.JSONCall{
		State: "s", Task: "Do it", SystemPrompt: "Be brief.",
		History:   flowcrt.Messages{{Role: "user", Content: "earlier"}, {Role: "assistant", Content: "done"}},
		Assistant: &flowcjson.JSONAssistant{ID: "a", Model: "gpt-x", Temperature: &temp, Tools: []flowcjson.JSONAssistantTool{{Name: "search"}}},
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, `{"ok": true}`, out)
	assert.Equal(t, "Bearer sk-test", f.auth[0])
	req, _ := json.Marshal(f.requests[0])
	assert.JSONEq(t, `{"model": "gpt-x", "temperature": 0.3,
		"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "earlier"},
			{"role": "assistant", "content": "done"}, {"role": "user", "content": "Do it"}],
		"tools": [{"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}}]}`, string(req))

	// A state without a task sends its input.
	_, err = c.Assistant(context.Background(), flowcrt.JSONCall{Input: map[string]any{"k": 1}, Assistant: &flowcjson.JSONAssistant{Model: "m"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"role": "user", "content": `{"k":1}`}, f.requests[1]["messages"].([]any)[0])
}

func TestChatCompletionKeepsToolCalls(t *testing.T) {
	f := &fake{reply: `{"choices": [{"message": {"role": "assistant", "content": "", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "nws", "arguments": "{}"}}]}}]}`}
	c := client(t, f)
	input := []any{
		map[string]any{"role": "user", "content": "weather?"},
		map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "nws", "arguments": "{}"}}}},
		map[string]any{"role": "tool", "content": "sunny", "tool_call_id": "c1"},
	}
	hist, _ := flowcrt.ChatHistory(input)
	r, err := c.ChatCompletion(context.Background(), flowcrt.LLMCall{
		ChainCall: flowcrt.ChainCall{Input: input}, System: "sys", Messages: hist,
		Config: flowcchain.ExecuteConfig{Model: "qwen", Tools: []string{"nws", "*", "!x", "hidden"}, HideTools: []string{"hidden"}, MaxTokens: 99},
	})
	require.NoError(t, err)
	sent, _ := json.Marshal(f.requests[0])
	assert.JSONEq(t, `{"model": "qwen", "max_tokens": 99,
		"messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "weather?"},
			{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "nws", "arguments": "{}"}}]},
			{"role": "tool", "content": "sunny", "tool_call_id": "c1"}],
		"tools": [{"type": "function", "function": {"name": "nws", "parameters": {"type": "object"}}}]}`, string(sent))
	out, _ := json.Marshal(r.Output)
	assert.JSONEq(t, `[{"role": "user", "content": "weather?"},
		{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "nws", "arguments": "{}"}}]},
		{"role": "tool", "content": "sunny", "tool_call_id": "c1"},
		{"role": "assistant", "content": "", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "nws", "arguments": "{}"}}]}]`, string(out))
}

func TestFallbackModels(t *testing.T) {
	f := &fake{status: 500}
	c := client(t, f)
	_, err := c.PromptToString(context.Background(), flowcrt.LLMCall{Config: flowcchain.ExecuteConfig{Model: "a", Models: []string{"b", "c"}}})
	assert.Equal(t, errServer, err.(*flowcrt.Error).Name)
	var models []any
	for _, r := range f.requests {
		models = append(models, r["model"])
	}
	assert.Equal(t, []any{"a", "b", "c"}, models)
}

func TestAnswersThatMustParse(t *testing.T) {
	f := &fake{reply: answer(" 42\n")}
	c := client(t, f)
	n, err := c.PromptToInt(context.Background(), flowcrt.LLMCall{Config: flowcchain.ExecuteConfig{Model: "m"}})
	require.NoError(t, err)
	assert.Equal(t, 42, n)
	f.reply = answer("True.")
	ok, err := c.ConditionKey(context.Background(), flowcchain.ConditionCall{LLMCall: flowcrt.LLMCall{Config: flowcchain.ExecuteConfig{Model: "m"}}, Conditions: []string{"is urgent"}})
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Contains(t, f.requests[1]["messages"].([]any)[0].(map[string]any)["content"], "is urgent")
	f.reply = answer("maybe")
	_, err = c.ConditionKey(context.Background(), flowcchain.ConditionCall{LLMCall: flowcrt.LLMCall{Config: flowcchain.ExecuteConfig{Model: "m"}}})
	assert.Equal(t, errBadReply, err.(*flowcrt.Error).Name)
	_, err = c.PromptToInt(context.Background(), flowcrt.LLMCall{Config: flowcchain.ExecuteConfig{Model: "m"}})
	assert.Equal(t, errBadReply, err.(*flowcrt.Error).Name)
}

func TestSummarize(t *testing.T) {
	f := &fake{reply: answer("They fixed A-1.")}
	c := client(t, f)
	out, err := c.Summarize(context.Background(), "gpt-s", flowcrt.Messages{{Role: "user", Content: "fix A-1"}, {Role: "assistant", Content: "fixed"}})
	require.NoError(t, err)
	assert.Equal(t, flowcrt.Messages{{Role: "system", Content: "Summary of the conversation so far: They fixed A-1."}}, out)
	assert.Equal(t, "gpt-s", f.requests[0]["model"])
	msgs := f.requests[0]["messages"].([]any)
	require.Len(t, msgs, 3)
	assert.Equal(t, "fix A-1", msgs[1].(map[string]any)["content"])
}

// kb is a datasource handler that records its searches.
type kb struct{ searched []string }

func (k *kb) SearchDatasource(ctx context.Context, id, query string) (string, error) {
	k.searched = append(k.searched, id+":"+query)
	return "runbook: restart the pod", nil
}

func TestAssistantSearchesDatasources(t *testing.T) {
	searchCall := func(args string) string {
		return `{"choices": [{"message": {"role": "assistant", "content": "", "tool_calls": [{"id": "s1", "type": "function", "function": {"name": "search_datasource", "arguments": ` + strconv.Quote(args) + `}}]}}]}`
	}
	replies := []string{searchCall(`{"datasource_id": "wiki", "query": "x"}`), searchCall(`{"datasource_id": "runbooks", "query": "pod crash"}`), answer("Restart the pod.")}
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		_ = json.NewDecoder(r.Body).Decode(&req)
		bodies = append(bodies, req)
		_, _ = io.WriteString(w, replies[len(bodies)-1])
	}))
	defer srv.Close()
	c := &LLM{BaseURL: srv.URL, Client: srv.Client()}
	k := &kb{}
	call := flowcrt.JSONCall{Task: "Why does the pod crash?", Assistant: &flowcjson.JSONAssistant{Model: "m", DatasourceIDs: []string{"runbooks"}}}
	out, err := c.Assistant(context.Background(), call, k)
	require.NoError(t, err)
	assert.Equal(t, "Restart the pod.", out)
	assert.Equal(t, []string{"runbooks:pod crash"}, k.searched, "a datasource the assistant does not name is not searched")
	require.Len(t, bodies, 3)
	tool := bodies[0]["tools"].([]any)[0].(map[string]any)["function"].(map[string]any)
	assert.Equal(t, "search_datasource", tool["name"])
	last := bodies[2]["messages"].([]any)
	assert.Equal(t, map[string]any{"role": "tool", "content": "runbook: restart the pod", "tool_call_id": "s1"}, last[len(last)-1])

	// Without a searcher, datasources declare nothing and a search is a
	// tool the state cannot run.
	bodies, replies = nil, []string{searchCall(`{}`)}
	_, err = c.Assistant(context.Background(), call, nil)
	assert.Equal(t, errBadReply, err.(*flowcrt.Error).Name)
	assert.Nil(t, bodies[0]["tools"])
}
