// Package impl is the machinery of flowc-generated code that every dialect
// shares: the step loops, fan-outs, retries, reducers, checkpoints,
// sessions and their stops, approvals and task-token waits, and typed
// mode's evaluation. Each other dialect's own machinery builds on it in a
// package beneath it, which it never imports: chain (task chains),
// jsonmode (CodeMie's JSON mode) and asl (the States Language). Only
// generated code and flowc's own packages should call them. Its API
// follows the code generator and changes with it (see ThisRuntime); what a
// program of yours needs is re-exported by package runtime (flowcrt).
//
// flowc embeds its source into a temporary module that `flowc run` builds
// offline, so it imports only the standard library and the modules that
// module requires.
package impl
