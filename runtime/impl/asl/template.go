package asl

// Template is a compiled payload template (Parameters, ItemSelector,
// ResultSelector): a tree of literals, paths and intrinsic calls built by
// generated code, evaluated against a state's input.
type Template struct {
	Kind    templateKind
	Value   any // TValue: a JSON value, shared and never changed
	Fields  []templateField
	Items   []*Template
	Path    *JSONPath
	Call    *Intrinsic
	JSONata *JSONata
}

// templateKind classifies a Template node.
type templateKind int

const (
	tmplValue templateKind = iota
	tmplObject
	tmplArray
	tmplPath
	tmplCall
	tmplJSONata
)

// templateField is one member of an object template.
type templateField struct {
	Key   string
	Value *Template
}

// TValue, TObject, TField, TArray, TPath and TCall build template nodes.
func TValue(v any) *Template                    { return &Template{Kind: tmplValue, Value: v} }
func TObject(fields ...templateField) *Template { return &Template{Kind: tmplObject, Fields: fields} }
func TField(key string, v *Template) templateField {
	return templateField{Key: key, Value: v}
}
func TArray(items ...*Template) *Template { return &Template{Kind: tmplArray, Items: items} }
func TPath(p *JSONPath) *Template         { return &Template{Kind: tmplPath, Path: p} }
func TCall(c *Intrinsic) *Template        { return &Template{Kind: tmplCall, Call: c} }

// TJSONata builds a template node of a "{% %}" expression.
func TJSONata(j *JSONata) *Template { return &Template{Kind: tmplJSONata, JSONata: j} }

// Eval builds the template's value from in and the context object (and,
// for JSONata, the $states and variables cx holds). A path that finds
// nothing, or an intrinsic that fails, is a States.Runtime error; a JSONata
// expression that fails or gives nothing is States.QueryEvaluationError.
func (t *Template) Eval(in any, cx *aslContext) (any, error) {
	switch t.Kind {
	case tmplObject:
		out := newObject(len(t.Fields))
		for _, f := range t.Fields {
			v, err := f.Value.Eval(in, cx)
			if err != nil {
				return nil, err
			}
			out.set(f.Key, v)
		}
		return out, nil
	case tmplArray:
		out := make([]any, len(t.Items))
		for i, item := range t.Items {
			v, err := item.Eval(in, cx)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case tmplPath:
		return t.Path.Get(in, cx)
	case tmplCall:
		return t.Call.Eval(in, cx)
	case tmplJSONata:
		return t.JSONata.Eval(cx)
	}
	return t.Value, nil
}
