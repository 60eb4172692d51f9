// Command supervisor runs the generated Supervised workflow: PocketFlow's
// supervisor example, where a supervisor checks the answers of an agent
// flow and sends it back until an answer is acceptable. The agent's first
// answer is nonsense, as the example's unreliable model makes it; a small
// in-memory corpus stands in for the web.
//
//	go run ./examples/supervisor "Who designed Go?"
package main

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// nonsense marks an answer the supervisor must reject.
const nonsense = "Go was designed by a committee of dolphins."

// team implements SupervisedHandlers: the agent flow's handlers and the
// supervisor's, all on the supervised state.
type team struct {
	corpus map[string]string // query → what a search finds
}

// Decide searches once, then answers.
func (team) Decide(_ context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	if len(s.Context) > 0 {
		return SupervisedUpdate{}, "answer", nil
	}
	return SupervisedUpdate{}.WithQuery(s.Question), "search", nil
}

func (t team) Search(_ context.Context, s SupervisedState) (SupervisedUpdate, error) {
	found, ok := t.corpus[s.Query]
	if !ok {
		found = "nothing relevant for " + s.Query
	}
	return SupervisedUpdate{}.WithContext([]string{found}), nil
}

// Answer is unreliable: its first answer ignores the context.
func (team) Answer(_ context.Context, s SupervisedState) (SupervisedUpdate, error) {
	if s.Attempts == 0 {
		return SupervisedUpdate{}.WithAnswer(nonsense), nil
	}
	return SupervisedUpdate{}.WithAnswer(strings.Join(s.Context, " ")), nil
}

// Supervise rejects nonsense with "retry", which sends the run back into
// the agent flow, and accepts anything else.
func (team) Supervise(_ context.Context, s SupervisedState) (SupervisedUpdate, string, error) {
	u := SupervisedUpdate{}.WithAttempts(1)
	if s.Answer == nonsense {
		return u.WithAnswer(""), "retry", nil
	}
	return u, "approve", nil
}

var corpus = map[string]string{
	"Who designed Go?": "Go was designed at Google by Robert Griesemer, Rob Pike and Ken Thompson.",
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: supervisor QUESTION")
		os.Exit(2)
	}
	final, err := NewSupervised(team{corpus: corpus}).Run(context.Background(), SupervisedState{Question: os.Args[1]})
	if err != nil {
		fmt.Fprintln(os.Stderr, "supervisor:", err)
		os.Exit(1)
	}
	fmt.Printf("%s\n(%d answers reviewed)\n", final.Answer, final.Attempts)
}
