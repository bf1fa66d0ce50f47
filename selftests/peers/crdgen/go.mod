// The CRDs Volcano v1.10.0 (whose CRDs make peers copies) lacks or has too
// old, for the real API server of the bridge's tests
// (Documentation/kube-test-apiserver.md, "The real kube-apiserver"): the
// HyperNode CRD (topology.volcano.sh/v1alpha1), which v1.10.0 has not, and
// the PodGroup CRD of the release whose PodGroups have networkTopology
// (v1.10.0's has no such field: the API server would prune it). The module
// of that release's types (volcano.sh/apis v1.13.0) ships Go types, not CRD
// files: make peers writes the CRDs from those types with controller-gen,
// pinned here at the version Volcano v1.13.0 writes its own with (v0.18.0;
// v0.15.0 cannot read the markers of k8s.io/api v0.33, which the PodGroup's
// types use). A module of its own: the types' apimachinery (v0.33) is newer
// than Kubernetes v1.30.2's in selftests/peers/go.mod.
module vsched.dev/selftests/peers/crdgen

go 1.24.0

tool sigs.k8s.io/controller-tools/cmd/controller-gen

require volcano.sh/apis v1.13.0

require (
	github.com/fatih/color v1.18.0 // indirect
	github.com/fxamacker/cbor/v2 v2.8.0 // indirect
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/go-openapi/jsonpointer v0.21.1 // indirect
	github.com/go-openapi/jsonreference v0.21.0 // indirect
	github.com/go-openapi/swag v0.23.1 // indirect
	github.com/gobuffalo/flect v1.0.3 // indirect
	github.com/gogo/protobuf v1.3.2 // indirect
	github.com/google/gnostic-models v0.6.9 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/mailru/easyjson v0.9.0 // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/spf13/cobra v1.9.1 // indirect
	github.com/spf13/pflag v1.0.6 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/mod v0.24.0 // indirect
	golang.org/x/net v0.40.0 // indirect
	golang.org/x/sync v0.14.0 // indirect
	golang.org/x/sys v0.33.0 // indirect
	golang.org/x/text v0.25.0 // indirect
	golang.org/x/tools v0.33.0 // indirect
	google.golang.org/protobuf v1.36.6 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
	k8s.io/api v0.33.1 // indirect
	k8s.io/apiextensions-apiserver v0.33.0 // indirect
	k8s.io/apimachinery v0.33.1 // indirect
	k8s.io/code-generator v0.33.1 // indirect
	k8s.io/gengo/v2 v2.0.0-20250531010418-b22feca77200 // indirect
	k8s.io/klog/v2 v2.130.1 // indirect
	k8s.io/kube-openapi v0.0.0-20250318190949-c8a335a9a2ff // indirect
	k8s.io/utils v0.0.0-20250502105355-0f33e8f1c979 // indirect
	sigs.k8s.io/controller-tools v0.18.0 // indirect
	sigs.k8s.io/json v0.0.0-20241014173422-cfa47c3a1cc8 // indirect
	sigs.k8s.io/randfill v1.0.0 // indirect
	sigs.k8s.io/structured-merge-diff/v4 v4.7.0 // indirect
	sigs.k8s.io/yaml v1.4.0 // indirect
)
