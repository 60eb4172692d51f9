// Package runtime is the support library of the Go code that flowc
// generates; it is meant for generated code, which imports it as flowcrt.
//
// Its API follows the needs of the code generator and changes together with
// it (see ThisRuntime). Programs reach it through the generated
// constructors, whose options (WithClock, WithRand, ...) and test helpers
// (FakeClock, MockConfig) come from here; other code should not depend on
// it directly.
//
// The package imports only the standard library, because flowc embeds its
// source into a temporary module that is built offline.
package runtime
