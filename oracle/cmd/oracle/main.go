// Command oracle runs one RestartScope scenario through Kubernetes' own kubelet and control-plane
// code of the release it is built with (oracle/mods/<release>.mod, `go build -overlay`), on a
// fake clock, and writes what happened in the model's trace vocabulary:
//
//	oracle -scenario crates/sim/presets/short-restart.toml -policy kep -release v1.37.2 \
//	       -kdir $(go list -m -f '{{.Dir}}' k8s.io/kubernetes) -out vectors/v1.37.2/short-restart.kep.json
//
// A scenario the harness cannot drive gets a vector that says so (`skipped`), never a trace.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/component-base/featuregate"
	testingclock "k8s.io/utils/clock/testing"

	"restartscope/oracle/internal/node"
	"restartscope/oracle/internal/scenario"
	"restartscope/oracle/internal/trace"
)

// Vector is one run: the release, the scenario, the kubelet (policy and gates) and its events.
type Vector struct {
	Release string `json:"release"`
	// An in-place upgrade: the release the story ran on until the kubelet's upgrade, and its
	// kubelet's gates (cmd/oracle/upgrade.go).
	FromRelease      string        `json:"from_release,omitempty"`
	FromFeatureGates string        `json:"from_feature_gates,omitempty"`
	Scenario         string        `json:"scenario"`
	Policy           string        `json:"policy"`
	FeatureGates     string        `json:"feature_gates"`
	Skipped          []string      `json:"skipped,omitempty"`
	Covers           []string      `json:"covers"`
	HorizonMs        int64         `json:"horizon_ms"`
	Events           []trace.Event `json:"events"`
}

const kepGate = "ChangeContainerStatusOnKubeletRestart"

func main() {
	scPath := flag.String("scenario", "", "scenario file (TOML or JSON)")
	policy := flag.String("policy", "kep", "kep (the release's default) or legacy (the gate set true)")
	release := flag.String("release", "", "the k8s.io/kubernetes version built in")
	kdir := flag.String("kdir", "", "the k8s.io/kubernetes module directory (read for kubelet_pods.go)")
	out := flag.String("out", "", "output file (default stdout)")
	hOut := flag.String("handover-out", "", "an in-place upgrade's first process: run until the upgrade's kubelet stops and write the hand-over here")
	hIn := flag.String("handover-in", "", "an in-place upgrade's second process: go on from this hand-over")
	flag.Parse()
	if err := run(*scPath, *policy, *release, *kdir, *out, *hOut, *hIn); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

func run(scPath, policy, release, kdir, out, hOut, hIn string) error {
	sc, err := scenario.Load(scPath)
	if err != nil {
		return err
	}
	v := Vector{Release: release, Scenario: sc.Name, Policy: policy, HorizonMs: int64(sc.HorizonS * 1000),
		Covers: []string{"prober", "prober/results", "status", "lifecycle", "nodelifecycle", "tainteviction"}, Events: []trace.Event{}}
	known := utilfeature.DefaultMutableFeatureGate.GetAll()
	_, hasKEP := known[featuregate.Feature(kepGate)]
	if policy == "legacy" && hasKEP {
		if err := utilfeature.DefaultMutableFeatureGate.Set(kepGate + "=true"); err != nil {
			return err
		}
		v.FeatureGates = kepGate + "=true"
	} else if policy == "kep" && !hasKEP && hOut == "" {
		// (An upgrade's lane is the release it upgrades to: the kubelet before it runs its
		// default.)
		v.Skipped = append(v.Skipped, "this release has no KEP-4781 code (no "+kepGate+" gate)")
	}
	v.Skipped = append(v.Skipped, sc.Unsupported()...)
	var in *Handover
	if to := sc.UpgradeTo(); to != "" && hOut == "" && hIn == "" {
		v.Skipped = append(v.Skipped, "an in-place upgrade to "+to+" runs in two processes, one per release (oracle.sh passes -handover-out and -handover-in)")
	}
	if hIn != "" {
		if in, err = readHandover(hIn); err != nil {
			return err
		}
		v.FromRelease, v.FromFeatureGates = in.From, in.FeatureGates
		v.Skipped = append(v.Skipped, in.Skipped...)
	}
	var ho *Handover
	if hOut != "" {
		ho = &Handover{From: release, FeatureGates: v.FeatureGates, Scenario: sc.Name, Policy: policy, Skipped: v.Skipped, Events: []trace.Event{}}
	}
	if len(v.Skipped) == 0 {
		gates := node.Gates{HasKEP: hasKEP, ChangeContainerStatus: hasKEP && utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(kepGate))}
		gates.StartedBySameID, err = startedBySameID(kdir)
		if err != nil {
			return err
		}
		gates.ExitedRegularInitializes, err = exitedRegularInitializes(kdir)
		if err != nil {
			return err
		}
		gates.RejectKeepsQOSClass, err = rejectKeepsQOSClass(kdir)
		if err != nil {
			return err
		}
		v.Events, err = simulate(sc, gates, kdir, release, in, ho)
		if err != nil {
			return err
		}
	}
	if ho != nil {
		return ho.write(hOut)
	}
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if out == "" {
		_, err = os.Stdout.Write(b)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}

// startedBySameID reads the release's kubelet_pods.go convertToAPIContainerStatuses: whether
// the previous status's Started is kept only for the same container ID (#141342) or by name.
func startedBySameID(kdir string) (bool, error) {
	b, err := os.ReadFile(filepath.Join(kdir, "pkg/kubelet/kubelet_pods.go"))
	if err != nil {
		return false, err
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.Contains(l, "status.Started = oldStatus.Started") {
			for j := max(0, i-3); j < i; j++ {
				if strings.Contains(lines[j], "ContainerID") {
					return true, nil
				}
			}
			return false, nil
		}
	}
	// No Started kept at all (before KEP-4781): the gate check never runs.
	return false, nil
}

// exitedRegularInitializes reads the release's kuberuntime_container.go
// computeInitContainerActions: whether any regular container of the active sandbox, an exited
// one too, makes the pod initialized (kubecontainer.HasAnyActiveRegularContainerStarted), or
// only a Created or Running one (the node-reboot workaround of PR #120269).
func exitedRegularInitializes(kdir string) (bool, error) {
	b, err := os.ReadFile(filepath.Join(kdir, "pkg/kubelet/kuberuntime/kuberuntime_container.go"))
	if err != nil {
		return false, err
	}
	return strings.Contains(string(b), "HasAnyActiveRegularContainerStarted("), nil
}

// rejectKeepsQOSClass reads the release's kubelet.go rejectPod: whether the Failed status it
// sets keeps the pod's QOSClass (`QOSClass: v1qos.GetPodQOS(pod), // keep it as is`, 1.33 on).
func rejectKeepsQOSClass(kdir string) (bool, error) {
	b, err := os.ReadFile(filepath.Join(kdir, "pkg/kubelet/kubelet.go"))
	if err != nil {
		return false, err
	}
	src := string(b)
	i := strings.Index(src, ") rejectPod(")
	if i < 0 {
		return false, fmt.Errorf("kubelet.go: no rejectPod")
	}
	body := src[i:]
	if j := strings.Index(body, "\n}\n"); j >= 0 {
		body = body[:j]
	}
	return strings.Contains(body, "QOSClass:"), nil
}

// simulate runs the story: from its start, or (in) from an upgrade's hand-over; with out, only
// until the upgrade's kubelet stops, and out takes what is handed over.
func simulate(sc *scenario.Scenario, gates node.Gates, kdir, release string, in, out *Handover) ([]trace.Event, error) {
	ctx := context.Background()
	client := fake.NewSimpleClientset()
	clk := testingclock.NewFakeClock(trace.At(0))
	rec := &trace.Recorder{}
	q := &node.Queue{}
	var n *node.Node
	var err error
	if in == nil {
		if n, err = node.New(sc, gates, client, clk, rec, q); err != nil {
			return nil, err
		}
		clk.SetTime(trace.At(0))
	} else {
		if err := in.seed(ctx, client); err != nil {
			return nil, err
		}
		if n, err = node.Resume(sc, gates, client, clk, rec, q, in.Runtime); err != nil {
			return nil, err
		}
	}
	cp, err := newControlPlane(ctx, client, clk, rec, sc, kdir)
	if err != nil {
		return nil, err
	}
	defer cp.Close()
	n.Busy = cp.Busy
	n.Release = release
	if in == nil {
		n.StartLease()
	} else {
		cp.Remember(in.Health, in.Zones)
	}
	if out != nil {
		n.HandOverAt()
	}
	n.Schedule()
	horizon := int64(sc.HorizonS * 1000)
	for {
		tc := trace.Ms(cp.NextDue())
		// The kubelet's events at the controllers' millisecond come first, as the model orders a
		// lease renewal scheduled before a pass at the same millisecond.
		t, f, ok := q.Pop(min(tc, horizon))
		if ok {
			clk.SetTime(trace.At(t))
			f()
			// The controllers' informers take in what the kubelet wrote.
			if err := cp.Sync(ctx); err != nil {
				return nil, err
			}
			n.SnapshotBy(false, "")
			if n.HandedOver() {
				break
			}
			continue
		}
		if tc > horizon {
			break
		}
		clk.SetTime(trace.At(tc))
		if err := cp.Step(ctx); err != nil {
			return nil, err
		}
		// What the controllers changed is theirs (they record it); the kubelet's recorder
		// takes the API as it now is.
		n.SnapshotBy(false, "")
	}
	ev := rec.Events
	if out != nil {
		if !n.HandedOver() {
			return nil, fmt.Errorf("the upgrade's kubelet never stopped before the horizon")
		}
		out.Events = ev
		return ev, out.take(ctx, client, n, cp)
	}
	if in != nil {
		ev = append(append([]trace.Event{}, in.Events...), ev...)
	}
	sort.SliceStable(ev, func(i, j int) bool { return ev[i].T < ev[j].T })
	// The status manager's syncBatch writes the pods it holds in map order: several writes in
	// one instant come in a random order. They are put in the pods' name order, so a rerun
	// writes the same bytes.
	for i := 0; i < len(ev); {
		j := i
		for j < len(ev) && ev[j].Kind == "status_write" && ev[j].T == ev[i].T {
			j++
		}
		if j > i+1 {
			run := ev[i:j]
			sort.SliceStable(run, func(a, b int) bool { return run[a].Pod < run[b].Pod })
		}
		if j == i {
			j++
		}
		i = j
	}
	return ev, nil
}
