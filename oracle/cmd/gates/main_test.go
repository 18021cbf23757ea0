package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A release's default follows component-base's featureSpecAtEmulationAndMinCompatVersion.
func TestAtRelease(t *testing.T) {
	specs := []Spec{
		{Version: "1.37", Default: false, PreRelease: "Beta"},
		{Version: "1.37", Default: true, PreRelease: "Beta", MinCompatibilityVersion: "1.37"},
		{Version: "1.38", Default: true, PreRelease: "GA"},
	}
	for _, c := range []struct {
		at   ver
		want Spec
	}{
		{ver{1, 36}, Spec{Version: "0.0", PreRelease: "PreAlpha"}},
		// At 1.37 the min compatibility version is 1.36: the second spec does not apply yet.
		{ver{1, 37}, specs[0]},
		{ver{1, 38}, specs[2]},
		{ver{1, 39}, specs[2]},
	} {
		got, err := atRelease(specs, c.at)
		if err != nil || got != c.want {
			t.Errorf("at %s: got %+v, %v; want %+v", c.at, got, err, c.want)
		}
	}
}

// The three layouts: 1.31's unversioned FeatureSpec map beside an empty versioned map in
// versioned_kube_features.go, and 1.33's versioned map with untyped and converted constants.
func TestLayouts(t *testing.T) {
	src := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(src, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pkg/features/kube_features.go", `package features

import (
	genericfeatures "k8s.io/apiserver/pkg/features"
	"k8s.io/component-base/featuregate"
)

const (
	SidecarContainers featuregate.Feature = "SidecarContainers"
	Untyped = "Untyped"
	Converted = featuregate.Feature("Converted")
)

var defaultKubernetesFeatureGates = map[featuregate.Feature]featuregate.FeatureSpec{
	SidecarContainers: {Default: true, PreRelease: featuregate.Beta},
	genericfeatures.APIListChunking: {Default: true, PreRelease: featuregate.GA, LockToDefault: true},
}
`)
	write("pkg/features/versioned_kube_features.go", `package features

import (
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/component-base/featuregate"
)

var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	Untyped: {
		{Version: version.MustParse("1.30"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.32"), Default: true, PreRelease: featuregate.Beta},
	},
	Converted: {
		{Version: version.MajorMinor(1, 31), Default: true, PreRelease: featuregate.Beta},
	},
}

var deps = map[featuregate.Feature][]featuregate.Feature{
	Converted: {Untyped},
}
`)
	write("pkg/kubelet/kubelet.go", `package kubelet

import kubefeatures "k8s.io/kubernetes/pkg/features"

var _ = kubefeatures.SidecarContainers
`)
	write("pkg/controller/nodelifecycle/config/v1alpha1/defaults.go", `package v1alpha1

func Defaults(obj *Config) {
	if obj.NodeMonitorGracePeriod == zero {
		obj.NodeMonitorGracePeriod = metav1.Duration{Duration: 40 * time.Second}
	}
}
`)
	o, err := run("v1.31.0", src)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"pkg/features/kube_features.go", "pkg/features/versioned_kube_features.go"}; !reflect.DeepEqual(o.Files, want) {
		t.Errorf("files %v, want %v", o.Files, want)
	}
	g := o.Gates
	if s := g["SidecarContainers"]; s.Versioned || !s.Default || s.Specs[0].Version != "0.0" || s.At != "pkg/features/kube_features.go:15" {
		t.Errorf("SidecarContainers %+v", s)
	}
	if s := g["APIListChunking"]; s.Package != "k8s.io/apiserver/pkg/features" || !s.LockToDefault || s.PreRelease != "GA" {
		t.Errorf("APIListChunking %+v", s)
	}
	if s := g["Untyped"]; !s.Versioned || s.Default || s.PreRelease != "Alpha" {
		t.Errorf("Untyped at 1.31 %+v", s)
	}
	if s := g["Converted"]; !s.Default || s.Specs[0].Version != "1.31" || !reflect.DeepEqual(s.DependsOn, []string{"Untyped"}) {
		t.Errorf("Converted %+v", s)
	}
	if u := o.Watched["SidecarContainers"]; !u.InSource || !reflect.DeepEqual(u.KubeletReads, []string{"pkg/kubelet/kubelet.go:5"}) {
		t.Errorf("SidecarContainers reads %+v", u)
	}
	if u := o.Watched["ChangeContainerStatusOnKubeletRestart"]; u.InSource || len(u.KubeletReads) != 0 {
		t.Errorf("ChangeContainerStatusOnKubeletRestart %+v", u)
	}
	if d := o.Defaults["kube-controller-manager.NodeMonitorGracePeriod"]; d.Value != 40 || d.Unit != "s" {
		t.Errorf("grace %+v", d)
	}
}
