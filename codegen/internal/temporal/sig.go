package temporal

import (
	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir/plan"
)

// signatures are the handler methods and Run of a plan, as Go text, and
// the imports their types need.
type signatures struct {
	methods map[string]method
	more    []string // the services of the handlers interface, in order
	run     method
	decoder string // the input decoder, as the file spells it; "" for none
	imports []emit.Import
}

// signaturesOf prints the handler methods and Run of sh, whose types the
// plan holds as data, the way the Temporal file spells them.
func signaturesOf(sh *plan.Plan) signatures {
	handlers := len(sh.More)+len(sh.Handlers) > 0
	im := fileImports(handlers || sh.ItemReads || sh.ResultWrites)
	sigs := signatures{methods: map[string]method{}}
	for _, sv := range sh.More {
		sigs.more = append(sigs.more, sv.Name)
		sigs.methods[sv.Name] = textMethod(sv.Name, sv.Sig, im)
	}
	for _, h := range sh.Handlers {
		sigs.methods[h.Name] = textMethod(h.Name, h.Sig, im)
	}
	sigs.run = textMethod("Run", sh.Runs[0].Sig, im)
	sigs.decoder = im.Ref(sh.InputDecoder)
	sigs.imports = im.Lines()
	return sigs
}

func textMethod(name string, s plan.Sig, im emit.Imports) method {
	m := method{Name: name}
	for _, p := range s.Params {
		m.Params = append(m.Params, param{Name: p.Name, Type: im.Type(p.Typ)})
	}
	for _, r := range s.Results {
		m.Results = append(m.Results, im.Type(r))
	}
	return m
}

// fileImports are the imports of the Temporal file's own code, named
// before any signature's so that a package of the user's cannot take one
// of their names (a package "workflow" is imported as workflow2);
// activities: the file declares activities (handler methods, a
// distributed Map's reader or writer).
func fileImports(activities bool) emit.Imports {
	im := emit.Imports{
		"context":                     "context",
		"encoding/json":               "json", // new input comes as JSON
		plan.RuntimePath:              emit.RuntimeAlias,
		plan.ImplPath:                 emit.ImplAlias,
		plan.ChainPath:                emit.ChainAlias,
		plan.ASLPath:                  emit.ASLAlias,
		plan.HarnessPath:              emit.HarnessAlias,
		flowtemporalPath:              "flowtemporal",
		"go.temporal.io/sdk/worker":   "worker",
		"go.temporal.io/sdk/workflow": "workflow",
	}
	if activities {
		im["go.temporal.io/sdk/activity"] = "activity"
	}
	return im
}

// RunTypes are the input and result types of sh's Run, as the Temporal
// file spells them: the runner of `flowc run --engine temporal` passes and
// prints the same values.
func RunTypes(sh *plan.Plan) (in, out string) {
	run := signaturesOf(sh).run
	return run.Params[0].Type, run.Results[0]
}
