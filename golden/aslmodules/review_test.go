package aslmodules

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// agents records what each agent was given; verdict is the summarizer's,
// findings the checker's, and the flaky counts say how many first calls
// of the checker and the linter fail.
type agents struct {
	mu               sync.Mutex
	calls            map[string][]any
	verdict          string
	findings         float64
	flakyChecks      int
	flakyLints       int
	checkTimeoutSeen bool
}

func (a *agents) record(name string, in any) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.calls == nil {
		a.calls = map[string][]any{}
	}
	a.calls[name] = append(a.calls[name], in)
	return len(a.calls[name])
}

func (a *agents) CodeReviewer(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("CodeReviewer", in)
	return map[string]any{"severity": "high"}, nil
}

func (a *agents) Summarizer(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("Summarizer", in)
	return map[string]any{"verdict": a.verdict}, nil
}

func (a *agents) Archiver(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("Archiver", in)
	return "archived", nil
}

func (a *agents) Checker(ctx context.Context, in any, _ flowcrt.Agent) (any, error) {
	_, a.checkTimeoutSeen = ctx.Deadline()
	if a.record("Checker", in) <= a.flakyChecks {
		return nil, &flowcrt.Error{Name: "Checks.Flaky", Cause: "the checker lost its connection"}
	}
	return map[string]any{"findings": a.findings}, nil
}

func (a *agents) Linter(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	if a.record("Linter", in) <= a.flakyLints {
		return nil, errors.New("linter crashed")
	}
	return map[string]any{"lint": "clean"}, nil
}

func (a *agents) Pager(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("Pager", in)
	return "paged", nil
}

func (a *agents) Sender(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("Sender", in)
	return "sent", nil
}

func input() map[string]any {
	return map[string]any{
		"code": "func f() {}",
		"repo": "flowc",
		"config": map[string]any{
			"reviewers": []any{"ana", "bo"},
			"blocking":  "reject",
		},
	}
}

// The module runs from the export each Include enters at: the first
// Include stops after its ExitPoint (no Archive), the second enters at
// SummarizeReview and runs on to the module's end.
func TestModuleEntryAndExitPoints(t *testing.T) {
	a := &agents{verdict: "approve"}
	out, err := NewReview(a).Run(context.Background(), input())
	require.NoError(t, err)
	assert.Len(t, a.calls["CodeReviewer"], 1, "ReviewCode runs once, from the first Include")
	assert.Len(t, a.calls["Summarizer"], 2, "SummarizeReview is the first Include's exit and the second's entry")
	require.Len(t, a.calls["Archiver"], 1, "only the Include without an ExitPoint runs on to Archive")
	assert.Equal(t, map[string]any{"summary": map[string]any{"verdict": "approve"}}, a.calls["Archiver"][0])
	o := out.(map[string]any)
	assert.Equal(t, map[string]any{"severity": "high"}, o["review"], "the first Include's output is the parent's")
	assert.Equal(t, "archived", o["second"].(map[string]any)["archived"], "the second Include's ResultPath")
}

// The Override's Retry and TimeoutSeconds replace the template's: a flaky
// checker is retried, and runs with a deadline.
func TestOverrideRetriesTheTemplatesTask(t *testing.T) {
	a := &agents{verdict: "approve", flakyChecks: 1, findings: 2}
	out, err := NewReview(a).Run(context.Background(), input())
	require.NoError(t, err)
	assert.Len(t, a.calls["Checker"], 2, "the overridden Retry tried again")
	assert.True(t, a.checkTimeoutSeen, "the overridden TimeoutSeconds gives the task a deadline")
	assert.Equal(t, map[string]any{"findings": 2.0}, out.(map[string]any)["checks"])

	a = &agents{verdict: "approve", flakyChecks: 3}
	_, err = NewReview(a).Run(context.Background(), input())
	require.Error(t, err)
	assert.Equal(t, "Checks.Flaky", flowcrt.ErrorName(err), "MaxAttempts 2 of the Override: two retries, then the error")
	assert.Len(t, a.calls["Checker"], 3)
}

// The parent's literal parameter (limit 2) is compiled into the template's
// choice: three findings fail the run with the template's error.
func TestLiteralParameter(t *testing.T) {
	_, err := NewReview(&agents{verdict: "approve", findings: 3}).Run(context.Background(), input())
	require.Error(t, err)
	assert.Equal(t, "Checks.Rejected", flowcrt.ErrorName(err))
}

// The decorator template runs the workflow its includer named, with the
// retries the includer set.
func TestDecoratedWorkflowRetries(t *testing.T) {
	a := &agents{verdict: "approve", flakyLints: 1}
	out, err := NewReview(a).Run(context.Background(), input())
	require.NoError(t, err)
	assert.Len(t, a.calls["Linter"], 2)
	assert.Equal(t, map[string]any{"lint": "clean"}, out.(map[string]any)["lint"])

	a = &agents{verdict: "approve", flakyLints: 3}
	_, err = NewReview(a).Run(context.Background(), input())
	require.Error(t, err, "maxRetries 2: two retries, then the error")
	assert.Len(t, a.calls["Linter"], 3)
}

// `key.$` parameters are read from the parent's input when the Include
// runs: the recipients and the repository reach the payloads, the
// blocking verdict is compared with in the template's Choice, and the
// JSONata state reads them too.
func TestRuntimeParameters(t *testing.T) {
	a := &agents{verdict: "approve"}
	out, err := NewReview(a).Run(context.Background(), input())
	require.NoError(t, err)
	require.Len(t, a.calls["Sender"], 1)
	assert.Empty(t, a.calls["Pager"])
	assert.Equal(t, map[string]any{
		"channel": "email",
		"to":      []any{"ana", "bo"},
		"subject": "Review of flowc (EMAIL)",
		"cc":      []any{"flowc-owners", "audit"},
	}, a.calls["Sender"][0])
	assert.Equal(t, map[string]any{"sent": 2.0, "note": "sent about flowc", "by": "email"}, out.(map[string]any)["notified"])

	in := input()
	in["repo"] = "other"
	in["config"].(map[string]any)["reviewers"] = []any{"cy"}
	a = &agents{verdict: "reject"}
	out, err = NewReview(a).Run(context.Background(), in)
	require.NoError(t, err)
	assert.Empty(t, a.calls["Sender"])
	require.Len(t, a.calls["Pager"], 1, "the verdict equals the blocking parameter given at run time")
	assert.Equal(t, map[string]any{"to": []any{"cy"}, "text": "other is blocked"}, a.calls["Pager"][0])
	assert.Equal(t, "paged", out.(map[string]any)["notified"])
}

// A parameter the parent's input lacks fails the Include as a path that
// points nowhere does.
func TestRuntimeParameterMissing(t *testing.T) {
	in := input()
	delete(in, "repo")
	_, err := NewReview(&agents{verdict: "approve"}).Run(context.Background(), in)
	require.Error(t, err)
	assert.Equal(t, "States.Runtime", flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), "Notify")
}

// A run-time parameter is checked against the template's declaration when
// the Include runs: recipients must be an array, blocking one of its Enum.
func TestRuntimeParameterOfTheWrongType(t *testing.T) {
	in := input()
	in["config"].(map[string]any)["reviewers"] = "ana"
	a := &agents{verdict: "approve"}
	_, err := NewReview(a).Run(context.Background(), in)
	require.Error(t, err)
	assert.Equal(t, "States.Runtime", flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), `template parameter "recipients" is "ana" (string), not of its Type "array"`)
	assert.Empty(t, a.calls["Sender"], "the template did not start")

	in = input()
	in["config"].(map[string]any)["blocking"] = "maybe"
	_, err = NewReview(&agents{verdict: "approve"}).Run(context.Background(), in)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `template parameter "blocking" is "maybe", not one of its Enum "reject", "block"`)
}

// A Fail state's Cause reads a run-time parameter too.
func TestRuntimeParameterInAFailCause(t *testing.T) {
	_, err := NewReview(&agents{verdict: "broken"}).Run(context.Background(), input())
	require.Error(t, err)
	assert.Equal(t, "Review.Broken", flowcrt.ErrorName(err))
	assert.Contains(t, err.Error(), "the review of flowc broke")
}
