// Package cli is `flowc sessions`: it lists, shows, follows and stops the
// sessions of a store, or of a Temporal server. flowc runs it inside the
// program that opens the store (cmd/flowc/sessionstore) or dials the
// server (the Temporal module's cmd/sessions), so that flowc itself links
// neither a database driver nor the Temporal SDK.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/flowc-dev/flowc/session"
)

// Store is a checkpoint store the command reads and changes (FromStore).
type Store interface {
	session.Checkpointer
	session.Lister
	session.Historian
}

// Sessions is what the command reads and changes: a checkpoint store, or
// the executions of a Temporal server.
type Sessions interface {
	session.Lister
	session.Historian
	// Describe returns session id as `show` prints it.
	Describe(ctx context.Context, id string) (Description, error)
	// Stop ends session id as stopped, with an error name and a cause for
	// the record: it takes no answer or input after it.
	Stop(ctx context.Context, id, errName, cause string) error
}

// FromStore returns the sessions of a checkpoint store.
func FromStore(store Store) Sessions { return stored{store} }

type stored struct{ Store }

func (s stored) Describe(ctx context.Context, id string) (Description, error) {
	cp, err := s.Load(ctx, id)
	if err != nil {
		return Description{}, err
	}
	return Description{ID: cp.Session, Workflow: cp.Workflow, Status: cp.Status, State: cp.Position.State, Step: cp.Step,
		Updated: cp.Time, Stops: session.Stops(cp), Failure: cp.Position.Failure, Redrives: cp.Position.Redrives, Data: cp.State}, nil
}

func (s stored) Stop(ctx context.Context, id, errName, cause string) error {
	return session.Stop(ctx, s.Store, id, errName, cause)
}

// Exit codes, as flowc's.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// Usage lists the subcommands.
const Usage = `usage: flowc sessions (--checkpoint-db FILE | --temporal-address HOST:PORT) COMMAND
  list [--status S] [--workflow W] [--limit N] [--json]
                        the sessions, newest first
  show ID [--json]      a session: its status, where it is, the stops it waits at,
                        and for a failed one its error, cause and redrive count
  history ID [--json]   what the session did, one event a line
  stop ID [--error E] [--cause C]
                        end the session as stopped: it takes no answer or input after it
`

// Main runs the command args on a checkpoint store.
func Main(ctx context.Context, store Store, args []string, stdout, stderr io.Writer) int {
	return Run(ctx, FromStore(store), args, stdout, stderr)
}

// Run runs the command args on sessions.
func Run(ctx context.Context, store Sessions, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, Usage)
		return exitUsage
	}
	cmds := map[string]func(context.Context, Sessions, []string, io.Writer) error{
		"list": list, "show": show, "history": history, "stop": stop,
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "flowc sessions: unknown command %q\n%s", args[0], Usage)
		return exitUsage
	}
	err := cmd(ctx, store, args[1:], stdout)
	var usage usageError
	switch {
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "flowc sessions %s: %v\n%s", args[0], err, Usage)
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "flowc sessions %s: %v\n", args[0], err)
		return exitFailed
	}
	return exitOK
}

type usageError struct{ error }

// parse parses a subcommand's flags, which may follow its ID, and returns
// the ID when want is set.
func parse(fs *flag.FlagSet, args []string, want bool) (string, error) {
	fs.SetOutput(io.Discard)
	var id string
	if want && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return "", usageError{err}
	}
	rest := fs.Args()
	if want && id == "" && len(rest) > 0 {
		id, rest = rest[0], rest[1:]
	}
	switch {
	case want && id == "":
		return "", usageError{errors.New("which session? give its ID")}
	case len(rest) > 0:
		return "", usageError{fmt.Errorf("unexpected %q", rest[0])}
	}
	return id, nil
}

func list(ctx context.Context, store Sessions, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	status := fs.String("status", "", "only sessions of this status")
	workflow := fs.String("workflow", "", "only sessions of this workflow")
	limit := fs.Int("limit", 0, "at most this many sessions")
	asJSON := fs.Bool("json", false, "one JSON object a line")
	if _, err := parse(fs, args, false); err != nil {
		return err
	}
	if err := checkStatus(*status); err != nil {
		return err
	}
	page, err := store.Sessions(ctx, session.Query{Status: session.Status(*status), Workflow: *workflow, Limit: *limit})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		for _, s := range page.Sessions {
			if err := enc.Encode(s); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWORKFLOW\tSTATUS\tSTATE\tSTOPS\tUPDATED")
	for _, s := range page.Sessions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", s.ID, s.Workflow, s.Status, dash(s.State), s.Stops, s.Updated.UTC().Format(time.RFC3339))
	}
	return tw.Flush()
}

var statuses = []session.Status{session.StatusRunning, session.StatusInterrupted, session.StatusWaiting,
	session.StatusSucceeded, session.StatusFailed, session.StatusStopped}

func checkStatus(s string) error {
	for _, st := range statuses {
		if s == "" || session.Status(s) == st {
			return nil
		}
	}
	names := make([]string, len(statuses))
	for i, st := range statuses {
		names[i] = string(st)
	}
	return usageError{fmt.Errorf("no status %q; the statuses are %s", s, strings.Join(names, ", "))}
}

// Description is a session as `show --json` prints it.
type Description struct {
	ID       string             `json:"id"`
	Workflow string             `json:"workflow"`
	Status   session.Status     `json:"status"`
	State    string             `json:"state,omitempty"` // where it is: the state it goes on at
	Step     int                `json:"step,omitempty"`  // the checkpoint's; none on Temporal
	Updated  time.Time          `json:"updated"`
	Stops    []session.StopInfo `json:"stops"`
	// Failure is what a failed session's run failed with; a redrive runs
	// State again.
	Failure  *session.Failure `json:"failure,omitempty"`
	Redrives int              `json:"redrive_count,omitempty"` // the runs that went on from a failed checkpoint
	// Data is the workflow's state as saved; on Temporal, a succeeded
	// run's result (a running one's state is inside its worker).
	Data json.RawMessage `json:"data,omitempty"`
}

func show(ctx context.Context, store Sessions, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print a JSON object")
	id, err := parse(fs, args, true)
	if err != nil {
		return err
	}
	s, err := store.Describe(ctx, id)
	if err != nil {
		return err
	}
	if s.Stops == nil {
		s.Stops = []session.StopInfo{}
	}
	if *asJSON {
		return json.NewEncoder(out).Encode(s)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\t%s\nWORKFLOW\t%s\nSTATUS\t%s\nSTATE\t%s\n", s.ID, s.Workflow, s.Status, dash(s.State))
	if s.Step > 0 {
		fmt.Fprintf(tw, "STEP\t%d\n", s.Step)
	}
	fmt.Fprintf(tw, "UPDATED\t%s\n", s.Updated.UTC().Format(time.RFC3339))
	if f := s.Failure; f != nil {
		fmt.Fprintf(tw, "ERROR\t%s\nCAUSE\t%s\n", dash(oneLine(f.Error)), dash(oneLine(f.Cause)))
	}
	if s.Redrives > 0 {
		fmt.Fprintf(tw, "REDRIVES\t%d\n", s.Redrives)
	}
	if err := tw.Flush(); err != nil || len(s.Stops) == 0 {
		return err
	}
	fmt.Fprintln(out, "\nSTOPS")
	tw = tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tSTATE\tKIND\tPROMPT\tOPTIONS")
	for _, st := range s.Stops {
		what := strings.Join(st.Options, ", ")
		if st.Kind == session.KindTaskToken {
			what = "token " + st.TokenHash
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", st.Key, st.State, st.Kind, dash(oneLine(st.Prompt)), dash(what))
	}
	return tw.Flush()
}

func history(ctx context.Context, store Sessions, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "one JSON object a line")
	id, err := parse(fs, args, true)
	if err != nil {
		return err
	}
	events, dropped, err := store.History(ctx, id, 0, 0)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		for _, e := range events {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return nil
	}
	if dropped > 0 {
		fmt.Fprintf(out, "(%d older events were dropped by the history's cap)\n", dropped)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tKIND\tSTATE\tFIELDS")
	for _, e := range events {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", e.Seq, e.Time.UTC().Format(time.RFC3339Nano), e.Kind, dash(e.State), dash(abbreviate(string(e.Fields))))
	}
	return tw.Flush()
}

func stop(ctx context.Context, store Sessions, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("stop", flag.ContinueOnError)
	name := fs.String("error", "", "the error name to record")
	cause := fs.String("cause", "", "the cause to record")
	id, err := parse(fs, args, true)
	if err != nil {
		return err
	}
	if err := store.Stop(ctx, id, *name, *cause); err != nil {
		return err
	}
	fmt.Fprintf(out, "session %s stopped\n", id)
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine keeps a table's rows on one line each: user and model data may
// hold newlines and tabs.
func oneLine(s string) string {
	return strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}

// abbreviate shortens fields for a table; --json prints them whole.
func abbreviate(s string) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > 120 {
		return string(r[:119]) + "…"
	}
	return s
}
