#!/usr/bin/env bash
# The releases the harness runs: the newest version of each minor from 1.31 on that the Go module
# proxy serves for k8s.io/kubernetes (a minor with only pre-releases: its newest pre-release).
set -euo pipefail
GOTOOLCHAIN=local GOFLAGS=-mod=mod go list -m -versions k8s.io/kubernetes 2>/dev/null | tr ' ' '\n' |
  grep -E '^v1\.(3[1-9]|[4-9][0-9])\.' | sort -V |
  awk -F. '{m=$1"."$2; last[m]=$0} END {for (m in last) print last[m]}' | sort -V
