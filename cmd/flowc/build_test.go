package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc"
)

// fakeLLM is an OpenAI-compatible endpoint on loopback: answer picks the
// status and the reply's content for each request, and it keeps them all.
type fakeLLM struct {
	mu       sync.Mutex
	requests []chatRequest
	answer   func(req chatRequest, n int) (status int, content string)
}

type chatRequest struct {
	Auth        string
	Model       string    `json:"model"`
	Temperature *float64  `json:"temperature"`
	TopP        *float64  `json:"top_p"`
	MaxTokens   int       `json:"max_tokens"`
	Stop        []string  `json:"stop"`
	Messages    []chatMsg `json:"messages"`
	Tools       []struct {
		Function struct{ Name string } `json:"function"`
	} `json:"tools"`
}

type chatMsg struct{ Role, Content string }

// system and user are the request's system prompt and last user message.
func (r chatRequest) system() string {
	if len(r.Messages) > 0 && r.Messages[0].Role == "system" {
		return r.Messages[0].Content
	}
	return ""
}

func (r chatRequest) user() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

func (f *fakeLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, "not a chat completion", http.StatusNotFound)
		return
	}
	req.Auth = r.Header.Get("Authorization")
	f.mu.Lock()
	f.requests = append(f.requests, req)
	n := len(f.requests) - 1
	f.mu.Unlock()
	status, content := f.answer(req, n)
	w.WriteHeader(status)
	if status != http.StatusOK {
		fmt.Fprintf(w, `{"error": {"message": %q}}`, content)
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
}

// serve starts the endpoint and returns the environment that points a
// built program at it.
func (f *fakeLLM) serve(t *testing.T) []string {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return []string{"OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_API_KEY=sk-fake"}
}

// got is the requests so far. The lock orders the reads after the
// handler's writes for the race detector, which does not see that the
// program has exited.
func (f *fakeLLM) got() []chatRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.requests)
}

func (f *fakeLLM) reset(answer func(chatRequest, int) (int, string)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests, f.answer = nil, answer
}

// buildProgram runs `flowc build` on def into a temporary directory.
func buildProgram(t *testing.T, def string, args ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), programName(def))
	var stderr bytes.Buffer
	code := run(append([]string{"build", "-o", bin, def}, args...), nil, io.Discard, &stderr)
	require.Equal(t, exitOK, code, stderr.String())
	return bin
}

// runProgram runs a built program and returns its stdout, stderr and exit
// code.
func runProgram(t *testing.T, bin string, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return stdout.String(), stderr.String(), exit.ExitCode()
	}
	require.NoError(t, err)
	return stdout.String(), stderr.String(), 0
}

// supportAnswers answers the states of testdata/build/support.flow.yaml;
// classify fails with status for its first failures requests.
func supportAnswers(status, failures int) func(chatRequest, int) (int, string) {
	return func(req chatRequest, n int) (int, string) {
		if strings.HasPrefix(req.user(), "Classify") {
			if n < failures {
				return status, "busy"
			}
			return http.StatusOK, `{"category": "bug"}`
		}
		return http.StatusOK, "Sorry! " + req.user()
	}
}

// buildWithLLM builds def (args are more flags of build) and starts a fake
// endpoint; env points the program at it.
func buildWithLLM(t *testing.T, def string, args ...string) (bin string, llm *fakeLLM, env []string) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin = buildProgram(t, def, args...)
	llm = &fakeLLM{}
	return bin, llm, llm.serve(t)
}

func TestBuildCodeMie(t *testing.T) {
	bin, llm, env := buildWithLLM(t, "testdata/build/support.flow.yaml")
	input := `{"ticket": "login fails", "product": "Acme"}`

	llm.reset(supportAnswers(http.StatusOK, 0))
	stdout, stderr, code := runProgram(t, bin, env, input, "--input", "-", "--quiet")
	require.Equal(t, 0, code, stderr)
	assert.JSONEq(t, `{"status": "SUCCEEDED", "output": {"ticket": "login fails", "product": "Acme", "category": "bug", "answer": "Sorry! Reply to login fails about the bug"}}`, stdout)
	require.Len(t, llm.got(), 2)
	classify, reply := llm.got()[0], llm.got()[1]
	assert.Equal(t, "Bearer sk-fake", classify.Auth)
	assert.Equal(t, "gpt-4o-mini", classify.Model)
	assert.Equal(t, 0.1, *classify.Temperature)
	assert.Equal(t, "You classify support tickets for Acme.", classify.system())
	assert.Equal(t, "Classify this ticket: login fails", classify.user())
	assert.Equal(t, "gpt-4o", reply.Model)
	assert.Nil(t, reply.Temperature)
	assert.Equal(t, "You write short, friendly replies.", reply.system())
	assert.Equal(t, "Reply to login fails about the bug", reply.user())
	require.Len(t, reply.Tools, 1)
	assert.Equal(t, "kb_search", reply.Tools[0].Function.Name)

	// HTTP 500 is LLM.ServerError, which the state's retry rule retries.
	llm.reset(supportAnswers(http.StatusInternalServerError, 1))
	stdout, stderr, code = runProgram(t, bin, env, input, "--input", "-")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `"answer":"Sorry! Reply to login fails about the bug"`)
	assert.Len(t, llm.got(), 3)

	// Retries spent, the run fails with the error's name.
	llm.reset(supportAnswers(http.StatusBadGateway, 2))
	stdout, _, code = runProgram(t, bin, env, input, "--input", "-")
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, `"status":"FAILED"`)
	assert.Contains(t, stdout, `LLM.ServerError`)

	// HTTP 429 is LLM.RateLimited, which the catch rule sends to
	// apologize; that state asks first, so the session waits, in SQLite,
	// and goes on with the decision.
	llm.reset(supportAnswers(http.StatusTooManyRequests, 1))
	db := filepath.Join(t.TempDir(), "sessions.db")
	session := []string{"--checkpoint-db", db, "--session", "t-1"}
	stdout, stderr, code = runProgram(t, bin, env, "", append(session, "--input", writeTemp(t, input))...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `"status":"INTERRUPTED"`)
	assert.Len(t, llm.got(), 1)
	stdout, stderr, code = runProgram(t, bin, env, "", append(session, "--decision", "continue")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `"answer":"Sorry! Apologize for the delay on login fails"`)
	require.Len(t, llm.got(), 2)
	assert.Equal(t, "gpt-4o", llm.got()[1].Model)

	_, stderr, code = runProgram(t, bin, env, "", "--decision", "continue")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--decision")
}

func writeTemp(t *testing.T, content string) string {
	path := filepath.Join(t.TempDir(), "input.json")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func TestBuildChain(t *testing.T) {
	bin, llm, env := buildWithLLM(t, "testdata/build/helpdesk.chain.yaml")
	llm.reset(func(req chatRequest, _ int) (int, string) {
		if strings.Contains(req.system(), "labels") {
			return http.StatusOK, " Tech."
		}
		return http.StatusOK, "Restart the router."
	})
	traces := make(chan string, 8)
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		traces <- r.URL.Path + " " + string(body)
	}))
	defer collector.Close()
	env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+collector.URL)
	stdout, stderr, code := runProgram(t, bin, env, `"wifi drops"`, "--input", "-")
	require.Equal(t, 0, code, stderr)
	require.Len(t, traces, 1, "the program exports its spans once, at its end")
	export := <-traces
	assert.True(t, strings.HasPrefix(export, "/v1/traces "), "OTLP over HTTP by default")
	for _, span := range []string{"run Helpdesk", "state triage", "state tech", "attempt tech"} {
		assert.Contains(t, export, span)
	}
	assert.JSONEq(t, `{"status": "SUCCEEDED", "output": {"output": [
		{"role": "user", "content": "Help with: wifi drops"},
		{"role": "assistant", "content": "Restart the router."}], "vars": {}}}`, stdout)
	require.Len(t, llm.got(), 2)
	route, chat := llm.got()[0], llm.got()[1]
	assert.Equal(t, "router-small", route.Model)
	assert.Equal(t, 0.0, *route.Temperature)
	assert.True(t, strings.HasPrefix(route.system(), "You route questions for the support team."), route.system())
	assert.Contains(t, route.system(), "billing, tech")
	assert.Equal(t, "Route this question: wifi drops", route.user())
	assert.Equal(t, "qwen2.5:7b", chat.Model)
	assert.Equal(t, 0.2, *chat.Temperature)
	assert.Equal(t, 300, chat.MaxTokens)
	assert.Equal(t, "You solve technical problems step by step.", chat.system())
	assert.Equal(t, "Help with: wifi drops", chat.user())
}

// ASL agents that name a model ask it: the rate-limited preferred model
// falls back as FallbackOn says, Generation and Reasoning shape the
// request, and a model error reaches Catch as Agent.ModelError.
func TestBuildASLAgents(t *testing.T) {
	bin, llm, env := buildWithLLM(t, "testdata/build/research.asl.json")
	answers := func(summary int) func(chatRequest, int) (int, string) {
		return func(req chatRequest, _ int) (int, string) {
			switch req.Model {
			case "research-large":
				return http.StatusTooManyRequests, "slow down"
			case "research-small":
				return http.StatusOK, "```json\n{\"result\": [\"Go has goroutines\"], \"reasoning\": {\"steps\": [], \"conclusion\": \"done\"}}\n```"
			}
			return summary, "Go runs goroutines."
		}
	}
	input := `{"question": "What does Go have?"}`

	llm.reset(answers(http.StatusOK))
	stdout, stderr, code := runProgram(t, bin, env, input, "--input", "-", "--quiet")
	require.Equal(t, 0, code, stderr)
	assert.JSONEq(t, `{"status": "SUCCEEDED", "output": {"question": "What does Go have?",
		"findings": {"result": ["Go has goroutines"], "reasoning": {"steps": [], "conclusion": "done"}},
		"summary": "Go runs goroutines."}}`, stdout)
	got := llm.got()
	require.Len(t, got, 3)
	assert.Equal(t, []string{"research-large", "research-small", "summary-small"}, []string{got[0].Model, got[1].Model, got[2].Model})
	research := got[1]
	assert.Equal(t, 0.4, *research.Temperature)
	assert.Equal(t, 0.8, *research.TopP)
	assert.Equal(t, 500, research.MaxTokens)
	assert.Equal(t, []string{"<done>"}, research.Stop)
	assert.Contains(t, research.system(), `"Researcher"`)
	assert.Contains(t, research.system(), "Reason step by step")
	assert.Contains(t, research.system(), "in at most 4 steps")
	assert.Equal(t, `{"question":"What does Go have?"}`, research.user())
	assert.Equal(t, got[0].system(), research.system(), "the fallback asks the same")
	assert.Nil(t, got[2].Temperature)
	assert.Equal(t, `{"facts":["Go has goroutines"]}`, got[2].user())

	llm.reset(answers(http.StatusInternalServerError))
	stdout, stderr, code = runProgram(t, bin, env, input, "--input", "-", "--quiet")
	require.Equal(t, 0, code, stderr)
	assert.JSONEq(t, `{"status": "SUCCEEDED", "output": {"question": "What does Go have?", "failed": "Agent.ModelError"}}`, stdout)
}

func TestBuildMissingHandlers(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "review")
	var stderr bytes.Buffer
	code := run([]string{"build", "-o", bin, "../../examples/codemie-review/review.flow.yaml"}, nil, io.Discard, &stderr)
	assert.Equal(t, exitFailed, code)
	def := "../../examples/codemie-review/review.flow.yaml"
	for _, want := range []string{
		def + ":7:5: assistant \"triager\" needs handler method SearchDatasource,",
		def + ":12:5: assistant \"fixer\" needs handler method CallMCPTool,",
		def + ":26:9: state \"fetch\" needs handler method Tracker,",
	} {
		assert.Contains(t, stderr.String(), want)
	}
	assert.NotContains(t, stderr.String(), "Triager", "assistants are built in")
	assert.NotContains(t, stderr.String(), "Summarize", "summarization is built in")
	assert.NoFileExists(t, bin)

	// A task chain's handlers are called by tasks.
	stderr.Reset()
	chainDef := writeFile(t, t.TempDir(), "hooked.chain.yaml", `id: hooked
tasks:
  - id: first
    handler: hook
    hook: {name: my_hook}
    transition: {branches: [{operator: default, goto: end}]}
`)
	code = run([]string{"build", "-o", bin, chainDef}, nil, io.Discard, &stderr)
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stderr.String(), chainDef+`:3:9: task "first" needs handler method Hook, which no built-in runs`)

	stderr.Reset()
	code = run([]string{"build", "-o", bin, "--handlers", "./no/such/dir", def}, nil, io.Discard, &stderr)
	assert.Equal(t, exitFailed, code)
	assert.Equal(t, "flowc build: --handlers ./no/such/dir: no such directory\n", stderr.String())
	assert.NoFileExists(t, bin)
}

// handlersModule writes a Go module of the user's, beside no flowc source:
// it requires flowc (this checkout) like a user's module would, with its
// go.sum, and holds the packages given as directory -> source.
func handlersModule(t *testing.T, packages map[string]string) string {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	files := map[string][]byte{
		filepath.Join(dir, "go.mod"): []byte(flowc.BuildGoMod("example.com/mine", root)),
		filepath.Join(dir, "go.sum"): flowc.GoSum(),
	}
	for pkg, src := range packages {
		files[filepath.Join(dir, pkg, pkg+".go")] = []byte(src)
	}
	require.NoError(t, writeFiles(files))
	return dir
}

// reviewHandlers implements what examples/codemie-review needs beyond its
// assistants and summarization; it also answers Approve, which the program
// finds on it.
const reviewHandlers = `package review

import (
	"context"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

type Services struct{ searches int }

func Handlers() *Services { return &Services{} }

func (s *Services) Tracker(ctx context.Context, call flowcrt.JSONCall) (string, error) {
	return ` + "`" + `{"data": {"issues": [{"key": "A-1", "title": "crash on save"}, {"key": "A-2", "title": "typo"}]}}` + "`" + `, nil
}

func (s *Services) SearchDatasource(ctx context.Context, datasourceID, query string) (string, error) {
	return "", nil
}

func (s *Services) CallMCPTool(ctx context.Context, call flowcrt.JSONCall) (string, error) {
	return "", nil
}

func (s *Services) Approve(ctx context.Context, req flowcrt.ApprovalRequest) (string, error) {
	return "continue", nil
}
`

// lacking has a Handlers() whose value runs none of the missing handlers.
const lacking = `package lacking

type None struct{}

func Handlers() None { return None{} }
`

func TestBuildHandlersPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	mod := handlersModule(t, map[string]string{"review": reviewHandlers, "lacking": lacking})
	def := "../../examples/codemie-review/review.flow.yaml"

	var stderr bytes.Buffer
	code := run([]string{"build", "-o", filepath.Join(t.TempDir(), "x"), def, "--handlers", filepath.Join(mod, "lacking")}, nil, io.Discard, &stderr)
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stderr.String(), def+`:26:9: state "fetch" needs handler method Tracker`)
	assert.Contains(t, stderr.String(), "lacks them")

	bin, llm, env := buildWithLLM(t, def, "--handlers", filepath.Join(mod, "review"))
	llm.reset(func(req chatRequest, _ int) (int, string) {
		switch {
		case strings.HasPrefix(req.user(), "Triage A-1"):
			return http.StatusOK, `{"severity": "high"}`
		case strings.HasPrefix(req.user(), "Triage"):
			return http.StatusOK, `{"severity": "low"}`
		}
		return http.StatusOK, "done: " + req.user()
	})
	stdout, stderr2, code := runProgram(t, bin, env, "", "--input", "../../examples/codemie-review/team.json")
	require.Equal(t, 0, code, stderr2)
	assert.Contains(t, stdout, `"status":"SUCCEEDED"`)
	byTask := map[string]chatRequest{}
	for _, r := range llm.got() {
		byTask[r.user()] = r
	}
	require.Len(t, byTask, 5, "triage twice, fix, log, report")
	fix := byTask["Fix A-1"]
	assert.Equal(t, "gpt-4.1", fix.Model)
	assert.Equal(t, "You propose fixes.", fix.system())
	// triage is a map node of the iteration: CodeMie's agent node ends its
	// task with the item (agent_node.py, get_task).
	triage := byTask["Triage A-2: typo\nCurrent task: {'key': 'A-2', 'title': 'typo'}"]
	assert.Equal(t, "gpt-4.1-mini", triage.Model)
	assert.Equal(t, "You triage tickets of Storage.", triage.system())
	require.NotNil(t, triage.Temperature)
	assert.Equal(t, 0.2, *triage.Temperature)
	assert.Contains(t, byTask, "Log A-2 as low")
}

func TestBuildHTTPTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := buildProgram(t, "testdata/build/api.asl.json")
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" "+strings.TrimSpace(string(body)))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
		}
		_, _ = io.WriteString(w, `{"id": 7}`)
	}))
	defer srv.Close()
	stdout, stderr, code := runProgram(t, bin, nil, fmt.Sprintf(`{"base": %q, "q": "lamp"}`, srv.URL), "--input", "-")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `"lookup":{"status":200}`)
	assert.Contains(t, stdout, `"created":{"status":201}`)
	require.Len(t, seen, 2)
	assert.Equal(t, "GET /items?q=lamp ", seen[0])
	assert.Equal(t, `POST /items {"name":"lamp"}`, seen[1])
}

// A typed workflow in the user's module: its handlers take the generated
// state and update types, so the program links the user's generated package.
const (
	countDef = `workflow: Count
state:
  n: int
  log: {type: "[]string", reducer: append}
states:
  - id: step
    next:
      condition: {expression: "n < 3", then: step, otherwise: end}
`
	countHandlers = `package counter

import (
	"context"
	"fmt"

	"example.com/mine/count"
)

type Counter struct{}

func Handlers() Counter { return Counter{} }

func (Counter) Step(ctx context.Context, s count.CountState) (count.CountUpdate, error) {
	return count.CountUpdate{}.WithN(s.N + 1).WithLog([]string{fmt.Sprint("saw ", s.N)}), nil
}
`
)

func TestBuildTypedWithOwnPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	mod := handlersModule(t, map[string]string{"counter": countHandlers})
	def := filepath.Join(mod, "count", "count.flow.yaml")
	require.NoError(t, writeFiles(map[string][]byte{def: []byte(countDef)}))

	var stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"gen", filepath.Dir(def)}, nil, io.Discard, &stderr), stderr.String())

	// The generated file must be fresh: the program links it.
	require.NoError(t, writeFiles(map[string][]byte{def: []byte("description: counts to three\n" + countDef)}))
	code := run([]string{"build", "-o", filepath.Join(t.TempDir(), "count"), def, "--handlers", filepath.Join(mod, "counter")}, nil, io.Discard, &stderr)
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stderr.String(), "run flowc gen")
	require.Equal(t, exitOK, run([]string{"gen", filepath.Dir(def)}, nil, io.Discard, &stderr), stderr.String())

	bin := buildProgram(t, def, "--handlers", filepath.Join(mod, "counter"))
	stdout, errOut, code := runProgram(t, bin, nil, `{"n": 1}`, "--input", "-")
	require.Equal(t, 0, code, errOut)
	assert.JSONEq(t, `{"status": "SUCCEEDED", "output": {"n": 3, "log": ["saw 1", "saw 2"]}}`, stdout)
}
