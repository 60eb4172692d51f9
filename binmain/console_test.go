package binmain

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/internal/sessiontest"
	"github.com/flowc-dev/flowc/internal/sessiontest/sqlitetest"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// A built program with --console serves the sessions of its file and runs
// what the console answers in-process: the answer is in the file before
// the page says so, and the session goes on through the program's
// session function, with no decision of its own (it takes the recorded
// one). The session's page draws the graph the program carries.
func TestConsole(t *testing.T) {
	t.Setenv("OPENAI_TIMEOUT", "")
	db := sqlitetest.File(t, sessiontest.Waiting("s1", "w"))

	resumed := make(chan string, 1)
	sess := func(_ context.Context, id string, input []byte, decision string, _ *Env, _ ...flowcrt.Option) (any, error) {
		assert.Nil(t, input)
		assert.Empty(t, decision, "the decision is the one recorded in the file")
		resumed <- id
		return nil, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	consoleContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	t.Cleanup(func() { consoleContext = nil })
	out, w := io.Pipe()
	done := make(chan int)
	go func() {
		graph := console.Graph{SVG: `<svg><g class="node" id="node-s0" data-state="Approve"></g></svg>`, Nodes: map[string]string{"Approve": "s0"}}
		done <- Main([]string{"/bin/prog", "--checkpoint-db", db, "--console", "127.0.0.1:0"}, nil, w, io.Discard, echo, sess, WithGraph("w", graph))
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	go io.Copy(io.Discard, out) //nolint:errcheck // nothing else is printed
	base := strings.TrimSpace(strings.TrimPrefix(line, "flowc console at "))

	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(base + "sessions/s1")
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(string(page))
	require.NotNil(t, csrf, "the program's console answers")
	assert.Contains(t, string(page), `<g class="node waiting" id="node-s0"`, "the graph the program carries, its waiting state marked")
	resp, err = c.PostForm(base+"sessions/s1/decide", url.Values{"csrf": {csrf[1]}, "option": {"yes"}})
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Equal(t, "s1", <-resumed)

	cancel()
	assert.Equal(t, 0, <-done)
	store, err := sqlite.Open(db)
	require.NoError(t, err)
	defer store.Close()
	cp, err := store.Load(context.Background(), "s1")
	require.NoError(t, err)
	require.NotNil(t, cp.Pending.Answer, "the answer is in the file")
	assert.Equal(t, "yes", cp.Pending.Answer.Decision)
}
