package asl

import (
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// startExecutionARN is the Step Functions resource that starts a nested
// execution; a suffix says how the parent waits for it.
const startExecutionARN = "arn:aws:states:::states:startExecution"

// startExecution lowers a Task whose Resource starts a nested execution.
// Its literal Parameters.StateMachineArn binds the child: the ARN's last
// segment, the state machine's name, names the definition <name>.asl.json
// (or .asl.yaml) beside this file, which is compiled into the state; with
// no such file the state calls the handler named after the state machine,
// and with an ARN known at run time only, the startExecution handler.
// It reports false for any other resource.
func (l *lowerer) startExecution(m yamlx.Map, s *ir.State, res *yaml.Node) bool {
	wait, ok := strings.CutPrefix(s.ASL.Resource, startExecutionARN)
	if !ok || (wait != "" && wait != ".sync" && wait != ".sync:2") {
		return false
	}
	arn, at := l.stateMachineArn(m, s)
	name := arn[strings.LastIndex(arn, ":")+1:]
	if name == "" {
		s.Handler = l.handler("resource\x00"+s.ASL.Resource, "startExecution", l.ContentPos(res))
		return true
	}
	file := l.boundDefinition(name)
	if file == "" {
		s.Handler = l.handler("execution\x00"+arn, name, at)
		return true
	}
	s.ASL.Include = &ir.Include{Template: name, StateMachine: arn, Wait: strings.TrimPrefix(wait, ".")}
	l.compileIn(s, file, at, "startExecution", &inclusion{})
	return true
}

// stateMachineArn reads the literal StateMachineArn of a startExecution
// Task (in Parameters, or Arguments under JSONata), and where it is; "" for
// one known at run time only, which the handler gets.
func (l *lowerer) stateMachineArn(m yamlx.Map, s *ir.State) (string, ir.Pos) {
	field := "Parameters"
	if s.ASL.JSONata {
		field = "Arguments"
	}
	p := m.Get(field)
	if p != nil && p.Kind == yaml.MappingNode {
		for _, e := range l.Pairs(p) {
			switch e.Key.Value {
			case "StateMachineArn":
				arn, _ := l.String(e.Value, "StateMachineArn")
				if s.ASL.JSONata && isExpression(arn) {
					return "", s.Pos
				}
				return arn, l.ContentPos(e.Value)
			case "StateMachineArn.$":
				if !s.ASL.JSONata {
					return "", s.Pos
				}
			}
		}
	} else if p != nil && s.ASL.JSONata && p.Kind == yaml.ScalarNode && isExpression(p.Value) {
		return "", s.Pos // the whole Arguments is an expression
	}
	l.Diags.Errorf(s.Pos, "startExecution state %q needs `%s.StateMachineArn`", s.ID, field)
	return "", s.Pos
}

// boundDefinition is the file beside this one that defines the state
// machine name, "" when there is none.
func (l *lowerer) boundDefinition(name string) string {
	if strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return "" // not a state machine name; never a path out of the directory
	}
	for _, ext := range Suffixes {
		file := filepath.Join(filepath.Dir(l.File), name+ext)
		if _, err := os.Stat(file); err == nil {
			return file
		}
	}
	return ""
}

// executionCycle is the chain "a -> b -> a" when file is already being
// lowered, "" otherwise.
func (l *lowerer) executionCycle(file string) string {
	file = filepath.ToSlash(file)
	chain := append(append([]string{}, l.executions...), l.File)
	for i, f := range chain {
		if filepath.Clean(f) == filepath.Clean(file) {
			return strings.Join(append(chain[i:], file), " -> ")
		}
	}
	return ""
}
