package pyexpr

// Condition reports whether a workflow condition holds over a state's
// output, as the engine decides it (utils.py, _evaluate_condition): the
// output must be an object (a map[string]any or an Ordered); its values,
// each through convertValue, are the variables, with `keys` the view of
// its keys; the condition holds when its value is truthy. Any error, an
// output that is not an object among them, means it does not hold: the
// run takes `otherwise` (utils.py, _evaluate_expression).
func Condition(e *Expr, output any) bool {
	d, ok := normalizeObject(output)
	if !ok {
		return false
	}
	vars := make(map[string]any, len(d.keys)+1)
	for i, k := range d.keys {
		vars[k.(string)] = convertValue(d.vals[i])
	}
	vars["keys"] = dictKeys(append([]any{}, d.keys...))
	v, err := e.Eval(vars)
	return err == nil && Truthy(v)
}

func normalizeObject(v any) (*dict, bool) {
	switch v.(type) {
	case map[string]any, Ordered:
		return normalize(v).(*dict), true
	}
	return nil, false
}
