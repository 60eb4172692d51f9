//go:build race

package compiler_test

// raceEnabled: the race detector slows everything down tenfold, so time
// and memory limits are not measured under it.
const raceEnabled = true
