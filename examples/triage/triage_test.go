package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcrun "github.com/flowc-dev/flowc/flowrun"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

func TestTriageRoutes(t *testing.T) {
	tests := []struct {
		name     string
		ticket   Ticket
		status   string
		messages []string
	}{
		{"bug is fixed then answered", Ticket{Title: "Crash on login", Priority: 3}, "answered",
			[]string{"patched: Crash on login", "reply sent for: Crash on login"}},
		{"minor bug is escalated", Ticket{Title: "Error in footer", Priority: 1}, "escalated",
			[]string{"paged the on-call engineer"}},
		{"question is answered", Ticket{Title: "How do I export?"}, "answered",
			[]string{"reply sent for: How do I export?"}},
		{"outage is escalated before anything else", Ticket{Title: "Crash everywhere", Priority: 5}, "escalated",
			[]string{"paged the on-call engineer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			final, err := NewTriage(desk{}).Run(context.Background(), TriageState{Ticket: tt.ticket})
			require.NoError(t, err)
			assert.Equal(t, tt.status, final.Status)
			assert.Equal(t, 1, final.Attempts)
			var contents []string
			for _, m := range final.Messages {
				contents = append(contents, m.Content)
			}
			assert.Equal(t, tt.messages, contents)
		})
	}
}

// A classifier that keeps failing is retried, then caught and escalated.
func TestTriageEscalatesWhenClassifyFails(t *testing.T) {
	cfg, err := flowcrun.ParseMockConfig([]byte(`{
		"StateMachines": {"Triage": {"TestCases": {"down": {"classify": "RateLimited"}}}},
		"MockedResponses": {"RateLimited": {"0": {"Throw": {"Error": "RateLimited", "Cause": "slow down"}}}}
	}`))
	require.NoError(t, err)
	mocks, err := cfg.Case("Triage", "down")
	require.NoError(t, err)
	clock := flowcrt.NewFakeClock(time.Now())
	final, err := NewTriageMock(mocks, flowcrt.WithClock(clock)).Run(context.Background(), TriageState{})
	require.NoError(t, err)
	assert.Equal(t, "", final.Status, "escalate is unmocked and returns an empty update")
	assert.Equal(t, []time.Duration{time.Second, 2 * time.Second}, clock.Sleeps(), "three attempts, backing off")
}
