package flowrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/flowc-dev/flowc/runtime/impl"
	"github.com/flowc-dev/flowc/runtime/impl/asl"
)

// runFunc runs one workflow on a JSON input with mocked handlers.
type runFunc func(ctx context.Context, input []byte, mocks *Mocks, opts ...impl.Option) (output any, err error)

// sessionFunc runs session id of one workflow with mocked handlers: input
// nil continues the session unchanged, otherwise it is merged into the
// session's state; a decision answers the approval the session waits for.
type sessionFunc func(ctx context.Context, id string, input []byte, decision string, mocks *Mocks, opts ...impl.Option) (output any, err error)

// RunSessionMain is the main function of the programs `flowc run` builds:
// it reads the flags -input, -mock-config, -test-case, -machine,
// -skip-waits (retry intervals and waits take no time), and -session,
// -decision and -checkpoint-pipe (see sessionFlags), runs the workflow and
// prints the one-line result. It returns the exit code: 0 succeeded or
// interrupted (an approval waits: not a failure), 1 failed, 2 bad input,
// mock config or session. session is nil for workflows without sessions.
func RunSessionMain(args []string, stdout, stderr io.Writer, run runFunc, session sessionFunc) int {
	r, code := setUp(args, stderr, session != nil)
	if r == nil {
		return code
	}
	defer r.stop()
	var out any
	var err error
	if r.session.id != "" {
		out, err = r.session.run(r.ctx, session, r.input, r.mocks, r.opts)
	} else {
		out, err = run(r.ctx, r.input, r.mocks, r.opts...)
	}
	return Report("flowc run", stdout, stderr, out, err, r.session.id != "")
}

// aRun is a run as its flags ask for it.
type aRun struct {
	ctx     context.Context
	stop    context.CancelFunc
	input   []byte // nil: a session given no input, which goes on unchanged
	mocks   *Mocks
	opts    []impl.Option
	session sessionFlags
}

// setUp reads the flags and the files they name; with r nil, code is the
// exit code of a run that cannot start, whose reason is on stderr.
func setUp(args []string, stderr io.Writer, hasSessions bool) (r *aRun, code int) {
	fs := flag.NewFlagSet("flowc-run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	input := fs.String("input", "", "JSON input file (default: {}, or no input for a session)")
	mockConfig := fs.String("mock-config", "", "mock config file")
	testCase := fs.String("test-case", "", "test case of the mock config")
	machine := fs.String("machine", "", "state machine name in the mock config")
	skipWaits := fs.Bool("skip-waits", false, "make retry intervals and waits take no time")
	r = &aRun{}
	r.session.register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, 2
	}
	in, mocks, err := runSetup(*input, *mockConfig, *machine, *testCase)
	if err == nil {
		err = r.session.check(hasSessions, *input != "")
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowc run: %v\n", err)
		return nil, 2
	}
	if r.session.id != "" && *input == "" {
		in = nil // a session given no input goes on unchanged, not with {}
	}
	mocks.Log = stderr
	r.input, r.mocks = in, mocks
	r.ctx, r.stop = signal.NotifyContext(context.Background(), os.Interrupt)
	r.ctx = asl.StopAtTaskTokens(r.ctx) // nothing in this process could answer a token
	if *skipWaits {
		r.opts = append(r.opts, impl.WithClock(impl.NewFakeClock(impl.SystemClock.Now())))
	}
	return r, 0
}

// Report prints the result line of a run, or the problem that kept it
// from running, and returns the exit code: 0 succeeded or interrupted, 1
// failed, 2 bad input, mocks or session. prog prefixes the messages on
// stderr; the programs `flowc build` writes share it with `flowc run`.
func Report(prog string, stdout, stderr io.Writer, out any, err error, session bool) int {
	var bad *impl.MockError
	var badSession *impl.SessionError
	if errors.Is(err, impl.ErrInput) || errors.As(err, &bad) || errors.As(err, &badSession) {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return 2
	}
	fmt.Fprintf(stdout, "%s\n", impl.ResultLine(out, err))
	switch {
	case impl.IsInterrupted(err) && !session:
		fmt.Fprintf(stderr, "%s: the run waits for a decision; without a session it cannot be continued\n", prog)
	case impl.IsWaitingForTaskToken(err) && !session:
		fmt.Fprintf(stderr, "%s: the run waits for a task token; without a session it cannot be continued\n", prog)
	case impl.IsInterrupted(err), impl.IsWaitingForTaskToken(err):
	case err != nil:
		return 1
	}
	return 0
}

func runSetup(input, mockConfig, machine, testCase string) ([]byte, *Mocks, error) {
	in := []byte("{}")
	if input != "" {
		data, err := os.ReadFile(input)
		if err != nil {
			return nil, nil, err
		}
		in = data
	}
	if mockConfig == "" {
		if testCase != "" {
			return nil, nil, errors.New("--test-case needs --mock-config")
		}
		return in, &Mocks{}, nil
	}
	data, err := os.ReadFile(mockConfig)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := ParseMockConfig(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", mockConfig, err)
	}
	mocks, err := cfg.Case(machine, testCase)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", mockConfig, err)
	}
	return in, mocks, nil
}

// DecodeInput reads a run's input into v, rejecting unknown fields so that
// a typo in an input file is not silently ignored.
func DecodeInput(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", impl.ErrInput, err)
	}
	return nil
}
