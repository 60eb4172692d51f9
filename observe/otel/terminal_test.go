//go:build linux

package flowcotel_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/flowc-dev/flowc/golden/observed"
	flowcotel "github.com/flowc-dev/flowc/observe/otel"
)

// openPty returns the two ends of a new pseudo-terminal.
func openPty(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	require.NoError(t, unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	return m, s
}

// screen is what the terminal received once the program closed it.
func screen(t *testing.T, master, tty *os.File) string {
	t.Helper()
	require.NoError(t, tty.Close())
	out, _ := io.ReadAll(master) // ends with EIO once the other end is closed
	return string(out)
}

// On a terminal, ForBinary draws the progress line on it and clears it
// when done; with quiet it draws nothing.
func TestForBinaryOnATerminal(t *testing.T) {
	otlpEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	for _, quiet := range []bool{false, true} {
		t.Run(fmt.Sprint("quiet=", quiet), func(t *testing.T) {
			master, tty := openPty(t)
			opt, done, err := flowcotel.ForBinary(context.Background(), tty, quiet)
			require.NoError(t, err)
			require.NoError(t, observed.Map(opt, "a", "b", "c"))
			done()
			out := screen(t, master, tty)
			if quiet {
				assert.Empty(t, out)
				return
			}
			assert.True(t, strings.HasPrefix(out, "\rload\x1b[K"), "%q", out)
			assert.Contains(t, out, "load [####################] 3/3")
			assert.True(t, strings.HasSuffix(out, "\r\x1b[K"), "the line is cleared: %q", out)
		})
	}
}
