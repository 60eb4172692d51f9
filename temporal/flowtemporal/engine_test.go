package flowtemporal

import (
	"reflect"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// A rule's RetryPolicy waits as the rule does: the same first interval,
// growth and attempts, and the rule's longest wait as the cap when it has
// none (Temporal's own default would cap it at 100 intervals).
func TestRetryPolicyOfRule(t *testing.T) {
	for _, c := range []struct {
		rule flowcimpl.Retrier
		want temporal.RetryPolicy
	}{
		{flowcimpl.Retrier{Errors: []string{"ALL"}, MaxAttempts: 4, Interval: time.Second, BackoffRate: 2, MaxDelay: 3 * time.Second},
			temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 3 * time.Second, MaximumAttempts: 4}},
		{flowcimpl.Retrier{Errors: []string{"ALL"}, MaxAttempts: 6, Interval: time.Second, BackoffRate: 3},
			temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 3, MaximumInterval: 81 * time.Second, MaximumAttempts: 6}},
		{flowcimpl.Retrier{Errors: []string{"ALL"}, MaxAttempts: 2, Interval: 5 * time.Second},
			temporal.RetryPolicy{InitialInterval: 5 * time.Second, BackoffCoefficient: 1, MaximumInterval: 5 * time.Second, MaximumAttempts: 2}},
	} {
		if got := retryPolicy(c.rule); !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%+v: %+v, want %+v", c.rule, *got, c.want)
		}
	}
}
