package jsonmode_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind: no
// goroutine may outlive a call into this package.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
