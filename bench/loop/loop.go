// Package loop measures generated transitions against a hand-written loop.
package loop

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .
