package observe

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// Progress is an observer that keeps one line of a terminal up to date
// with the state that runs and, while a fan-out runs, a bar of its items
// done out of their total:
//
//	score (+1 running) · load [########............] 2/5
//
// It redraws the line in place at most once an interval and clears it
// when the run ends. It is safe for concurrent use.
type Progress struct {
	mu       sync.Mutex
	w        io.Writer
	width    func() int
	now      func() time.Time
	after    func(d time.Duration, f func()) (stop func() bool)
	interval time.Duration
	drawn    time.Time   // when the line was last drawn
	shown    string      // the line on the terminal
	pending  func() bool // stops the redraw due once the interval is over; nil: none
	runs     int         // runs under way: nested runs share the line
	seq      int         // orders the visits and fan-outs by start
	visits   map[*visit]bool
}

var _ flowcrt.Observer = (*Progress)(nil)

// visit is one state visit under way, and the fan-out it opened.
type visit struct {
	id  string
	seq int
	fan *fan
}

type fan struct {
	state                string
	seq                  int
	started, done, total int // total < 0: not known yet
}

// over reports whether every item of f has started, so that another item
// of the state is a new fan-out (a retried Map).
func (f *fan) over() bool { return f.total >= 0 && f.started >= f.total }

// ProgressOption configures a Progress.
type ProgressOption func(*Progress)

// Width sets the width of the terminal in columns; the line is cut to it.
func Width(columns int) ProgressOption {
	return func(p *Progress) { p.width = func() int { return columns } }
}

// Interval sets the shortest time between two redraws (default 100ms; 0
// redraws on every change).
func Interval(d time.Duration) ProgressOption {
	return func(p *Progress) { p.interval = d }
}

// Clock sets the time source of the redraw interval: now, and after,
// which calls f once d has passed and returns a function that cancels
// that.
func Clock(now func() time.Time, after func(d time.Duration, f func()) (stop func() bool)) ProgressOption {
	return func(p *Progress) { p.now, p.after = now, after }
}

func afterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// NewProgress returns a Progress that draws on w, a terminal 80 columns
// wide unless Width says otherwise.
func NewProgress(w io.Writer, opts ...ProgressOption) *Progress {
	p := &Progress{w: w, width: func() int { return 80 }, now: time.Now, after: afterFunc, interval: 100 * time.Millisecond, visits: map[*visit]bool{}}
	for _, opt := range opts {
		opt(p)
	}
	return p
}

// ForTerminal returns a Progress that draws on f when f is a terminal,
// following its width, and nil otherwise: a log file or a pipe gets no
// progress lines. A nil *Progress observes nothing.
func ForTerminal(f *os.File) *Progress {
	fd := int(f.Fd())
	if !term.IsTerminal(fd) {
		return nil
	}
	return NewProgress(f, func(p *Progress) {
		p.width = func() int {
			if w, _, err := term.GetSize(fd); err == nil && w > 0 {
				return w
			}
			return 80
		}
	})
}

// Close clears the line, if anything is drawn.
func (p *Progress) Close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw("")
}

func (p *Progress) Run(ctx context.Context, _ string) (context.Context, func(error)) {
	if p == nil {
		return ctx, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.runs++
	return ctx, func(error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.runs--; p.runs == 0 {
			clear(p.visits) // nothing of a finished run stays on the line
			p.draw("")
		}
	}
}

func (p *Progress) State(ctx context.Context, state string) (context.Context, func(error)) {
	if p == nil {
		return ctx, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	v := &visit{id: state, seq: p.seq}
	p.visits[v] = true
	p.update(false)
	return context.WithValue(ctx, p, v), func(error) { // each Progress is its own key
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.visits, v)
		p.update(false)
	}
}

// Attempt shows nothing of its own: the state is on the line already.
func (p *Progress) Attempt(ctx context.Context, _ string, _ int) (context.Context, func(error)) {
	return ctx, nil
}

func (p *Progress) Item(ctx context.Context, state string, _, total int) (context.Context, func(error)) {
	if p == nil {
		return ctx, nil
	}
	v, _ := ctx.Value(p).(*visit)
	if v == nil {
		return ctx, nil // a fan-out outside an observed state: nothing to count it in
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if v.fan == nil || v.fan.state != state || v.fan.over() {
		p.seq++
		v.fan = &fan{state: state, seq: p.seq, total: total}
		p.update(false)
	}
	f := v.fan
	f.started++
	return ctx, func(error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		f.done++
		// The last item is drawn at once: the bar should not stop short.
		p.update(f.done == f.total)
	}
}

// update redraws the line if it changed, now or, when the last redraw is
// too recent, once the interval is over: a state that starts then and runs
// long must not stay hidden.
func (p *Progress) update(now bool) {
	line := p.line()
	if line == p.shown {
		return
	}
	t := p.now()
	if wait := p.interval - t.Sub(p.drawn); !now && !p.drawn.IsZero() && wait > 0 {
		if p.pending == nil {
			p.pending = p.after(wait, p.redraw)
		}
		return
	}
	p.drawn = t
	p.draw(line)
}

// redraw is the redraw due once the interval is over.
func (p *Progress) redraw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending = nil
	p.update(true)
}

// draw replaces the line on the terminal by line.
func (p *Progress) draw(line string) {
	if p.pending != nil {
		p.pending() // this draw is as new as the one due
		p.pending = nil
	}
	if line == p.shown {
		return
	}
	p.shown = line
	// Errors are ignored: a terminal that cannot be written to is no
	// reason to fail a run.
	_, _ = io.WriteString(p.w, "\r"+line+"\x1b[K")
}

// line is what the terminal should show: the latest state to start, how
// many others run, and the latest fan-out's bar.
func (p *Progress) line() string {
	var last *visit
	var bar *fan
	for v := range p.visits {
		if last == nil || v.seq > last.seq {
			last = v
		}
		if v.fan != nil && (bar == nil || v.fan.seq > bar.seq) {
			bar = v.fan
		}
	}
	if last == nil {
		return ""
	}
	line := last.id
	if n := len(p.visits) - 1; n > 0 {
		line += fmt.Sprintf(" (+%d running)", n)
	}
	if bar != nil {
		line += " · " + bar.state + " " + bar.render()
	}
	return cut(line, p.width()-1) // the last column would wrap on some terminals
}

const barWidth = 20

func (f *fan) render() string {
	if f.total < 0 {
		return fmt.Sprintf("%d/?", f.done)
	}
	full := 0
	if f.total > 0 {
		full = min(barWidth, f.done*barWidth/f.total)
	}
	return "[" + strings.Repeat("#", full) + strings.Repeat(".", barWidth-full) + "] " + fmt.Sprintf("%d/%d", f.done, f.total)
}

// cut shortens s to at most n runes, ending it with an ellipsis.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 1 {
		return s
	}
	return string(r[:n-1]) + "…"
}
