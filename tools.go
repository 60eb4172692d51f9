//go:build tools

// This file pins the versions of the tools flowc's own development uses, so
// `go run` of them needs no install step:
//
//	go run golang.org/x/perf/cmd/benchstat old.txt new.txt
package flowc

import _ "golang.org/x/perf/cmd/benchstat"
