package soak

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// calls records every handler call as a line "<session> <call>", each line
// one write to a file opened for appending: a call that returned is on
// disk when its process is killed.
type calls struct {
	mu sync.Mutex
	f  *os.File
}

func (c *calls) record(session, call string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.f, "%s %s\n", session, call)
}

// work stands for a handler's own time, so that kills land inside runs.
func work() { time.Sleep(3 * time.Millisecond) }

type batch struct{ log *calls }

func (h batch) Load(_ context.Context, s BatchState) (BatchUpdate, error) {
	h.log.record(s.ID, "load")
	work()
	return BatchUpdate{}.WithNotes(map[string]string{"load": s.ID}), nil
}

func (h batch) Work(_ context.Context, s BatchState, item string) (BatchUpdate, error) {
	h.log.record(s.ID, "work "+item)
	work()
	return BatchUpdate{}.WithDone([]string{strings.ToUpper(item)}).WithTotal(len(item)), nil
}

func (h batch) Split(_ context.Context, s BatchState) (BatchUpdate, error) {
	h.log.record(s.ID, "split")
	return BatchUpdate{}, nil
}

func (h batch) Left(_ context.Context, s BatchState) (BatchUpdate, error) {
	h.log.record(s.ID, "left")
	work()
	return BatchUpdate{}.WithNotes(map[string]string{"left": fmt.Sprint(s.Total)}), nil
}

func (h batch) Right(_ context.Context, s BatchState) (BatchUpdate, error) {
	h.log.record(s.ID, "right")
	work()
	return BatchUpdate{}.WithNotes(map[string]string{"right": fmt.Sprint(len(s.Done))}), nil
}

func (h batch) Report(_ context.Context, s BatchState) (BatchUpdate, error) {
	h.log.record(s.ID, "report")
	return BatchUpdate{}.WithTotal(1000), nil
}

type supervised struct{ log *calls }

func (h supervised) Think(_ context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	h.log.record(s.ID, fmt.Sprint("think ", s.Rounds))
	work()
	action := "again"
	if s.Rounds+1 >= 3 {
		action = "done"
	}
	return SupervisedUpdate{}.WithRounds(s.Rounds + 1).WithTrail([]string{"think"}), action, nil
}

func (h supervised) Answer(_ context.Context, s SupervisedState) (SupervisedUpdate, error) {
	h.log.record(s.ID, fmt.Sprint("answer ", len(s.Trail)))
	return SupervisedUpdate{}.WithTrail([]string{"answer"}), nil
}

func (h supervised) Supervise(_ context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	h.log.record(s.ID, fmt.Sprint("supervise ", s.Reviews))
	work()
	if s.Reviews == 0 {
		return SupervisedUpdate{}.WithReviews(1), "retry", nil
	}
	return SupervisedUpdate{}.WithReviews(1), "accept", nil
}

type order struct{ log *calls }

func field(in any, key string) any { return in.(map[string]any)[key] }

func (h order) PriceLine(_ context.Context, in any) (any, error) {
	id, line, attempt := field(in, "id").(string), field(in, "line").(string), field(in, "attempt")
	h.log.record(id, fmt.Sprint("price ", line, " ", attempt))
	work()
	if attempt == 0.0 {
		return nil, flowcrt.NewError("Busy", "try again")
	}
	return map[string]any{"line": line, "price": float64(len(line))}, nil
}

func (h order) Stock(_ context.Context, in any) (any, error) {
	h.log.record(field(in, "id").(string), "stock")
	work()
	return map[string]any{"inStock": true}, nil
}

func (h order) Fraud(_ context.Context, in any) (any, error) {
	h.log.record(field(in, "id").(string), "fraud")
	work()
	return map[string]any{"risk": "low"}, nil
}

// SendMessageWaitForTaskToken stands for the queue that a person or a
// service answers later; the test sends the success for the token.
func (h order) SendMessageWaitForTaskToken(_ context.Context, in any) (any, error) {
	body := field(in, "MessageBody")
	h.log.record(field(body, "id").(string), "confirm")
	work()
	return nil, nil
}

func (h order) Charge(_ context.Context, in any) (any, error) {
	id := field(in, "id").(string)
	h.log.record(id, "charge")
	work()
	if int(field(in, "n").(float64))%4 == 0 {
		return nil, flowcrt.NewError("Declined", "card declined")
	}
	return "charged " + id, nil
}

type review struct{ log *calls }

func (h review) Writer(_ context.Context, call flowcrt.JSONCall) (string, error) {
	work()
	if call.State == "plan" {
		id := field(call.Input, "id").(string)
		h.log.record(id, "plan")
		return fmt.Sprintf(`{"sections": ["%s/intro", "%s/body", "%s/end"]}`, id, id, id), nil
	}
	item := fmt.Sprint(call.Input)
	id, _, _ := strings.Cut(item, "/")
	h.log.record(id, "write "+item)
	return "text of " + item, nil
}

func (h review) Editor(_ context.Context, call flowcrt.JSONCall) (string, error) {
	id := field(call.Input, "id").(string)
	h.log.record(id, "publish")
	work()
	return "published " + id, nil
}

// Summarize fails the run: a document's history (its plan, three
// sections with their items, and the publication) stays far under
// CodeMie's 25 messages, so nothing should summarize it.
func (review) Summarize(_ context.Context, history flowcrt.Messages) (flowcrt.Messages, error) {
	return nil, fmt.Errorf("the history of %d messages crossed the summarization limits", len(history))
}

type revise struct{ log *calls }

func (h revise) Draft(_ context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error) {
	drafts, _ := call.History("drafts")
	id, _, _ := strings.Cut(call.Prompt, " ")
	h.log.record(id, fmt.Sprint("draft ", len(drafts)))
	work()
	return flowcrt.ChainResult{Output: fmt.Sprintf("%s draft %d: %s", id, len(drafts)+1, call.Prompt)}, nil
}

func (h revise) Critique(_ context.Context, call flowcrt.ChainCall) (flowcrt.ChainResult, error) {
	text := call.Input.(string)
	id, _, _ := strings.Cut(text, " ")
	h.log.record(id, "critique "+strings.Fields(text)[2])
	work()
	return flowcrt.ChainResult{Output: fmt.Sprintf("more than %d words", len(strings.Fields(text))), Eval: "revise"}, nil
}
