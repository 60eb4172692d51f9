// Package asl is the machinery that flowc-generated States Language code
// (Amazon States Language and Agent State Language) calls: the execution
// of states with their paths, intrinsics, JSONata and variables, Choice
// rules, Parallel and Map (inline and distributed, with item readers and
// result writers), retries and catchers, callback (task token) states,
// compiled-in children and agent states. It is not an API for users: its
// names follow the code generator and change with it (see
// impl.ThisRuntime), and what a program of yours needs is re-exported by
// package runtime (flowcrt). Generated code imports it as flowcasl.
//
// It builds on package impl, which must not import it: sessions,
// checkpoints and the stops of fan-outs, approvals, the task-token waits
// a session holds (SendTaskSuccess ...), the memory store and errors are
// shared there by every dialect.
package asl
