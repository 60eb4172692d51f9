package impl

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSessionFlagsCheck: the combinations `flowc run` and the programs of
// `flowc build` refuse before anything runs, with the flag to fix named.
func TestSessionFlagsCheck(t *testing.T) {
	for _, c := range []struct {
		args     []string
		input    string
		onServer bool
		err      string // "" for accepted
	}{
		{args: nil},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s"}},
		{args: []string{"-session", "s"}, onServer: true},
		{args: []string{"-session", "s"}, err: "--checkpoint-db and --session go together"},
		{args: []string{"-checkpoint-db", "x.db"}, err: "--checkpoint-db and --session go together"},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s"}, onServer: true, err: "on Temporal the server keeps the session"},
		{args: []string{"-decision", "yes"}, err: "it needs --checkpoint-db and --session"},
		{args: []string{"-decision", "yes"}, onServer: true, err: "--decision answers the approval a session waits for: it needs --session"},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s", "-at", "Map/3/Approve"}, err: "--at names the stop a --decision answers"},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s", "-decision", "yes"}, input: "in.json", err: "give new --input in a run of its own"},
		{args: []string{"-task-success", "tok"}, err: "a task token is answered in its session"},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s", "-task-success", "tok", "-decision", "yes"}, err: "not both at once"},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s", "-redrive"}},
		{args: []string{"-redrive"}, err: "--redrive goes on with a failed session: it needs --checkpoint-db and --session"},
		{args: []string{"-session", "s", "-redrive"}, onServer: true, err: "it needs --checkpoint-db, which a session on Temporal has not"},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s", "-redrive"}, input: "in.json", err: "give new --input in a run of its own"},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s", "-redrive", "-decision", "yes"}, err: "waits for no decision or task token"},
		{args: []string{"-checkpoint-db", "x.db", "-session", "s", "-redrive", "-task-failure", "tok"}, err: "waits for no decision or task token"},
	} {
		var f SessionFlags
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		f.Register(fs)
		require.NoError(t, fs.Parse(c.args))
		err := f.Check(c.input, c.onServer)
		if c.err == "" {
			assert.NoError(t, err, "%v", c.args)
			continue
		}
		if assert.Error(t, err, "%v", c.args) {
			assert.Contains(t, err.Error(), c.err, "%v", c.args)
		}
	}
}
