// Package binmain is the main logic of the programs `flowc build` writes:
// flags, input, sessions on SQLite, and the result line that `flowc run`
// prints too. The generated main package only binds the workflow's
// handlers and calls Main.
package binmain

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/flowc-dev/flowc/builtin"
	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/console"
	"github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
	flowcasl "github.com/flowc-dev/flowc/runtime/impl/asl"
)

// Env is what the built-in handlers use, made once per run of the program.
type Env struct {
	LLM  *builtin.LLM
	HTTP *http.Client // HTTP tasks
}

// runFunc runs the workflow once on a JSON input.
type runFunc func(ctx context.Context, input []byte, env *Env, opts ...flowcrt.Option) (any, error)

// sessionFunc runs session id: input nil continues it unchanged, a
// decision answers the approval it waits for.
type sessionFunc func(ctx context.Context, id string, input []byte, decision string, env *Env, opts ...flowcrt.Option) (any, error)

// Option configures a program.
type Option func(*options)

type options struct {
	graphs map[string]console.Graph // by the workflow name sessions carry
}

// WithGraph gives the graph of the program's workflow, which sessions name
// workflow: --console shows it on a session's page.
func WithGraph(workflow string, g console.Graph) Option {
	return func(o *options) { o.graphs = map[string]console.Graph{workflow: g} }
}

// Main runs the program: args are os.Args. It returns the exit code, as
// `flowc run` does: 0 succeeded or interrupted, 1 failed, 2 bad usage,
// input or session. session is nil for workflows without sessions.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, run runFunc, session sessionFunc, opts ...Option) int {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	prog := filepath.Base(args[0])
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(stderr)
	input := fs.String("input", "", "JSON input `file`, or - for standard input (default: {}, or no input for a session)")
	quiet := fs.Bool("quiet", false, "show no progress")
	var sf flowcimpl.SessionFlags
	sf.Register(fs)
	consoleAddr := fs.String("console", "", "serve the web console of the --checkpoint-db file's sessions at this `address` (e.g. 127.0.0.1:8080) and run what it answers; any address but loopback needs --console-token")
	consoleToken := fs.String("console-token", os.Getenv(console.TokenEnv), "the `token` every request to the console needs (default $"+console.TokenEnv+")")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if *consoleAddr != "" {
		if fs.NArg() > 0 || sf.ID != "" || *input != "" {
			fmt.Fprintf(stderr, "%s: --console serves the sessions of --checkpoint-db; run a session in a run of its own\n", prog)
			return 2
		}
		return serveConsole(prog, sf.DB, *consoleAddr, *consoleToken, o.graphs, session, stdout, stderr)
	}
	in, env, err := setup(fs, *input, sf, session, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx = flowcasl.StopAtTaskTokens(ctx) // nothing in this process could answer a token
	watch, done, err := observe(ctx, stderr, *quiet)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 2
	}
	var out any
	if sf.ID != "" {
		out, err = runSession(ctx, sf, session, in, env, watch)
	} else {
		out, err = run(ctx, in, env, watch)
	}
	done()
	return flowrun.Report(prog, stdout, stderr, out, err, sf.ID != "")
}

// setup checks the flags and reads the input: {} by default, nil for a
// session given none.
func setup(fs *flag.FlagSet, input string, sf flowcimpl.SessionFlags, session sessionFunc, stdin io.Reader) ([]byte, *Env, error) {
	switch {
	case fs.NArg() > 0:
		return nil, nil, fmt.Errorf("unexpected argument %q; the input comes with --input", fs.Arg(0))
	case sf.ID != "" && session == nil:
		return nil, nil, errors.New("this kind of workflow has no sessions")
	}
	if err := sf.Check(input, false); err != nil {
		return nil, nil, err
	}
	llm, err := builtin.FromEnv()
	if err != nil {
		return nil, nil, err
	}
	env := &Env{LLM: llm, HTTP: &http.Client{}}
	in, err := readInput(input, stdin)
	if in == nil && sf.ID == "" {
		in = []byte("{}")
	}
	return in, env, err
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

// runSession runs the session with its checkpoints in the SQLite file.
func runSession(ctx context.Context, sf flowcimpl.SessionFlags, session sessionFunc, in []byte, env *Env, watch flowcrt.Option) (any, error) {
	store, err := sqlite.Open(sf.DB)
	if err != nil {
		return nil, &flowcrt.SessionError{Session: sf.ID, Err: err}
	}
	defer store.Close()
	ctx = flowcimpl.WithDoor(ctx, "cli")
	if err := sf.Task.Record(ctx, store, sf.ID); err != nil {
		return nil, err
	}
	if sf.Redrive {
		ctx = flowcimpl.WithRedrive(ctx)
	}
	return session(flowcimpl.WithDecisionKey(ctx, sf.At), sf.ID, in, sf.Decision, env, watch, flowcrt.WithCheckpointer(store))
}
