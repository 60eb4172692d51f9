// Package console serves a web page over a store of sessions: the
// sessions with their status counts, and each session with the graph of
// its workflow (the path it took and where it waits marked), its waiting
// stops, answer forms, history, and Stop and Redrive. It is an
// http.Handler over small interfaces of its own, so that a program that
// generates its workflows into its own service can mount it over its own
// store (see FromStore), and `flowc console` and the programs of
// `flowc build --console` serve it.
//
// Without an Actor it is read-only: it renders no form and refuses every
// POST. See docs/console.md for its security: a token for any address
// but loopback, CSRF checks on every change, and escaping of every value
// a session holds.
package console

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// Query asks for a page of sessions, newest first: those of a status and
// workflow ("": any), at most Limit, after the cursor Before of the page
// before.
type Query struct {
	Status   string
	Workflow string
	Limit    int
	Before   string
}

// Summary is a session in the list.
type Summary struct {
	ID, Workflow string
	Status       string
	State        string // where it is
	Updated      time.Time
	Stops        int // the stops that wait for an answer
}

// Page is a page of sessions; Counts counts the sessions of the whole
// store by status, whatever the query's status; Next is the cursor of the
// next page, "" for the last.
type Page struct {
	Sessions []Summary
	Counts   map[string]int
	Next     string
}

// Stop is a stop that waits: an approval (Kind "approval") for one of its
// Options, or a task token (Kind "task_token"), known by its hash only.
type Stop struct {
	Key, State, Kind, Prompt string
	Options                  []string
	TokenHash                string
}

// Session is a session as its page shows it.
type Session struct {
	ID, Workflow string
	Status       string
	State        string // where it is
	Updated      time.Time
	Data         json.RawMessage // the state, as JSON
	Stops        []Stop
	// Error and Cause are what a failed session's run failed with; a
	// redrive runs State again. Redrives counts the session's redrives.
	Error, Cause string
	Redrives     int
}

// Event is one entry of a session's history.
type Event struct {
	Seq    int64
	Time   time.Time
	Kind   string
	State  string
	Fields json.RawMessage
}

// Reader is what the console reads. Session returns an error wrapping
// ErrNotFound for a session the store does not have. History returns up
// to limit events after the one numbered after, oldest first, and how
// many old events the store dropped.
type Reader interface {
	Sessions(ctx context.Context, q Query) (Page, error)
	Session(ctx context.Context, id string) (*Session, error)
	History(ctx context.Context, id string, after int64, limit int) ([]Event, int64, error)
}

// Actor is what the console changes. Each method returns once the answer
// is saved durably, and the run goes on without waiting for it. An
// answer that lost to another (the stop was answered already, or the
// session stopped) returns an error wrapping ErrConflict.
type Actor interface {
	Decide(ctx context.Context, id, key, option string) error
	TaskSucceed(ctx context.Context, id, key string, output json.RawMessage) error
	TaskFail(ctx context.Context, id, key, errName, cause string) error
	Stop(ctx context.Context, id, errName, cause string) error
	Redrive(ctx context.Context, id string) error
}

// RedriveRefuser is an Actor that knows before it is asked that it cannot
// redrive (a Temporal session keeps no checkpoint to go on from): a failed
// session's page then says why and what to do, instead of offering a
// button that can only fail.
type RedriveRefuser interface {
	RedriveRefusal() error
}

var (
	// ErrNotFound is wrapped by Reader.Session for an unknown session.
	ErrNotFound = errors.New("no such session")
	// ErrConflict is wrapped by an Actor's error when another answer won.
	ErrConflict = errors.New("someone else answered first")
)

// Graph is a workflow's graph as codegen/graph draws it (graph.Picture):
// the SVG, in which each state's node is a <g class="node" id="node-NAME">
// element, and each state id's node NAME.
type Graph struct {
	SVG   string
	Nodes map[string]string
}

// Option configures the console.
type Option func(*Console)

// WithActor lets the console change sessions through a; without it the
// console is read-only.
func WithActor(a Actor) Option { return func(c *Console) { c.act = a } }

// WithToken makes every request need token: as "Authorization: Bearer"
// or in the cookie a visit to /?token=TOKEN sets.
func WithToken(token string) Option { return func(c *Console) { c.token = token } }

// WithGraphs gives the graph of each workflow, by the name its sessions
// carry.
func WithGraphs(graphs map[string]Graph) Option {
	return func(c *Console) { c.graphs = graphs }
}

// Console is the console's http.Handler.
type Console struct {
	read   Reader
	act    Actor
	token  string
	graphs map[string]Graph
	secret []byte // signs the CSRF tokens of this process
	mux    *http.ServeMux
}

// New returns the console over r.
func New(r Reader, opts ...Option) *Console {
	c := &Console{read: r, secret: newSecret(), mux: http.NewServeMux()}
	for _, o := range opts {
		o(c)
	}
	c.mux.HandleFunc("GET /{$}", c.list)
	c.mux.HandleFunc("GET /sessions/{id}", c.session)
	c.mux.HandleFunc("GET /console.css", serveCSS)
	c.mux.HandleFunc("POST /sessions/{id}/{action}", c.change)
	return c
}

// ServeHTTP checks the request's token and, for a change, its CSRF token,
// then serves it with headers that let the page run no script.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header())
	if !c.authorized(w, r) {
		return
	}
	if r.Method == http.MethodPost && c.act == nil {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the console is read-only", http.StatusMethodNotAllowed)
		return
	}
	c.mux.ServeHTTP(w, r)
}
