// Package fanout measures a generated map region against hand-written
// fan-out: errgroup with a limit, and a pool of workers over a channel.
package fanout

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .
