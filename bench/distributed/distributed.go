// Package distributed measures a distributed Map streaming the lines of a
// JSONL file through its children into a ResultWriter, and checks that the
// memory it needs does not grow with the number of items:
//
//	go test ./bench/distributed -run '^$' -bench . -benchmem
//	go test ./bench/distributed -run MemoryFlat -v     # a million items
package distributed

//go:generate go run github.com/flowc-dev/flowc/cmd/flowc gen .
