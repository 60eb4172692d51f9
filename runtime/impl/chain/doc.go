// Package chain is the machinery that flowc-generated task-chain code
// (contenox chains) calls: the chain state and its compose strategies, the
// task runner with its macros, the built-in and documented handlers, the
// branch operators and sessions. It is not an API for users: its names
// follow the code generator and change with it (see impl.ThisRuntime), and
// what a program of yours needs is re-exported by package runtime (flowcrt).
// Generated code imports it as flowcchain.
//
// It builds on package impl, which must not import it: the step loop,
// retries, sessions and errors there are shared by every dialect.
package chain
