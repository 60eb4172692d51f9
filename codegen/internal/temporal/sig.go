package temporal

import (
	"maps"

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
	im := emit.Imports{}
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
	reads, writes := sh.ItemReads, sh.ResultWrites
	handlers := len(sh.More)+len(sh.Handlers) > 0
	sigs.imports = temporalImports(im, handlers || reads || writes)
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

// temporalImports are the imports of the signatures and those of the
// Temporal file's own code, grouped as goimports would; activities: the
// file declares activities (handler methods, a distributed Map's reader or
// writer).
func temporalImports(im emit.Imports, activities bool) []emit.Import {
	paths := map[string]string{
		"context":                     "",
		"encoding/json":               "", // new input comes as JSON
		plan.RuntimePath:              emit.RuntimeAlias,
		plan.ImplPath:                 emit.ImplAlias,
		plan.ChainPath:                emit.ChainAlias,
		plan.ASLPath:                  emit.ASLAlias,
		plan.HarnessPath:              emit.HarnessAlias,
		flowtemporalPath:              "",
		"go.temporal.io/sdk/worker":   "",
		"go.temporal.io/sdk/workflow": "",
	}
	if activities {
		paths["go.temporal.io/sdk/activity"] = ""
	}
	maps.Copy(paths, im)
	return emit.Imports(paths).Lines()
}

// RunTypes are the input and result types of sh's Run, as the Temporal
// file spells them: the runner of `flowc run --engine temporal` passes and
// prints the same values.
func RunTypes(sh *plan.Plan) (in, out string) {
	run := signaturesOf(sh).run
	return run.Params[0].Type, run.Results[0]
}
