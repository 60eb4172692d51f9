package jsonmode

import (
	"context"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// A session's history records the input and output of the states inside
// JSON-mode fan-outs (issue 36) as it records those outside them: the
// state a state starts from and the state it leaves, context store and
// messages. Every JSON-mode state runs through Do, which reports both when
// the run's observer takes them (impl.StateData); FanOutStops marks its
// branches and items as reporting them.

// entered reports s as the input of the state ctx visits.
func (s *JSONState) entered(ctx context.Context, cfg *impl.Config) {
	if d, ok := cfg.Observer.(impl.StateData); ok {
		d.Entered(ctx, *s)
	}
}

// succeeded reports s as the output of the state ctx visits.
func (s *JSONState) succeeded(ctx context.Context, cfg *impl.Config) {
	if d, ok := cfg.Observer.(impl.StateData); ok {
		d.Succeeded(ctx, *s)
	}
}
