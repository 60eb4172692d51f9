package asl

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind: no
// goroutine of a state machine's run (a Map's children, a reader, a
// timer) may outlive it.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
