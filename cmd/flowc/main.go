// Command flowc compiles workflow definitions into typed Go.
//
//	flowc gen [-o DIR] [--check] PATH...
//	flowc check PATH...
//	flowc graph [--format mermaid|dot|svg] FILE
//	flowc run FILE [--input JSON_FILE|-] [--mock-config FILE --test-case NAME] [--skip-waits]
//	          [--checkpoint-db PATH --session ID [--decision OPTION [--at KEY] | --redrive]] [--no-cache] [-x]
//	          [--engine native|temporal [--temporal-address HOST:PORT [--session ID ...]]]
//	flowc build FILE [-o BIN] [--handlers GOPKG] [--target native|temporal]
//	flowc console (--checkpoint-db FILE | --temporal-address HOST:PORT) [--addr ADDR] [--console-token TOKEN] [DEFINITION...]
//	flowc sessions (--checkpoint-db FILE | --temporal-address HOST:PORT) (list|show ID|history ID|stop ID) [--json]
//	flowc schema [DIALECT]
//	flowc breaking NEW [--against OLD_FILE | --against-rev GITREV]
//	flowc version
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK      = 0
	exitFailed  = 1 // definitions with errors, stale files, a failed run
	exitUsage   = 2 // bad flags, unreadable files, a workflow that does not build
	usageFormat = `usage:
  flowc gen [-o DIR] [--check] [--target native|temporal] PATH...
                                         generate <name>_flow.go for definitions: files, directories
                                         (walked) or patterns such as ./... as the go command reads them;
                                         --target temporal also writes <name>_temporal.go
  flowc check PATH...                    parse and type-check only (PATH as for gen)
  flowc graph [--format mermaid|dot|svg] FILE
  flowc run FILE [--input JSON_FILE|-] [--mock-config FILE --test-case NAME] [--skip-waits]
            [--checkpoint-db PATH --session ID [--decision OPTION [--at KEY] | --redrive]] [--no-cache] [-x]
            [--engine native|temporal [--temporal-address HOST:PORT [--session ID ...]]]
                                         on Temporal a session is a workflow on the server:
                                         no --checkpoint-db
  flowc build FILE [-o BIN] [--handlers GOPKG] [--target native|temporal]
                                         write a standalone program that runs the workflow
  flowc console (--checkpoint-db FILE | --temporal-address HOST:PORT) [--addr ADDR] [DEFINITION...]
                                         serve the sessions' web console, read-only over a file,
                                         answering on Temporal (definitions draw their graphs);
                                         any address but loopback needs --console-token or
                                         $FLOWC_CONSOLE_TOKEN
  flowc sessions (--checkpoint-db FILE | --temporal-address HOST:PORT)
                (list [--status S] [--workflow W] [--json] | show ID [--json] |
                history ID [--json] | stop ID [--error E --cause C])
                                         list the sessions of a store, show one and its stops,
                                         its history, or stop it
  flowc schema [DIALECT]                 print the JSON Schema of a dialect; no argument lists them
  flowc breaking NEW [--against OLD_FILE | --against-rev GITREV]
                                         name the changes that strand sessions in flight (default: against HEAD)
  flowc version                          print flowc's version (also --version)
`
)

// run is the testable entry point: everything it reads and writes is passed in.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageFormat)
		return exitUsage
	}
	cmds := map[string]func([]string, io.Reader, io.Writer, io.Writer) int{
		"gen": cmdGen, "check": cmdCheck, "graph": cmdGraph, "run": cmdRun, "build": cmdBuild,
		"schema": cmdSchema, "version": cmdVersion, "--version": cmdVersion, "breaking": cmdBreaking,
		"console":  cmdConsole,
		"sessions": cmdSessions,
	}
	cmd, ok := cmds[args[0]]
	switch {
	case ok:
		return cmd(args[1:], stdin, stdout, stderr)
	case args[0] == "help" || args[0] == "-h" || args[0] == "--help":
		fmt.Fprint(stdout, usageFormat)
		return exitOK
	}
	fmt.Fprintf(stderr, "flowc: unknown command %q\n%s", args[0], usageFormat)
	return exitUsage
}
