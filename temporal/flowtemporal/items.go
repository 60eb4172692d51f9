package flowtemporal

import (
	"context"
	"encoding/json"
	"errors"

	flowcrt "github.com/flowc-dev/flowc/runtime"
	flowcimpl "github.com/flowc-dev/flowc/runtime/impl"
)

// A distributed Map's reader runs as activities, one page of items each,
// so that neither the workflow nor one activity result holds them all
// (Temporal bounds a payload to a few MB). ReadItems has no cursor: the
// activity of page p reads again from the start and skips the items of
// the pages before, so that any worker can serve it. A reader of N items
// therefore reads about N²/(2·page) items in all; a large input wants big
// pages, which the byte bound keeps under the payload limit.
const (
	ItemPageItems = 1000    // items in one page, at most
	ItemPageBytes = 1 << 20 // of their JSON, at most (a bigger item has a page of its own)
)

// ItemPage is one page of a reader's items.
type ItemPage struct {
	Items []json.RawMessage
	More  bool // the reader has items after these
}

var errPageFull = errors.New("page full")

// ReadItems is the workflow side of flowcimpl.ItemReader: it runs the
// reader's activity page by page, handing the items to yield in order,
// and stops at yield's first error, which it returns.
func ReadItems(ctx context.Context, activity string, req flowcimpl.ItemReadRequest, yield func(item any) error) error {
	for from := 0; ; {
		var page ItemPage
		if err := Execute(ctx, activity, &page, req, from); err != nil {
			return err
		}
		for _, raw := range page.Items {
			item, err := flowcrt.DecodeASLInput(raw)
			if err != nil {
				return err
			}
			if err := yield(item); err != nil {
				return err
			}
		}
		if !page.More {
			return nil
		}
		from += len(page.Items)
	}
}

// ReadItemsActivity is the activity of ReadItems: the page of items from
// index from on, read by h when it implements flowcimpl.ItemReader and by
// the built-in reader of local files otherwise.
func ReadItemsActivity(ctx context.Context, h any, req flowcimpl.ItemReadRequest, from int) (page ItemPage, err error) {
	ctx = ActivityContext(ctx)
	defer Finish(ctx, &err)
	read := flowcimpl.ReadLocalItems
	if r, ok := h.(flowcimpl.ItemReader); ok {
		read = r.ReadItems
	}
	n, size := 0, 0
	err = read(ctx, req, func(item any) error {
		if n < from {
			n++
			return nil
		}
		raw, err := flowcimpl.ItemJSON(n, item)
		if err != nil {
			return err
		}
		if len(page.Items) > 0 && (len(page.Items) >= ItemPageItems || size+len(raw) > ItemPageBytes) {
			page.More = true
			return errPageFull
		}
		page.Items = append(page.Items, raw)
		n, size = n+1, size+len(raw)
		return nil
	})
	if errors.Is(err, errPageFull) {
		err = nil
	}
	return page, err
}

// HandlerValue is v, decoded from an activity's JSON input, as the native
// engine hands it to h: its objects plain maps unless h takes them
// ordered (flowcimpl.OrderedHandlers).
func HandlerValue(h any, v any) any {
	if _, ok := h.(flowcimpl.OrderedHandlers); ok {
		return v
	}
	return flowcimpl.Plain(v)
}
