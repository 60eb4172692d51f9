package flowrun

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind, such as a
// checkpoint server still reading its pipe.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
