// Command gates reads one Kubernetes release's feature gates from its own source and writes them
// as JSON: every gate with its specs and its default at that release, which code reads the gates
// the model depends on, and a few numeric defaults the model uses.
//
//	gates -release v1.37.2 -src /root/go/pkg/mod/k8s.io/kubernetes@v1.37.2 -o vectors/v1.37.2/features.json
//
// It parses, with go/parser and go/ast only (nothing of Kubernetes is compiled):
//
//   - every non-test file of pkg/features: the gates' constants (`X featuregate.Feature = "X"`,
//     `X = featuregate.Feature("X")` or untyped `X = "X"`),
//     the maps `map[featuregate.Feature]featuregate.FeatureSpec` (unversioned specs: 1.31's
//     kube_features.go), `map[featuregate.Feature]featuregate.VersionedSpecs` (1.31 and 1.32:
//     versioned_kube_features.go; from 1.33 on: kube_features.go) and, where a release has it,
//     `map[featuregate.Feature][]featuregate.Feature` (the gates' dependencies);
//   - every non-test file under pkg/, cmd/ and plugin/ that names a watched gate: where
//     `<alias of k8s.io/kubernetes/pkg/features>.<Gate>` is read, split into pkg/kubelet and
//     elsewhere;
//   - pkg/controller/nodelifecycle/config/v1alpha1/defaults.go and
//     pkg/kubelet/apis/config/v1beta1/defaults.go: `obj.<Field> = …` defaults of a few fields.
//
// A gate's default at the release follows component-base's featuregate/feature_gate.go
// (`featureSpecAtEmulationAndMinCompatVersion`, the binary's own minor as emulation version): the
// last spec whose version is not after the release's minor (and whose MinCompatibilityVersion,
// if set, is not after the minor before it); none such: default false, PreAlpha. An unversioned
// FeatureSpec counts as version 0.0 (`featureGate.Add`).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Watched are the gates the model depends on: those crates/sim/src/profile.rs, releases.rs and
// docs/MODEL.md name (crates/sim/tests/release_gates.rs fails when they name one more), and
// ReduceDefaultCrashLoopBackOffDecay (docs/research/versions.md: the model's 10 s → 300 s
// crash-loop back-off holds while it is off). Each is recorded for every release, present or
// not, with the code that reads it.
var Watched = []string{
	"ChangeContainerStatusOnKubeletRestart",
	"ContainerRestartRules",
	"ContainerScopedProbes",
	"NotEvictPodOnKubeletRestart",
	"ReduceDefaultCrashLoopBackOffDecay",
	"SeparateTaintEvictionController",
	"SidecarContainers",
}

// defaultFields are the defaults read: file → the `obj.<Field>` assignments recorded, each under
// "<component>.<Field>".
var defaultFields = []struct {
	component, file string
	fields          []string
}{
	{"kube-controller-manager", "pkg/controller/nodelifecycle/config/v1alpha1/defaults.go",
		[]string{"NodeMonitorGracePeriod", "NodeMonitorPeriod", "NodeStartupGracePeriod"}},
	{"kubelet", "pkg/kubelet/apis/config/v1beta1/defaults.go",
		[]string{"NodeLeaseDurationSeconds", "NodeStatusReportFrequency", "NodeStatusUpdateFrequency"}},
}

const featuresPath = "k8s.io/kubernetes/pkg/features"

// Spec is one featuregate.FeatureSpec.
type Spec struct {
	// Version is "major.minor"; "0.0" for an unversioned FeatureSpec.
	Version                 string `json:"version"`
	Default                 bool   `json:"default"`
	PreRelease              string `json:"prerelease"`
	LockToDefault           bool   `json:"lockToDefault"`
	MinCompatibilityVersion string `json:"minCompatibilityVersion,omitempty"`
}

// Gate is one gate of the release.
type Gate struct {
	// At is where its specs are: "pkg/features/kube_features.go:1407".
	At string `json:"at"`
	// Package is the package that declares the gate's constant, when it is not pkg/features
	// (the key is `genericfeatures.X` and the like; the gate's name is then the identifier).
	Package string `json:"package,omitempty"`
	// Versioned: the specs are VersionedSpecs (false: one unversioned FeatureSpec).
	Versioned bool   `json:"versioned"`
	Specs     []Spec `json:"specs"`
	// Default, PreRelease and LockToDefault at the release.
	Default       bool   `json:"default"`
	PreRelease    string `json:"prerelease"`
	LockToDefault bool   `json:"lockToDefault"`
	// DependsOn: the gate's entry in the dependencies map, where the release has one.
	DependsOn []string `json:"dependsOn,omitempty"`
}

// Use is how the source uses one watched gate.
type Use struct {
	InSource bool `json:"inSource"`
	// Default at the release (false when the gate is not in the source).
	Default bool `json:"default"`
	// KubeletReads: non-test reads under pkg/kubelet, "path:line".
	KubeletReads []string `json:"kubeletReads"`
	// OtherReads: non-test reads elsewhere under pkg/, cmd/ and plugin/.
	OtherReads []string `json:"otherReads"`
}

// Default is one numeric default.
type Default struct {
	// Seconds for a duration; the number itself for an integer field.
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	At    string  `json:"at"`
}

// Output is the file written.
type Output struct {
	Release string `json:"release"`
	// Minor is the emulation version the defaults are taken at: "1.37".
	Minor string `json:"minor"`
	// Files are the pkg/features files that hold gate maps.
	Files    []string           `json:"files"`
	Gates    map[string]Gate    `json:"gates"`
	Watched  map[string]Use     `json:"watched"`
	Defaults map[string]Default `json:"defaults"`
}

func main() {
	release := flag.String("release", "", "release tag, e.g. v1.37.2")
	src := flag.String("src", "", "the k8s.io/kubernetes module directory of that release")
	out := flag.String("o", "", "output file (default: stdout)")
	flag.Parse()
	if *release == "" || *src == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: gates -release vX.Y.Z -src DIR [-o FILE]")
		os.Exit(2)
	}
	o, err := run(*release, *src)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gates %s: %v\n", *release, err)
		os.Exit(1)
	}
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b = append(b, '\n')
	if *out == "" {
		_, err = os.Stdout.Write(b)
	} else {
		if err = os.MkdirAll(filepath.Dir(*out), 0o755); err == nil {
			err = os.WriteFile(*out, b, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var tagRe = regexp.MustCompile(`^v(\d+)\.(\d+)\.\d+(-[0-9A-Za-z.-]+)?$`)

func run(release, src string) (*Output, error) {
	m := tagRe.FindStringSubmatch(release)
	if m == nil {
		return nil, fmt.Errorf("release %q is not a tag like v1.37.2", release)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	at := ver{major, minor}

	r := &reader{src: src, fset: token.NewFileSet()}
	gates, consts, files, err := r.features(at)
	if err != nil {
		return nil, err
	}
	if len(gates) == 0 {
		return nil, errors.New("no feature gates found in pkg/features")
	}
	watched, err := r.uses(gates, consts)
	if err != nil {
		return nil, err
	}
	defaults, err := r.defaults()
	if err != nil {
		return nil, err
	}
	return &Output{
		Release:  release,
		Minor:    at.String(),
		Files:    files,
		Gates:    gates,
		Watched:  watched,
		Defaults: defaults,
	}, nil
}

type ver struct{ major, minor int }

func (v ver) String() string   { return fmt.Sprintf("%d.%d", v.major, v.minor) }
func (v ver) after(w ver) bool { return v.major > w.major || (v.major == w.major && v.minor > w.minor) }
func parseVer(s string) (ver, error) {
	p := strings.Split(s, ".")
	if len(p) != 2 {
		return ver{}, fmt.Errorf("version %q is not major.minor", s)
	}
	a, err1 := strconv.Atoi(p[0])
	b, err2 := strconv.Atoi(p[1])
	if err1 != nil || err2 != nil {
		return ver{}, fmt.Errorf("version %q is not major.minor", s)
	}
	return ver{a, b}, nil
}

type reader struct {
	src  string
	fset *token.FileSet
}

// pos is "path:line", the path relative to the source directory.
func (r *reader) pos(p token.Pos) string {
	return fmt.Sprintf("%s:%d", r.file(p), r.fset.Position(p).Line)
}

func (r *reader) file(p token.Pos) string {
	name := r.fset.Position(p).Filename
	rel, err := filepath.Rel(r.src, name)
	if err != nil {
		rel = name
	}
	return filepath.ToSlash(rel)
}

// goFiles parses the non-test Go files of one directory.
func (r *reader) goFiles(dir string) ([]*ast.File, error) {
	ents, err := os.ReadDir(filepath.Join(r.src, dir))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(r.fset, filepath.Join(r.src, dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// mapKind tells a gate map by its type.
func mapKind(t ast.Expr) string {
	mt, ok := t.(*ast.MapType)
	if !ok || !isSel(mt.Key, "featuregate", "Feature") {
		return ""
	}
	switch {
	case isSel(mt.Value, "featuregate", "FeatureSpec"):
		return "unversioned"
	case isSel(mt.Value, "featuregate", "VersionedSpecs"):
		return "versioned"
	}
	if at, ok := mt.Value.(*ast.ArrayType); ok && at.Len == nil && isSel(at.Elt, "featuregate", "Feature") {
		return "dependencies"
	}
	return ""
}

func isSel(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == pkg && s.Sel.Name == name
}

// features reads pkg/features: every gate, its specs and its default at `at`.
func (r *reader) features(at ver) (map[string]Gate, map[string]string, []string, error) {
	files, err := r.goFiles("pkg/features")
	if err != nil {
		return nil, nil, nil, err
	}
	// The gates' constants: identifier → name.
	consts := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				// Typed (`X featuregate.Feature = "X"`) or, in some releases, untyped
				// (`X = "X"`, used as a map key of type featuregate.Feature).
				typed := vs.Type != nil && isSel(vs.Type, "featuregate", "Feature")
				if vs.Type != nil && !typed || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, n := range vs.Names {
					v, ok := gateName(vs.Values[i])
					if !ok {
						if !typed {
							continue
						}
						return nil, nil, nil, fmt.Errorf("%s: constant %s is not a string literal", r.pos(n.Pos()), n.Name)
					}
					consts[n.Name] = v
				}
			}
		}
	}
	gates := map[string]Gate{}
	deps := map[string][]string{}
	fileSet := map[string]bool{}
	for _, f := range files {
		imports := importsOf(f)
		key := func(e ast.Expr) (string, string, error) {
			n, p, err := keyOf(e, consts, imports)
			if err != nil {
				return "", "", fmt.Errorf("%s: %v", r.pos(e.Pos()), err)
			}
			return n, p, nil
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					cl, ok := vs.Values[i].(*ast.CompositeLit)
					if !ok {
						continue
					}
					t := cl.Type
					if t == nil {
						t = vs.Type
					}
					kind := mapKind(t)
					if kind == "" {
						continue
					}
					fileSet[r.file(f.Package)] = true
					for _, el := range cl.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							return nil, nil, nil, fmt.Errorf("%s: a map entry without a key", r.pos(el.Pos()))
						}
						name, pkg, err := key(kv.Key)
						if err != nil {
							return nil, nil, nil, err
						}
						if kind == "dependencies" {
							list, ok := kv.Value.(*ast.CompositeLit)
							if !ok {
								return nil, nil, nil, fmt.Errorf("%s: dependencies of %s are not a list", r.pos(kv.Pos()), name)
							}
							ds := []string{}
							for _, e := range list.Elts {
								n, _, err := key(e)
								if err != nil {
									return nil, nil, nil, err
								}
								ds = append(ds, n)
							}
							sort.Strings(ds)
							deps[name] = ds
							continue
						}
						if _, dup := gates[name]; dup {
							return nil, nil, nil, fmt.Errorf("%s: gate %s listed twice", r.pos(kv.Pos()), name)
						}
						g := Gate{At: r.pos(kv.Key.Pos()), Versioned: kind == "versioned"}
						if pkg != featuresPath {
							g.Package = pkg
						}
						if kind == "unversioned" {
							sp, err := r.spec(kv.Value)
							if err != nil {
								return nil, nil, nil, err
							}
							sp.Version = "0.0"
							g.Specs = []Spec{sp}
						} else {
							list, ok := kv.Value.(*ast.CompositeLit)
							if !ok {
								return nil, nil, nil, fmt.Errorf("%s: specs of %s are not a list", r.pos(kv.Pos()), name)
							}
							for _, e := range list.Elts {
								sp, err := r.spec(e)
								if err != nil {
									return nil, nil, nil, err
								}
								if sp.Version == "" {
									return nil, nil, nil, fmt.Errorf("%s: a versioned spec of %s without a version", r.pos(e.Pos()), name)
								}
								g.Specs = append(g.Specs, sp)
							}
						}
						if len(g.Specs) == 0 {
							return nil, nil, nil, fmt.Errorf("%s: gate %s has no specs", r.pos(kv.Pos()), name)
						}
						cur, err := atRelease(g.Specs, at)
						if err != nil {
							return nil, nil, nil, fmt.Errorf("%s: %s: %v", r.pos(kv.Pos()), name, err)
						}
						g.Default, g.PreRelease, g.LockToDefault = cur.Default, cur.PreRelease, cur.LockToDefault
						gates[name] = g
					}
				}
			}
		}
	}
	for name, ds := range deps {
		g, ok := gates[name]
		if !ok {
			return nil, nil, nil, fmt.Errorf("dependencies name %s, which has no specs", name)
		}
		g.DependsOn = ds
		gates[name] = g
	}
	var fl []string
	for f := range fileSet {
		fl = append(fl, f)
	}
	sort.Strings(fl)
	return gates, consts, fl, nil
}

// gateName reads a gate constant's value: "X" or featuregate.Feature("X").
func gateName(e ast.Expr) (string, bool) {
	if c, ok := e.(*ast.CallExpr); ok && isSel(c.Fun, "featuregate", "Feature") && len(c.Args) == 1 {
		e = c.Args[0]
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// keyOf reads a gate map's key: a constant of pkg/features (package ""), another package's
// constant (`genericfeatures.X`: its identifier, with that package's path) or a conversion
// `featuregate.Feature(…)` of either.
func keyOf(e ast.Expr, consts map[string]string, imports map[string]string) (string, string, error) {
	switch k := e.(type) {
	case *ast.Ident:
		if v, ok := consts[k.Name]; ok {
			return v, "", nil
		}
		return "", "", fmt.Errorf("%s is not a gate constant of pkg/features", k.Name)
	case *ast.SelectorExpr:
		if x, ok := k.X.(*ast.Ident); ok {
			if p, ok := imports[x.Name]; ok {
				return k.Sel.Name, p, nil
			}
			return "", "", fmt.Errorf("%s is not an imported package", x.Name)
		}
	case *ast.CallExpr:
		if isSel(k.Fun, "featuregate", "Feature") && len(k.Args) == 1 {
			return keyOf(k.Args[0], consts, imports)
		}
	}
	return "", "", errors.New("a gate key this program does not read")
}

// atRelease is component-base's featureSpecAtEmulationAndMinCompatVersion at emulation version
// `at` and its default min compatibility version, `at` minus one minor.
func atRelease(specs []Spec, at ver) (Spec, error) {
	minCompat := ver{at.major, at.minor - 1}
	for i := len(specs) - 1; i >= 0; i-- {
		v, err := parseVer(specs[i].Version)
		if err != nil {
			return Spec{}, err
		}
		if v.after(at) {
			continue
		}
		if mc := specs[i].MinCompatibilityVersion; mc != "" {
			m, err := parseVer(mc)
			if err != nil {
				return Spec{}, err
			}
			if m.after(minCompat) {
				continue
			}
		}
		return specs[i], nil
	}
	return Spec{Version: "0.0", Default: false, PreRelease: "PreAlpha"}, nil
}

// spec reads one FeatureSpec literal.
func (r *reader) spec(e ast.Expr) (Spec, error) {
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return Spec{}, fmt.Errorf("%s: a spec that is not a literal", r.pos(e.Pos()))
	}
	var s Spec
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return Spec{}, fmt.Errorf("%s: a spec field without a name", r.pos(el.Pos()))
		}
		field := kv.Key.(*ast.Ident).Name
		var err error
		switch field {
		case "Version":
			s.Version, err = r.version(kv.Value)
		case "MinCompatibilityVersion":
			s.MinCompatibilityVersion, err = r.version(kv.Value)
		case "Default":
			s.Default, err = r.boolean(kv.Value)
		case "LockToDefault":
			s.LockToDefault, err = r.boolean(kv.Value)
		case "PreRelease":
			if sel, ok := kv.Value.(*ast.SelectorExpr); ok && isSel(sel, "featuregate", sel.Sel.Name) {
				s.PreRelease = sel.Sel.Name
			} else {
				err = fmt.Errorf("%s: PreRelease is not featuregate.<Stage>", r.pos(kv.Value.Pos()))
			}
		default:
			err = fmt.Errorf("%s: spec field %s this program does not read", r.pos(kv.Pos()), field)
		}
		if err != nil {
			return Spec{}, err
		}
	}
	if s.PreRelease == "" {
		return Spec{}, fmt.Errorf("%s: a spec without PreRelease", r.pos(e.Pos()))
	}
	return s, nil
}

func (r *reader) boolean(e ast.Expr) (bool, error) {
	if id, ok := e.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
		return id.Name == "true", nil
	}
	return false, fmt.Errorf("%s: not true or false", r.pos(e.Pos()))
}

// version reads version.MustParse("1.35") or version.MajorMinor(1, 35).
func (r *reader) version(e ast.Expr) (string, error) {
	c, ok := e.(*ast.CallExpr)
	if ok && isSel(c.Fun, "version", "MustParse") && len(c.Args) == 1 {
		if lit, ok := c.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, _ := strconv.Unquote(lit.Value)
			if _, err := parseVer(s); err == nil {
				return s, nil
			}
		}
	}
	if ok && isSel(c.Fun, "version", "MajorMinor") && len(c.Args) == 2 {
		a, ok1 := c.Args[0].(*ast.BasicLit)
		b, ok2 := c.Args[1].(*ast.BasicLit)
		if ok1 && ok2 && a.Kind == token.INT && b.Kind == token.INT {
			return a.Value + "." + b.Value, nil
		}
	}
	return "", fmt.Errorf("%s: a version this program does not read", r.pos(e.Pos()))
}

// importsOf maps a file's import names to their paths.
func importsOf(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		n := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			n = im.Name.Name
		}
		m[n] = p
	}
	return m
}

// uses finds, for every watched gate, the non-test code under pkg/, cmd/ and plugin/ (but
// pkg/features) that names it through k8s.io/kubernetes/pkg/features.
func (r *reader) uses(gates map[string]Gate, consts map[string]string) (map[string]Use, error) {
	// The identifier of each watched gate: its constant where the release has one.
	ident := map[string]string{}
	for _, w := range Watched {
		ident[w] = w
	}
	for id, name := range consts {
		if _, ok := ident[name]; ok {
			ident[name] = id
		}
	}
	out := map[string]Use{}
	for _, w := range Watched {
		g, ok := gates[w]
		out[w] = Use{InSource: ok, Default: ok && g.Default, KubeletReads: []string{}, OtherReads: []string{}}
	}
	byIdent := map[string]string{}
	var needles [][]byte
	for w, id := range ident {
		byIdent[id] = w
		needles = append(needles, []byte("."+id))
	}
	for _, top := range []string{"pkg", "cmd", "plugin"} {
		root := filepath.Join(r.src, top)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch d.Name() {
				case "testdata", "vendor":
					return filepath.SkipDir
				}
				if path == filepath.Join(r.src, "pkg", "features") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			hit := false
			for _, n := range needles {
				if bytes.Contains(b, n) {
					hit = true
					break
				}
			}
			if !hit {
				return nil
			}
			f, err := parser.ParseFile(r.fset, path, b, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			alias := ""
			for n, p := range importsOf(f) {
				if p == featuresPath {
					alias = n
				}
			}
			if alias == "" || alias == "_" {
				return nil
			}
			ast.Inspect(f, func(n ast.Node) bool {
				s, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := s.X.(*ast.Ident)
				if !ok || x.Name != alias {
					return true
				}
				w, ok := byIdent[s.Sel.Name]
				if !ok {
					return true
				}
				u := out[w]
				p := r.pos(s.Pos())
				if strings.HasPrefix(p, "pkg/kubelet/") {
					u.KubeletReads = append(u.KubeletReads, p)
				} else {
					u.OtherReads = append(u.OtherReads, p)
				}
				out[w] = u
				return true
			})
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	for w, u := range out {
		sortPositions(u.KubeletReads)
		sortPositions(u.OtherReads)
		out[w] = u
	}
	return out, nil
}

// sortPositions orders "path:line" by path, then line as a number.
func sortPositions(p []string) {
	sort.Slice(p, func(i, j int) bool {
		fi, li := splitPos(p[i])
		fj, lj := splitPos(p[j])
		if fi != fj {
			return fi < fj
		}
		return li < lj
	})
}

func splitPos(p string) (string, int) {
	i := strings.LastIndex(p, ":")
	n, _ := strconv.Atoi(p[i+1:])
	return p[:i], n
}

// defaults reads the `obj.<Field> = …` assignments of defaultFields.
func (r *reader) defaults() (map[string]Default, error) {
	out := map[string]Default{}
	for _, df := range defaultFields {
		path := filepath.Join(r.src, df.file)
		f, err := parser.ParseFile(r.fset, path, nil, parser.SkipObjectResolution)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		want := map[string]bool{}
		for _, n := range df.fields {
			want[n] = true
		}
		var ierr error
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			s, ok := as.Lhs[0].(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := s.X.(*ast.Ident); !ok || x.Name != "obj" || !want[s.Sel.Name] {
				return true
			}
			if rs, ok := as.Rhs[0].(*ast.SelectorExpr); ok {
				if x, ok := rs.X.(*ast.Ident); ok && x.Name == "obj" {
					// Copied from another field (NodeStatusReportFrequency when
					// NodeStatusUpdateFrequency is set): not a default of its own.
					return true
				}
			}
			v, unit, err := r.number(as.Rhs[0])
			if err != nil {
				ierr = err
				return false
			}
			k := df.component + "." + s.Sel.Name
			if _, dup := out[k]; dup {
				ierr = fmt.Errorf("%s: %s assigned twice", r.pos(as.Pos()), k)
				return false
			}
			out[k] = Default{Value: v, Unit: unit, At: r.pos(as.Pos())}
			return true
		})
		if ierr != nil {
			return nil, ierr
		}
	}
	return out, nil
}

// number reads `40`, `metav1.Duration{Duration: 50 * time.Second}` or `5 * time.Minute`.
func (r *reader) number(e ast.Expr) (float64, string, error) {
	if cl, ok := e.(*ast.CompositeLit); ok && isSel(cl.Type, "metav1", "Duration") && len(cl.Elts) == 1 {
		if kv, ok := cl.Elts[0].(*ast.KeyValueExpr); ok {
			return r.number(kv.Value)
		}
	}
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.INT {
		v, err := strconv.ParseFloat(lit.Value, 64)
		return v, "", err
	}
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.MUL {
		lit, ok := b.X.(*ast.BasicLit)
		sel, ok2 := b.Y.(*ast.SelectorExpr)
		if ok && ok2 && lit.Kind == token.INT && isSel(sel, "time", sel.Sel.Name) {
			v, err := strconv.ParseFloat(lit.Value, 64)
			mult := map[string]float64{"Second": 1, "Minute": 60, "Hour": 3600}[sel.Sel.Name]
			if err == nil && mult > 0 {
				return v * mult, "s", nil
			}
		}
	}
	return 0, "", fmt.Errorf("%s: a default this program does not read", r.pos(e.Pos()))
}
