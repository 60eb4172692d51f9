// Package runtime is what programs that run flowc-generated workflows use,
// imported as flowcrt: the options of a run (WithClock, WithCheckpointer,
// WithObserver, ...), the errors a run returns and handlers raise, sessions
// and checkpointers, approvals, the values handlers receive in each dialect,
// and test helpers (FakeClock). The mocks that stand in for handlers in
// tests and in `flowc run` are in package github.com/flowc-dev/flowc/flowrun.
//
// The machinery that generated code calls lives in package
// github.com/flowc-dev/flowc/runtime/impl and, for each dialect, the
// packages beneath it (impl/chain, impl/jsonmode, impl/asl), as
// protobuf-go keeps protoimpl apart from proto: it changes with the code generator, so code of yours
// should not call it. Every name here is the same type or value as the one
// generated code uses, so the two always agree.
package runtime
