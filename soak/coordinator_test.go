package soak

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// TestSoak runs sessions of every kind in the mix on worker processes that
// share one SQLite checkpoint store, kills workers with SIGKILL at random
// moments and starts new ones, and then checks that every session ended
// with the result line an uninterrupted run gives, that the store is
// sound, and that the only handler calls made twice were in flight at a
// kill. -soak.long runs the long form.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	cfg := shortForm
	if *long {
		cfg = longForm
	}
	reqs := plan(cfg.sessions)
	want := uninterrupted(t, reqs)

	c := newCoordinator(t, cfg)
	start := time.Now()
	got := c.run(reqs)
	elapsed := time.Since(start)
	t.Logf("%d sessions in %v (%.0f sessions/s) over %d worker processes, %d killed with %d sessions in flight; %d bad requests answered",
		len(reqs), elapsed.Round(time.Millisecond), float64(len(reqs))/elapsed.Seconds(), c.started, len(c.killed), c.inFlightAtKills, c.probes)

	assert.GreaterOrEqual(t, len(c.killed), 5, "workers killed")
	for _, r := range reqs {
		assert.JSONEq(t, string(want[r.Session]), string(got[r.Session]), "session %s (%s)", r.Session, r.Kind)
	}
	assertIntegrity(t, c.db)
	assertNoProbeSessions(t, c.db)
	saved := checkpointsSaved(t, c.db)
	t.Logf("%d checkpoints saved (%.0f/s)", saved, float64(saved)/elapsed.Seconds())
	repeated := c.repeatedCalls(t)
	t.Logf("%d handler calls made twice", repeated)
	assert.LessOrEqual(t, repeated, maxCallsBetweenCheckpoints*c.inFlightAtKills, "calls repeated: at most the calls since the last checkpoint of each session in flight at a kill")
}

// maxCallsBetweenCheckpoints is the most handler calls a session of the
// mix makes between two checkpoints: the States Language Map is one state,
// three lines of two attempts each.
const maxCallsBetweenCheckpoints = 6

type soakConfig struct {
	sessions, workers, perWorker, kills int
	killEvery, limit                    time.Duration // killEvery: the mean time between kills
}

// plan is the mix: the kinds in turn, each session with its own input.
func plan(n int) []request {
	kinds := []string{"typed", "subflow", "asl", "jsonmode", "chain"}
	reqs := make([]request, n)
	for i := range reqs {
		id := fmt.Sprintf("s%04d", i)
		var in any
		switch kind := kinds[i%len(kinds)]; kind {
		case "typed":
			in = map[string]any{"id": id, "items": []string{id + "a", id + "bb", id + "ccc", id + "d"}}
		case "subflow":
			in = map[string]any{"id": id}
		case "asl":
			in = map[string]any{"id": id, "n": i / len(kinds), "lines": []string{id + "-x", id + "-yy", id + "-zzz"}}
		case "jsonmode":
			in = map[string]any{"id": id}
		case "chain":
			in = map[string]any{"id": id, "topic": "soak"}
		}
		data, _ := json.Marshal(in)
		reqs[i] = request{Kind: kinds[i%len(kinds)], Session: id, Input: data}
	}
	return reqs
}

// uninterrupted is each session's output when nothing kills its run, from
// the same workflows in this process with checkpoints kept in memory.
func uninterrupted(t *testing.T, reqs []request) map[string]json.RawMessage {
	cp := flowcrt.NewMemoryCheckpointer()
	fl := flows(nil, cp)
	out := make(map[string]json.RawMessage, len(reqs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for _, r := range reqs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			res := serve(context.Background(), fl, cp, r)
			for res.Status == "INTERRUPTED" || res.Status == "WAITING" {
				r.Decision, r.Token, r.At = "continue", res.Token, ""
				if len(res.Stops) > 0 {
					r.At = res.Stops[0]
				}
				res = serve(context.Background(), fl, cp, r)
			}
			mu.Lock()
			defer mu.Unlock()
			if res.Status != "SUCCEEDED" {
				t.Errorf("session %s without kills: %s %s", r.Session, res.Status, res.Error)
			}
			out[r.Session] = res.Output
		})
	}
	wg.Wait()
	return out
}

// coordinator hands requests to worker processes, kills them, and hands
// what a killed worker had in flight to the others.
type coordinator struct {
	t      *testing.T
	cfg    soakConfig
	dir    string
	db     string
	events chan event

	live            []*proc
	started         int
	seq             int
	probes          int
	doubled         map[string]bool   // sessions given two decisions (or two task-token successes) at once
	tokens          map[string]string // the task token each session waits for
	killed          []*proc
	inFlightAtKills int
}

type proc struct {
	n        int
	cmd      *exec.Cmd
	stdin    *json.Encoder
	log      string
	inFlight map[int]request
}

// event is a result line of a worker, or its end (res nil).
type event struct {
	p   *proc
	res *result
}

func newCoordinator(t *testing.T, cfg soakConfig) *coordinator {
	dir := t.TempDir()
	return &coordinator{t: t, cfg: cfg, dir: dir, db: filepath.Join(dir, "soak.db"), events: make(chan event, 256), doubled: map[string]bool{}, tokens: map[string]string{}}
}

func (c *coordinator) start() {
	c.started++
	p := &proc{n: c.started, log: filepath.Join(c.dir, fmt.Sprintf("worker-%d.log", c.started)), inFlight: map[int]request{}}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), workerDB+"="+c.db, workerLog+"="+p.log)
	p.cmd.Stderr = os.Stderr
	stdin, err := p.cmd.StdinPipe()
	require.NoError(c.t, err)
	stdout, err := p.cmd.StdoutPipe()
	require.NoError(c.t, err)
	require.NoError(c.t, p.cmd.Start())
	p.stdin = json.NewEncoder(stdin)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			var r result
			if json.Unmarshal(lines.Bytes(), &r) == nil {
				c.events <- event{p: p, res: &r}
			}
		}
		p.cmd.Wait()
		c.events <- event{p: p}
	}()
	c.live = append(c.live, p)
}

// run serves every request to the end and returns each session's output.
func (c *coordinator) run(reqs []request) map[string]json.RawMessage {
	pending := append([]request(nil), reqs...)
	for i := 0; i < len(reqs); i += 10 {
		pending = append(pending, request{Kind: reqs[i].Kind, Session: "unknown-" + reqs[i].Session, Probe: "resume"},
			request{Kind: "typed", Session: "undecodable-" + reqs[i].Session, Probe: "invoke", Input: json.RawMessage(`{"items": 5}`)})
	}
	done := make(map[string]json.RawMessage, len(reqs))
	for range c.cfg.workers {
		c.start()
	}
	kill := time.NewTimer(c.randomMoment())
	defer kill.Stop()
	limit := time.After(c.cfg.limit)
	defer c.stop()
	for len(done) < len(reqs) {
		pending = c.dispatch(pending)
		select {
		case ev := <-c.events:
			pending = c.handle(ev, pending, done)
		case <-kill.C:
			if len(c.killed) < c.cfg.kills {
				c.killOne()
			}
			kill.Reset(c.randomMoment())
		case <-limit:
			c.t.Fatalf("%d of %d sessions done after %v", len(done), len(reqs), c.cfg.limit)
		}
	}
	return done
}

// dispatch sends pending requests to live workers with room for them.
func (c *coordinator) dispatch(pending []request) []request {
	for _, p := range c.live {
		for len(pending) > 0 && len(p.inFlight) < c.cfg.perWorker {
			r := pending[0]
			pending = pending[1:]
			c.seq++
			r.Seq = c.seq
			p.inFlight[r.Seq] = r
			if err := p.stdin.Encode(r); err != nil {
				c.t.Logf("worker %d: %v", p.n, err)
			}
		}
	}
	return pending
}

func (c *coordinator) handle(ev event, pending []request, done map[string]json.RawMessage) []request {
	p := ev.p
	if ev.res == nil { // the worker ended: what it had in flight goes to the others
		c.live = deleteProc(c.live, p)
		for _, r := range sortedRequests(p.inFlight) {
			pending = append(pending, r)
		}
		p.inFlight = nil
		c.start()
		return pending
	}
	r := p.inFlight[ev.res.Seq]
	delete(p.inFlight, ev.res.Seq)
	if r.Probe != "" {
		return c.probed(r, *ev.res, pending, done)
	}
	switch ev.res.Status {
	case "SUCCEEDED":
		done[r.Session] = ev.res.Output
	case "INTERRUPTED":
		pending = append(pending, decisionProbe(r, *ev.res))
	case "WAITING":
		// First a success for a token nobody issued; once it is refused,
		// two for the real one at once.
		c.tokens[r.Session] = ev.res.Token
		r.Probe, r.Token = "token", forged(ev.res.Token)
		pending = append(pending, r)
	default:
		c.t.Errorf("session %s (%s): %s %s", r.Session, r.Kind, ev.res.Status, ev.res.Error)
		done[r.Session] = nil
	}
	return pending
}

// probed checks the answer to bad input: each is a clear error, and the
// session goes on as if it had not come.
func (c *coordinator) probed(r request, res result, pending []request, done map[string]json.RawMessage) []request {
	c.probes++
	switch {
	case r.Probe == "resume":
		assert.Contains(c.t, res.Error, "no checkpoint to resume", "resuming an unknown session")
	case r.Probe == "invoke":
		assert.Contains(c.t, res.Error, "cannot unmarshal number into Go struct field BatchState.items", "input that does not decode")
	case r.Probe == "token" && r.Token != c.tokens[r.Session]:
		assert.Contains(c.t, res.Error, "task token does not exist", "a success sent for a token the session never issued")
		r.Token = c.tokens[r.Session]
		pending = append(pending, r, r)
		c.doubled[r.Session] = true
	case r.Decision == "maybe":
		assert.Contains(c.t, res.Error, `approval decision "maybe" is not one of the options "continue", "cancel"`)
		r.Decision = "continue"
		if r.At != "" { // a stop inside the iteration: one decision
			pending = append(pending, r)
			break
		}
		pending = append(pending, r, r) // two decisions on one session at once
		c.doubled[r.Session] = true
	case res.Status == "SUCCEEDED":
		done[r.Session] = res.Output
	case res.Status == "INTERRUPTED": // the next stop
		pending = append(pending, decisionProbe(r, res))
	default: // the other of two answers: refused (already answered, overtaken), or the session was already past its wait
		if !strings.Contains(res.Error, "overtaken") && !strings.Contains(res.Error, "the stop was answered already") &&
			!strings.Contains(res.Error, "no approval waits for a decision") &&
			!strings.Contains(res.Error, "waits for a decision; the stops that wait are") && !strings.Contains(res.Error, "task token was used already") {
			c.t.Errorf("session %s: the second of two answers: %s %s", r.Session, res.Status, res.Error)
		}
		// The other answer goes on with the session, unless a kill took
		// it: then the session goes on without a probe.
		if _, ok := done[r.Session]; !ok && !c.serving(r.Session, pending) {
			r.Probe, r.Token, r.At = "", "", ""
			pending = append(pending, r)
		}
	}
	return pending
}

// decisionProbe is the first answer to a session that stopped for a
// decision: one that is not an option, at the first stop that waits.
func decisionProbe(r request, res result) request {
	r.Probe, r.Decision, r.At = "decide", "maybe", ""
	if len(res.Stops) > 0 {
		r.At = res.Stops[0]
	}
	return r
}

// serving reports whether a request of session waits in pending or a live
// worker serves one.
func (c *coordinator) serving(session string, pending []request) bool {
	if slices.ContainsFunc(pending, func(r request) bool { return r.Session == session }) {
		return true
	}
	for _, p := range c.live {
		for _, r := range p.inFlight {
			if r.Session == session {
				return true
			}
		}
	}
	return false
}

// forged is token made out to a session that does not exist: a token
// nobody issued.
func forged(token string) string {
	body, _ := strings.CutPrefix(token, "flowc1.")
	data, _ := base64.RawURLEncoding.DecodeString(body)
	var claims map[string]any
	json.Unmarshal(data, &claims)
	claims["s"] = fmt.Sprint("unknown-", claims["s"])
	data, _ = json.Marshal(claims)
	return "flowc1." + base64.RawURLEncoding.EncodeToString(data)
}

// randomMoment is the time to the next kill: on average killEvery.
func (c *coordinator) randomMoment() time.Duration {
	return time.Duration(rand.Int64N(int64(2 * c.cfg.killEvery)))
}

func (c *coordinator) killOne() {
	p := c.live[rand.IntN(len(c.live))]
	if p.cmd.Process.Signal(syscall.SIGKILL) == nil {
		c.killed = append(c.killed, p)
		c.inFlightAtKills += len(p.inFlight)
	}
}

func (c *coordinator) stop() {
	for _, p := range c.live {
		p.cmd.Process.Kill()
	}
}

func deleteProc(ps []*proc, p *proc) []*proc {
	return slices.DeleteFunc(ps, func(q *proc) bool { return q == p })
}

func sortedRequests(m map[int]request) []request {
	return slices.SortedFunc(maps.Values(m), func(a, b request) int { return a.Seq - b.Seq })
}

// repeatedCalls counts the handler calls made more than once, and checks
// that each was first made by a worker that was killed.
func (c *coordinator) repeatedCalls(t *testing.T) int {
	seen := map[string]int{}
	inKilled := map[string]bool{}
	for n := 1; n <= c.started; n++ {
		data, err := os.ReadFile(filepath.Join(c.dir, fmt.Sprintf("worker-%d.log", n)))
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		killed := c.wasKilled(n)
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if line == "" {
				continue
			}
			seen[line]++
			if killed {
				inKilled[line] = true
			}
		}
	}
	repeated := 0
	for call, n := range seen {
		session, name, _ := strings.Cut(call, " ")
		if (name == "publish" || name == "charge") && c.doubled[session] {
			n-- // the state after the approval or the callback, run by both answers
		}
		if n > 1 {
			repeated += n - 1
			assert.True(t, inKilled[call], "call %q was made %d times, but no killed worker made it", call, n)
		}
	}
	return repeated
}

func (c *coordinator) wasKilled(n int) bool {
	return slices.ContainsFunc(c.killed, func(p *proc) bool { return p.n == n })
}

// checkpointsSaved counts the saves of every session: each save is the
// step after the one before it.
func checkpointsSaved(t *testing.T, path string) int {
	return storeInt(t, path, `SELECT coalesce(sum(step), 0) FROM flowc_checkpoints`)
}

// assertNoProbeSessions: bad requests left no session behind.
func assertNoProbeSessions(t *testing.T, path string) {
	n := storeInt(t, path, `SELECT count(*) FROM flowc_checkpoints WHERE session LIKE 'unknown-%' OR session LIKE 'undecodable-%'`)
	assert.Zero(t, n, "sessions saved by bad requests")
}

// assertIntegrity runs SQLite's own check of the store.
func assertIntegrity(t *testing.T, path string) {
	var verdict string
	storeQuery(t, path, `PRAGMA integrity_check`, &verdict)
	assert.Equal(t, "ok", verdict)
}

func storeInt(t *testing.T, path, query string) int {
	var n int
	storeQuery(t, path, query, &n)
	return n
}

// storeQuery reads the one value query gives from the SQLite file.
func storeQuery(t *testing.T, path, query string, dest any) {
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.QueryRow(query).Scan(dest))
}
