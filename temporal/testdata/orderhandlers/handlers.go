// Package orderhandlers is the --handlers package TestBuildOnServer builds
// ../../../golden/aslcallback/order.asl.json with: the order's Lambda
// tasks, and its approval queue, which sends nothing: the test reads the
// task token from the session's WAITING line and answers it.
package orderhandlers

import (
	"context"
	"errors"
)

// Orders runs the Task states of the order.
type Orders struct{}

// Handlers is the contract of flowc build --handlers.
func Handlers() Orders { return Orders{} }

// Reserve reserves the order's items.
func (Orders) Reserve(_ context.Context, in any) (any, error) {
	order, _ := in.(map[string]any)["order"].(string)
	if order == "" {
		return nil, errors.New("no order to reserve")
	}
	return map[string]any{"id": "r-" + order}, nil
}

// SendMessageWaitForTaskToken would put the approval request, token and
// all, on its queue.
func (Orders) SendMessageWaitForTaskToken(context.Context, any) (any, error) { return nil, nil }

// Ship ships the reserved order.
func (Orders) Ship(_ context.Context, in any) (any, error) {
	reservation, _ := in.(map[string]any)["reservation"].(map[string]any)
	id, _ := reservation["id"].(string)
	if id == "" {
		return nil, errors.New("nothing reserved to ship")
	}
	return map[string]any{"tracking": "t-" + id}, nil
}
