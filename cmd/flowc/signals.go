package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
)

// errInterrupted: flowc was interrupted before it started the program.
var errInterrupted = errors.New("interrupted")

// signalGuard keeps flowc alive through an interrupt or a termination
// while it builds and runs a program in a temporary module: left to the
// default, the signal would end flowc at once and leave the module, tens
// of megabytes, behind. A program flowc waits for gets the signal as an
// interrupt, which a run ends on as it does on its own (a session keeps
// its last checkpoint); flowc then removes the module and exits with the
// program's code. A `go build` in flowc's process group gets a terminal's
// interrupt itself.
type signalGuard struct {
	signals chan os.Signal
	mu      sync.Mutex
	got     bool      // a signal came
	child   *exec.Cmd // the program flowc waits for, if any
	done    chan struct{}
}

func guardSignals() *signalGuard {
	g := &signalGuard{signals: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(g.signals, os.Interrupt, syscall.SIGTERM)
	go g.forward()
	return g
}

func (g *signalGuard) forward() {
	for {
		select {
		case <-g.signals:
			g.mu.Lock()
			g.got = true
			if g.child != nil {
				g.child.Process.Signal(os.Interrupt)
			}
			g.mu.Unlock()
		case <-g.done:
			return
		}
	}
}

// stop gives the signals back to their default.
func (g *signalGuard) stop() {
	signal.Stop(g.signals)
	close(g.done)
}

// run starts cmd and waits for it, passing on the signals that come
// meanwhile; after a signal it starts nothing. It closes cmd's extra
// files once started, so that the program holds the only copies.
func (g *signalGuard) run(cmd *exec.Cmd) error {
	g.mu.Lock()
	err := errInterrupted
	if !g.got {
		err = cmd.Start()
	}
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	if err != nil {
		g.mu.Unlock()
		return err
	}
	g.child = cmd
	g.mu.Unlock()
	err = cmd.Wait()
	g.mu.Lock()
	g.child = nil
	g.mu.Unlock()
	return err
}
