// Command triage routes support tickets with the generated Triage workflow.
// Its handlers are plain Go: a keyword classifier stands in for a model.
//
//	go run ./examples/triage '{"title": "Crash on login", "body": "stack trace", "priority": 4}'
package main

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// desk implements TriageHandlers.
type desk struct{}

func (desk) Classify(_ context.Context, s TriageState) (TriageUpdate, error) {
	text := strings.ToLower(s.Ticket.Title + " " + s.Ticket.Body)
	u := TriageUpdate{}.WithAttempts(1)
	switch {
	case strings.Contains(text, "crash") || strings.Contains(text, "error"):
		u = u.WithStatus("bug")
	case strings.Contains(text, "?") || strings.HasPrefix(text, "how"):
		u = u.WithStatus("question")
	default:
		u = u.WithStatus("other")
	}
	if s.Ticket.Priority >= 5 {
		u = u.WithLabels(map[string]string{"urgent": "priority 5"})
	}
	return u, nil
}

func (desk) Fix(_ context.Context, s TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithMessages(flowcrt.Messages{{Role: "engineer", Content: "patched: " + s.Ticket.Title}}), nil
}

func (desk) Answer(_ context.Context, s TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithStatus("answered").
		WithMessages(flowcrt.Messages{{Role: "support", Content: "reply sent for: " + s.Ticket.Title}}), nil
}

func (desk) Escalate(_ context.Context, s TriageState) (TriageUpdate, error) {
	return TriageUpdate{}.WithStatus("escalated").
		WithMessages(flowcrt.Messages{{Role: "support", Content: "paged the on-call engineer"}}), nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, `usage: triage '{"title": "...", "body": "...", "priority": 3}'`)
		os.Exit(2)
	}
	var t Ticket
	if err := json.Unmarshal([]byte(os.Args[1]), &t); err != nil {
		fmt.Fprintln(os.Stderr, "triage:", err)
		os.Exit(2)
	}
	final, err := NewTriage(desk{}).Run(context.Background(), TriageState{Ticket: t})
	if err != nil {
		fmt.Fprintln(os.Stderr, "triage:", err)
		os.Exit(1)
	}
	out, _ := json.MarshalIndent(final, "", "  ")
	fmt.Println(string(out))
}
