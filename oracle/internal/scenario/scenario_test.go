package scenario

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every preset and every replay of Kubernetes' own tests the model ships is read, and what the
// harness cannot drive is named, never silently run.
func TestEveryPresetIsRead(t *testing.T) {
	files, err := filepath.Glob("../../../crates/sim/presets/*.toml")
	replays, err2 := filepath.Glob("../../../crates/sim/replays/*.toml")
	if err != nil || err2 != nil || len(files) == 0 || len(replays) == 0 {
		t.Fatalf("no presets or replays: %v %v", err, err2)
	}
	files = append(files, replays...)
	driven := 0
	for _, f := range files {
		s, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != strings.TrimSuffix(filepath.Base(f), ".toml") || len(s.Pods) == 0 || s.HorizonS <= 0 {
			t.Errorf("%s: read as %q with %d pods, horizon %v", f, s.Name, len(s.Pods), s.HorizonS)
		}
		if len(s.Unsupported()) == 0 {
			driven++
		}
	}
	if driven < len(files)/2 {
		t.Errorf("only %d of %d presets driven", driven, len(files))
	}
	// Init containers and sidecars are driven (pkg/kubelet/prober AddPod's restartable init
	// containers, InitContainerStatuses).
	for _, f := range []string{"../../../crates/sim/replays/e2e-not-change-container-status-restartable-init.toml",
		"../../../crates/sim/presets/report-136910-sidecar-startup.toml"} {
		if s, err := Load(f); err != nil || len(s.Unsupported()) != 0 || len(s.Pods[0].InitContainers) == 0 {
			t.Errorf("%s: %v %v", f, err, s.Unsupported())
		}
	}
	// Admission at the kubelet's start on a relabelled node is driven (pkg/kubelet/lifecycle).
	if s, err := Load("../../../crates/sim/presets/admission-after-relabel.toml"); err != nil || len(s.Unsupported()) != 0 ||
		s.Pods[0].NodeSelector["disktype"] != "ssd" || len(s.Node.Changes) != 1 || s.Node.Changes[0].Labels == nil || len(*s.Node.Changes[0].Labels) != 0 {
		t.Errorf("admission-after-relabel: %v %v %+v", err, s.Unsupported(), s.Node)
	}
	// Partitions between node and API server are driven (the kubelet's calls fail).
	if s, err := Load("../../../crates/sim/presets/report-141473-replaced-during-partition.toml"); err != nil || len(s.Unsupported()) != 0 ||
		len(s.Kubelet.APIUnreachable) != 1 || s.Kubelet.APIUnreachable[0].AtS != 20 || s.Kubelet.APIUnreachable[0].DurationS != 30 {
		t.Errorf("report-141473-replaced-during-partition: %v %v %+v", err, s.Unsupported(), s.Kubelet.APIUnreachable)
	}
	// Node reboots are driven (new sandboxes, computePodActions' init-first start).
	if s, err := Load("../../../crates/sim/presets/node-reboot.toml"); err != nil || len(s.Unsupported()) != 0 {
		t.Errorf("node-reboot: %v %v", err, s.Unsupported())
	}
	// An in-place upgrade at a kubelet restart is driven, in two processes (one per release,
	// cmd/oracle/upgrade.go); at a node reboot it is not.
	for _, f := range []string{"upgrade-1.30-to-1.31", "upgrade-1.34-to-1.35"} {
		s, err := Load("../../../crates/sim/presets/" + f + ".toml")
		if err != nil || len(s.Unsupported()) != 0 || s.UpgradeTo() == "" {
			t.Errorf("%s: %v %v %q", f, err, s.Unsupported(), s.UpgradeTo())
		}
	}
	s, _ := Load("../../../crates/sim/presets/node-reboot.toml")
	s.Kubelet.Restarts[0].UpgradeTo = "1.35"
	if u := s.Unsupported(); len(u) == 0 || !strings.Contains(u[0], "in-place upgrade") {
		t.Errorf("node-reboot with an upgrade: %v", u)
	}
}
