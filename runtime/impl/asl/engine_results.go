package asl

import (
	"context"
	"os"
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
	// CloseResults ends the built-in writer's files with the manifest.
	CloseResults(ctx context.Context, req ResultWriteRequest) error
}

// ServeResults is the other end of EngineResults, where the handlers h
// run: each call stands alone, so that any worker can serve it.
type ServeResults struct{ H any }

// OpenResults says whether h writes results itself; if not, it clears the
// built-in writer's folder of the run.
func (s ServeResults) OpenResults(req ResultWriteRequest) (own bool, err error) {
	if _, ok := s.H.(ResultWriter); ok {
		return true, nil
	}
	return false, filesOf(req).clear()
}

// WriteResult hands r to h, or appends it to the built-in writer's file.
func (s ServeResults) WriteResult(ctx context.Context, req ResultWriteRequest, r ChildResult) error {
	if h, ok := s.H.(ResultWriter); ok {
		return h.WriteResult(ctx, req, r)
	}
	files := filesOf(req)
	f, err := os.OpenFile(files.path(resultFile(status(r))), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	held := 0 // 1 for any number: only an empty file starts its array
	if info, serr := f.Stat(); serr != nil {
		err = serr
	} else if info.Size() > 0 {
		held = 1
	}
	if err == nil {
		_, err = files.appendTo(f, held, req, r)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// CloseResults ends the built-in writer's files and writes the manifest.
func (s ServeResults) CloseResults(req ResultWriteRequest) error {
	return filesOf(req).finish(req)
}

// engineWriter is the ResultWriter of a Map run on an engine.
type engineWriter struct{ e EngineResults }

func (w engineWriter) WriteResult(ctx context.Context, req ResultWriteRequest, r ChildResult) error {
	return w.e.WriteResults(ctx, req, r)
}
