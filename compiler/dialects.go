package compiler

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/asl"
	"github.com/flowc-dev/flowc/compiler/chain"
	"github.com/flowc-dev/flowc/compiler/flowyaml"
	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
	"github.com/flowc-dev/flowc/ir/plan"
)

// Dialect is one workflow language as the compiler and the command know
// it: how a file is recognised, lowered and planned, and the JSON Schema
// editors check it with. Everything outside the dialect's own packages
// looks it up in Dialects; codegen's writers are keyed by the modes its
// planners plan (codegen/internal/dialect).
type Dialect struct {
	// Name is what `flowc schema NAME` prints the schema of; Aliases are
	// older names it still accepts, the first of them naming the schema's
	// file under docs/ that editors' settings point at.
	Name     string
	Aliases  []string
	About    string   // one line for `flowc schema`'s list
	Suffixes []string // the file names it compiles
	// Marker is what Detect looks for, in words, for the error of a file
	// that is no dialect's.
	Marker string
	Detect func(root *yaml.Node) bool
	Lower  func(r *yamlx.Reader, root *yaml.Node, d Defaults) *ir.Workflow
	// Plans is the planner of each mode the front-end may give its
	// workflow (ir.Workflow.Mode): the front-end decides the mode, the
	// compiler calls the planner of that mode.
	Plans  map[ir.Mode]func(*ir.Checked) *plan.Plan
	Schema func() ([]byte, error)
	// CheckRejected: the checker runs even when the front-end reported
	// errors, so that a bad reference is reported beside a bad field, as
	// statelint does. The IR must then be whole enough for the checker.
	CheckRejected bool
	// JSONOnly: a .json file of the dialect must be JSON, not the YAML
	// that yaml.v3 would also read (a trailing comma), as its engine says.
	JSONOnly bool
}

// Defaults are what a definition may leave out, taken from its file and
// the directory its generated file goes to.
type Defaults struct {
	Stem       string // the file name without its suffix: the default workflow name
	Package    string // the default Go package
	DirPackage string // the package of the Go files already in Dir, or ""
	Dir        string // where the generated file goes
}

// Files is d's file names as patterns: "*.flow.yaml, *.flow.yml".
func (d *Dialect) Files() string {
	return "*" + strings.Join(d.Suffixes, ", *")
}

// Dialects are every language flowc compiles, registered here once, in the
// order a document is tried against their Detect (and `flowc schema` lists
// them).
var Dialects = []*Dialect{
	{
		Name: "flow", Aliases: []string{"native"},
		About:    "flowc YAML workflows, typed or CodeMie JSON mode",
		Suffixes: flowyaml.Suffixes,
		Marker:   "a top-level `states:` list of states with `id` (flowc YAML)",
		Detect:   flowyaml.Detect,
		Lower: func(r *yamlx.Reader, root *yaml.Node, d Defaults) *ir.Workflow {
			// flowyaml.Defaults has these fields (its child flows are
			// lowered with them), so the conversion breaks if they part.
			return flowyaml.Lower(r, root, flowyaml.Defaults(d))
		},
		// Typed when the definition declares its `state:`, else JSON mode.
		Plans:  map[ir.Mode]func(*ir.Checked) *plan.Plan{ir.ModeTyped: plan.Typed, ir.ModeJSON: plan.JSON},
		Schema: flowyaml.Schema,
	},
	{
		Name:     "asl",
		About:    "States Language and Agent State Language machines",
		Suffixes: asl.Suffixes,
		Marker:   "`StartAt` and `States` (States Language)",
		Detect:   asl.Detect,
		Lower: func(r *yamlx.Reader, root *yaml.Node, d Defaults) *ir.Workflow {
			return asl.Lower(r, root, d.Stem, d.Package)
		},
		Plans:  map[ir.Mode]func(*ir.Checked) *plan.Plan{ir.ModeASL: plan.ASL},
		Schema: asl.Schema,
		// Of an ASL workflow the checker reads only its states' ids,
		// transitions, catchers and handlers (no typed fields, no
		// expressions, no package), which the front-end gives every state
		// it keeps, whatever else is wrong with it.
		CheckRejected: true,
		// AWS refuses a machine that is not JSON.
		JSONOnly: true,
	},
	{
		Name:     "chain",
		About:    "task chains (contenox)",
		Suffixes: chain.Suffixes,
		Marker:   "`tasks:` (task chain)",
		Detect:   chain.Detect,
		Lower: func(r *yamlx.Reader, root *yaml.Node, d Defaults) *ir.Workflow {
			return chain.Lower(r, root, d.Stem, d.Package)
		},
		Plans:  map[ir.Mode]func(*ir.Checked) *plan.Plan{ir.ModeChain: plan.Chain},
		Schema: chain.Schema,
	},
}

// detect is the dialect of a parsed document, nil when none has its marker.
func detect(root *yaml.Node) *Dialect {
	for _, d := range Dialects {
		if d.Detect(root) {
			return d
		}
	}
	return nil
}

// notAWorkflow is the error of a document no dialect detects: it names
// each dialect's marker, "expected A, B or C".
func notAWorkflow() string {
	markers := make([]string, len(Dialects))
	for i, d := range Dialects {
		markers[i] = d.Marker
	}
	last := len(markers) - 1
	list := markers[last]
	if last > 0 {
		list = strings.Join(markers[:last], ", ") + " or " + list
	}
	return "not a workflow: expected " + list
}
