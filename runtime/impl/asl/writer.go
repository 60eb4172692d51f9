package asl

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// writerCall is a distributed Map run's ResultWriter: the handlers', or
// the built-in one writing local files.
type writerCall struct {
	x      *ASLExec
	req    ResultWriteRequest
	params any
	to     ResultWriter
	local  *localWriter
	engine EngineResults // the results go to an engine's activities
	dir    string        // of the built-in writer
	own    bool          // the engine's handlers write them with a ResultWriter
}

func (x *ASLExec) writerCall(state string, spec *ResultWriterSpec, in any, cx *aslContext) (*writerCall, error) {
	w := &writerCall{x: x, req: ResultWriteRequest{State: state, Resource: spec.Resource}}
	if spec.Parameters != nil {
		p, err := spec.Parameters.Eval(in, cx)
		if err != nil {
			return nil, err
		}
		w.params = p
		w.req.Parameters = p
		if !x.ordered {
			w.req.Parameters = Plain(p)
		}
	}
	if h, ok := x.handlers.(ResultWriter); ok {
		w.to = h
		return w, nil
	}
	w.dir = localDir(w.params, state)
	if e, ok := x.handlers.(EngineResults); ok {
		w.engine = e
		w.to = engineWriter{e}
		return w, nil
	}
	w.local = &localWriter{dir: w.dir}
	w.to = w.local
	return w, nil
}

// localDir is where the built-in writer writes the results of state.
func localDir(params any, state string) string {
	bucket, _, prefix := localParams(params)
	return filepath.Join(bucket, filepath.FromSlash(prefix), safeName(state))
}

// open starts the results of a Map run on an engine, where the handlers
// run: it learns whether they write them or the built-in writer does.
func (w *writerCall) open(ctx context.Context) error {
	if w == nil || w.engine == nil {
		return nil
	}
	own, err := w.engine.OpenResults(ctx, w.req)
	if err != nil {
		return &impl.Error{Name: StatesResultWriterFailed, Cause: fmt.Sprintf("Map state %q: %v", w.req.State, err)}
	}
	w.own = own
	return nil
}

// builtin: the built-in writer writes the results, here or on an engine.
func (w *writerCall) builtin() bool { return w.local != nil || w.engine != nil && !w.own }

// write hands one result on; a failure (or panic) is States.ResultWriterFailed.
func (w *writerCall) write(ctx context.Context, res ChildResult) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
		if err != nil {
			err = &impl.Error{Name: StatesResultWriterFailed, Cause: fmt.Sprintf("Map state %q: %v", w.req.State, err)}
		}
	}()
	if !w.x.ordered {
		res.Input, res.Output = Plain(res.Input), Plain(res.Output)
	}
	return w.to.WriteResult(ctx, w.req, res)
}

// close ends the built-in writer's file, writing its manifest.
func (w *writerCall) close(ctx context.Context, total, failed int) error {
	switch {
	case w == nil || !w.builtin():
		return nil
	case w.engine != nil:
		return w.engine.CloseResults(ctx, w.req, total, failed)
	}
	return w.local.close(total, failed)
}

// summary is the Map's result with a ResultWriter, as in Step Functions:
// the map run and where its results went.
func (w *writerCall) summary(total, failed int) any {
	x := w.x
	arn := "arn:aws:states:local:000000000000:mapRun:" + x.machine + "/" + w.req.State + ":" + x.name
	details := w.params
	if w.builtin() {
		details = Obj("Directory", filepath.ToSlash(w.dir), "Key", filepath.ToSlash(filepath.Join(w.dir, "manifest.json")))
	}
	return Obj("MapRunArn", arn, "ResultWriterDetails", details,
		"Summary", Obj("Total", float64(total), "Succeeded", float64(total-failed), "Failed", float64(failed)))
}

// localWriter writes each result as a JSON line to dir/results.jsonl and
// the counts to dir/manifest.json.
type localWriter struct {
	dir  string
	file *os.File
	buf  *bufio.Writer
}

func (l *localWriter) WriteResult(_ context.Context, _ ResultWriteRequest, r ChildResult) error {
	if l.file == nil {
		if err := os.MkdirAll(l.dir, 0o755); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(l.dir, "results.jsonl"))
		if err != nil {
			return err
		}
		l.file, l.buf = f, bufio.NewWriterSize(f, 1<<16)
	}
	_, err := l.buf.WriteString(resultLine(r))
	return err
}

// resultLine is r as a line of results.jsonl.
func resultLine(r ChildResult) string {
	line := Obj("Index", float64(r.Index), "Status", "SUCCEEDED", "Input", r.Input, "Output", r.Output)
	if r.Error != "" {
		line = Obj("Index", float64(r.Index), "Status", "FAILED", "Input", r.Input, "Error", r.Error, "Cause", r.Cause)
	}
	return jsonText(line) + "\n"
}

func (l *localWriter) close(total, failed int) error {
	var err error
	if l.file != nil {
		err = l.buf.Flush()
		if cerr := l.file.Close(); err == nil {
			err = cerr
		}
	} else if err = os.MkdirAll(l.dir, 0o755); err != nil {
		return err
	}
	if werr := writeManifest(l.dir, total, failed); err == nil {
		err = werr
	}
	return err
}

// writeManifest writes the counts of the results in dir.
func writeManifest(dir string, total, failed int) error {
	manifest := Obj("Total", float64(total), "Succeeded", float64(total-failed), "Failed", float64(failed), "Results", "results.jsonl")
	return os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(jsonText(manifest)+"\n"), 0o644)
}

// safeName makes a state name a single path element.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." {
		return "_" + s
	}
	return s
}
