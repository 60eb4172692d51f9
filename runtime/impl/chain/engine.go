package chain

// ChainCallOfKind returns call as a handler on an engine should see it: a
// call that crossed to an activity as JSON lost its task, whose kind the
// mocks read to leave the control token to the chain (RespondChain).
func ChainCallOfKind(call ChainCall, k HandlerKind) ChainCall {
	if call.task == nil {
		call.task = &ChainTask{ID: call.Task, Kind: k}
	}
	return call
}
