// Package asl measures executions per second of generated States Language
// code on the definitions, inputs and mocks of asldiff/peer/bench.mjs, so
// that the two can be run side by side:
//
//	go test ./bench/asl -run '^$' -bench . -benchmem
//	cd asldiff/peer && node bench.mjs
//
// The definitions are copies of asldiff cases (TestSameDefinitions keeps
// them in step); each execution gets fresh mocks, as each peer execution
// gets fresh run options, and waits take no time.
package asl

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .
