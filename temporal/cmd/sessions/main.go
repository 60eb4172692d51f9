// Command sessions is `flowc sessions --temporal-address`: flowc builds it
// from this module, so that flowc itself links no Temporal SDK. It is not
// for users.
//
//	sessions HOST:PORT COMMAND ARGS...
package main

import (
	"fmt"
	"os"

	"github.com/flowc-dev/flowc/temporal/flowtemporal"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: sessions HOST:PORT COMMAND ARGS...")
		os.Exit(2)
	}
	os.Exit(flowtemporal.SessionsMain(os.Args[1], os.Args[2:], os.Stdout, os.Stderr))
}
