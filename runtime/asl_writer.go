package runtime

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// writerCall is a distributed Map run's ResultWriter: the handlers', or
// the built-in one writing local files.
type writerCall struct {
	x      *ASLExec
	req    ResultWriteRequest
	params any
	to     ResultWriter
	local  *localWriter
}

func (x *ASLExec) writerCall(state string, spec *ResultWriterSpec, in any, cx *ASLContext) (*writerCall, error) {
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
	bucket, _, prefix := localParams(w.params)
	w.local = &localWriter{dir: filepath.Join(bucket, filepath.FromSlash(prefix), safeName(state))}
	w.to = w.local
	return w, nil
}

// write hands one result on; a failure (or panic) is States.ResultWriterFailed.
func (w *writerCall) write(ctx context.Context, res ChildResult) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
		if err != nil {
			err = &Error{Name: StatesResultWriterFailed, Cause: fmt.Sprintf("Map state %q: %v", w.req.State, err)}
		}
	}()
	if !w.x.ordered {
		res.Input, res.Output = Plain(res.Input), Plain(res.Output)
	}
	return w.to.WriteResult(ctx, w.req, res)
}

// close ends the built-in writer's file, writing its manifest.
func (w *writerCall) close(total, failed int) error {
	if w == nil || w.local == nil {
		return nil
	}
	return w.local.close(total, failed)
}

// summary is the Map's result with a ResultWriter, as in Step Functions:
// the map run and where its results went.
func (w *writerCall) summary(total, failed int) any {
	x := w.x
	arn := "arn:aws:states:local:000000000000:mapRun:" + x.machine + "/" + w.req.State + ":" + x.name
	details := w.params
	if w.local != nil {
		details = Obj("Directory", filepath.ToSlash(w.local.dir), "Key", filepath.ToSlash(filepath.Join(w.local.dir, "manifest.json")))
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
	line := Obj("Index", float64(r.Index), "Status", "SUCCEEDED", "Input", r.Input, "Output", r.Output)
	if r.Error != "" {
		line = Obj("Index", float64(r.Index), "Status", "FAILED", "Input", r.Input, "Error", r.Error, "Cause", r.Cause)
	}
	_, err := l.buf.WriteString(jsonText(line) + "\n")
	return err
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
	manifest := Obj("Total", float64(total), "Succeeded", float64(total-failed), "Failed", float64(failed), "Results", "results.jsonl")
	if werr := os.WriteFile(filepath.Join(l.dir, "manifest.json"), []byte(jsonText(manifest)+"\n"), 0o644); err == nil {
		err = werr
	}
	return err
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
