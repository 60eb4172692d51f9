package asl

import (
	"context"
	"os"
	"path/filepath"
)

// EngineResults is implemented by the handlers an engine runs a workflow
// with (the activity calls on Temporal): they take a distributed Map's
// results to where the real handlers run, which write them with their
// ResultWriter, or with the built-in writer (see ServeResults).
type EngineResults interface {
	// OpenResults starts the results of one Map run; own says that the
	// real handlers write them.
	OpenResults(ctx context.Context, req ResultWriteRequest) (own bool, err error)
	WriteResults(ctx context.Context, req ResultWriteRequest, r ChildResult) error
	// CloseResults ends the built-in writer's results with the counts.
	CloseResults(ctx context.Context, req ResultWriteRequest, total, failed int) error
}

// ServeResults is the other end of EngineResults, where the handlers h
// run: each call stands alone, so that any worker can serve it.
type ServeResults struct{ H any }

// OpenResults says whether h writes results itself; if not, it starts the
// built-in writer's file empty.
func (s ServeResults) OpenResults(req ResultWriteRequest) (own bool, err error) {
	if _, ok := s.H.(ResultWriter); ok {
		return true, nil
	}
	dir := localDir(req.Parameters, req.State)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	return false, os.WriteFile(filepath.Join(dir, "results.jsonl"), nil, 0o644)
}

// WriteResult hands r to h, or appends it to the built-in writer's file.
func (s ServeResults) WriteResult(ctx context.Context, req ResultWriteRequest, r ChildResult) error {
	if h, ok := s.H.(ResultWriter); ok {
		return h.WriteResult(ctx, req, r)
	}
	f, err := os.OpenFile(filepath.Join(localDir(req.Parameters, req.State), "results.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(resultLine(r))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// CloseResults writes the built-in writer's manifest.
func (s ServeResults) CloseResults(req ResultWriteRequest, total, failed int) error {
	return writeManifest(localDir(req.Parameters, req.State), total, failed)
}

// engineWriter is the ResultWriter of a Map run on an engine.
type engineWriter struct{ e EngineResults }

func (w engineWriter) WriteResult(ctx context.Context, req ResultWriteRequest, r ChildResult) error {
	return w.e.WriteResults(ctx, req, r)
}
