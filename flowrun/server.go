package flowrun

import (
	"context"
	"fmt"
	"io"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// SessionRequest is what one run of a session kept by an engine's server
// asks for: go on (nothing else set), or first answer the approval or the
// task token the session waits for.
type SessionRequest struct {
	ID       string
	Decision string
	At       string // the key of the stop Decision answers, when several wait
	Task     impl.TaskTokenFlags
}

// serverSessionFunc runs a session that an engine's server keeps (on
// Temporal, a workflow execution): input nil goes on with the session as
// it is.
type serverSessionFunc func(ctx context.Context, req SessionRequest, input []byte, mocks *Mocks) (output any, err error)

// RunServerMain is RunSessionMain for the programs of `flowc run --engine
// temporal`, whose sessions the engine's server keeps, not a checkpoint
// file: the same flags but -checkpoint-pipe, the same result line and exit
// codes.
func RunServerMain(args []string, stdout, stderr io.Writer, run runFunc, session serverSessionFunc) int {
	r, code := setUp(args, stderr, true)
	if r == nil {
		return code
	}
	defer r.stop()
	f := r.session
	if f.pipe {
		fmt.Fprintln(stderr, "flowc run: -checkpoint-pipe does not apply: the engine's server keeps the sessions")
		return 2
	}
	var out any
	var err error
	if f.id != "" {
		out, err = session(r.ctx, SessionRequest{ID: f.id, Decision: f.decision, At: f.at, Task: f.task}, r.input, r.mocks)
	} else {
		out, err = run(r.ctx, r.input, r.mocks, r.opts...)
	}
	return Report("flowc run", stdout, stderr, out, err, f.id != "")
}
