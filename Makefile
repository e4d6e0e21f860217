# lookd — two commands do all the set-up on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
RELEASE_BIN := .build/release/lookd
HOST ?= 127.0.0.1
PORT ?= 8080
DATA ?= ./.lookd

.PHONY: deps build run test bench lint clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product lookd

# Builds in release mode and runs lookd's main job.
run: build
	$(RELEASE_BIN) resolve --default

# The whole test suite (Swift Testing).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Benchmarks print rates and ratios against an anchor measured in the same run. No timing assertions anywhere.
bench: deps
	$(SWIFT) build -c release --product lookd-bench
	.build/release/lookd-bench

clean:
	rm -rf .build
