package console_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/console/internal/fake"
)

const hostile = `<script>alert(1)</script>"><img src=x onerror=alert(1)>javascript:alert(1)`

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// store holds a session waiting at two items of a Map, a failed one, a
// waiting task token and a hostile one, whose every value is a payload.
func store() *fake.Store {
	s := fake.New()
	s.Put(console.Session{ID: "map-1", Workflow: "release", Status: "interrupted", State: "Review", Updated: t0.Add(3 * time.Minute),
		Data: json.RawMessage(`{"items":[1,2]}`), Stops: []console.Stop{
			{Key: "Review/0/Approve", State: "Approve", Kind: "approval", Prompt: "Ship item 0?", Options: []string{"yes", "no"}},
			{Key: "Review/1/Approve", State: "Approve", Kind: "approval", Prompt: "Ship item 1?", Options: []string{"yes", "no"}},
		}},
		console.Event{Time: t0, Kind: "run_started", Fields: json.RawMessage(`{"input":{"items":[1,2]}}`)},
		console.Event{Time: t0, Kind: "state_succeeded", State: "Prepare", Fields: json.RawMessage(`{"output":{}}`)},
	)
	s.Put(console.Session{ID: "failed-1", Workflow: "release", Status: "failed", State: "Release", Updated: t0.Add(2 * time.Minute)},
		console.Event{Time: t0, Kind: "state_failed", State: "Release", Fields: json.RawMessage(`{"error":"Boom","cause":"no"}`)})
	s.Put(console.Session{ID: "token-1", Workflow: "order", Status: "waiting", State: "Pay", Updated: t0.Add(time.Minute),
		Stops: []console.Stop{{Key: "Pay", State: "Pay", Kind: "task_token", TokenHash: "abcd1234"}}})
	s.Put(console.Session{ID: hostile, Workflow: hostile, Status: "interrupted", State: hostile, Updated: t0,
		Data:  json.RawMessage(`{"x":"` + strings.ReplaceAll(hostile, `"`, `\"`) + `"}`),
		Stops: []console.Stop{{Key: hostile, State: hostile, Kind: "approval", Prompt: hostile, Options: []string{hostile, "javascript:alert(1)"}}}},
		console.Event{Time: t0, Kind: "state_failed", State: hostile, Fields: json.RawMessage(`{"error":"` + strings.ReplaceAll(hostile, `"`, `\"`) + `"}`)})
	return s
}

// graph is a drawing as codegen/graph makes them, with the states of
// the release workflow.
var drawing = console.Graph{
	SVG:   `<svg><g class="node" id="node-s0" data-state="Prepare"></g><g class="node" id="node-s1" data-state="Review"></g><g class="node" id="node-s2" data-state="Approve"></g><g class="node" id="node-s3" data-state="Release"></g></svg>`,
	Nodes: map[string]string{"Prepare": "s0", "Review": "s1", "Approve": "s2", "Release": "s3"},
}

type client struct {
	t   *testing.T
	srv *httptest.Server
	c   *http.Client
}

func serve(t *testing.T, h http.Handler) *client {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	jar := &memJar{}
	c.Jar = jar
	return &client{t: t, srv: srv, c: c}
}

// memJar keeps cookies by name for the one server of a test.
type memJar struct{ cookies map[string]*http.Cookie }

func (j *memJar) SetCookies(_ *url.URL, cs []*http.Cookie) {
	if j.cookies == nil {
		j.cookies = map[string]*http.Cookie{}
	}
	for _, c := range cs {
		if c.MaxAge < 0 {
			delete(j.cookies, c.Name)
		} else {
			j.cookies[c.Name] = c
		}
	}
}

func (j *memJar) Cookies(*url.URL) []*http.Cookie {
	var out []*http.Cookie
	for _, c := range j.cookies {
		out = append(out, c)
	}
	return out
}

func (c *client) do(req *http.Request) (int, string, http.Header) {
	resp, err := c.c.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	return resp.StatusCode, string(body), resp.Header
}

func (c *client) get(path string) (int, string, http.Header) {
	req, err := http.NewRequest(http.MethodGet, c.srv.URL+path, nil)
	require.NoError(c.t, err)
	return c.do(req)
}

func (c *client) post(path string, form url.Values) (int, string, http.Header) {
	req, err := http.NewRequest(http.MethodPost, c.srv.URL+path, strings.NewReader(form.Encode()))
	require.NoError(c.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

var csrfRe = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (c *client) csrf(path string) string {
	_, body, _ := c.get(path)
	m := csrfRe.FindStringSubmatch(body)
	require.NotNil(c.t, m, "the page has a form")
	return m[1]
}

// The list shows the status counts of the whole store first, then the
// sessions newest first; a status chip filters it.
func TestList(t *testing.T) {
	c := serve(t, console.New(store()))
	code, body, h := c.get("/")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, h.Get("Content-Security-Policy"), "default-src 'none'")
	assert.Less(t, strings.Index(body, `class="counts"`), strings.Index(body, `<table`), "counts come first")
	assert.Regexp(t, `<span class="n">2</span> interrupted`, body)
	assert.Regexp(t, `<span class="n">4</span> all`, body)
	assert.Less(t, strings.Index(body, "map-1"), strings.Index(body, "failed-1"), "newest first")

	_, body, _ = c.get("/?status=failed")
	assert.Contains(t, body, "failed-1")
	assert.NotContains(t, body, "map-1")
	assert.Regexp(t, `<span class="n">2</span> interrupted`, body, "counts ignore the filter")
}

// A store of more sessions than a page holds is paged by cursor.
func TestListPages(t *testing.T) {
	s := fake.New()
	for i := range 120 {
		s.Put(console.Session{ID: fmt.Sprintf("s%03d", i), Workflow: "w", Status: "succeeded", Updated: t0.Add(time.Duration(i) * time.Second)})
	}
	c := serve(t, console.New(s))
	_, body, _ := c.get("/")
	assert.Contains(t, body, "s119")
	assert.NotContains(t, body, "s069")
	next := regexp.MustCompile(`rel="next" href="([^"]+)"`).FindStringSubmatch(body)
	require.NotNil(t, next)
	_, body, _ = c.get(strings.ReplaceAll(next[1], "&amp;", "&"))
	assert.Contains(t, body, "s069")
	assert.NotContains(t, body, "s119")
}

// A session's page shows the graph with the path taken and the waiting
// states marked, a button per option of each stop, and its history.
func TestSessionPage(t *testing.T) {
	c := serve(t, console.New(store(), console.WithActor(store()), console.WithGraphs(map[string]console.Graph{"release": drawing})))
	code, body, _ := c.get("/sessions/map-1")
	require.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `<g class="node done" id="node-s0"`, "Prepare succeeded")
	assert.Contains(t, body, `<g class="node waiting" id="node-s2"`, "both items wait at Approve")
	assert.Contains(t, body, `<g class="node here" id="node-s1"`, "the run is at the Map")
	assert.Equal(t, 2, strings.Count(body, `<button type="submit" name="option" value="yes">yes</button>`))
	assert.Contains(t, body, "Ship item 1?")
	assert.Contains(t, body, "run_started")

	code, _, _ = c.get("/sessions/nope")
	assert.Equal(t, http.StatusNotFound, code)
}

// An answer is saved before the page says so (Post/Redirect/Get with a
// flash); of two answers to one stop the second is told it lost, 409.
func TestAnswer(t *testing.T) {
	s := store()
	c := serve(t, console.New(s, console.WithActor(s)))
	csrf := c.csrf("/sessions/map-1")
	form := url.Values{"csrf": {csrf}, "key": {"Review/1/Approve"}, "option": {"yes"}}
	code, _, h := c.post("/sessions/map-1/decide", form)
	require.Equal(t, http.StatusSeeOther, code)
	assert.Equal(t, "/sessions/map-1", h.Get("Location"))
	assert.Equal(t, []string{"map-1 decision Review/1/Approve yes"}, s.Answers, "saved before the redirect")
	_, body, _ := c.get("/sessions/map-1")
	assert.Contains(t, body, `Answered Review/1/Approve with &#34;yes&#34;; the run goes on.`)
	assert.NotContains(t, body, "Ship item 1?")
	_, body, _ = c.get("/sessions/map-1")
	assert.NotContains(t, body, "Answered", "a flash shows once")

	code, body, _ = c.post("/sessions/map-1/decide", form)
	assert.Equal(t, http.StatusConflict, code)
	assert.Contains(t, body, "someone else answered first")
	assert.Len(t, s.Answers, 1)
}

// Task tokens, stop and redrive go through the actor; bad JSON output is
// refused before it.
func TestTokenStopRedrive(t *testing.T) {
	s := store()
	c := serve(t, console.New(s, console.WithActor(s)))
	csrf := c.csrf("/sessions/token-1")
	code, body, _ := c.post("/sessions/token-1/task-success", url.Values{"csrf": {csrf}, "key": {"Pay"}, "output": {"{nope"}})
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, "not JSON")
	code, _, _ = c.post("/sessions/token-1/task-success", url.Values{"csrf": {csrf}, "key": {"Pay"}, "output": {`{"paid":true}`}})
	assert.Equal(t, http.StatusSeeOther, code)
	code, _, _ = c.post("/sessions/failed-1/redrive", url.Values{"csrf": {csrf}})
	assert.Equal(t, http.StatusSeeOther, code)
	code, _, _ = c.post("/sessions/map-1/stop", url.Values{"csrf": {csrf}, "error": {"Cancelled"}, "cause": {"by hand"}})
	assert.Equal(t, http.StatusSeeOther, code)
	assert.Equal(t, []string{`token-1 output Pay {"paid":true}`, "failed-1 redrive", "map-1 stop Cancelled by hand"}, s.Answers)
}

// A change without the form's CSRF token, or from another site, is
// refused and changes nothing.
func TestCSRF(t *testing.T) {
	s := store()
	c := serve(t, console.New(s, console.WithActor(s)))
	form := url.Values{"key": {"Review/0/Approve"}, "option": {"yes"}}
	code, _, _ := c.post("/sessions/map-1/decide", form)
	assert.Equal(t, http.StatusForbidden, code)
	form.Set("csrf", c.csrf("/sessions/map-1"))
	for header, value := range map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"} {
		req, err := http.NewRequest(http.MethodPost, c.srv.URL+"/sessions/map-1/decide", strings.NewReader(form.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set(header, value)
		code, _, _ := c.do(req)
		assert.Equal(t, http.StatusForbidden, code, header)
	}
	assert.Empty(t, s.Answers)
}

// Read-only, the console renders no form and refuses every POST.
func TestReadOnly(t *testing.T) {
	s := store()
	c := serve(t, console.New(s))
	for _, id := range []string{"map-1", "token-1", "failed-1"} {
		_, body, _ := c.get("/sessions/" + id)
		assert.NotContains(t, body, "<form", id)
		assert.NotContains(t, body, "<button", id)
	}
	code, _, h := c.post("/sessions/map-1/decide", url.Values{"key": {"Review/0/Approve"}, "option": {"yes"}})
	assert.Equal(t, http.StatusMethodNotAllowed, code)
	assert.Equal(t, "GET, HEAD", h.Get("Allow"))
	assert.Empty(t, s.Answers)
}

// Every value of a hostile session is text: no tag, attribute or
// javascript: link comes out of it.
func TestHostileEscaped(t *testing.T) {
	s := store()
	c := serve(t, console.New(s, console.WithActor(s)))
	for _, path := range []string{"/", "/sessions/" + url.PathEscape(hostile)} {
		code, body, _ := c.get(path)
		require.Equal(t, http.StatusOK, code, path)
		assert.NotContains(t, body, "<script", path)
		assert.NotContains(t, body, "<img", path)
		assert.NotRegexp(t, `href="javascript:`, body, path)
		assert.Contains(t, body, "&lt;script&gt;alert(1)&lt;/script&gt;", path)
	}
}

// With a token, every page answers 401 without it; a Bearer header or the
// cookie a ?token= visit sets lets the request in, and the visit is sent
// on to an address without the token.
func TestToken(t *testing.T) {
	c := serve(t, console.New(store(), console.WithToken("s3cret")))
	for _, path := range []string{"/", "/sessions/map-1", "/console.css", "/nope", "/?token=wrong"} {
		code, _, _ := c.get(path)
		assert.Equal(t, http.StatusUnauthorized, code, path)
	}
	code, _, _ := c.post("/sessions/map-1/decide", url.Values{})
	assert.Equal(t, http.StatusUnauthorized, code)

	req, err := http.NewRequest(http.MethodGet, c.srv.URL+"/sessions/map-1", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer s3cret")
	code, _, _ = c.do(req)
	assert.Equal(t, http.StatusOK, code)

	code, _, h := c.get("/sessions/map-1?token=s3cret&after=1")
	require.Equal(t, http.StatusSeeOther, code)
	assert.Equal(t, "/sessions/map-1?after=1", h.Get("Location"))
	code, _, _ = c.get("/sessions/map-1")
	assert.Equal(t, http.StatusOK, code, "the cookie lets it in")
}

// Any address but loopback needs a token.
func TestCheckAddr(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:8080", "localhost:80"} {
		assert.NoError(t, console.CheckAddr(addr, ""), addr)
	}
	for _, addr := range []string{"0.0.0.0:8080", ":8080", "192.168.1.2:80", "example.com:80"} {
		assert.Error(t, console.CheckAddr(addr, ""), addr)
		assert.NoError(t, console.CheckAddr(addr, "t"), addr)
	}
}

// refusingActor cannot redrive, and says so ahead of time.
type refusingActor struct{ *fake.Store }

func (refusingActor) RedriveRefusal() error {
	return fmt.Errorf("no checkpoint to go on from: reset the workflow %s", hostile)
}

// An actor that cannot redrive (the console over Temporal) gets a failed
// session's page with its reason, escaped, and no Redrive button.
func TestRedriveRefusedAhead(t *testing.T) {
	s := store()
	c := serve(t, console.New(s, console.WithActor(refusingActor{s})))
	code, body, _ := c.get("/sessions/failed-1")
	assert.Equal(t, http.StatusOK, code)
	assert.NotContains(t, body, "/redrive")
	assert.Contains(t, body, "no checkpoint to go on from: reset the workflow &lt;script&gt;")
	assert.NotContains(t, body, "<script>")
	_, body, _ = c.get("/sessions/map-1")
	assert.NotContains(t, body, "no checkpoint to go on from", "only a failed session says why it is not redriven")
}
