package flowtemporal

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/flowc-dev/flowc/flowrun"
)

// Program is what the main package of `flowc build --target temporal`
// binds: the workflow of the program, its handlers, and the typing of its
// input and result.
type Program struct {
	Workflow string                    // the name the workflow is registered under
	Register func() (Register, error)  // registers the workflow and its handlers; an error is a bad environment
	Input    func([]byte) (any, error) // the run's input, checked against the workflow's
	// Result runs run with a value of the workflow's result type to decode
	// into, and returns the result as the line shows it.
	Result func(run func(out any) error) (any, error)
}

// buildFlags are the flags of a program of `flowc build --target
// temporal`: those of a native built program with the same meaning, and
// the server's address.
type buildFlags struct {
	address, input, checkpointDB string
	quiet                        bool
	session                      Session
}

func (f *buildFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.address, "temporal-address", "", "run on the Temporal server at `host:port` (required)")
	fs.StringVar(&f.input, "input", "", "JSON input `file`, or - for standard input (default: {}, or no input for a session)")
	fs.BoolVar(&f.quiet, "quiet", false, "show no progress")
	fs.StringVar(&f.checkpointDB, "checkpoint-db", "", "not on Temporal: the server keeps the sessions")
	fs.StringVar(&f.session.ID, "session", "", "the session `id`: the id of its workflow execution on the server")
	fs.StringVar(&f.session.Decision, "decision", "", "answer the approval the session waits for with this `option`")
	fs.StringVar(&f.session.At, "at", "", "with --decision: answer the stop this `key` names (e.g. Map/3/Approve), when several wait")
	f.session.Task.Register(fs)
}

// check reports a combination of the flags that makes no sense, with the
// messages of a native built program where the meaning is the same.
func (f *buildFlags) check(fs *flag.FlagSet) error {
	s := f.session
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected argument %q; the input comes with --input", fs.Arg(0))
	case f.address == "":
		return errors.New("the program runs on a Temporal server: give its --temporal-address host:port")
	case f.checkpointDB != "":
		return errors.New("--checkpoint-db does not apply: on Temporal the server keeps the sessions (give --session alone)")
	case s.Decision != "" && s.ID == "":
		return errors.New("--decision answers the approval a session waits for: it needs --session")
	case s.ID == "" && s.Task.Success+s.Task.Failure+s.Task.Heartbeat != "":
		return errors.New("a task token is answered in its session: give --session")
	case s.At != "" && s.Decision == "":
		return errors.New("--at names the stop a --decision answers")
	case s.Decision != "" && f.input != "":
		return errors.New("--decision continues the session as it is; give new --input in a run of its own")
	}
	return s.Task.Check(s.ID != "", f.input != "", s.Decision != "")
}

// BuildMain runs a program of `flowc build --target temporal`: args are
// os.Args. It runs the workflow once, or works session --session, on the
// server of --temporal-address, and prints the line and returns the exit
// code a native built program would: 0 succeeded or stopped, 1 failed, 2
// bad usage, input or session.
func BuildMain(args []string, stdin io.Reader, stdout, stderr io.Writer, p Program) int {
	prog := filepath.Base(args[0])
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f buildFlags
	f.register(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	in, register, err := buildSetup(fs, &f, p, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	progress := stderr
	if f.quiet {
		progress = io.Discard
	}
	out, err := p.Result(func(out any) error {
		if f.session.ID != "" {
			return RunSessionOnServer(ctx, f.address, register, p.Workflow, f.session, out, progress)
		}
		return RunWorkflow(ctx, f.address, register, p.Workflow, in, out, progress)
	})
	return flowrun.Report(prog, stdout, stderr, out, err, f.session.ID != "")
}

// buildSetup checks the flags, reads and checks the input ({} by default;
// a session given none goes on as it is) and binds the handlers.
func buildSetup(fs *flag.FlagSet, f *buildFlags, p Program, stdin io.Reader) (any, Register, error) {
	if err := f.check(fs); err != nil {
		return nil, nil, err
	}
	data, err := readInput(f.input, stdin)
	if err != nil {
		return nil, nil, err
	}
	var in any
	if data != nil || f.session.ID == "" {
		if data == nil {
			data = []byte("{}")
		}
		if in, err = p.Input(data); err != nil {
			return nil, nil, err
		}
		f.session.Input = data // as given: a typed session merges the fields it has
	}
	register, err := p.Register()
	return in, register, err
}

func readInput(input string, stdin io.Reader) ([]byte, error) {
	switch input {
	case "":
		return nil, nil
	case "-":
		return io.ReadAll(stdin)
	}
	return os.ReadFile(input)
}
