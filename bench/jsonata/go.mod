module github.com/flowc-dev/flowc/bench/jsonata

go 1.26.0

require (
	github.com/blues/jsonata-go v1.5.4
	github.com/flowc-dev/flowc v0.0.0
)

replace github.com/flowc-dev/flowc => ../..
