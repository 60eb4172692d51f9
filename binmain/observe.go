package binmain

import (
	"context"
	"io"
	"os"

	flowcotel "github.com/flowc-dev/flowc/observe/otel"
	flowcrt "github.com/flowc-dev/flowc/runtime"
)

// observe installs what the program shows and exports while the run goes:
// a progress line when stderr is a terminal and quiet is false, and OTLP
// traces when the OTEL_* environment asks for them. It returns the option
// that installs them and what to call once the run is over; an error means
// the OTEL_* variables are wrong.
func observe(ctx context.Context, stderr io.Writer, quiet bool) (flowcrt.Option, func(), error) {
	f, _ := stderr.(*os.File) // any other writer is no terminal: no progress
	return flowcotel.ForBinary(ctx, f, quiet)
}
