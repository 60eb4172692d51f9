package asl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/flowc-dev/flowc/runtime/impl"
	flowcagent "github.com/flowc-dev/flowc/runtime/impl/asl/agent"
)

// ASLExec is one execution of a States Language workflow: the run-wide
// part of the context object and the options. Generated code creates it in
// Run and passes it down to every state, branch and item.
type ASLExec struct {
	cfg      *impl.Config
	handlers any           // the generated code's handlers, which may implement Approver
	sess     *impl.Session // nil: no checkpoints
	ordered  bool          // handlers take Objects, not maps
	input    any
	machine  string
	name     string
	start    time.Time
	vars     *varScope        // the top-level variables
	spend    flowcagent.Usage // what the agents spent, and the run's own memory store

	data       impl.StateData     // the observer that takes the states' data, if any (statedata.go)
	restoreErr error              // the checkpoint's variables did not decode
	resume     *childResume       // the checkpoint is inside compiled-in children (resume.go)
	callback   *impl.CallbackWait // the task token the checkpoint waits for, taken once (callback.go)
}

// OrderedHandlers is implemented by handlers that take and return JSON
// objects as *Object, keeping their member order (the generated mocks do).
// Other handlers receive plain map[string]any values.
type OrderedHandlers interface {
	OrderedValues()
}

// NewASLExec starts an execution of the state machine called machine on
// input, any value that encodes as JSON. It returns the input in JSON value
// form.
func NewASLExec(cfg *impl.Config, machine string, h any, input any) (*ASLExec, any, error) {
	in, err := normalize(input)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", impl.ErrInput, err)
	}
	_, ordered := h.(OrderedHandlers)
	now := cfg.RunClock().Now().UTC()
	x := &ASLExec{cfg: cfg, handlers: h, ordered: ordered, input: in, machine: machine, start: now, vars: newScope(nil)}
	x.data, _ = cfg.Observer.(impl.StateData)
	x.name = fmt.Sprintf("%s-%d", machine, now.UnixNano())
	return x, in, nil
}

// SetSession makes the execution save through sess (nil: not at all) and
// use the decision and the variables sess was given. Variables that do not
// decode fail the run at its first checkpoint.
func (x *ASLExec) SetSession(sess *impl.Session) {
	x.sess = sess
	x.restoreErr = x.restoreVars()
	if sess == nil {
		return
	}
	if at, inside := sess.ResumesInside(); len(inside) > 0 {
		x.resume = &childResume{at: at, inside: inside}
	}
	x.callback = sess.WaitingCallback() // set when the run goes on from a checkpoint that waits for a token
}

// Save records the outcome of a top-level state, as Session.Save does:
// out is the state's output, or, when an approval interrupts the run, its
// input. The checkpoint holds the top-level variables too.
func (x *ASLExec) Save(ctx context.Context, next string, out any, err error) error {
	if x.restoreErr != nil {
		return x.restoreErr
	}
	if serr := x.saveVars(); serr != nil {
		return serr
	}
	if wait, ok := errors.AsType[*impl.TaskTokenWait](err); ok && x.sess != nil && wait.Held != nil && wait.Session == "" {
		return x.saveCallback(ctx, wait, out)
	}
	return tokensWait(x.sess.Save(ctx, next, out, err))
}

// Enter returns the context object of a state being entered in ctx, which
// says the variable scope the state runs in.
func (x *ASLExec) Enter(ctx context.Context, state string) *aslContext {
	return &aslContext{ctx: ctx, exec: x, state: state, entered: x.cfg.RunClock().Now().UTC(), vars: x.scope(ctx)}
}

// aslContext is the context object ($$) as one state sees it, with what
// its expressions read besides: the variables and, for JSONata, $states.
type aslContext struct {
	ctx     context.Context // the state's, which a JSONata evaluation honours
	exec    *ASLExec
	state   string
	entered time.Time
	retries int
	item    *Object // {"Index", "Value"} inside a Map's ItemSelector

	vars      *varScope
	input     any // $states.input
	result    any // $states.result, when hasResult
	hasResult bool
	errOut    *Object // $states.errorOutput, in a catcher

	callback bool   // a .waitForTaskToken Task: $$.Task.Token is a real token (callback.go)
	token    string // its token, once read
}

const timeLayout = "2006-01-02T15:04:05.000Z"

// value builds the context object, only when a $$ path asks for it.
func (c *aslContext) value() any {
	if c == nil {
		return nil
	}
	x := c.exec
	arn := "arn:aws:states:local:000000000000:stateMachine:" + x.machine
	o := Obj(
		"Execution", Obj(
			"Id", "arn:aws:states:local:000000000000:execution:"+x.machine+":"+x.name,
			"Input", x.input,
			"Name", x.name,
			"RoleArn", "arn:aws:iam::000000000000:role/flowc",
			"StartTime", x.start.Format(timeLayout),
			"RedriveCount", 0.0,
		),
		"State", Obj("EnteredTime", c.entered.Format(timeLayout), "Name", c.state, "RetryCount", float64(c.retries)),
		"StateMachine", Obj("Id", arn, "Name", x.machine),
		"Task", Obj("Token", c.taskToken()),
	)
	if c.item != nil {
		o.set("Map", Obj("Item", c.item))
	}
	return o
}

// PathField is an InputPath, OutputPath or ResultPath that was written:
// a path, or null (Null).
type PathField struct {
	Null bool
	Path *JSONPath
}

// ASLState is the compiled input and output processing of one state, with
// its retriers and catchers. Generated code holds one per state.
type ASLState struct {
	Name           string
	Task           bool // States.TaskFailed matches only in Task states
	InputPath      *PathField
	Parameters     *Template
	ResultSelector *Template
	ResultPath     *PathField
	OutputPath     *PathField
	Retry          []impl.Retrier
	Catch          []ASLCatcher
	Timeout        time.Duration
	TimeoutPath    *JSONPath
	// A callback Task's HeartbeatSecondsPath or JSONata HeartbeatSeconds
	// (callback.go).
	HeartbeatPath *JSONPath
	HeartbeatExpr *Template

	// Variables and JSONata: a JSONata state has Arguments and Output
	// instead of the path fields. RuleAssign and RuleOutput belong to the
	// rules of a Choice state, by rule.
	JSONata          bool
	Assign           *Template
	JSONataArguments *Template
	JSONataOutput    *Template
	TimeoutExpr      *Template
	RuleAssign       []*Template
	RuleOutput       []*Template
}

// ASLCatcher is one Catch rule; Next is the generated code's business.
type ASLCatcher struct {
	Errors     []string
	ResultPath *PathField
	Assign     *Template
	Output     *Template // JSONata: what the catcher passes on
}

// stateBody is the work of a state, from its effective input to its result.
type stateBody func(ctx context.Context, cx *aslContext, in any) (any, error)

// Do runs a state in the AWS order: InputPath, Parameters, the body,
// ResultSelector, ResultPath (into the raw input), OutputPath. A failure
// is retried by the first retrier that matches it, each retrier counting
// its own retries; the error of the last attempt is returned.
func (x *ASLExec) Do(ctx context.Context, st *ASLState, cx *aslContext, raw any, body stateBody) (any, error) {
	x.entered(ctx, raw)
	out, err := x.retried(ctx, st, cx, raw, body)
	if err == nil {
		x.succeeded(ctx, out)
	}
	return out, err
}

// retried is Do's work: the attempts of st and the retries between them.
func (x *ASLExec) retried(ctx context.Context, st *ASLState, cx *aslContext, raw any, body stateBody) (any, error) {
	retries := make([]int, len(st.Retry))
	if len(st.Retry) > 0 {
		n, err := impl.ResumeRetries(ctx, x.cfg, x.sess, cx.state, retries, x.here(ctx, cx.state))
		if err != nil {
			return nil, err
		}
		cx.retries += n
	}
	for {
		out, err := x.attempt(ctx, st, cx, raw, body)
		if err == nil || ctx.Err() != nil {
			return out, err
		}
		i := st.retrier(err)
		if i < 0 || retries[i]+1 >= st.Retry[i].MaxAttempts {
			return nil, err
		}
		retries[i]++
		cx.retries++
		delay := st.Retry[i].Delay(retries[i])
		if st.Retry[i].Jitter {
			delay = time.Duration(x.cfg.Random() * float64(delay))
		}
		if err := impl.RetryDelay(ctx, x.cfg, x.sess, cx.state, delay, retries, x.here(ctx, cx.state)); err != nil {
			return nil, err
		}
	}
}

func (st *ASLState) retrier(err error) int {
	for i := range st.Retry {
		if matchASL(err, st.Retry[i].Errors, st.Task) {
			return i
		}
	}
	return -1
}

func (x *ASLExec) attempt(ctx context.Context, st *ASLState, cx *aslContext, raw any, body stateBody) (any, error) {
	if st.JSONata {
		return x.attemptJSONata(ctx, st, cx, raw, body)
	}
	cx.input = raw // what a checkpoint inside a compiled-in child saves
	// InputPath, not Input, which reports raw: Do did, once for all attempts.
	in, err := selectPath(st.InputPath, raw, cx)
	if err != nil {
		return nil, err
	}
	if st.Parameters != nil {
		if in, err = st.Parameters.Eval(in, cx); err != nil {
			return nil, err
		}
	}
	result, err := body(ctx, cx, in)
	if err != nil {
		return nil, err
	}
	vals, err := cx.evalAssign(st.Assign, result) // $ is the raw result
	if err != nil {
		return nil, err
	}
	if st.ResultSelector != nil {
		if result, err = st.ResultSelector.Eval(result, cx); err != nil {
			return nil, err
		}
	}
	out, err := applyResultPath(st.ResultPath, raw, result)
	if err == nil {
		out, err = st.Output(out, cx)
	}
	if err != nil {
		return nil, err
	}
	cx.commit(vals)
	return out, nil
}

// Input applies InputPath: absent keeps the input, null gives {}.
// A Choice state starts with it: it reports the state's input.
func (st *ASLState) Input(raw any, cx *aslContext) (any, error) {
	if cx != nil {
		cx.exec.entered(cx.ctx, raw)
	}
	return selectPath(st.InputPath, raw, cx)
}

// Output applies OutputPath: absent keeps the value, null gives {}.
func (st *ASLState) Output(v any, cx *aslContext) (any, error) {
	return selectPath(st.OutputPath, v, cx)
}

func selectPath(f *PathField, v any, cx *aslContext) (any, error) {
	switch {
	case f == nil:
		return v, nil
	case f.Null:
		return newObject(0), nil
	}
	return f.Path.Get(v, cx)
}

// applyResultPath: absent, the result replaces the input; null, the input
// passes unchanged; a path, the result is placed into the raw input.
func applyResultPath(f *PathField, raw, result any) (any, error) {
	switch {
	case f == nil:
		return result, nil
	case f.Null:
		return raw, nil
	}
	return setPath(raw, f.Path.Segs, result, f.Path.Src)
}

// Caught finds the first catcher matching err and builds the output it
// passes on: {"Error", "Cause"} placed by its ResultPath into the raw
// input (JSONata: its Output), after its Assign (catcherOutput). It
// returns -1 and the error when no catcher takes it (or when the ResultPath,
// Output or Assign fails).
func (st *ASLState) Caught(cx *aslContext, raw any, err error) (int, any, error) {
	for i, c := range st.Catch {
		if !matchASL(err, c.Errors, st.Task) {
			continue
		}
		out, perr := st.catcherOutput(cx, &c, raw, errorOutput(err))
		if perr != nil {
			return -1, nil, perr
		}
		cx.exec.succeeded(cx.ctx, out) // the state goes on with it
		return i, out, nil
	}
	return -1, nil, err
}

// Identity is the body of states that pass their input on: Pass without
// Result, Succeed, Checkpoint.
func Identity(_ context.Context, _ *aslContext, in any) (any, error) { return in, nil }

// PassResult is the body of a Pass state with a Result.
func PassResult(result *Template) stateBody {
	return func(_ context.Context, cx *aslContext, in any) (any, error) {
		return result.Eval(in, cx)
	}
}

// aslHandler is the shape of a task handler.
type aslHandler func(ctx context.Context, in any) (any, error)

// Task is the body of a Task state: it calls h with the effective input,
// under the state's timeout. Errors get their States Language names and a
// panic becomes States.TaskFailed.
func (x *ASLExec) Task(st *ASLState, h aslHandler) stateBody {
	return func(ctx context.Context, cx *aslContext, in any) (out any, err error) {
		if o := x.cfg.Observer; o != nil {
			// Do retries the state: each call of the body is an attempt.
			var end func(error)
			if ctx, end = o.Attempt(ctx, st.Name, cx.retries+1); end != nil {
				defer func() { end(err) }()
			}
		}
		timeout, err := st.timeout(in, cx)
		if err != nil {
			return nil, err
		}
		if e := impl.EngineOf(ctx); e != nil && timeout > 0 {
			return x.taskOn(ctx, e, st, h, in, timeout)
		}
		parent := ctx
		if timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		out, err = x.call(ctx, st.Name, h, in)
		// A handler that ignored its context and succeeded after the
		// deadline has still overrun it, as in Step Functions.
		late := err == nil && parent.Err() == nil
		if (err != nil || late) && timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, &impl.Error{Name: impl.StatesTimeout, Cause: fmt.Sprintf("Task timed out after %s", timeout)}
		}
		return out, err
	}
}

// taskOn calls h on an engine, which times the call itself.
func (x *ASLExec) taskOn(ctx context.Context, e impl.Engine, st *ASLState, h aslHandler, in any, timeout time.Duration) (out any, err error) {
	err = e.Attempt(ctx, timeout, func(ctx context.Context) error {
		out, err = x.call(ctx, st.Name, h, in)
		return err
	})
	if errors.Is(err, impl.ErrStateTimeout) {
		return nil, &impl.Error{Name: impl.StatesTimeout, Cause: fmt.Sprintf("Task timed out after %s", timeout)}
	}
	return out, err
}

func (st *ASLState) timeout(in any, cx *aslContext) (time.Duration, error) {
	if st.TimeoutExpr != nil {
		n, err := exprInt(st.TimeoutExpr, "TimeoutSeconds", 1, in, cx)
		return time.Duration(n) * time.Second, err
	}
	if st.TimeoutPath == nil {
		return st.Timeout, nil
	}
	v, err := st.TimeoutPath.Get(in, cx)
	if err != nil {
		return 0, err
	}
	if !isInteger(v) || v.(float64) < 1 {
		return 0, runtimeErrorf("TimeoutSecondsPath %q must point to a whole number of at least 1, got %s", st.TimeoutPath.Src, impl.JSONText(v))
	}
	return time.Duration(v.(float64)) * time.Second, nil
}

// call runs a handler on a value in the form it expects and brings its
// result back to JSON values.
func (x *ASLExec) call(ctx context.Context, state string, h aslHandler, in any) (out any, err error) {
	if x.cfg.StateContext {
		ctx = impl.WithState(ctx, state)
	}
	branchStarted(ctx)
	if !x.ordered {
		in = Plain(in)
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &impl.Error{Name: statesTaskFailed, Cause: fmt.Sprintf("panic in state %q: %v", state, r)}
		}
	}()
	out, err = h(ctx, in)
	if err != nil {
		return nil, aslError(err)
	}
	if out, err = normalize(out); err != nil {
		return nil, &impl.Error{Name: statesTaskFailed, Cause: fmt.Sprintf("state %q returned a value that is not JSON: %v", state, err)}
	}
	return out, nil
}

// Fail returns the error of a Fail state: the strings its Error and Cause
// give (a literal, a path or an intrinsic call on its input; nil for none).
// Like Step Functions, a Fail state without them leaves both empty.
func Fail(raw any, cx *aslContext, name, cause *Template) error {
	cx.exec.entered(cx.ctx, raw)
	cx.input = raw
	var out [2]string
	for i, t := range []*Template{name, cause} {
		if t == nil {
			continue
		}
		v, err := t.Eval(raw, cx)
		if err != nil {
			return err
		}
		s, ok := v.(string)
		if !ok {
			return runtimeErrorf("the %s of a Fail state must be a string, got %s", [...]string{"error", "cause"}[i], typeName(v))
		}
		out[i] = s
	}
	return &impl.Error{Name: out[0], Cause: out[1]}
}

// NoChoiceMatched is the error of a Choice state without Default whose
// rules all failed.
func NoChoiceMatched(state string) error {
	return &impl.Error{Name: statesNoChoiceMatched, Cause: fmt.Sprintf("no choice rule of state %q matched and it has no Default", state)}
}

// StateFailed names the state an error came from, unless it already does.
func StateFailed(state string, err error) error {
	var se *impl.StateError
	if err == nil || errors.As(err, &se) {
		return err
	}
	return &impl.StateError{State: state, Err: err}
}
