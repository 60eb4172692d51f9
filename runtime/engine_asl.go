package runtime

import "context"

// engineBranches is runBranches on an engine: the branches run as its
// fan-out, all at once, and the error is still that of the first branch,
// in branch order, that failed on its own.
func (x *ASLExec) engineBranches(ctx context.Context, e Engine, state string, branches []Machine, in any) ([]any, error) {
	n := len(branches)
	out, errs := make([]any, n), make([]error, n)
	err := e.FanOut(ctx, state, n, 0, func(ctx context.Context, i int) error {
		out[i], errs[i] = branches[i](x.innerScope(ctx), x, in)
		return errs[i]
	})
	if failed := firstFailure(errs); failed != nil {
		return nil, failed
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}
