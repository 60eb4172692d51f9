// Command sessions is `flowc sessions --temporal-address` and `flowc
// console --temporal-address`: flowc builds it from this module, so that
// flowc itself links no Temporal SDK. It is not for users.
//
//	sessions HOST:PORT COMMAND ARGS...
//	sessions HOST:PORT console ADDR GRAPHS.json
package main

import (
	"fmt"
	"os"

	"github.com/flowc-dev/flowc/temporal/flowconsole"
	"github.com/flowc-dev/flowc/temporal/flowtemporal"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: sessions HOST:PORT COMMAND ARGS...")
		os.Exit(2)
	}
	if args := os.Args[2:]; len(args) == 3 && args[0] == "console" {
		os.Exit(flowconsole.Main(os.Args[1], args[1], args[2], os.Stdout, os.Stderr))
	}
	os.Exit(flowtemporal.SessionsMain(os.Args[1], os.Args[2:], os.Stdout, os.Stderr))
}
