// Command worker is the Temporal worker of the end-to-end test: it runs
// the Review workflow of golden/review, and appends a line to -log for
// every activity it completes, so that the test can tell which ran, and
// how often.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/flowc-dev/flowc/temporal/golden/review"
)

func main() {
	address := flag.String("address", "", "Temporal server host:port")
	queue := flag.String("queue", "review", "task queue")
	logFile := flag.String("log", "", "file the activities append to")
	ids := flag.Bool("ids", false, "log each activity with its workflow's id (the soak test runs many)")
	flag.Parse()
	c, err := client.Dial(client.Options{HostPort: *address})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, *queue, worker.Options{})
	review.RegisterReview(w, handlers{log: *logFile, ids: *ids})
	if err := w.Run(worker.InterruptCh()); err != nil {
		log.Fatal(err)
	}
}

type handlers struct {
	log string
	ids bool
}

// done records a completed activity of the workflow ctx belongs to.
func (h handlers) done(ctx context.Context, what string) error {
	if h.ids {
		what += " " + activity.GetInfo(ctx).WorkflowExecution.ID
	}
	f, err := os.OpenFile(h.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%d %s\n", os.Getpid(), what)
	return err
}

func (h handlers) Load(ctx context.Context, s review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithStatus("loaded"), h.done(ctx, "load")
}

func (h handlers) Check(ctx context.Context, s review.ReviewState, page string) (review.ReviewUpdate, error) {
	time.Sleep(100 * time.Millisecond) // long enough for both slots of the fan-out to be busy
	return review.ReviewUpdate{}.WithChecked([]string{page}).WithWords(len(page)), h.done(ctx, "check "+page)
}

func (h handlers) Publish(ctx context.Context, s review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithStatus("published"), h.done(ctx, "publish")
}

func (h handlers) Drop(ctx context.Context, s review.ReviewState) (review.ReviewUpdate, error) {
	return review.ReviewUpdate{}.WithStatus("dropped"), h.done(ctx, "drop")
}
