package asl

// The Agent State Language's intrinsic functions beyond AWS's, and its
// States.MathAdd of any number of terms.
func init() {
	for name, sig := range map[string]signature{
		"States.MathAdd":         {2, -1, []argType{tNumber}, tNumber},
		"States.MathSubtract":    {2, 2, []argType{tNumber, tNumber}, tNumber},
		"States.MathMultiply":    {2, 2, []argType{tNumber, tNumber}, tNumber},
		"States.ArrayConcat":     {1, -1, []argType{tArray}, tArray},
		"States.Coalesce":        {1, -1, []argType{tAny}, tAny},
		"States.Merge":           {1, -1, []argType{tObject}, tObject},
		"States.Pick":            {1, -1, []argType{tObject, tString}, tObject},
		"States.Omit":            {1, -1, []argType{tObject, tString}, tObject},
		"States.TokenCount":      {1, 1, []argType{tAny}, tInteger},
		"States.Truncate":        {2, 2, []argType{tString, tInteger}, tString},
		"States.EstimateCost":    {1, 2, []argType{tAny, tString}, tNumber},
		"States.CurrentCost":     {0, 0, nil, tNumber},
		"States.CurrentTokens":   {0, 0, nil, tInteger},
		"States.RemainingBudget": {0, 0, nil, tNumber},
	} {
		intrinsics[name] = sig
		if !contains(intrinsicNames, name) {
			intrinsicNames = append(intrinsicNames, name)
		}
	}
}
