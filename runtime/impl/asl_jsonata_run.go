package impl

import (
	"strings"

	"github.com/blues/jsonata-go"
	"github.com/blues/jsonata-go/jlib"
	"github.com/blues/jsonata-go/jtypes"
)

// JSONata's functions whose value depends on when and how a run goes read
// the run's clock and source of randomness (Config.Clock, Config.Rand)
// instead of the process's, so that an engine that replays a run
// (Temporal) gets the same values again.

// runFunctionNames are those functions, as an expression calls them.
var runFunctionNames = []string{"$now", "$millis", "$random", "$uuid"}

// callsRunFunctions: src may call one of them.
func callsRunFunctions(src string) bool {
	for _, name := range runFunctionNames {
		if strings.Contains(src, name) {
			return true
		}
	}
	return false
}

// runFunctions are those functions for one evaluation in cx: $now and
// $millis give the same time throughout it, as JSONata's own do.
func (cx *aslContext) runFunctions() map[string]jsonata.Extension {
	cfg := cx.exec.cfg
	ms := cfg.clock().Now().UnixMilli()
	return map[string]jsonata.Extension{
		"now": {Func: func(picture, tz jtypes.OptionalString) (string, error) {
			return jlib.FromMillis(ms, picture, tz)
		}},
		"millis": {Func: func() int64 { return ms }},
		"random": {Func: func() float64 { return cfg.random() }},
		"uuid":   {Func: func() string { return randomUUID(cfg.random) }},
	}
}
