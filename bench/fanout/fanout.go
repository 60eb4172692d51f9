// Package fanout measures a generated map region against hand-written
// fan-out: errgroup with a limit, and a pool of workers that take item
// indexes from a channel or, as the region does, from an atomic counter.
package fanout

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .
