// The scenario file (SCENARIOS.md and vsched's extensions, Documentation/vsctl.md) turned into
// the Kubernetes and Volcano objects a real cluster would hold, with the meaning vsched's loader
// (userspace/harness/scenario_load.c) gives each key.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	batch "volcano.sh/apis/pkg/apis/batch/v1alpha1"
	vcv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
)

// What the file says, decoded strictly: a key the oracle does not know is an error, so that a
// scenario feature it ignores cannot pass unnoticed. The configuration keys are read again,
// with Volcano's own YAML library, by conf.go. The fuzzer (fuzz.go) writes its cases from
// the same types: omitempty leaves out what it did not set.
type scenarioFile struct {
	Source          string           `json:"source,omitempty"`
	Commit          string           `json:"commit,omitempty"`
	Cycles          int              `json:"cycles,omitempty"`
	Actions         json.RawMessage  `json:"actions,omitempty"`
	Plugins         json.RawMessage  `json:"plugins,omitempty"`
	ActionArguments json.RawMessage  `json:"actionArguments,omitempty"`
	Conf            string           `json:"conf,omitempty"`
	Conformance     *conformanceMark `json:"conformance,omitempty"`
	PriorityClasses []prioClassIn    `json:"priorityClasses,omitempty"`
	Queues          []queueIn        `json:"queues,omitempty"`
	// MissingQueues names queues the file leaves out on purpose; vsctl checks it, and
	// here, as in Volcano, a queue not made is simply not there.
	MissingQueues []string `json:"missingQueues,omitempty"`
	Nodes         []nodeIn `json:"nodes,omitempty"`
	// HyperNodes are read and left out: v1.10.0 has none, and its allocate (as
	// ed72c7c815a9's, for a job without a networkTopology) never looks at them
	// (conformance.md, "The pin").
	HyperNodes json.RawMessage `json:"hypernodes,omitempty"`
	PodGroups  []podGroupIn    `json:"podgroups,omitempty"`
	Pods       []podIn         `json:"pods,omitempty"`
	Expect     json.RawMessage `json:"expect,omitempty"`
}

// conformanceMark is vsched's key for a known departure from this oracle: why, and in which
// decisions (all of them when Keys is empty).
type conformanceMark struct {
	Known string   `json:"known,omitempty"`
	Keys  []string `json:"keys,omitempty"`
}

type prioClassIn struct {
	Name             string               `json:"name,omitempty"`
	Value            int32                `json:"value,omitempty"`
	GlobalDefault    bool                 `json:"globalDefault,omitempty"`
	PreemptionPolicy *v1.PreemptionPolicy `json:"preemptionPolicy,omitempty"`
}

type queueIn struct {
	Name        string          `json:"name,omitempty"`
	Weight      *int32          `json:"weight,omitempty"`
	Capability  v1.ResourceList `json:"capability,omitempty"`
	Guarantee   v1.ResourceList `json:"guarantee,omitempty"`
	Deserved    v1.ResourceList `json:"deserved,omitempty"`
	Reclaimable *bool           `json:"reclaimable,omitempty"`
	Priority    int32           `json:"priority,omitempty"`
	State       string          `json:"state,omitempty"`
	Parent      string          `json:"parent,omitempty"`
}

type nodeIn struct {
	Name          string              `json:"name,omitempty"`
	Allocatable   v1.ResourceList     `json:"allocatable,omitempty"`
	Labels        map[string]string   `json:"labels,omitempty"`
	Taints        []v1.Taint          `json:"taints,omitempty"`
	Unschedulable bool                `json:"unschedulable,omitempty"`
	Ready         *bool               `json:"ready,omitempty"`
	Images        []v1.ContainerImage `json:"images,omitempty"`
}

type podGroupIn struct {
	Name          string           `json:"name,omitempty"`
	Namespace     string           `json:"namespace,omitempty"`
	Queue         string           `json:"queue,omitempty"`
	MinMember     *int32           `json:"minMember,omitempty"`
	MinTaskMember map[string]int32 `json:"minTaskMember,omitempty"`
	MinResources  v1.ResourceList  `json:"minResources,omitempty"`
	Phase         string           `json:"phase,omitempty"`
	PriorityClass string           `json:"priorityClass,omitempty"`
	// NetworkTopology is read and left out: v1.10.0 has no network topology, and a
	// file that asks for one carries a whole-file mark (conformance.md, "The pin").
	NetworkTopology json.RawMessage `json:"networkTopology,omitempty"`
	// SubGroupPolicy likewise: v1.10.0's PodGroup has none.
	SubGroupPolicy json.RawMessage `json:"subGroupPolicy,omitempty"`
	// Preemptable is the PodGroup's volcano.sh/preemptable annotation, as a pod's is.
	Preemptable *bool `json:"preemptable,omitempty"`
}

type podIn struct {
	Name                      string                        `json:"name,omitempty"`
	Namespace                 string                        `json:"namespace,omitempty"`
	PodGroup                  string                        `json:"podgroup,omitempty"`
	Phase                     string                        `json:"phase,omitempty"`
	Node                      string                        `json:"node,omitempty"`
	Request                   v1.ResourceList               `json:"request,omitempty"`
	Priority                  *int32                        `json:"priority,omitempty"`
	PriorityClass             string                        `json:"priorityClass,omitempty"`
	Role                      string                        `json:"role,omitempty"`
	Preemptable               *bool                         `json:"preemptable,omitempty"`
	Labels                    map[string]string             `json:"labels,omitempty"`
	NodeSelector              map[string]string             `json:"nodeSelector,omitempty"`
	Tolerations               []v1.Toleration               `json:"tolerations,omitempty"`
	Affinity                  *v1.Affinity                  `json:"affinity,omitempty"`
	PreemptionPolicy          *v1.PreemptionPolicy          `json:"preemptionPolicy,omitempty"`
	PipelinedTo               string                        `json:"pipelinedTo,omitempty"`
	Ports                     []v1.ContainerPort            `json:"ports,omitempty"`
	SchedulingGates           []v1.PodSchedulingGate        `json:"schedulingGates,omitempty"`
	TopologySpreadConstraints []v1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	// Images are the pod's containers' images: the first is the container with the
	// request, each other a container of its own without one.
	Images []string `json:"images,omitempty"`
	// NominatedNodeName is the pod's status.nominatedNodeName (v1.10.0's allocate does
	// not read it).
	NominatedNodeName string `json:"nominatedNodeName,omitempty"`
}

// A pipeline the first session makes before its actions (pipelinedTo).
type pipeline struct {
	job  string // ns/podgroup: Volcano's JobID
	uid  types.UID
	node string
}

// The cluster as Volcano's informers would deliver it, in creation order.
type cluster struct {
	prioClasses []*schedulingv1.PriorityClass
	queues      []*vcv1beta1.Queue
	nodes       []*v1.Node
	podGroups   []*vcv1beta1.PodGroup
	pods        []*v1.Pod
	pipelines   []pipeline
	nodeIndex   map[string]int // listing order: vsched's tie-break between equal nodes
}

const defaultNamespace = "default"

// Creation timestamps one second apart in file order: an earlier entry is older, as vsched's
// loader creates them, and Volcano orders equal jobs and tasks by creation time.
type clock struct{ next time.Time }

func (c *clock) tick() metav1.Time {
	t := metav1.NewTime(c.next)
	c.next = c.next.Add(time.Second)
	return t
}

func readScenario(path string) (*scenarioFile, []byte, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	js, err := yaml.YAMLToJSON(text)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	var scn scenarioFile
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&scn); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if scn.Cycles == 0 {
		scn.Cycles = 1
	}
	return &scn, text, nil
}

func nsOr(ns string) string {
	if ns == "" {
		return defaultNamespace
	}
	return ns
}

// The task status vsched's loader derives from phase and node, written as the pod that
// Volcano's getTaskStatus turns into the same status.
// podContainers is the pod's containers: one with its request, ports and first image, and one
// more for each other image, which requests cpu and memory 0 in so many words: without them
// kube-scheduler's scores would count 100m and 200Mi for it (NonZeroRequested), where vsched
// knows the task's one request.
func podContainers(in *podIn) []v1.Container {
	cs := []v1.Container{{
		Name:      "c",
		Resources: v1.ResourceRequirements{Requests: in.Request},
		Ports:     podPorts(in.Ports),
	}}
	for i, img := range in.Images {
		if i == 0 {
			cs[0].Image = img
			continue
		}
		cs = append(cs, v1.Container{Name: fmt.Sprintf("c%d", i), Image: img,
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
				v1.ResourceCPU: qty("0"), v1.ResourceMemory: qty("0")}}})
	}
	return cs
}

// podPorts gives the ports the API server's defaulting would: TCP when no protocol is written.
func podPorts(ports []v1.ContainerPort) []v1.ContainerPort {
	if len(ports) == 0 {
		return nil
	}
	out := make([]v1.ContainerPort, len(ports))
	for i, p := range ports {
		if p.Protocol == "" {
			p.Protocol = v1.ProtocolTCP
		}
		out[i] = p
	}
	return out
}

func podPhase(p *podIn, pod *v1.Pod, now metav1.Time) error {
	switch p.Phase {
	case "", "Pending":
		pod.Status.Phase = v1.PodPending
	case "Bound":
		if p.Node == "" {
			return fmt.Errorf("pod %s: Bound needs a node", p.Name)
		}
		pod.Status.Phase = v1.PodPending
	case "Running", "Succeeded", "Failed", "Unknown":
		pod.Status.Phase = v1.PodPhase(p.Phase)
	case "Releasing":
		pod.Status.Phase = v1.PodRunning
		pod.DeletionTimestamp = &now
	default:
		return fmt.Errorf("pod %s: phase %q has no pod that Volcano reads as it", p.Name, p.Phase)
	}
	return nil
}

func hasTaint(taints []v1.Taint, key string) bool {
	for _, t := range taints {
		if t.Key == key {
			return true
		}
	}
	return false
}

func buildCluster(scn *scenarioFile) (*cluster, error) {
	cl := &cluster{nodeIndex: map[string]int{}}
	clk := &clock{next: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	classes := map[string]*schedulingv1.PriorityClass{}
	var defaultClass *schedulingv1.PriorityClass

	for _, in := range scn.PriorityClasses {
		pc := &schedulingv1.PriorityClass{
			ObjectMeta:       metav1.ObjectMeta{Name: in.Name, CreationTimestamp: clk.tick()},
			Value:            in.Value,
			GlobalDefault:    in.GlobalDefault,
			PreemptionPolicy: in.PreemptionPolicy,
		}
		classes[in.Name] = pc
		if in.GlobalDefault {
			defaultClass = pc
		}
		cl.prioClasses = append(cl.prioClasses, pc)
	}

	for _, in := range scn.Queues {
		q := &vcv1beta1.Queue{
			ObjectMeta: metav1.ObjectMeta{Name: in.Name, UID: types.UID(in.Name),
				CreationTimestamp: clk.tick()},
			Spec: vcv1beta1.QueueSpec{
				Weight:      1,
				Capability:  in.Capability,
				Reclaimable: in.Reclaimable,
				Guarantee:   vcv1beta1.Guarantee{Resource: in.Guarantee},
				Deserved:    in.Deserved,
				Parent:      in.Parent,
				Priority:    in.Priority,
			},
			Status: vcv1beta1.QueueStatus{State: vcv1beta1.QueueStateOpen},
		}
		if in.Weight != nil {
			q.Spec.Weight = *in.Weight
		}
		if in.State != "" {
			q.Status.State = vcv1beta1.QueueState(in.State)
		}
		cl.queues = append(cl.queues, q)
	}

	for i, in := range scn.Nodes {
		ready := v1.ConditionTrue
		if in.Ready != nil && !*in.Ready {
			ready = v1.ConditionFalse
		}
		n := &v1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: in.Name, UID: types.UID(in.Name),
				Labels: in.Labels, CreationTimestamp: clk.tick()},
			Spec: v1.NodeSpec{Unschedulable: in.Unschedulable, Taints: in.Taints},
			Status: v1.NodeStatus{
				Capacity:    in.Allocatable.DeepCopy(),
				Allocatable: in.Allocatable.DeepCopy(),
				Conditions:  []v1.NodeCondition{{Type: v1.NodeReady, Status: ready}},
				Phase:       v1.NodeRunning,
				Images:      in.Images,
			},
		}
		// A node whose Ready condition is false carries the taint Kubernetes' node
		// lifecycle controller gives it; Volcano's predicates see the taint, not the
		// condition (vsched's predicates model ready: false the same way).
		if ready == v1.ConditionFalse && !hasTaint(n.Spec.Taints, v1.TaintNodeNotReady) {
			n.Spec.Taints = append(append([]v1.Taint(nil), n.Spec.Taints...), v1.Taint{
				Key: v1.TaintNodeNotReady, Effect: v1.TaintEffectNoSchedule})
		}
		if n.Status.Allocatable == nil {
			n.Status.Allocatable = v1.ResourceList{}
			n.Status.Capacity = v1.ResourceList{}
		}
		cl.nodeIndex[in.Name] = i
		cl.nodes = append(cl.nodes, n)
	}

	groups := map[string]bool{}
	for _, in := range scn.PodGroups {
		ns := nsOr(in.Namespace)
		pg := &vcv1beta1.PodGroup{
			ObjectMeta: metav1.ObjectMeta{Name: in.Name, Namespace: ns,
				UID: types.UID(ns + "/" + in.Name), CreationTimestamp: clk.tick()},
			Spec: vcv1beta1.PodGroupSpec{
				MinMember:         1,
				MinTaskMember:     in.MinTaskMember,
				Queue:             in.Queue,
				PriorityClassName: in.PriorityClass,
			},
			Status: vcv1beta1.PodGroupStatus{Phase: vcv1beta1.PodGroupPending},
		}
		if in.MinMember != nil {
			pg.Spec.MinMember = *in.MinMember
		}
		if in.MinResources != nil {
			mr := in.MinResources.DeepCopy()
			pg.Spec.MinResources = &mr
		}
		if in.Phase != "" {
			pg.Status.Phase = vcv1beta1.PodGroupPhase(in.Phase)
		}
		if in.Preemptable != nil {
			pg.Annotations = map[string]string{
				vcv1beta1.PodPreemptable: fmt.Sprint(*in.Preemptable),
			}
		}
		groups[ns+"/"+in.Name] = true
		cl.podGroups = append(cl.podGroups, pg)
	}

	for i := range scn.Pods {
		in := &scn.Pods[i]
		ns := nsOr(in.Namespace)
		if !groups[ns+"/"+in.PodGroup] {
			return nil, fmt.Errorf("pod %s/%s: podgroup %s/%s is not listed", ns, in.Name,
				ns, in.PodGroup)
		}
		if in.Node != "" {
			if _, ok := cl.nodeIndex[in.Node]; !ok {
				return nil, fmt.Errorf("pod %s/%s: node %s is not listed", ns, in.Name,
					in.Node)
			}
		}
		created := clk.tick()
		pod := &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Name: in.Name, Namespace: ns, UID: types.UID(ns + "/" + in.Name),
				CreationTimestamp: created,
				Labels:            in.Labels,
				Annotations: map[string]string{
					vcv1beta1.KubeGroupNameAnnotationKey: in.PodGroup,
				},
			},
			Spec: v1.PodSpec{
				NodeName:                  in.Node,
				NodeSelector:              in.NodeSelector,
				Tolerations:               in.Tolerations,
				Affinity:                  in.Affinity,
				PriorityClassName:         in.PriorityClass,
				PreemptionPolicy:          in.PreemptionPolicy,
				SchedulingGates:           in.SchedulingGates,
				TopologySpreadConstraints: in.TopologySpreadConstraints,
				SchedulerName:             schedulerName,
				Containers:                podContainers(in),
			},
		}
		// A role or flag written explicitly wins over the labels: annotations do in Volcano.
		if in.Role != "" {
			pod.Annotations[batch.TaskSpecKey] = in.Role
		}
		if in.Preemptable != nil {
			pod.Annotations[vcv1beta1.PodPreemptable] = fmt.Sprint(*in.Preemptable)
		}
		if err := podPhase(in, pod, created); err != nil {
			return nil, err
		}
		pod.Status.NominatedNodeName = in.NominatedNodeName
		// Kubernetes' priority admission: the class's value (the default class's without
		// one) unless a priority is written, and the class's preemption policy.
		class := defaultClass
		if in.PriorityClass != "" {
			class = classes[in.PriorityClass]
			if class == nil {
				return nil, fmt.Errorf("pod %s/%s: priorityClass %s is not listed", ns,
					in.Name, in.PriorityClass)
			}
		}
		if in.Priority != nil {
			pod.Spec.Priority = in.Priority
		} else if class != nil {
			v := class.Value
			pod.Spec.Priority = &v
		}
		if pod.Spec.PreemptionPolicy == nil && class != nil && class.PreemptionPolicy != nil {
			pp := *class.PreemptionPolicy
			pod.Spec.PreemptionPolicy = &pp
		}
		if in.PipelinedTo != "" {
			if _, ok := cl.nodeIndex[in.PipelinedTo]; !ok {
				return nil, fmt.Errorf("pod %s/%s: pipelinedTo %s is not listed", ns,
					in.Name, in.PipelinedTo)
			}
			cl.pipelines = append(cl.pipelines, pipeline{job: ns + "/" + in.PodGroup,
				uid: pod.UID, node: in.PipelinedTo})
		}
		cl.pods = append(cl.pods, pod)
	}
	return cl, nil
}
