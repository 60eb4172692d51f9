package aslskills

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// agents records what each agent was given; reject makes the checker
// turn the document down.
type agents struct {
	mu     sync.Mutex
	calls  map[string][]any
	reject bool
}

func (a *agents) record(name string, in any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.calls == nil {
		a.calls = map[string][]any{}
	}
	a.calls[name] = append(a.calls[name], in)
}

func (a *agents) Checker(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("Checker", in)
	if a.reject {
		return nil, &flowcrt.Error{Name: "Check.Rejected", Cause: "no title"}
	}
	return map[string]any{"score": 0.9}, nil
}

func (a *agents) Mailer(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("Mailer", in)
	return "mailed", nil
}

func (a *agents) Chatter(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("Chatter", in)
	return "posted", nil
}

func (a *agents) Pager(_ context.Context, in any, _ flowcrt.Agent) (any, error) {
	a.record("Pager", in)
	return "paged", nil
}

func input(prefers string, urgent bool) map[string]any {
	return map[string]any{"doc": "draft", "author": "ana@example.com", "text": "hello", "prefers": prefers, "urgent": urgent}
}

// A valid document: the check's Accepted state ends the template (its
// outcome label is no value), the team is told by chat (the literal
// channel, folded when compiled) and the owner by the channel of the run.
func TestAcceptedDocumentTellsTeamAndOwner(t *testing.T) {
	a := &agents{}
	out, err := NewApp(a).Run(context.Background(), input("mail", false))
	require.NoError(t, err)
	o := out.(map[string]any)
	assert.Equal(t, map[string]any{"valid": true, "score": 0.9}, o["validation"], "the labelled state's output, not its label")
	require.Len(t, a.calls["Checker"], 1)
	assert.Equal(t, map[string]any{"doc": "draft", "rules": "strict"}, a.calls["Checker"][0])
	require.Len(t, a.calls["Chatter"], 1, "the literal channel chat routes to Chat")
	assert.Equal(t, map[string]any{"room": "#docs", "text": "hello"}, a.calls["Chatter"][0])
	require.Len(t, a.calls["Mailer"], 1, "the run-time channel mail routes to Mail")
	assert.Equal(t, map[string]any{"to": "ana@example.com", "text": "hello"}, a.calls["Mailer"][0])
	assert.Empty(t, a.calls["Pager"])
	assert.Equal(t, map[string]any{"delivered": true, "via": "chat", "receipt": "posted"}, o["team"])
	assert.Equal(t, map[string]any{"delivered": true, "via": "mail", "receipt": "mailed"}, o["owner"])
}

// The run-time channel decides each time: chat matches the compound rule,
// pager none (the Default), and urgent pages whatever the channel.
func TestRunTimeChannelRoutes(t *testing.T) {
	for _, tc := range []struct {
		prefers string
		urgent  bool
		agent   string
	}{{"chat", false, "Chatter"}, {"pager", false, "Pager"}, {"mail", true, "Pager"}} {
		a := &agents{}
		out, err := NewApp(a).Run(context.Background(), input(tc.prefers, tc.urgent))
		require.NoError(t, err)
		owner := out.(map[string]any)["owner"].(map[string]any)
		assert.Equal(t, tc.prefers, owner["via"])
		calls := a.calls[tc.agent]
		require.NotEmpty(t, calls, "%s (urgent %v) goes to %s", tc.prefers, tc.urgent, tc.agent)
		assert.Equal(t, "ana@example.com", lastRecipient(calls[len(calls)-1]), "the owner is the run's author")
	}
}

func lastRecipient(in any) any {
	m := in.(map[string]any)
	for _, k := range []string{"to", "room", "who"} {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

// A channel outside the template's Enum, given at run time, fails the
// Include.
func TestRunTimeChannelOutsideEnumFails(t *testing.T) {
	_, err := NewApp(&agents{}).Run(context.Background(), input("fax", false))
	require.Error(t, err)
	assert.Equal(t, "States.Runtime", flowcrt.ErrorName(err))
}

// A rejected document: the check's Rejected state ends it, and the author
// is mailed (the literal channel mail).
func TestRejectedDocumentMailsAuthor(t *testing.T) {
	a := &agents{reject: true}
	out, err := NewApp(a).Run(context.Background(), input("chat", false))
	require.NoError(t, err)
	o := out.(map[string]any)
	assert.Equal(t, map[string]any{"valid": false, "reason": "no title"}, o["validation"])
	require.Len(t, a.calls["Mailer"], 1)
	assert.Equal(t, map[string]any{"to": "ana@example.com", "text": "hello"}, a.calls["Mailer"][0])
	assert.Empty(t, a.calls["Chatter"], "the author is not told by the run's channel")
	assert.Equal(t, map[string]any{"delivered": true, "via": "mail", "receipt": "mailed"}, o["alert"])
}
