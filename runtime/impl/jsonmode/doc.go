// Package jsonmode is the machinery that flowc-generated JSON-mode code
// (CodeMie's configurations, run untyped) calls: the JSON state with its
// context store and history, task states and their templates, output
// schemas and tools, the CodeMie nodes and state transforms, fan-outs and
// the sessions that stop at interrupt_before. It is not an API for users:
// its names follow the code generator and change with it (see
// impl.ThisRuntime), and what a program of yours needs is re-exported by
// package runtime (flowcrt). Generated code imports it as flowcjson.
//
// It builds on package impl, which must not import it: the step loop,
// retries, sessions, checkpoints and errors there are shared by every
// dialect.
package jsonmode
