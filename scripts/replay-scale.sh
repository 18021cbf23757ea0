#!/usr/bin/env bash
# How `restartscope replay` grows with the evidence (docs/PERFORMANCE.md has the table).
#
#   scripts/replay-scale.sh            # build (profile bench), generate, measure: a Markdown table
#   scripts/replay-scale.sh gen DIR    # only write the evidence files into DIR
#
# The evidence is made up, deterministically (awk, no randomness), in the shape of
# crates/evidence/tests/data/113646-watch.txt: N pods (app-0001 …), each first seen 1/1, then
# 0/1 and 1/1 a second later around a kubelet restart; pod i was created (i mod 120) s before
# pod 0, so their AGEs differ as in a real watch. Beside the watch, for the same pods: a
# `kubectl get events -o json` List (a Readiness Unhealthy per pod, the kubelet's Starting on the
# node) and a kubelet journal (systemd stop/start of the unit, "Starting kubelet.", per pod a
# "Patch status for pod" with Ready True before the stop, then False and True after the start,
# and a "Probe failed" in between).
#
# Measured per N (10, 100, 1000; REPLAY_SIZES overrides): the median wall time of 5 runs of
# `restartscope replay --evidence F -o json` and its peak RSS (/usr/bin/time -v), for the watch
# alone and for the three files together; `-o svg` at the largest N. Ratios: each N's time over
# the previous N's (the project's rule: ×10 work → ≤ ×12 time).
set -euo pipefail

gen() {
	local dir=$1 n=$2
	mkdir -p "$dir"
	# The watch: every pod's first row, then the flap rows in wall-clock order (a pod created
	# c s earlier has an AGE c s higher at the same moment).
	awk -v n="$n" '
	function age(s,   m, r) { m = int(s / 60); r = s % 60; return r ? m "m" r "s" : m "m" }
	function row(i, ready, a) { printf "app-%04d   %s     Running   0              %s\n", i, ready, age(a) }
	BEGIN {
		print "# made up by scripts/replay-scale.sh: " n " pods, each 1/1 → 0/1 → 1/1 around a kubelet restart (the shape of kubernetes#113646)"
		print "[root@master ~]# kubectl get pod -w"
		for (i = 0; i < n; i++) row(i, "1/1", 228 + i % 120)
		for (i = 0; i < n; i++) row(i, "0/1", 240 + i % 120)
		for (i = 0; i < n; i++) row(i, "1/1", 241 + i % 120)
	}' >"$dir/watch-$n.txt"
	# The events: a List with the kubelet's Starting on the node and one Unhealthy per pod.
	awk -v n="$n" '
	function ev(name, kind, obj, uid, reason, msg, t) {
		printf "%s    {\n", (first ? "" : ",\n"); first = 0
		printf "      \"apiVersion\": \"v1\",\n      \"kind\": \"Event\",\n"
		printf "      \"metadata\": {\"name\": \"%s\", \"namespace\": \"default\"},\n", name
		printf "      \"involvedObject\": {\"kind\": \"%s\", \"name\": \"%s\", \"namespace\": \"default\", \"uid\": \"%s\"},\n", kind, obj, uid
		printf "      \"reason\": \"%s\",\n      \"message\": \"%s\",\n", reason, msg
		printf "      \"source\": {\"component\": \"kubelet\", \"host\": \"node-1\"},\n"
		printf "      \"firstTimestamp\": \"%s\",\n      \"lastTimestamp\": \"%s\",\n", t, t
		printf "      \"count\": 1,\n      \"type\": \"%s\"\n    }", (reason == "Unhealthy" ? "Warning" : "Normal")
	}
	BEGIN {
		first = 1
		print "# made up by scripts/replay-scale.sh: " n " pods, a Readiness Unhealthy each after the kubelet starts"
		print "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": ["
		ev("node-1.start", "Node", "node-1", "node-1", "Starting", "Starting kubelet.", "2026-12-01T10:00:10Z")
		for (i = 0; i < n; i++)
			ev(sprintf("app-%04d.unhealthy", i), "Pod", sprintf("app-%04d", i), sprintf("00000000-0000-0000-0000-%012d", i),
			   "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503", "2026-12-01T10:00:12Z")
		print "\n  ]\n}"
	}' >"$dir/events-$n.json"
	# The kubelet journal.
	awk -v n="$n" '
	function pre(s) { return sprintf("Dec 01 10:00:%02d node-1", s) }
	function patch(s, i, r) {
		printf "%s kubelet[2000]: I1201 10:00:%02d.%06d    2000 status_manager.go:874] \"Patch status for pod\" pod=\"default/app-%04d\" podUID=\"00000000-0000-0000-0000-%012d\" patch=\"{\\\"status\\\":{\\\"conditions\\\":[{\\\"type\\\":\\\"Ready\\\",\\\"status\\\":\\\"%s\\\"}]}}\"\n", pre(s), s, i, i, i, r
	}
	BEGIN {
		print "# made up by scripts/replay-scale.sh: " n " pods, the kubelet stopped for 10 s, each pod Ready True → False → True"
		for (i = 0; i < n; i++) patch(0, i, "True")
		print pre(1) " systemd[1]: Stopping kubelet.service - kubelet: The Kubernetes Node Agent..."
		print pre(11) " systemd[1]: Started kubelet.service - kubelet: The Kubernetes Node Agent."
		print pre(11) " kubelet[2000]: I1201 10:00:11.500000    2000 server.go:486] \"Starting kubelet.\""
		for (i = 0; i < n; i++) patch(12, i, "False")
		for (i = 0; i < n; i++)
			printf "%s kubelet[2000]: I1201 10:00:12.%06d    2000 prober.go:107] \"Probe failed\" probeType=\"Readiness\" pod=\"default/app-%04d\" podUID=\"00000000-0000-0000-0000-%012d\" containerName=\"app\" probeResult=\"failure\"\n", pre(12), i, i, i
		for (i = 0; i < n; i++) patch(13, i, "True")
	}' >"$dir/kubelet-$n.log"
}

if [[ ${1:-} == gen ]]; then
	for n in ${REPLAY_SIZES:-10 100 1000}; do gen "${2:?gen DIR}" "$n"; done
	exit 0
fi

cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
cargo build --profile bench -p restartscope-cli >&2
bin=$target/release/restartscope
[[ -x $bin ]] || bin=$target/bench/restartscope
dir=$target/replay-scale
sizes=(${REPLAY_SIZES:-10 100 1000})
for n in "${sizes[@]}"; do gen "$dir" "$n"; done

# The median wall time (ms) of 5 runs (bash's EPOCHREALTIME: /usr/bin/time's %e has 10 ms
# steps); the peak RSS (KB, /usr/bin/time's %M) the largest of them.
measure() {
	local times=() rss=0 t0 t1 r
	for _ in 1 2 3 4 5; do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%M' -o "$dir/time.out" "$bin" replay "$@" >/dev/null
		t1=$EPOCHREALTIME
		r=$(tail -1 "$dir/time.out")
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) * 1000 }')")
		((r > rss)) && rss=$r
	done
	printf '%s %s\n' "$(printf '%s\n' "${times[@]}" | sort -g | sed -n 3p)" "$rss"
}

row() { # label, lines, then replay's arguments
	local label=$1 lines=$2 t r ratio=
	shift 2
	read -r t r < <(measure "$@")
	[[ -n ${prev:-} ]] && ratio=$(awk -v a="$t" -v b="$prev" 'BEGIN { printf "×%.1f", (b > 0 ? a / b : 0) }')
	prev=$t
	printf '| %s | %s | %s ms | %.1f MB | %s |\n' "$label" "$lines" "$t" "$(awk -v k="$r" 'BEGIN { print k / 1024 }')" "${ratio:-–}"
}

echo "| evidence | lines | time (median of 5) | peak RSS | time × previous N |"
echo "|---|---|---|---|---|"
prev=
for n in "${sizes[@]}"; do
	row "watch, $n pods, -o json" "$(wc -l <"$dir/watch-$n.txt")" --evidence "$dir/watch-$n.txt" -o json
done
prev=
for n in "${sizes[@]}"; do
	lines=$(cat "$dir/watch-$n.txt" "$dir/events-$n.json" "$dir/kubelet-$n.log" | wc -l)
	row "watch + events + journal, $n pods, -o json" "$lines" --evidence "$dir/watch-$n.txt" \
		--evidence "$dir/events-$n.json" --evidence "$dir/kubelet-$n.log" -o json
done
n=${sizes[-1]}
prev=
row "watch, $n pods, -o svg" "$(wc -l <"$dir/watch-$n.txt")" --evidence "$dir/watch-$n.txt" -o svg
