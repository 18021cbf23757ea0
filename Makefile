# The two commands: `make run` serves the app, `make test` runs every test.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
PORT ?= 8080

.PHONY: run test setup build bench svg clean

run: setup
	@echo "RestartScope: http://127.0.0.1:$(PORT)/"
	trunk serve --release --address 127.0.0.1 --port $(PORT)

test: setup
	scripts/test.sh

setup:
	@scripts/setup.sh

build: setup
	trunk build --release

bench:
	cargo bench -p restartscope-sim --bench node

clean:
	cargo clean; rm -rf dist artifacts
