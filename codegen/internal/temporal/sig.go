package temporal

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/flowc-dev/flowc/codegen/internal/emit"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// goImport is one import of the Temporal file; Gap starts a new group.
type goImport struct {
	Name, Path string
	Gap        bool
}

// signatures are the handler methods and Run of a plan, as Go text, and
// the imports their types need.
type signatures struct {
	methods map[string]method
	more    []string // the services of the handlers interface, in order
	run     method
	imports []goImport
}

// signaturesOf prints the handler methods and Run of sh, whose types the
// plan holds as data, the way the Temporal file spells them.
func signaturesOf(sh *plan.Plan) signatures {
	im := importNames{}
	sigs := signatures{methods: map[string]method{}}
	for _, sv := range sh.More {
		sigs.more = append(sigs.more, sv.Name)
		sigs.methods[sv.Name] = textMethod(sv.Name, sv.Sig, im)
	}
	for _, h := range sh.Handlers {
		sigs.methods[h.Name] = textMethod(h.Name, h.Sig, im)
	}
	sigs.run = textMethod("Run", sh.Runs[0].Sig, im)
	reads, writes := sh.ItemReads, sh.ResultWrites
	handlers := len(sh.More)+len(sh.Handlers) > 0
	sigs.imports = temporalImports(im, handlers || reads || writes)
	return sigs
}

func textMethod(name string, s plan.Sig, im importNames) method {
	m := method{Name: name}
	for _, p := range s.Params {
		m.Params = append(m.Params, param{Name: p.Name, Type: im.typeText(p.Typ)})
	}
	for _, r := range s.Results {
		m.Results = append(m.Results, im.typeText(r))
	}
	return m
}

// importNames are the packages the signatures name, by path, with the name
// each is imported as.
type importNames map[string]string

// typeText prints t, noting the packages it names.
func (im importNames) typeText(t *ir.Type) string {
	switch t.Kind {
	case ir.TypeSlice:
		return "[]" + im.typeText(t.Elem)
	case ir.TypeMap:
		return "map[" + im.typeText(t.Key) + "]" + im.typeText(t.Elem)
	case ir.TypePointer:
		return "*" + im.typeText(t.Elem)
	case ir.TypeMessages:
		return im.typeText(plan.RtType("Messages"))
	}
	if t.Pkg == "" {
		return t.Name
	}
	return im.name(t.Pkg) + "." + t.Name
}

// name is the name path is imported as: the runtime's aliases, else the
// last element of the path as an identifier, made unique.
func (im importNames) name(path string) string {
	if n, ok := im[path]; ok {
		return n
	}
	n := emit.RuntimeAliases[path]
	if n == "" {
		n = packageName(path)
		for i := 2; slices.Contains(slices.Collect(maps.Values(im)), n); i++ {
			n = packageName(path) + strconv.Itoa(i)
		}
	}
	im[path] = n
	return n
}

// packageName guesses a package's name from its import path, as jennifer
// does for the native file: the last element, less what an identifier
// cannot hold.
func packageName(path string) string {
	last := path[strings.LastIndexByte(path, '/')+1:]
	name := strings.Map(func(r rune) rune {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, last)
	if name == "" || unicode.IsDigit(rune(name[0])) {
		name = "pkg" + name
	}
	return name
}

// temporalImports are the imports of the signatures and those of the
// Temporal file's own code, grouped as goimports would; activities: the
// file declares activities (handler methods, a distributed Map's reader or
// writer).
func temporalImports(im importNames, activities bool) []goImport {
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
	var imps []goImport
	for p, name := range paths {
		if name == p[strings.LastIndexByte(p, '/')+1:] {
			name = ""
		}
		imps = append(imps, goImport{Name: name, Path: p})
	}
	imps = importOrder(imps)
	for i := 1; i < len(imps); i++ {
		if !strings.Contains(imps[i-1].Path, ".") && strings.Contains(imps[i].Path, ".") {
			imps[i].Gap = true
		}
	}
	return imps
}

// RunTypes are the input and result types of sh's Run, as the Temporal
// file spells them: the runner of `flowc run --engine temporal` passes and
// prints the same values.
func RunTypes(sh *plan.Plan) (in, out string) {
	run := signaturesOf(sh).run
	return run.Params[0].Type, run.Results[0]
}
