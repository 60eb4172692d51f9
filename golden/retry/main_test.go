package retry

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a retry's backoff leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
