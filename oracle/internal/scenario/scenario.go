// Package scenario reads RestartScope's scenario files (crates/sim/presets/*.toml, the CLI's
// JSON), the fields the harness drives. What a scenario asks that the harness cannot drive yet
// is named by Unsupported, so a vector is never produced for a story it did not run.
package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/BurntSushi/toml"
)

type Scenario struct {
	Name     string  `toml:"name" json:"name"`
	Seed     uint64  `toml:"seed" json:"seed"`
	HorizonS float64 `toml:"horizon_s" json:"horizon_s"`
	Cluster  struct {
		Version             string   `toml:"version" json:"version"`
		NodeMonitorGraceS   *float64 `toml:"node_monitor_grace_s" json:"node_monitor_grace_s"`
		NodeMonitorPeriodS  float64  `toml:"node_monitor_period_s" json:"node_monitor_period_s"`
		LeaseDurationS      float64  `toml:"lease_duration_s" json:"lease_duration_s"`
		TolerationS         float64  `toml:"toleration_s" json:"toleration_s"`
		NotReadyTolerationS *float64 `toml:"not_ready_toleration_s" json:"not_ready_toleration_s"`
		Nodes               *int     `toml:"nodes" json:"nodes"`
	} `toml:"cluster" json:"cluster"`
	Kubelet struct {
		Policy          string    `toml:"policy" json:"policy"`
		FirstSyncDelayS float64   `toml:"first_sync_delay_s" json:"first_sync_delay_s"`
		Restarts        []Restart `toml:"restarts" json:"restarts"`
		APIUnreachable  []Window  `toml:"api_unreachable" json:"api_unreachable"`
	} `toml:"kubelet" json:"kubelet"`
	Pods []Pod          `toml:"pods" json:"pods"`
	Node NodeObject     `toml:"node" json:"node"`
	PDB  map[string]any `toml:"pdb" json:"pdb"`
}

// NodeObject is the node's labels and taints, and the user's changes to them during the story
// (crates/sim/src/scenario/node.rs): a change's field left out stays as it was.
type NodeObject struct {
	Labels  map[string]string `toml:"labels" json:"labels"`
	Taints  []Taint           `toml:"taints" json:"taints"`
	Changes []NodeChange      `toml:"changes" json:"changes"`
}

type NodeChange struct {
	AtS    float64            `toml:"at_s" json:"at_s"`
	Labels *map[string]string `toml:"labels" json:"labels"`
	Taints *[]Taint           `toml:"taints" json:"taints"`
}

type Taint struct {
	Key    string `toml:"key" json:"key"`
	Value  string `toml:"value" json:"value"`
	Effect string `toml:"effect" json:"effect"`
}

type Toleration struct {
	Key      string `toml:"key" json:"key"`
	Operator string `toml:"operator" json:"operator"`
	Value    string `toml:"value" json:"value"`
	Effect   string `toml:"effect" json:"effect"`
	Seconds  *int64 `toml:"toleration_seconds" json:"toleration_seconds"`
}

// SelectorTerm is a requiredDuringSchedulingIgnoredDuringExecution term.
type SelectorTerm struct {
	MatchExpressions []Requirement `toml:"match_expressions" json:"match_expressions"`
}

type Requirement struct {
	Key      string   `toml:"key" json:"key"`
	Operator string   `toml:"operator" json:"operator"`
	Values   []string `toml:"values" json:"values"`
}

// Window is a time the node cannot reach the API server (kubelet.api_unreachable).
type Window struct {
	AtS       float64 `toml:"at_s" json:"at_s"`
	DurationS float64 `toml:"duration_s" json:"duration_s"`
}

type Restart struct {
	AtS       float64 `toml:"at_s" json:"at_s"`
	DowntimeS float64 `toml:"downtime_s" json:"downtime_s"`
	What      string  `toml:"what" json:"what"`
	UpgradeTo string  `toml:"upgrade_to" json:"upgrade_to"`
}

type Pod struct {
	Name              string            `toml:"name" json:"name"`
	Workload          string            `toml:"workload" json:"workload"`
	Service           string            `toml:"service" json:"service"`
	TerminationGraceS float64           `toml:"termination_grace_s" json:"termination_grace_s"`
	InitContainers    []Container       `toml:"init_containers" json:"init_containers"`
	Containers        []Container       `toml:"containers" json:"containers"`
	NodeSelector      map[string]string `toml:"node_selector" json:"node_selector"`
	NodeAffinity      []SelectorTerm    `toml:"node_affinity" json:"node_affinity"`
	Tolerations       []Toleration      `toml:"tolerations" json:"tolerations"`
}

type Container struct {
	Name           string  `toml:"name" json:"name"`
	RestartPolicy  string  `toml:"restart_policy" json:"restart_policy"`
	StartupProbe   *Probe  `toml:"startup_probe" json:"startup_probe"`
	ReadinessProbe *Probe  `toml:"readiness_probe" json:"readiness_probe"`
	LivenessProbe  *Probe  `toml:"liveness_probe" json:"liveness_probe"`
	WarmupS        float64 `toml:"warmup_s" json:"warmup_s"`
	Truth          []Truth `toml:"truth" json:"truth"`
}

type Probe struct {
	PeriodS          int32    `toml:"period_s" json:"period_s"`
	TimeoutS         int32    `toml:"timeout_s" json:"timeout_s"`
	SuccessThreshold int32    `toml:"success_threshold" json:"success_threshold"`
	FailureThreshold int32    `toml:"failure_threshold" json:"failure_threshold"`
	InitialDelayS    int32    `toml:"initial_delay_s" json:"initial_delay_s"`
	ExecS            *float64 `toml:"exec_s" json:"exec_s"`
	Handler          string   `toml:"handler" json:"handler"`
}

type Truth struct {
	AtS   float64 `toml:"at_s" json:"at_s"`
	State string  `toml:"state" json:"state"`
}

// Load reads a TOML or JSON scenario and applies the model's defaults (crates/sim/src/scenario).
func Load(path string) (*Scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Scenario
	if strings.HasSuffix(path, ".json") {
		err = json.Unmarshal(b, &s)
	} else {
		_, err = toml.Decode(string(b), &s)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range s.Pods {
		for _, cs := range [][]Container{s.Pods[i].InitContainers, s.Pods[i].Containers} {
			for j := range cs {
				for _, p := range []*Probe{cs[j].StartupProbe, cs[j].ReadinessProbe, cs[j].LivenessProbe} {
					if p == nil {
						continue
					}
					// SetDefaults_Probe, and the model's exec_s default (1 s).
					if p.PeriodS == 0 {
						p.PeriodS = 10
					}
					if p.TimeoutS == 0 {
						p.TimeoutS = 1
					}
					if p.SuccessThreshold == 0 {
						p.SuccessThreshold = 1
					}
					if p.FailureThreshold == 0 {
						p.FailureThreshold = 3
					}
					if p.ExecS == nil {
						one := 1.0
						p.ExecS = &one
					}
					if p.Handler == "" {
						p.Handler = "exec"
					}
				}
			}
		}
	}
	if s.Kubelet.Policy == "" {
		s.Kubelet.Policy = "kep"
	}
	return &s, nil
}

// Unsupported names what the scenario asks that the harness does not drive; empty when it
// drives all of it.
func (s *Scenario) Unsupported() []string {
	var out []string
	add := func(f string, a ...any) { out = append(out, fmt.Sprintf(f, a...)) }
	upgrades := 0
	for _, r := range s.Kubelet.Restarts {
		if r.UpgradeTo == "" {
			continue
		}
		upgrades++
		if r.What == "node" || r.What == "runtime" {
			add("an in-place upgrade to %s at a %s restart (only a kubelet restart hands over)", r.UpgradeTo, r.What)
		}
	}
	if upgrades > 1 {
		add("more than one in-place upgrade (one hand-over per run)")
	}
	return dedup(out)
}

// UpgradeTo is the release the story's in-place upgrade brings the kubelet to ("" for none).
func (s *Scenario) UpgradeTo() string {
	for _, r := range s.Kubelet.Restarts {
		if r.UpgradeTo != "" {
			return r.UpgradeTo
		}
	}
	return ""
}

func dedup(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
