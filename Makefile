# The two commands: `make run` serves the app, `make test` runs every test.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
PORT ?= 8080

.PHONY: run test setup build bench bench-quick svg clean

run: setup
	@echo "RestartScope: http://127.0.0.1:$(PORT)/"
	trunk serve --release --address 127.0.0.1 --port $(PORT)

test: setup
	scripts/test.sh

setup:
	@scripts/setup.sh

build: setup
	trunk build --release

# Benchmarks (not tests): criterion, then scripts/bench-wasm.sh (the quick native table of
# examples/scale.rs, the same workload as wasm32 in Node, and wasm/native).
bench: setup
	cargo bench -p restartscope-sim --bench node
	scripts/bench-wasm.sh

# The native table only (a few seconds): both policies and the bare loop at 100 and 1,000 pods.
bench-quick:
	cargo run --profile bench -p restartscope-sim --example scale

clean:
	cargo clean; rm -rf dist artifacts
