// Package impl is the machinery of flowc-generated code: the step loops,
// fan-outs, retries, reducers, checkpoints and each dialect's evaluation.
// Only generated code and flowc's own packages should call it. Its API
// follows the code generator and changes with it (see ThisRuntime); what a
// program of yours needs is re-exported by package runtime (flowcrt).
//
// flowc embeds its source into a temporary module that `flowc run` builds
// offline, so it imports only the standard library and the modules that
// module requires.
package impl
