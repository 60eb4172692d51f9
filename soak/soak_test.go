package soak

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// The short form runs in CI; -soak.long runs the long one. The flag's
// help is made from longForm, so that it says what the test does.
var (
	shortForm = soakConfig{sessions: 400, workers: 3, perWorker: 20, kills: 8, killEvery: 500 * time.Millisecond, limit: 3 * time.Minute}
	longForm  = soakConfig{sessions: 2000, workers: 3, perWorker: 60, kills: 30, killEvery: time.Second, limit: 20 * time.Minute}
	long      = flag.Bool("soak.long", false, fmt.Sprintf("run the long form: %d sessions, and up to %d kills, one every %v on average",
		longForm.sessions, longForm.kills, longForm.killEvery))
)

// request is what the test sends a worker: run (or resume) a session,
// answer the approval it waits at, or send the success of the task token
// it waits for.
type request struct {
	Seq      int             `json:"seq"` // the coordinator's number for it
	Kind     string          `json:"kind"`
	Session  string          `json:"session"`
	Input    json.RawMessage `json:"input"`
	Decision string          `json:"decision,omitempty"`
	At       string          `json:"at,omitempty"` // the stop the decision answers, inside an iteration
	Token    string          `json:"token,omitempty"`
	// Probe asks for the operation itself, without the checks serve makes
	// first: "resume", "decide", "invoke" or "token" (bad input under load).
	Probe string `json:"probe,omitempty"`
}

// result is a worker's answer: the result line of the session's run.
type result struct {
	Seq     int             `json:"seq"`
	Session string          `json:"session"`
	Status  string          `json:"status"` // SUCCEEDED, INTERRUPTED, WAITING or FAILED
	Token   string          `json:"token,omitempty"`
	Stops   []string        `json:"stops,omitempty"` // the keys of the stops inside an iteration
	Output  json.RawMessage `json:"output,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// confirmation is what the test sends for a session's task token.
func confirmation(session string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"confirmed_for": %q}`, session))
}

// flow is one of the soak's workflows, behind the session API they share.
type flow interface {
	Invoke(ctx context.Context, session string, in json.RawMessage) (any, error)
	Resume(ctx context.Context, session string) (any, error)
	Decide(ctx context.Context, session, decision string) (any, error)
	DecideAt(ctx context.Context, session, key, decision string) (any, error)
	SendTaskSuccess(ctx context.Context, token string, output json.RawMessage) (any, error)
}

// noTokens is the SendTaskSuccess and DecideAt of workflows that never
// wait for a token or inside a fan-out.
type noTokens struct{}

func (noTokens) DecideAt(context.Context, string, string, string) (any, error) {
	return nil, errors.New("no stop inside a fan-out expected")
}

func (noTokens) SendTaskSuccess(context.Context, string, json.RawMessage) (any, error) {
	return nil, errors.New("no task token expected")
}

// flows builds every workflow of the mix over handlers that record their
// calls in log, saving to cp.
func flows(log *calls, cp flowcrt.Checkpointer) map[string]flow {
	opt := flowcrt.WithCheckpointer(cp)
	return map[string]flow{
		"typed":    typedFlow[BatchState]{w: NewBatch(batch{log}, opt)},
		"subflow":  typedFlow[SupervisedState]{w: NewSupervised(supervised{log}, opt)},
		"asl":      anyFlow{NewOrder(order{log}, opt)},
		"jsonmode": anyFlow{NewReview(review{log}, opt)},
		"chain":    chainFlow{w: NewRevise(revise{log}, opt)},
	}
}

type typedSessions[S any] interface {
	Invoke(ctx context.Context, session string, in *S) (S, error)
	Resume(ctx context.Context, session string) (S, error)
}

type typedFlow[S any] struct {
	w typedSessions[S]
	noTokens
}

func (f typedFlow[S]) Invoke(ctx context.Context, id string, in json.RawMessage) (any, error) {
	var s S
	if err := json.Unmarshal(in, &s); err != nil {
		return nil, err
	}
	return f.w.Invoke(ctx, id, &s)
}
func (f typedFlow[S]) Resume(ctx context.Context, id string) (any, error) { return f.w.Resume(ctx, id) }

// Decide: the typed workflows of the mix never stop for a decision.
func (f typedFlow[S]) Decide(context.Context, string, string) (any, error) {
	return nil, errors.New("no decision expected")
}

type anySessions interface {
	Invoke(ctx context.Context, session string, in any) (any, error)
	Resume(ctx context.Context, session string) (any, error)
}

type anyFlow struct{ anySessions }

func (f anyFlow) Decide(ctx context.Context, id, d string) (any, error) {
	w, ok := f.anySessions.(interface {
		Decide(ctx context.Context, session, decision string) (any, error)
	})
	if !ok {
		return nil, errors.New("no decision expected")
	}
	return w.Decide(ctx, id, d)
}

func (f anyFlow) DecideAt(ctx context.Context, id, key, d string) (any, error) {
	w, ok := f.anySessions.(interface {
		DecideAt(ctx context.Context, session, key, decision string) (any, error)
	})
	if !ok {
		return nil, errors.New("no stop inside a fan-out expected")
	}
	return w.DecideAt(ctx, id, key, d)
}

func (f anyFlow) SendTaskSuccess(ctx context.Context, token string, out json.RawMessage) (any, error) {
	w, ok := f.anySessions.(interface {
		SendTaskSuccess(ctx context.Context, token string, output json.RawMessage) (any, error)
	})
	if !ok {
		return nil, errors.New("no task token expected")
	}
	return w.SendTaskSuccess(ctx, token, out)
}

func (f anyFlow) Invoke(ctx context.Context, id string, in json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(in, &v); err != nil {
		return nil, err
	}
	return f.anySessions.Invoke(ctx, id, v)
}

// chainFlow: a chain's session API returns its typed state.
type chainFlow struct {
	w *Revise
	noTokens
}

func (f chainFlow) Invoke(ctx context.Context, id string, in json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(in, &v); err != nil {
		return nil, err
	}
	return f.w.Invoke(ctx, id, v)
}
func (f chainFlow) Resume(ctx context.Context, id string) (any, error) { return f.w.Resume(ctx, id) }
func (f chainFlow) Decide(context.Context, string, string) (any, error) {
	return nil, errors.New("a chain has no decisions")
}

// serve runs one request the way a worker does: a session with no
// checkpoint starts, one with a checkpoint goes on from it.
func serve(ctx context.Context, fl map[string]flow, cp flowcrt.Checkpointer, r request) result {
	f := fl[r.Kind]
	var out any
	var err error
	switch {
	case r.Probe == "resume":
		out, err = f.Resume(ctx, r.Session)
	case r.Probe == "decide":
		out, err = decide(ctx, f, r)
	case r.Probe == "invoke":
		out, err = f.Invoke(ctx, r.Session, r.Input)
	case r.Token != "":
		out, err = f.SendTaskSuccess(ctx, r.Token, confirmation(r.Session))
	default:
		out, err = serveSession(ctx, f, cp, r)
	}
	res := resultOf(r.Session, out, err)
	res.Seq = r.Seq
	return res
}

func serveSession(ctx context.Context, f flow, cp flowcrt.Checkpointer, r request) (out any, err error) {
	switch c, lerr := cp.Load(ctx, r.Session); {
	case r.Decision != "" && lerr == nil && c.Status == flowcrt.StatusInterrupted:
		out, err = decide(ctx, f, r)
	case errors.Is(lerr, flowcrt.ErrNoCheckpoint):
		out, err = f.Invoke(ctx, r.Session, r.Input)
	case lerr != nil:
		err = lerr
	default:
		out, err = f.Resume(ctx, r.Session)
	}
	return out, err
}

// decide answers the stop r.At names, or the one stop that waits.
func decide(ctx context.Context, f flow, r request) (any, error) {
	if r.At != "" {
		return f.DecideAt(ctx, r.Session, r.At, r.Decision)
	}
	return f.Decide(ctx, r.Session, r.Decision)
}

func resultOf(session string, out any, err error) result {
	var wait *flowcrt.Interrupted
	var token *flowcrt.TaskTokenWait
	switch {
	case errors.As(err, &wait):
		res := result{Session: session, Status: "INTERRUPTED"}
		for _, stop := range wait.Stops {
			res.Stops = append(res.Stops, stop.Key)
		}
		return res
	case errors.As(err, &token):
		return result{Session: session, Status: "WAITING", Token: token.Token}
	case err != nil:
		return result{Session: session, Status: "FAILED", Error: err.Error()}
	}
	data, err := json.Marshal(out)
	if err != nil {
		return result{Session: session, Status: "FAILED", Error: err.Error()}
	}
	return result{Session: session, Status: "SUCCEEDED", Output: data}
}

const (
	workerDB  = "FLOWC_SOAK_DB"
	workerLog = "FLOWC_SOAK_LOG"
)

// TestMain lets the test binary play a worker process: it serves the
// requests on its standard input, many at once, on the SQLite file.
func TestMain(m *testing.M) {
	if db := os.Getenv(workerDB); db != "" {
		os.Exit(worker(db, os.Getenv(workerLog)))
	}
	flag.Parse()
	os.Exit(m.Run())
}

func worker(db, logPath string) int {
	store, err := sqlite.Open(db)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	fl := flows(&calls{f: f}, store)
	var out sync.Mutex
	enc := json.NewEncoder(os.Stdout)
	var wg sync.WaitGroup
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var r request
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		wg.Go(func() {
			res := serve(context.Background(), fl, store, r)
			out.Lock()
			defer out.Unlock()
			enc.Encode(res)
		})
	}
	wg.Wait()
	return 0
}
