package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowc-dev/flowc/checkpoint/sqlite"
	"github.com/flowc-dev/flowc/session"
)

// store is what the stores of flowc are: checkpoints with history and
// listing.
type store interface {
	session.Checkpointer
	session.Lister
	session.Historian
}

// stores runs test against the memory store and a SQLite file, each
// keeping at most historyCap events per session.
func stores(t *testing.T, historyCap int, test func(t *testing.T, s store)) {
	t.Run("memory", func(t *testing.T) {
		test(t, &session.MemoryCheckpointer{HistoryCap: historyCap})
	})
	t.Run("sqlite", func(t *testing.T) {
		s, err := sqlite.Open(filepath.Join(t.TempDir(), "s.db"), sqlite.WithHistoryCap(historyCap))
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		test(t, s)
	})
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func checkpoint(id, workflow string, step int, status session.Status, at time.Time, events ...session.EventKind) *session.Checkpoint {
	cp := &session.Checkpoint{Session: id, Workflow: workflow, Schema: "json", Step: step, Status: status,
		Position: session.Position{State: "A"}, State: json.RawMessage(`{}`), Time: at}
	for _, k := range events {
		cp.Events = append(cp.Events, session.NewEvent(at, k, "A", map[string]int{"step": step}))
	}
	return cp
}

func kinds(events []session.Event) (out []string) {
	for _, e := range events {
		out = append(out, fmt.Sprintf("%d:%s", e.Seq, e.Kind))
	}
	return out
}

// The events of a checkpoint are numbered and kept with it; a save the
// store refuses (another run saved first) keeps none of its events: the
// two are one write.
func TestHistorySavedWithCheckpoint(t *testing.T) {
	stores(t, 0, func(t *testing.T, s store) {
		ctx := context.Background()
		require.NoError(t, s.Save(ctx, checkpoint("s", "W", 1, session.StatusRunning, t0, session.KindRunStarted, session.KindStateEntered)))
		require.NoError(t, s.Save(ctx, checkpoint("s", "W", 2, session.StatusRunning, t0, session.KindStateSucceeded)))
		err := s.Save(ctx, checkpoint("s", "W", 2, session.StatusRunning, t0, session.KindRunFailed))
		require.ErrorIs(t, err, session.ErrOvertaken)

		events, dropped, err := s.History(ctx, "s", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []string{"1:run_started", "2:state_entered", "3:state_succeeded"}, kinds(events))
		assert.Zero(t, dropped)
		assert.JSONEq(t, `{"step":2}`, string(events[2].Fields))
		assert.True(t, events[0].Time.Equal(t0))

		events, _, err = s.History(ctx, "s", 1, 1)
		require.NoError(t, err)
		assert.Equal(t, []string{"2:state_entered"}, kinds(events), "after and limit page through")

		cp, err := s.Load(ctx, "s")
		require.NoError(t, err)
		assert.Equal(t, 2, cp.Step)
		assert.Empty(t, cp.Events)

		_, _, err = s.History(ctx, "none", 0, 0)
		require.ErrorIs(t, err, session.ErrNoCheckpoint)
	})
}

// The cap keeps the newest events and counts those it dropped.
func TestHistoryCap(t *testing.T) {
	stores(t, 3, func(t *testing.T, s store) {
		ctx := context.Background()
		for step := 1; step <= 4; step++ {
			require.NoError(t, s.Save(ctx, checkpoint("s", "W", step, session.StatusRunning, t0, session.KindStateEntered, session.KindStateSucceeded)))
		}
		events, dropped, err := s.History(ctx, "s", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []string{"6:state_entered", "7:state_succeeded", "8:state_entered"}[:0], kinds(events)[:0])
		assert.Equal(t, []string{"6:state_succeeded", "7:state_entered", "8:state_succeeded"}, kinds(events))
		assert.Equal(t, int64(5), dropped)

		require.NoError(t, s.Delete(ctx, "s"))
		require.NoError(t, s.Save(ctx, checkpoint("s", "W", 1, session.StatusRunning, t0, session.KindRunStarted)))
		events, dropped, err = s.History(ctx, "s", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []string{"1:run_started"}, kinds(events), "a deleted session's history goes with it")
		assert.Zero(t, dropped)
	})
}

// Listings are newest first, filtered by status and workflow, counted by
// status over the whole store, and paged by cursor.
func TestSessionsListing(t *testing.T) {
	stores(t, 0, func(t *testing.T, s store) {
		ctx := context.Background()
		statuses := []session.Status{session.StatusSucceeded, session.StatusInterrupted, session.StatusFailed, session.StatusSucceeded, session.StatusRunning}
		for i, st := range statuses {
			wf := "A"
			if i%2 == 1 {
				wf = "B"
			}
			cp := checkpoint(fmt.Sprintf("s%d", i), wf, 1, st, t0.Add(time.Duration(i)*time.Second+time.Duration(i)*time.Millisecond))
			if st == session.StatusInterrupted {
				cp.Pending = &session.Pending{State: "A", Prompt: "ok?", Options: []string{"yes", "no"}}
			}
			require.NoError(t, s.Save(ctx, cp))
		}
		page, err := s.Sessions(ctx, session.Query{})
		require.NoError(t, err)
		var ids []string
		for _, x := range page.Sessions {
			ids = append(ids, x.ID)
		}
		assert.Equal(t, []string{"s4", "s3", "s2", "s1", "s0"}, ids)
		assert.Equal(t, map[session.Status]int{"succeeded": 2, "interrupted": 1, "failed": 1, "running": 1}, page.Counts)
		assert.Equal(t, 1, page.Sessions[3].Stops)
		assert.Equal(t, "B", page.Sessions[3].Workflow)
		assert.Empty(t, page.Next)

		page, err = s.Sessions(ctx, session.Query{Status: session.StatusSucceeded})
		require.NoError(t, err)
		require.Len(t, page.Sessions, 2)
		assert.Equal(t, "s3", page.Sessions[0].ID)
		assert.Equal(t, 2, page.Counts[session.StatusSucceeded], "counts ignore the status filter")
		assert.Equal(t, 1, page.Counts[session.StatusRunning])

		page, err = s.Sessions(ctx, session.Query{Workflow: "B"})
		require.NoError(t, err)
		require.Len(t, page.Sessions, 2)
		assert.Equal(t, "s3", page.Sessions[0].ID)

		var paged []string
		q := session.Query{Limit: 2}
		for {
			page, err := s.Sessions(ctx, q)
			require.NoError(t, err)
			for _, x := range page.Sessions {
				paged = append(paged, x.ID)
			}
			if page.Next == "" {
				break
			}
			q.Before = page.Next
		}
		assert.Equal(t, []string{"s4", "s3", "s2", "s1", "s0"}, paged, "cursor paging sees every session once")
	})
}

func interrupted(id string) *session.Checkpoint {
	cp := checkpoint(id, "W", 1, session.StatusInterrupted, t0)
	cp.Position = session.Position{State: "Map", FanOut: &session.FanOutProgress{Done: map[int]json.RawMessage{}, Stopped: map[int]*session.BranchStop{
		0: {State: "Review", Pending: &session.Pending{Key: "Map/0/Review", State: "Review", Prompt: "ok?", Options: []string{"yes", "no"}}},
		1: {State: "Call", Callback: &session.CallbackWait{State: "Call", Token: "secret-token"}},
	}}}
	cp.Pending = &session.Pending{Key: "Map/0/Review", State: "Review", Prompt: "ok?", Options: []string{"yes", "no"}}
	cp.Status = session.StatusInterrupted
	return cp
}

// Stops lists an approval inside a Map by its key and a task token by its
// hash, never the token.
func TestStops(t *testing.T) {
	stops := session.Stops(interrupted("s"))
	require.Len(t, stops, 2)
	assert.Equal(t, session.StopInfo{Key: "Map/0/Review", State: "Review", Kind: "approval", Prompt: "ok?", Options: []string{"yes", "no"}}, stops[0])
	assert.Equal(t, "Map/1/Call", stops[1].Key)
	assert.Equal(t, "task_token", stops[1].Kind)
	assert.Equal(t, session.TokenHash("secret-token"), stops[1].TokenHash)
	assert.Len(t, stops[1].TokenHash, 16)
	data, _ := json.Marshal(stops)
	assert.NotContains(t, string(data), "secret-token")
}

// Of answers to one stop given at once, exactly one is recorded; the
// others are told it was answered already. Both kinds of stops.
func TestConcurrentAnswers(t *testing.T) {
	stores(t, 0, func(t *testing.T, s store) {
		ctx := context.Background()
		require.NoError(t, s.Save(ctx, interrupted("s")))
		for _, stop := range []struct {
			key string
			a   session.AnswerInput
		}{
			{"Map/0/Review", session.AnswerInput{Decision: "yes", Door: session.DoorConsole}},
			{"Map/1/Call", session.AnswerInput{TaskOutput: json.RawMessage(`{"ok":true}`)}},
		} {
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Go(func() { errs[i] = session.Answer(ctx, s, "s", stop.key, stop.a) })
			}
			wg.Wait()
			won := 0
			for _, err := range errs {
				if err == nil {
					won++
				} else {
					assert.ErrorIs(t, err, session.ErrAlreadyAnswered, stop.key)
				}
			}
			assert.Equal(t, 1, won, stop.key)
		}
		cp, err := s.Load(ctx, "s")
		require.NoError(t, err)
		assert.Equal(t, &session.Answered{Decision: "yes", Door: "console"}, cp.Position.FanOut.Stopped[0].Pending.Answer)
		assert.JSONEq(t, `{"ok":true}`, string(cp.Position.FanOut.Stopped[1].Callback.Answer.Output))
		events, _, err := s.History(ctx, "s", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []string{"1:answer_received", "2:answer_received"}, kinds(events))
		assert.NotContains(t, string(events[1].Fields), "secret-token")

		err = session.Answer(ctx, s, "s", "Map/0/Review", session.AnswerInput{Decision: "maybe"})
		assert.ErrorIs(t, err, session.ErrAlreadyAnswered)
		err = session.Answer(ctx, s, "s", "Nope", session.AnswerInput{Decision: "yes"})
		assert.ErrorContains(t, err, `no stop "Nope" waits for an answer`)
	})
}

// An answer to a stop that its run took and went on from loses, as an
// answer racing it does: the history holds the answer that won, in both
// stores. A key no answer ever named is refused as before.
func TestAnswerAfterTheRunWentOn(t *testing.T) {
	stores(t, 0, func(t *testing.T, s store) {
		ctx := context.Background()
		require.NoError(t, s.Save(ctx, interrupted("s")))
		require.NoError(t, session.Answer(ctx, s, "s", "Map/1/Call", session.AnswerInput{TaskOutput: json.RawMessage(`1`), Door: session.DoorCLI}))
		require.NoError(t, s.Save(ctx, checkpoint("s", "w", 3, session.StatusRunning, t0, session.KindStateEntered)), "the run went on")

		err := session.Answer(ctx, s, "s", "Map/1/Call", session.AnswerInput{TaskOutput: json.RawMessage(`2`)})
		assert.ErrorIs(t, err, session.ErrAlreadyAnswered)
		assert.ErrorContains(t, err, `stop "Map/1/Call" was answered (through cli) and its run went on`)
		err = session.Answer(ctx, s, "s", "", session.AnswerInput{TaskOutput: json.RawMessage(`2`)})
		assert.ErrorIs(t, err, session.ErrAlreadyAnswered, "the only stop, answered")
		err = session.Answer(ctx, s, "s", "Map/0/Review", session.AnswerInput{Decision: "yes"})
		assert.NotErrorIs(t, err, session.ErrAlreadyAnswered, "never answered")
		assert.ErrorContains(t, err, `no stop "Map/0/Review" waits for an answer`)
	})
}

// A stopped session takes no answer and cannot be stopped again; its
// history says why it was stopped.
func TestStop(t *testing.T) {
	stores(t, 0, func(t *testing.T, s store) {
		ctx := context.Background()
		require.NoError(t, s.Save(ctx, interrupted("s")))
		require.NoError(t, session.Stop(ctx, s, "s", "Abandoned", "nobody reviews it"))
		cp, err := s.Load(ctx, "s")
		require.NoError(t, err)
		assert.Equal(t, session.StatusStopped, cp.Status)
		assert.Empty(t, session.Stops(cp), "a stopped session waits for nothing")
		err = session.Answer(ctx, s, "s", "Map/0/Review", session.AnswerInput{Decision: "yes"})
		assert.ErrorIs(t, err, session.ErrStopped)
		var serr *session.SessionError
		assert.True(t, errors.As(err, &serr))
		assert.ErrorIs(t, session.Stop(ctx, s, "s", "", ""), session.ErrStopped)
		events, _, err := s.History(ctx, "s", 0, 0)
		require.NoError(t, err)
		require.Equal(t, []string{"1:session_stopped"}, kinds(events))
		assert.JSONEq(t, `{"error":"Abandoned","cause":"nobody reviews it"}`, string(events[0].Fields))

		require.NoError(t, s.Save(ctx, checkpoint("done", "W", 1, session.StatusSucceeded, t0)))
		assert.ErrorContains(t, session.Stop(ctx, s, "done", "", ""), "succeeded")
	})
}

// A checkpoint of flowc before the status "succeeded" says "finished":
// it reads as succeeded.
func TestFinishedReadsAsSucceeded(t *testing.T) {
	var cp session.Checkpoint
	require.NoError(t, json.Unmarshal([]byte(`{"session":"s","status":"finished"}`), &cp))
	assert.Equal(t, session.StatusSucceeded, cp.Status)
	assert.Equal(t, session.StatusSucceeded, session.ParseStatus("finished"))
}
