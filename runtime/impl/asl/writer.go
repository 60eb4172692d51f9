package asl

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// A ResultWriter as in Step Functions ("ResultWriter (Map)" and "Processing
// Distributed Map output" in the developer guide): with a Resource, the
// children's results go to <Prefix>/<map run id>/ in the bucket, one file
// per status (SUCCEEDED_0.json, FAILED_0.json) beside a manifest.json that
// lists them, and the Map's result says where the manifest is. With only a
// WriterConfig nothing is written: the Map's result is the list of the
// results, as its Transformation shapes them.

// The WriterConfig values.
const (
	transformNone    = "NONE"    // each result with its run's metadata (the default)
	transformCompact = "COMPACT" // the output alone
	transformFlatten = "FLATTEN" // the output alone, an array's items one by one
	outputJSONL      = "JSONL"   // a file holds JSON lines, not one JSON array
)

// writerCall is a distributed Map run's ResultWriter: the handlers', the
// built-in one writing local files, or (with only a WriterConfig) the
// results kept for the Map's own result.
type writerCall struct {
	x      *ASLExec
	req    ResultWriteRequest
	to     ResultWriter
	local  *localWriter
	engine EngineResults // the results go to an engine's activities
	own    bool          // the engine's handlers write them with a ResultWriter
	kept   [][]any       // WriterConfig alone: each child's results, in item order
}

func (x *ASLExec) writerCall(state, label string, spec *ResultWriterSpec, in any, cx *aslContext) (*writerCall, error) {
	w := &writerCall{x: x, req: ResultWriteRequest{State: state, Resource: spec.Resource,
		MapRunArn: x.mapRunArn(state, label), OutputType: spec.OutputType, Transformation: spec.Transformation}}
	if spec.Parameters != nil {
		p, err := spec.Parameters.Eval(in, cx)
		if err != nil {
			return nil, err
		}
		w.req.Parameters = p
		if !x.ordered {
			w.req.Parameters = Plain(p)
		}
	}
	if spec.Resource == "" {
		return w, nil
	}
	switch h := x.handlers.(type) {
	case ResultWriter:
		w.to = h
	case EngineResults:
		w.engine, w.to = h, engineWriter{h}
	default:
		w.local = newLocalWriter(w.req)
		w.to = w.local
	}
	return w, nil
}

// mapRunArn names a Map run as Step Functions does, by the machine, the
// Map's label (or name) and an id. The id comes from the execution's name
// and the state, so a Temporal replay finds the same id, and a Map run
// again in the same execution writes over its earlier files.
func (x *ASLExec) mapRunArn(state, label string) string {
	if label == "" {
		label = state
	}
	sum := sha256.Sum256([]byte(x.name + "\x00" + state))
	id := fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
	return "arn:aws:states:local:000000000000:mapRun:" + x.machine + "/" + label + ":" + id
}

// open starts the results of a Map run: the built-in writer clears the
// run's folder; on an engine, where the handlers run, it learns whether
// they write them or the built-in writer does.
func (w *writerCall) open(ctx context.Context) error {
	var err error
	switch {
	case w == nil:
		return nil
	case w.local != nil:
		err = w.local.files.clear()
	case w.engine != nil:
		w.own, err = w.engine.OpenResults(ctx, w.req)
	}
	if err != nil {
		return &impl.Error{Name: StatesResultWriterFailed, Cause: fmt.Sprintf("Map state %q: %v", w.req.State, err)}
	}
	return nil
}

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
	if w.to == nil {
		for len(w.kept) <= res.Index {
			w.kept = append(w.kept, nil)
		}
		w.kept[res.Index] = shaped(w.req, res)
		return nil
	}
	return w.to.WriteResult(ctx, w.req, res)
}

// close ends the built-in writer's files, writing its manifest.
func (w *writerCall) close(ctx context.Context) error {
	switch {
	case w == nil || w.local == nil && (w.engine == nil || w.own):
		return nil
	case w.engine != nil:
		return w.engine.CloseResults(ctx, w.req)
	}
	return w.local.close()
}

// result is the Map's result with a ResultWriter: where the manifest is,
// or, with only a WriterConfig, the results themselves.
func (w *writerCall) result() any {
	if w.to == nil {
		out := []any{}
		for _, rs := range w.kept {
			out = append(out, rs...)
		}
		return out
	}
	bucket, _, prefix := localParams(w.req.Parameters)
	return Obj("MapRunArn", w.req.MapRunArn,
		"ResultWriterDetails", Obj("Bucket", bucket, "Key", runKey(prefix, w.req.MapRunArn)+"/manifest.json"))
}

// runKey is where a Map run's files go in the bucket: <Prefix>/<map run
// id>, without a doubled slash when Prefix ends with one.
func runKey(prefix, mapRunArn string) string {
	if prefix = strings.TrimSuffix(prefix, "/"); prefix == "" {
		return runID(mapRunArn)
	}
	return prefix + "/" + runID(mapRunArn)
}

// runID is the last part of a Map run's ARN.
func runID(mapRunArn string) string { return mapRunArn[strings.LastIndexByte(mapRunArn, ':')+1:] }

// shaped is what a child's run becomes in the results: its output as the
// Transformation says, or, for a failed child (whatever the
// Transformation) and by default, the run with its metadata.
func shaped(req ResultWriteRequest, r ChildResult) []any {
	if r.Error != "" {
		return []any{runRecord(req, r)}
	}
	switch req.Transformation {
	case transformCompact:
		return []any{r.Output}
	case transformFlatten:
		if items, ok := r.Output.([]any); ok {
			return items
		}
		return []any{r.Output}
	}
	return []any{runRecord(req, r)}
}

// runRecord is a child's run as Step Functions writes it to a result file
// (the fields of DescribeExecution, the input and output as JSON text).
// The child is named after the Map run and its item's index.
func runRecord(req ResultWriteRequest, r ChildResult) *Object {
	id := runID(req.MapRunArn)
	base := strings.TrimSuffix(req.MapRunArn, ":"+id) // …:mapRun:<machine>/<label>
	name := fmt.Sprintf("%s-%d", id, r.Index)
	rec := Obj("ExecutionArn", strings.Replace(base, ":mapRun:", ":execution:", 1)+":"+name,
		"Input", impl.JSONText(r.Input), "InputDetails", Obj("Included", true), "Name", name)
	if r.Error != "" {
		rec.set("Error", r.Error)
		rec.set("Cause", r.Cause)
		rec.set("RedriveCount", 0.0)
		rec.set("RedriveStatus", "REDRIVABLE_BY_MAP_RUN")
	} else {
		rec.set("Output", impl.JSONText(r.Output))
		rec.set("OutputDetails", Obj("Included", true))
		rec.set("RedriveCount", 0.0)
		rec.set("RedriveStatus", "NOT_REDRIVABLE")
		rec.set("RedriveStatusReason", "Execution is SUCCEEDED and cannot be redriven")
	}
	rec.set("StartDate", r.Start.UTC().Format(awsDate))
	rec.set("StateMachineArn", strings.Replace(base, ":mapRun:", ":stateMachine:", 1))
	rec.set("Status", status(r))
	rec.set("StopDate", r.Stop.UTC().Format(awsDate))
	return rec
}

// awsDate is how Step Functions writes a time in result files.
const awsDate = "2006-01-02T15:04:05.000Z"

// status is a child's status, which names its result file.
func status(r ChildResult) string {
	if r.Error != "" {
		return "FAILED"
	}
	return "SUCCEEDED"
}
