# The two commands: `make run` serves the app, `make test` runs every test.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
PORT ?= 8080
# 0.0.0.0 serves the presenter's network too (the audience's phones open the QR code's link).
HOST ?= 127.0.0.1

.PHONY: run watch test setup build install oracle bench bench-quick bench-fleet-web bench-replay svg kep-4781 node-restart regen presenting-shots clean

# Both release bundles (the app, and the fleet view in dist/fleet/), served as static files.
run: build
	@echo "RestartScope: http://$(HOST):$(PORT)/  (fleet view: http://$(HOST):$(PORT)/fleet/)"
	SERVE_ENCODING=br node scripts/serve.mjs dist $(PORT) $(HOST)

# The single-node app only, rebuilt on every change (trunk serve cannot serve the fleet page too).
watch: setup
	trunk serve --release --address 127.0.0.1 --port $(PORT)

test: setup
	scripts/test.sh

setup:
	@scripts/setup.sh

# The release bundles (the app, the fleet view, the importer's worker): scripts/build.sh.
build: setup
	scripts/build.sh

# The CLI in cargo's bin directory (~/.cargo/bin), from the locked dependencies (offline when they
# are all downloaded already), and `kubectl-restartscope` beside it, a link kubectl finds as a
# plugin: `kubectl restartscope simulate -f web.yaml`.
CARGO_BIN := $(or $(CARGO_HOME),$(HOME)/.cargo)/bin
install:
	cargo install --path crates/cli --locked --offline || cargo install --path crates/cli --locked
	ln -sf restartscope $(CARGO_BIN)/kubectl-restartscope
	@echo "installed $(CARGO_BIN)/restartscope and $(CARGO_BIN)/kubectl-restartscope (kubectl restartscope …)"

# The model's reference (docs/ORACLE.md): every served release's feature gates and the vectors of
# Kubernetes' own kubelet and control-plane code over the presets (Go and its module proxy).
oracle:
	oracle/scripts/gates.sh
	oracle/scripts/oracle.sh

# Benchmarks (not tests): criterion, then scripts/bench-wasm.sh (the quick native table of
# examples/scale.rs, the same workload as wasm32 in Node, and wasm/native).
bench: setup
	cargo bench -p restartscope-sim --bench node
	scripts/bench-wasm.sh

# The fleet view in headless Chromium: 1,000 × 30 and 5,000 × 30 rolling restarts (time, wasm memory).
bench-fleet-web: build
	FLEET_BENCH=1 npx playwright test fleet-bench.spec

# The native table only (a few seconds): both policies and the bare loop at 100 and 1,000 pods.
bench-quick:
	cargo run --profile bench -p restartscope-sim --example scale

# `restartscope replay` on made-up evidence of 10, 100 and 1,000 pods (watch; watch + events +
# journal; -o svg): median time of 5 runs, peak RSS, × per ×10 pods (docs/PERFORMANCE.md has the table).
bench-replay:
	scripts/replay-scale.sh

# docs/kep-4781/: KEP-4781's three sequence diagrams as animated SVGs and Mermaid, and the
# README.md to paste from (crates/cli/tests/kep_4781.rs fails when they are stale).
kep-4781:
	scripts/kep-4781.sh

# docs/node-restart/: the kubelet, container-runtime and node restarts as animated SVGs and
# Mermaid for kubernetes.io's "What Happens After A Node Restart", and two probe diagrams
# (crates/cli/tests/node_restart.rs fails when they are stale).
node-restart:
	scripts/node-restart.sh

# Every committed file the CLI generates (figures, fixtures, docs/kep-4781/, docs/tour/), after a
# deliberate change of the figure or the model: scripts/regen.sh.
regen:
	scripts/regen.sh

# docs/presenting/: the presenter view's two windows at 1280×720 and 1920×1080, as
# tests/e2e/present.spec.mjs takes them (on every run it writes them to artifacts/ only).
presenting-shots: build
	PRESENT_SHOTS=docs npx playwright test tests/e2e/present.spec -g screenshots

clean:
	cargo clean; rm -rf dist artifacts
