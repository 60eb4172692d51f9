package flowrun

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/session"
)

// The checkpoint protocol lets a process use a Checkpointer that another
// process holds: `flowc run --checkpoint-db` serves its SQLite store to the
// program it builds, which cannot link the SQLite driver (it is built
// offline from the runtime alone). Each request and each response is one
// line of JSON; the client sends a request and reads its response before
// the next.
//
//	{"op":"save","checkpoint":{...}}      {}
//	{"op":"load","session":"s1"}          {"checkpoint":{...}}
//	{"op":"list"}                         {"sessions":["s1","s2"]}
//	{"op":"delete","session":"s1"}        {}
//
// A failure answers {"error":"<message>"}, with "missing":true when a load
// finds no checkpoint.

type pipeRequest struct {
	Op         string           `json:"op"`
	Session    string           `json:"session,omitempty"`
	Checkpoint *impl.Checkpoint `json:"checkpoint,omitempty"`
	// Events are the checkpoint's, which its JSON leaves out.
	Events []session.Event `json:"events,omitempty"`
}

type pipeResponse struct {
	Error      string           `json:"error,omitempty"`
	Missing    bool             `json:"missing,omitempty"`
	Overtaken  bool             `json:"overtaken,omitempty"` // the error wraps session.ErrOvertaken
	Checkpoint *impl.Checkpoint `json:"checkpoint,omitempty"`
	Sessions   []string         `json:"sessions,omitempty"`
}

// pipeCheckpointer is the client side of the checkpoint protocol: a
// Checkpointer whose store is served by another process. It is safe for
// concurrent use; requests are sent one at a time.
type pipeCheckpointer struct {
	mu  sync.Mutex
	in  *bufio.Reader
	out io.Writer
}

// newPipeCheckpointer returns the client that writes requests to w and
// reads the responses from r.
func newPipeCheckpointer(r io.Reader, w io.Writer) *pipeCheckpointer {
	return &pipeCheckpointer{in: bufio.NewReader(r), out: w}
}

// Save sends a save request.
func (p *pipeCheckpointer) Save(_ context.Context, c *impl.Checkpoint) error {
	_, err := p.call(pipeRequest{Op: "save", Session: c.Session, Checkpoint: c, Events: c.Events})
	return err
}

// Load sends a load request.
func (p *pipeCheckpointer) Load(_ context.Context, session string) (*impl.Checkpoint, error) {
	resp, err := p.call(pipeRequest{Op: "load", Session: session})
	if err == nil && resp.Checkpoint == nil {
		err = errors.New("checkpoint server: a load answered no checkpoint")
	}
	return resp.Checkpoint, err
}

// List sends a list request.
func (p *pipeCheckpointer) List(context.Context) ([]string, error) {
	resp, err := p.call(pipeRequest{Op: "list"})
	return resp.Sessions, err
}

// Delete sends a delete request.
func (p *pipeCheckpointer) Delete(_ context.Context, session string) error {
	_, err := p.call(pipeRequest{Op: "delete", Session: session})
	return err
}

func (p *pipeCheckpointer) call(req pipeRequest) (pipeResponse, error) {
	var resp pipeResponse
	line, err := json.Marshal(req)
	if err != nil {
		return resp, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.out.Write(append(line, '\n')); err != nil {
		return resp, fmt.Errorf("checkpoint server: %w", err)
	}
	answer, err := p.in.ReadBytes('\n')
	if err != nil {
		return resp, fmt.Errorf("checkpoint server: %w", err)
	}
	if err := json.Unmarshal(answer, &resp); err != nil {
		return resp, fmt.Errorf("checkpoint server: %w", err)
	}
	switch {
	case resp.Missing:
		return resp, &impl.SessionError{Session: req.Session, Err: impl.ErrNoCheckpoint}
	case resp.Overtaken:
		return resp, &impl.SessionError{Session: req.Session, Err: fmt.Errorf("%w: %s", session.ErrOvertaken, resp.Error)}
	case resp.Error != "":
		return resp, errors.New(resp.Error)
	}
	return resp, nil
}

// ServeCheckpoints is the server side of the checkpoint protocol: it
// answers the requests read from r by writing to w, through cp, until r
// ends. A request that is not understood ends it with an error, since the
// two sides no longer agree on where a line starts.
func ServeCheckpoints(ctx context.Context, r io.Reader, w io.Writer, cp impl.Checkpointer) error {
	in := bufio.NewReader(r)
	for {
		line, err := in.ReadBytes('\n')
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil {
			return err
		}
		var req pipeRequest
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("checkpoint protocol: %w", err)
		}
		answer, err := json.Marshal(serve(ctx, cp, req))
		if err != nil {
			return err
		}
		if _, err := w.Write(append(answer, '\n')); err != nil {
			return err
		}
	}
}

func serve(ctx context.Context, cp impl.Checkpointer, req pipeRequest) pipeResponse {
	var resp pipeResponse
	var err error
	switch req.Op {
	case "save":
		if req.Checkpoint == nil {
			err = errors.New("checkpoint protocol: save without a checkpoint")
			break
		}
		req.Checkpoint.Events = req.Events
		err = cp.Save(ctx, req.Checkpoint)
		resp.Overtaken = errors.Is(err, session.ErrOvertaken)
	case "load":
		resp.Checkpoint, err = cp.Load(ctx, req.Session)
		resp.Missing = errors.Is(err, impl.ErrNoCheckpoint)
	case "list":
		resp.Sessions, err = cp.List(ctx)
	case "delete":
		err = cp.Delete(ctx, req.Session)
	default:
		err = fmt.Errorf("checkpoint protocol: unknown op %q", req.Op)
	}
	if err != nil {
		resp.Checkpoint = nil
		resp.Error = err.Error()
	}
	return resp
}
