package asl

import (
	"math"

	"gopkg.in/yaml.v3"

	"github.com/flowc-dev/flowc/compiler/yamlx"
	"github.com/flowc-dev/flowc/ir"
)

// Distributed Map: ProcessorConfig Mode DISTRIBUTED and the fields that go
// with it. flowc runs the child executions in the same process, streaming
// the items from the reader.

var distributedKeys = []string{
	"ItemReader", "ItemBatcher", "ResultWriter", "Label",
	"ToleratedFailurePercentage", "ToleratedFailurePercentagePath",
	"ToleratedFailureCount", "ToleratedFailureCountPath",
}

func init() {
	stateFields[ir.ASLMap] = append(stateFields[ir.ASLMap], distributedKeys...)
}

var (
	inputTypes    = []string{"JSON", "JSONL", "CSV", "MANIFEST"}
	csvDelimiters = []string{"COMMA", "PIPE", "SEMICOLON", "SPACE", "TAB"}
)

// distributed reads the distributed fields of a Map state, which only a
// DISTRIBUTED one may have.
func (l *lowerer) distributed(m yamlx.Map, s *ir.State) {
	d := s.ASL.Distributed
	if d == nil {
		for _, k := range distributedKeys {
			if e, ok := m.Entries[k]; ok {
				l.Diags.Errorf(l.Pos(e.Key), "`%s` belongs to a distributed Map: set `ItemProcessor.ProcessorConfig.Mode` to DISTRIBUTED", k)
			}
		}
		return
	}
	if n := m.Get("ItemReader"); n != nil {
		d.Reader = l.itemReader(n)
		if e, ok := m.Entries["ItemsPath"]; ok {
			l.Diags.Errorf(l.Pos(e.Key), "Map state %q reads its items with `ItemReader`; `ItemsPath` does not go with it", s.ID)
		}
	}
	if n := m.Get("ItemBatcher"); n != nil {
		l.itemBatcher(n, d)
	}
	if n := m.Get("ResultWriter"); n != nil {
		d.Writer = l.resultWriter(n)
	}
	if n := m.Get("Label"); n != nil {
		d.Label, _ = l.String(n, "Label")
	}
	pct, pctPath := m.Get("ToleratedFailurePercentage"), m.Get("ToleratedFailurePercentagePath")
	if pct != nil {
		d.TolerantPercent, d.HasPercent = l.Float(pct, "ToleratedFailurePercentage", 0, 100), true
	}
	if pctPath != nil {
		d.TolerantPctPath = l.exclusivePath(m, pctPath, "ToleratedFailurePercentage")
	}
	cnt, cntPath := m.Get("ToleratedFailureCount"), m.Get("ToleratedFailureCountPath")
	if cnt != nil {
		d.TolerantCount, d.HasCount = l.Int(cnt, "ToleratedFailureCount", 0, math.MaxInt32), true
	}
	if cntPath != nil {
		d.TolerantCntPath = l.exclusivePath(m, cntPath, "ToleratedFailureCount")
	}
}

// exclusivePath reads an `XPath` field, which may not come with `X`.
func (l *lowerer) exclusivePath(m yamlx.Map, n *yaml.Node, field string) *ir.Path {
	if m.Has(field) {
		l.Diags.Errorf(l.Pos(m.Entries[field+"Path"].Key), "`%s` and `%sPath` do not go together; keep one", field, field)
	}
	return l.path(n, field+"Path", true, true)
}

func (l *lowerer) itemReader(n *yaml.Node) *ir.ItemReader {
	r := &ir.ItemReader{}
	m, ok := l.Mapping(n, "ItemReader", "Resource", "Parameters", "ReaderConfig")
	if !ok {
		return r
	}
	r.Resource, r.Parameters = l.resourceCall(m)
	if !m.Has("Resource") {
		l.Diags.Errorf(l.Pos(n), "ItemReader needs a `Resource`")
	}
	if c := m.Get("ReaderConfig"); c != nil {
		l.readerConfig(c, r)
	}
	return r
}

func (l *lowerer) readerConfig(n *yaml.Node, r *ir.ItemReader) {
	m, ok := l.Mapping(n, "ReaderConfig", "InputType", "CSVHeaderLocation", "CSVHeaders", "CSVDelimiter", "MaxItems", "MaxItemsPath", "ManifestType")
	if !ok {
		return
	}
	if t := m.Get("InputType"); t != nil {
		r.Format = l.oneOf(t, "InputType", inputTypes)
	}
	loc := "FIRST_ROW"
	if h := m.Get("CSVHeaderLocation"); h != nil {
		loc = l.oneOf(h, "CSVHeaderLocation", []string{"FIRST_ROW", "GIVEN"})
	}
	switch h := m.Get("CSVHeaders"); {
	case h != nil && loc != "GIVEN":
		l.Diags.Errorf(l.Pos(m.Entries["CSVHeaders"].Key), "`CSVHeaders` needs `\"CSVHeaderLocation\": \"GIVEN\"`")
	case h != nil:
		r.CSVHeaders = l.Strings(h, "a CSV header")
	case loc == "GIVEN":
		l.Diags.Errorf(l.Pos(n), "`\"CSVHeaderLocation\": \"GIVEN\"` needs `CSVHeaders`")
	}
	if d := m.Get("CSVDelimiter"); d != nil {
		r.CSVDelimiter = l.oneOf(d, "CSVDelimiter", csvDelimiters)
	}
	if v := m.Get("MaxItems"); v != nil {
		r.MaxItems = l.Int(v, "MaxItems", 0, 100000000)
	}
	if v := m.Get("MaxItemsPath"); v != nil {
		r.MaxItemsPath = l.exclusivePath(m, v, "MaxItems")
	}
	if v := m.Get("ManifestType"); v != nil {
		l.oneOf(v, "ManifestType", []string{"ATHENA_DATA", "S3_INVENTORY"})
	}
}

func (l *lowerer) oneOf(n *yaml.Node, what string, allowed []string) string {
	s, ok := l.String(n, what)
	if ok && !contains(allowed, s) {
		l.Diags.Errorf(l.ContentPos(n), "%s must be one of %v, got %q", what, allowed, s)
	}
	return s
}

func (l *lowerer) itemBatcher(n *yaml.Node, d *ir.Distributed) {
	m, ok := l.Mapping(n, "ItemBatcher", "MaxItemsPerBatch", "MaxItemsPerBatchPath", "MaxInputBytesPerBatch", "MaxInputBytesPerBatchPath", "BatchInput")
	if !ok {
		return
	}
	d.Batched = true
	if v := m.Get("MaxItemsPerBatch"); v != nil {
		d.BatchItems = l.Int(v, "MaxItemsPerBatch", 1, math.MaxInt32)
	}
	if v := m.Get("MaxItemsPerBatchPath"); v != nil {
		d.BatchItemsPath = l.exclusivePath(m, v, "MaxItemsPerBatch")
	}
	if v := m.Get("MaxInputBytesPerBatch"); v != nil {
		d.BatchBytes = l.Int(v, "MaxInputBytesPerBatch", 1, 262144)
	}
	if v := m.Get("MaxInputBytesPerBatchPath"); v != nil {
		d.BatchBytesPath = l.exclusivePath(m, v, "MaxInputBytesPerBatch")
	}
	if !m.Has("MaxItemsPerBatch") && !m.Has("MaxItemsPerBatchPath") && !m.Has("MaxInputBytesPerBatch") && !m.Has("MaxInputBytesPerBatchPath") {
		l.Diags.Errorf(l.Pos(n), "ItemBatcher needs a limit: `MaxItemsPerBatch` or `MaxInputBytesPerBatch` (or their Path)")
	}
	if v := m.Get("BatchInput"); v != nil {
		d.BatchInput = l.objectTemplate(v, "BatchInput")
	}
}

func (l *lowerer) resultWriter(n *yaml.Node) *ir.ResultWriter {
	w := &ir.ResultWriter{}
	m, ok := l.Mapping(n, "ResultWriter", "Resource", "Parameters", "WriterConfig")
	if !ok {
		return w
	}
	w.Resource, w.Parameters = l.resourceCall(m)
	if c := m.Get("WriterConfig"); c != nil {
		if cm, ok := l.Mapping(c, "WriterConfig", "OutputType", "Transformation"); ok {
			if v := cm.Get("OutputType"); v != nil {
				w.OutputType = l.oneOf(v, "OutputType", []string{"JSON", "JSONL"})
			}
			if v := cm.Get("Transformation"); v != nil {
				w.Transformation = l.oneOf(v, "Transformation", []string{"NONE", "COMPACT", "FLATTEN"})
			}
		}
	}
	if !m.Has("Resource") && !m.Has("WriterConfig") {
		l.Diags.Errorf(l.Pos(n), "ResultWriter needs a `Resource` (or `WriterConfig`)")
	}
	return w
}

// resourceCall reads the Resource and Parameters of a reader or writer.
func (l *lowerer) resourceCall(m yamlx.Map) (string, *ir.Template) {
	var res string
	var params *ir.Template
	if n := m.Get("Resource"); n != nil {
		res, _ = l.String(n, "Resource")
	}
	if n := m.Get("Parameters"); n != nil {
		params = l.objectTemplate(n, "Parameters")
	}
	return res, params
}
