module github.com/flowc-dev/flowc

go 1.26.8
