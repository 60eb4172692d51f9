// Command research-agent runs the generated Research workflow: a decide →
// search → decide → answer loop. A small in-memory corpus and a rule stand in
// for the web and the model, so the run is deterministic.
//
//	go run ./examples/research-agent "Who designed Go?"
package main

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// agent implements ResearchHandlers.
type agent struct {
	corpus     map[string]string // query → what a search finds
	minContext int               // how much context the agent wants before answering
}

// Decide searches until it has enough context, then answers.
func (a agent) Decide(_ context.Context, s ResearchState) (ResearchUpdate, string, error) {
	if len(s.Context) >= a.minContext {
		return ResearchUpdate{}, "answer", nil
	}
	query := s.Question
	if len(s.Context) > 0 {
		query += " history"
	}
	return ResearchUpdate{}.WithQuery(query), "search", nil
}

func (a agent) Search(_ context.Context, s ResearchState) (ResearchUpdate, error) {
	found, ok := a.corpus[s.Query]
	if !ok {
		found = "nothing relevant for " + s.Query
	}
	return ResearchUpdate{}.WithContext([]string{found}).WithSearches(1), nil
}

func (a agent) Answer(_ context.Context, s ResearchState) (ResearchUpdate, error) {
	return ResearchUpdate{}.WithAnswer(strings.Join(s.Context, " ")), nil
}

var corpus = map[string]string{
	"Who designed Go?":         "Go was designed at Google by Robert Griesemer, Rob Pike and Ken Thompson.",
	"Who designed Go? history": "Work on Go began in 2007; it was announced in 2009.",
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: research-agent QUESTION")
		os.Exit(2)
	}
	final, err := NewResearch(agent{corpus: corpus, minContext: 2}).Run(context.Background(), ResearchState{Question: os.Args[1]})
	if err != nil {
		fmt.Fprintln(os.Stderr, "research-agent:", err)
		os.Exit(1)
	}
	fmt.Printf("%s\n(%d searches)\n", final.Answer, final.Searches)
}
