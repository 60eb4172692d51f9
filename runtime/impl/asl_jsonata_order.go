package impl

import (
	"reflect"
	"slices"

	"github.com/blues/jsonata-go"
	"github.com/blues/jsonata-go/jlib"
	"github.com/blues/jsonata-go/jtypes"
)

// The evaluator walks an object's members in Go's map order, which
// changes from run to run, so $keys, $each and $spread would list them in
// a different order every time (and a Temporal replay would record
// another history). Objects reach it as Go maps, their source order gone,
// so flowc lists their members in key order instead.
var orderedObjectFunctions = map[string]jsonata.Extension{
	"keys":   {Func: orderedKeys, UndefinedHandler: jtypes.ArgUndefined(0), EvalContextHandler: jtypes.ArgCountEquals(0)},
	"each":   {Func: orderedEach, UndefinedHandler: jtypes.ArgUndefined(0), EvalContextHandler: jtypes.ArgCountEquals(0)},
	"spread": {Func: orderedSpread, UndefinedHandler: jtypes.ArgUndefined(0), EvalContextHandler: jtypes.ArgCountEquals(0)},
}

func orderedKeys(obj reflect.Value) (any, error) {
	v, err := jlib.Keys(obj)
	if keys, ok := v.([]string); ok {
		slices.Sort(keys)
	}
	return v, err
}

// sortedMapKeys is the string keys of map m in order; ok is false when m
// is no map with string keys, which the library's own function handles.
func sortedMapKeys(v reflect.Value) (m reflect.Value, keys []string, ok bool) {
	if !jtypes.IsMap(v) {
		return v, nil, false
	}
	m = jtypes.Resolve(v)
	if m.Type().Key().Kind() != reflect.String {
		return m, nil, false
	}
	for _, k := range m.MapKeys() {
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	return m, keys, true
}

func orderedEach(obj reflect.Value, fn jtypes.Callable) (any, error) {
	m, keys, ok := sortedMapKeys(obj)
	if !ok || fn.ParamCount() < 1 || fn.ParamCount() > 3 {
		return jlib.Each(obj, fn)
	}
	var results []any
	for _, k := range keys {
		argv := []reflect.Value{m.MapIndex(reflect.ValueOf(k)), reflect.ValueOf(k), m}[:fn.ParamCount()]
		res, err := fn.Call(argv)
		if err != nil {
			return nil, err
		}
		if res.IsValid() && res.CanInterface() {
			results = append(results, res.Interface())
		}
	}
	switch len(results) {
	case 0:
		return nil, jtypes.ErrUndefined
	case 1:
		return results[0], nil
	}
	return results, nil
}

func orderedSpread(v reflect.Value) (any, error) {
	if jtypes.IsArray(v) {
		a := jtypes.Resolve(v)
		var results []any
		for i := range a.Len() {
			res, err := orderedSpread(a.Index(i))
			if err != nil {
				return nil, err
			}
			if list, ok := res.([]any); ok {
				results = append(results, list...)
			} else if res != nil {
				results = append(results, res)
			}
		}
		return results, nil
	}
	m, keys, ok := sortedMapKeys(v)
	if !ok {
		return jlib.Spread(v)
	}
	var results []any
	for _, k := range keys {
		if member := m.MapIndex(reflect.ValueOf(k)); member.CanInterface() {
			results = append(results, map[string]any{k: member.Interface()})
		}
	}
	return results, nil
}
