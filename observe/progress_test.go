package observe_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/golden/observed"
	"github.com/flowc-dev/flowc/observe"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// terminal is a fake terminal of one line: it understands a carriage
// return and erase-to-end-of-line, which is all Progress writes besides
// text, and keeps what the line showed after each write.
type terminal struct {
	mu     sync.Mutex
	line   []rune
	col    int
	frames []string
}

func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(p)
	for s != "" {
		switch {
		case strings.HasPrefix(s, "\r"):
			t.col, s = 0, s[1:]
		case strings.HasPrefix(s, "\x1b[K"):
			t.line, s = t.line[:t.col], s[3:]
		default:
			r := []rune(s)[0]
			if t.col < len(t.line) {
				t.line[t.col] = r
			} else {
				t.line = append(t.line, r)
			}
			t.col++
			s = s[len(string(r)):]
		}
	}
	t.frames = append(t.frames, string(t.line))
	return len(p), nil
}

func (t *terminal) seen() (frames []string, last string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.frames...), string(t.line)
}

// A map fan-out shows the state that runs, how many others run with it
// and a bar of the items done; the bar fills up, the next state follows,
// and the line is gone when the run ends.
func TestProgressOfAMap(t *testing.T) {
	term := &terminal{}
	p := observe.NewProgress(term, observe.Interval(0), observe.Width(80))
	err := observed.Map(flowcrt.WithObserver(p), "a", "b", "c")
	require.NoError(t, err)
	frames, last := term.seen()
	assert.Equal(t, "load", frames[0])
	assert.Contains(t, frames, "load · load [....................] 0/3")
	assert.Contains(t, frames, "load · load [####################] 3/3")
	assert.Contains(t, frames, "report")
	item := regexp.MustCompile(`^score \(\+[12] running\) · load \[[#.]{20}\] [0-2]/3$`)
	assert.True(t, anyMatch(frames, item), "an item's state shows with the fan-out's bar: %q", frames)
	assert.Empty(t, last, "the line is cleared when the run ends")
}

func anyMatch(frames []string, re *regexp.Regexp) bool {
	for _, f := range frames {
		if re.MatchString(f) {
			return true
		}
	}
	return false
}

// Many items at once: the counts add up whatever the interleaving (run
// with -race).
func TestProgressConcurrentItems(t *testing.T) {
	term := &terminal{}
	p := observe.NewProgress(term, observe.Interval(0))
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = fmt.Sprint("t", i)
	}
	err := observed.Map(flowcrt.WithObserver(p), ids...)
	require.NoError(t, err)
	frames, last := term.seen()
	assert.Contains(t, frames, "load · load [####################] 40/40")
	assert.Empty(t, last)
}

// Redraws come at most once an interval; a change in between is drawn
// once the interval is over. The last item of a fan-out and the end of the
// run show at once.
func TestProgressRate(t *testing.T) {
	term := &terminal{}
	now := time.Unix(0, 0)
	var due func() // the redraw scheduled, if any
	after := func(d time.Duration, f func()) func() bool {
		assert.Equal(t, 100*time.Millisecond, d)
		due = f
		return func() bool { due = nil; return true }
	}
	p := observe.NewProgress(term, observe.Clock(func() time.Time { return now }, after))
	ctx, endRun := p.Run(context.Background(), "W")
	sctx, _ := p.State(ctx, "a")
	p.State(ctx, "b") // too soon: scheduled
	_, last := term.seen()
	assert.Equal(t, "a", last)
	require.NotNil(t, due)
	now = now.Add(100 * time.Millisecond)
	due()
	_, last = term.seen()
	assert.Equal(t, "b (+1 running)", last, "a state that starts within the interval shows after it")
	now = now.Add(150 * time.Millisecond)
	_, endItem := p.Item(sctx, "a", 0, 1) // the interval has passed: drawn
	_, last = term.seen()
	assert.Equal(t, "b (+1 running) · a [....................] 0/1", last)
	endItem(nil) // the last item: drawn at once
	_, last = term.seen()
	assert.Equal(t, "b (+1 running) · a [####################] 1/1", last)
	p.State(ctx, "c") // too soon: scheduled, then cancelled by the end of the run
	require.NotNil(t, due)
	endRun(nil)
	assert.Nil(t, due)
	frames, last := term.seen()
	assert.Empty(t, last)
	assert.Len(t, frames, 5, "a, b, the bar, the full bar, cleared")
}

// A long line is cut to the terminal's width, less the last column.
func TestProgressCutToWidth(t *testing.T) {
	term := &terminal{}
	p := observe.NewProgress(term, observe.Width(12))
	ctx, _ := p.Run(context.Background(), "W")
	p.State(ctx, "a-very-long-state-id")
	_, last := term.seen()
	assert.Equal(t, "a-very-lon…", last)
}

// On anything but a terminal there is no progress, and a nil Progress
// observes nothing without failing the run.
func TestProgressNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	require.NoError(t, err)
	defer f.Close()
	p := observe.ForTerminal(f)
	assert.Nil(t, p)
	err = observed.Map(flowcrt.WithObserver(p), "a")
	require.NoError(t, err)
	p.Close()
	info, err := f.Stat()
	require.NoError(t, err)
	assert.Zero(t, info.Size())
}
