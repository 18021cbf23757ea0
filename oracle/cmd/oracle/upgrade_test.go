package main

import (
	"encoding/json"
	"testing"

	"restartscope/oracle/internal/node"
	"restartscope/oracle/internal/scenario"
	"restartscope/oracle/internal/trace"
)

// A hand-over changes nothing by itself: a kubelet restart run as two processes of one release
// (the first stops at the restart, its Handover goes through JSON, the second goes on) writes
// the events of the same restart run in one process.
func TestHandoverIsTransparent(t *testing.T) {
	sc, err := scenario.Load("../../../crates/sim/presets/upgrade-1.34-to-1.35.toml")
	if err != nil {
		t.Fatal(err)
	}
	grace := 50.0
	sc.Cluster.NodeMonitorGraceS = &grace
	// Something that changes across the hand-over: a container exits during the downtime.
	sc.Pods[1].Containers[0].Truth = []scenario.Truth{{AtS: 40, State: "exited"}}
	plain := *sc
	plain.Kubelet.Restarts = append([]scenario.Restart{}, sc.Kubelet.Restarts...)
	plain.Kubelet.Restarts[0].UpgradeTo = ""
	want, err := simulate(&plain, node.Gates{}, "", "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ho := &Handover{Events: []trace.Event{}}
	if _, err := simulate(sc, node.Gates{}, "", "", nil, ho); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ho)
	if err != nil {
		t.Fatal(err)
	}
	var in Handover
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatal(err)
	}
	got, err := simulate(sc, node.Gates{}, "", "", &in, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i].Kind == "kubelet_start" {
			got[i].Value = nil
		}
	}
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if string(w) != string(g) || len(want) < 10 {
		t.Errorf("a restart handed over is not the same restart:\n%s\n%s", w, g)
	}
}
