package asl

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowc-dev/flowc/runtime/impl"
)

// ItemReaderSpec is a distributed Map's ItemReader.
type ItemReaderSpec struct {
	Resource     string
	Parameters   *Template
	Format       string   // JSON, JSONL, CSV, MANIFEST; "": list the objects
	CSVHeaders   []string // given headers; nil: the first row
	CSVDelimiter string   // COMMA (""), PIPE, SEMICOLON, SPACE, TAB
	MaxItems     int      // 0: all
	MaxItemsPath *JSONPath
}

// ItemReadRequest is what an item reader is asked to read.
type ItemReadRequest struct {
	State      string
	Resource   string
	Parameters any // the ItemReader's Parameters, evaluated (Bucket, Key, Prefix...)
	Format     string
	CSVHeaders []string
	Delimiter  rune
}

// ItemReader is implemented by handlers that read the items of distributed
// Maps themselves. ReadItems calls yield for each item in order and stops
// when yield returns an error, which it returns; yield blocks while the Map
// is at its MaxConcurrency, so items stream without being held. Handlers
// that do not implement it, or that pass a request on to ReadLocalItems,
// get the built-in reader of local files.
type ItemReader interface {
	ReadItems(ctx context.Context, req ItemReadRequest, yield func(item any) error) error
}

var errEnough = errors.New("MaxItems reached")

var delimiters = map[string]rune{"": ',', "COMMA": ',', "PIPE": '|', "SEMICOLON": ';', "SPACE": ' ', "TAB": '\t'}

// items streams the Map's items, each made into its child input by
// ItemSelector, to emit.
func (r *mapRun) items(ctx context.Context, emit func(index int, item any) error) error {
	rd := r.d.Reader
	if rd == nil {
		list, _, err := r.spec.setup(r.in, r.cx)
		if err != nil {
			return err
		}
		for i, item := range list {
			if err := r.emitItem(i, item, emit); err != nil {
				return err
			}
		}
		return nil
	}
	req, most, err := r.readRequest()
	if err != nil {
		return err
	}
	n := 0
	yield := func(item any) error {
		if most > 0 && n >= most {
			return errEnough
		}
		v, err := normalize(item)
		if err != nil {
			return fmt.Errorf("item %d is not JSON: %w", n, err)
		}
		n++
		return r.emitItem(n-1, v, emit)
	}
	err = r.read(ctx, req, yield)
	if errors.Is(err, errEnough) {
		return nil
	}
	return err
}

func (r *mapRun) emitItem(i int, item any, emit func(int, any) error) error {
	in, err := r.spec.itemInput(r.in, r.cx, i, item)
	if err != nil {
		return err
	}
	return emit(i, in)
}

// read calls the handlers' reader, or the built-in one; a panic is an
// error.
func (r *mapRun) read(ctx context.Context, req ItemReadRequest, yield func(any) error) (err error) {
	defer impl.Recover(r.state, &err)
	if h, ok := r.x.handlers.(ItemReader); ok {
		return h.ReadItems(ctx, req, yield)
	}
	return ReadLocalItems(ctx, req, yield)
}

func (r *mapRun) readRequest() (ItemReadRequest, int, error) {
	rd := r.d.Reader
	req := ItemReadRequest{State: r.state, Resource: rd.Resource, Format: rd.Format, CSVHeaders: rd.CSVHeaders, Delimiter: delimiters[rd.CSVDelimiter]}
	if rd.Parameters != nil {
		p, err := rd.Parameters.Eval(r.in, r.cx)
		if err != nil {
			return req, 0, err
		}
		req.Parameters = p
		if !r.x.ordered {
			req.Parameters = Plain(p)
		}
	}
	most, err := numberAt(rd.MaxItemsPath, float64(rd.MaxItems), r.in, r.cx, -1)
	return req, int(most), err
}

// ReadLocalItems is the built-in item reader: the local counterpart of
// reading from S3, with Bucket a directory. With a Format it reads the file
// Bucket/Key: a JSON array, JSON lines, or CSV rows as objects of strings
// by header; without one (or for listObjectsV2) it lists the files under
// Bucket whose path starts with Prefix, as {"Key", "Size"} in path order.
func ReadLocalItems(ctx context.Context, req ItemReadRequest, yield func(any) error) error {
	bucket, key, prefix := localParams(req.Parameters)
	if req.Format == "" || strings.HasSuffix(req.Resource, "listObjectsV2") {
		return listLocal(ctx, bucket, prefix, yield)
	}
	if req.Format == "MANIFEST" {
		return fmt.Errorf("the built-in reader reads JSON, JSONL and CSV files; read a MANIFEST with an ItemReader handler")
	}
	f, err := os.Open(filepath.Join(bucket, filepath.FromSlash(key)))
	if err != nil {
		return err
	}
	defer f.Close()
	in := bufio.NewReaderSize(f, 1<<16)
	switch req.Format {
	case "JSON":
		return readJSONArray(in, yield)
	case "JSONL":
		return readJSONLines(in, yield)
	}
	return readCSV(in, req, yield)
}

func localParams(p any) (bucket, key, prefix string) {
	get := func(name string) string {
		var v any
		switch p := p.(type) {
		case map[string]any:
			v = p[name]
		case *Object:
			v, _ = p.Get(name)
		}
		s, _ := v.(string)
		return s
	}
	return get("Bucket"), get("Key"), get("Prefix")
}

func listLocal(ctx context.Context, dir, prefix string, yield func(any) error) error {
	if dir == "" {
		dir = "."
	}
	return filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		key := filepath.ToSlash(rel)
		if !strings.HasPrefix(key, prefix) {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		return yield(Obj("Key", key, "Size", float64(info.Size())))
	})
}

func readJSONArray(in io.Reader, yield func(any) error) error {
	dec := json.NewDecoder(in)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("the JSON file must hold an array of items")
	}
	for dec.More() {
		v, err := decodeOrdered(dec)
		if err != nil {
			return err
		}
		if err := yield(v); err != nil {
			return err
		}
	}
	return nil
}

func readJSONLines(in io.Reader, yield func(any) error) error {
	dec := json.NewDecoder(in)
	for {
		v, err := decodeOrdered(dec)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := yield(v); err != nil {
			return err
		}
	}
}

func readCSV(in io.Reader, req ItemReadRequest, yield func(any) error) error {
	cr := csv.NewReader(in)
	cr.Comma = req.Delimiter
	if cr.Comma == 0 {
		cr.Comma = ','
	}
	cr.FieldsPerRecord = -1
	headers := req.CSVHeaders
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if headers == nil {
			headers = rec
			continue
		}
		if len(rec) > len(headers) {
			return fmt.Errorf("CSV row %d has %d fields for %d headers", row, len(rec), len(headers))
		}
		o := newObject(len(headers))
		for i, h := range headers {
			v := ""
			if i < len(rec) {
				v = rec[i]
			}
			o.set(h, v)
		}
		if err := yield(o); err != nil {
			return err
		}
	}
}

// batcher groups child inputs into batches {"BatchInput", "Items"}.
type batcher struct {
	on       bool
	maxItems int
	maxBytes int
	input    any // BatchInput, evaluated; nil: none
	items    []any
	bytes    int
	next     int
}

func (d *DistributedSpec) batcher(in any, cx *aslContext) (batcher, error) {
	b := batcher{on: d.Batched}
	if !d.Batched {
		return b, nil
	}
	items, err := numberAt(d.BatchItemsPath, float64(d.BatchItems), in, cx, -1)
	if err != nil {
		return b, err
	}
	bytes, err := numberAt(d.BatchBytesPath, float64(d.BatchBytes), in, cx, -1)
	if err != nil {
		return b, err
	}
	b.maxItems, b.maxBytes = int(items), int(bytes)
	if d.BatchInput != nil {
		if b.input, err = d.BatchInput.Eval(in, cx); err != nil {
			return b, err
		}
	}
	return b, nil
}

// feed is the emitter of items: start itself, or batching into it.
func (b *batcher) feed(start func(int, any) error) func(int, any) error {
	if !b.on {
		return start
	}
	return func(_ int, item any) error {
		size := 0
		if b.maxBytes > 0 {
			size = len(impl.JSONText(item))
		}
		full := b.maxItems > 0 && len(b.items) >= b.maxItems || b.maxBytes > 0 && b.bytes+size > b.maxBytes
		if len(b.items) > 0 && full {
			if err := b.flush(start); err != nil {
				return err
			}
		}
		b.items = append(b.items, item)
		b.bytes += size
		return nil
	}
}

// flush starts the child of the batch so far.
func (b *batcher) flush(start func(int, any) error) error {
	if !b.on || len(b.items) == 0 {
		return nil
	}
	in := newObject(2)
	if b.input != nil {
		in.set("BatchInput", b.input)
	}
	in.set("Items", b.items)
	b.items, b.bytes = nil, 0
	b.next++
	return start(b.next-1, in)
}
