package binmain

import (
	"context"
	"io"
)

// observe is where the program shows its progress on stderr and traces the
// run; quiet turns progress off. It returns the run's context and what to
// call once the run is over.
func observe(ctx context.Context, stderr io.Writer, quiet bool) (context.Context, func()) {
	return ctx, func() {}
}
