package flowrun

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// sessionFlags are the session flags of the programs `flowc run` builds.
type sessionFlags struct {
	id       string // -session: run this session
	decision string // -decision: answer the approval the session waits for
	at       string // -at: the key of the stop the decision answers, when several wait
	redrive  bool   // -redrive: go on from the state the session's last run failed at
	// pipe (-checkpoint-pipe): checkpoints go through the checkpoint
	// protocol on file descriptors 3 (requests) and 4 (responses), served
	// by `flowc run`; without it they live as long as the run.
	pipe bool
	task impl.TaskTokenFlags // -task-success and friends: answer a task token the session waits for
}

func (f *sessionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.id, "session", "", "run as this session: continue it, or start it")
	fs.StringVar(&f.decision, "decision", "", "answer the approval the session waits for")
	fs.StringVar(&f.at, "at", "", "the key of the stop the decision answers, when several wait")
	fs.BoolVar(&f.redrive, "redrive", false, "go on from the state the session's last run failed at")
	fs.BoolVar(&f.pipe, "checkpoint-pipe", false, "save checkpoints through file descriptors 3 and 4")
	f.task.Register(fs)
}

func (f *sessionFlags) check(hasSessions, hasInput bool) error {
	switch {
	case f.id == "" && (f.decision != "" || f.pipe || f.redrive):
		return errors.New("-decision, -redrive and -checkpoint-pipe need -session")
	case f.redrive && (hasInput || f.decision != ""):
		return errors.New("-redrive goes on with the failed session as it is: give no input or decision")
	case f.at != "" && f.decision == "":
		return errors.New("-at names the stop a -decision answers")
	case f.id != "" && !hasSessions:
		return errors.New("this kind of workflow has no sessions")
	case f.decision != "" && hasInput:
		return errors.New("-decision answers the approval the session waits for; give new input in a run of its own")
	}
	return f.task.Check(f.id != "", hasInput, f.decision != "")
}

func (f *sessionFlags) run(ctx context.Context, session sessionFunc, input []byte, mocks *Mocks, opts []impl.Option) (any, error) {
	var cp impl.Checkpointer = impl.NewMemoryCheckpointer()
	if f.pipe {
		requests, responses := os.NewFile(3, "checkpoint-requests"), os.NewFile(4, "checkpoint-responses")
		defer requests.Close()
		defer responses.Close()
		cp = newPipeCheckpointer(responses, requests)
	}
	ctx = impl.WithSchemaNotes(ctx, func(session string, change impl.ShapeChange) {
		log := io.Writer(os.Stderr)
		if mocks != nil && mocks.Log != nil {
			log = mocks.Log // the run's stderr
		}
		fmt.Fprintf(log, "flowc run: session %q: %s\n", session, change)
	})
	ctx = impl.WithDoor(ctx, "cli")
	if err := f.task.Record(ctx, cp, f.id, opts...); err != nil {
		return nil, err
	}
	if f.redrive {
		ctx = impl.WithRedrive(ctx)
	}
	return session(impl.WithDecisionKey(ctx, f.at), f.id, input, f.decision, mocks, append(opts, impl.WithCheckpointer(cp))...)
}
