package asl

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// The built-in ResultWriter writes to local files, Bucket being a
// directory, what Step Functions writes to S3: under <Prefix>/<map run
// id>/, SUCCEEDED_0.json and FAILED_0.json (each a JSON array, or JSON
// lines with OutputType JSONL; a status without results has no file), and
// manifest.json, which names them: {"DestinationBucket", "MapRunArn",
// "ResultFiles": {"FAILED", "PENDING", "SUCCEEDED": [{"Key", "Size"}]}}.
// PENDING stays empty: every child has ended when the Map does.

// resultStatuses are the statuses a child ends with, which name its file.
var resultStatuses = []string{"FAILED", "SUCCEEDED"}

// resultFiles are the files of one Map run.
type resultFiles struct {
	bucket string // the directory standing for the bucket
	key    string // the run's folder in the bucket
	jsonl  bool
}

func filesOf(req ResultWriteRequest) resultFiles {
	bucket, _, prefix := localParams(req.Parameters)
	return resultFiles{bucket: bucket, key: runKey(prefix, req.MapRunArn), jsonl: req.OutputType == outputJSONL}
}

func (f resultFiles) path(name string) string {
	return filepath.Join(f.bucket, filepath.FromSlash(f.key), name)
}

func resultFile(status string) string { return status + "_0.json" }

// clear makes the run's folder and removes what an earlier run of the
// same Map run wrote there.
func (f resultFiles) clear() error {
	if err := os.MkdirAll(f.path(""), 0o755); err != nil {
		return err
	}
	for _, name := range append([]string{"manifest.json"}, resultFile("FAILED"), resultFile("SUCCEEDED")) {
		if err := os.Remove(f.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// appendTo appends r's records to w, a file that holds n records already,
// and returns how many it holds then.
func (f resultFiles) appendTo(w io.Writer, n int, req ResultWriteRequest, r ChildResult) (int, error) {
	for _, rec := range shaped(req, r) {
		text := impl.JSONText(rec)
		switch {
		case f.jsonl:
			text += "\n"
		case n == 0:
			text = "[" + text
		default:
			text = "," + text
		}
		if _, err := io.WriteString(w, text); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// finish closes the JSON arrays of the files written and writes the
// manifest.
func (f resultFiles) finish(req ResultWriteRequest) error {
	lists := map[string][]any{}
	for _, status := range resultStatuses {
		lists[status] = []any{}
		size, err := f.seal(resultFile(status))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		}
		lists[status] = []any{Obj("Key", f.key+"/"+resultFile(status), "Size", float64(size))}
	}
	manifest := Obj("DestinationBucket", f.bucket, "MapRunArn", req.MapRunArn,
		"ResultFiles", Obj("FAILED", lists["FAILED"], "PENDING", []any{}, "SUCCEEDED", lists["SUCCEEDED"]))
	return os.WriteFile(f.path("manifest.json"), []byte(impl.JSONText(manifest)), 0o644)
}

// seal ends the JSON array of file name and returns its size.
func (f resultFiles) seal(name string) (int64, error) {
	file, err := os.OpenFile(f.path(name), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, err
	}
	if !f.jsonl {
		_, err = file.WriteString("]")
	}
	info, serr := file.Stat()
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = serr
	}
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}

// localWriter is the built-in writer of a Map run that runs here: it keeps
// each status's file open while the children end.
type localWriter struct {
	req   ResultWriteRequest
	files resultFiles
	open  map[string]*resultFileWriter
}

type resultFileWriter struct {
	file *os.File
	buf  *bufio.Writer
	n    int // records written
}

func newLocalWriter(req ResultWriteRequest) *localWriter {
	return &localWriter{req: req, files: filesOf(req), open: map[string]*resultFileWriter{}}
}

func (l *localWriter) WriteResult(_ context.Context, _ ResultWriteRequest, r ChildResult) error {
	status := status(r)
	w := l.open[status]
	if w == nil {
		f, err := os.Create(l.files.path(resultFile(status)))
		if err != nil {
			return err
		}
		w = &resultFileWriter{file: f, buf: bufio.NewWriterSize(f, 1<<16)}
		l.open[status] = w
	}
	var err error
	w.n, err = l.files.appendTo(w.buf, w.n, l.req, r)
	return err
}

// close ends the files and writes the manifest.
func (l *localWriter) close() error {
	var err error
	for _, w := range l.open {
		ferr := w.buf.Flush()
		if cerr := w.file.Close(); ferr == nil {
			ferr = cerr
		}
		err = errors.Join(err, ferr)
	}
	if err != nil {
		return err
	}
	return l.files.finish(l.req)
}
