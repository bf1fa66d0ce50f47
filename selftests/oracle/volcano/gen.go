// The fuzzer's generator: a small random cluster, workload and valid configuration from a seed,
// using only what both vsched and this Volcano claim to support, and steering clear of the
// departures the scenarios mark as known (Documentation/conformance.md, "Differential
// testing"). A case is a scenarioFile plus its configuration, written as a scenario file.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// phaseMark excuses PodGroup phases in every generated case: v1.10.0 counts allocated and
// binding tasks for Running, vsched (as Volcano since PR #4384) only scheduled ones, so
// nearly every case that binds would differ there. Binds, evictions and pipelines are
// compared in full.
const phaseMark = "PodGroup phases: Volcano v1.10.0 counts allocated and binding tasks " +
	"for Running; since PR #4384 (v1.13.0) only scheduled tasks count"

// fuzzCase is a generated scenario: the file's objects, and the configuration as actions and
// tiers of plugin names, written as a `conf:` (Volcano's defaults for every flag).
type fuzzCase struct {
	seed    int64
	scn     scenarioFile
	actions []string
	tiers   [][]string
	// extra draws what pods ask for beyond the first generator's (host ports, scheduling
	// gates): a stream of its own, so that a feature added does not change every case the
	// fixed seeds make, only what the feature itself touches
	extra *rand.Rand
}

const hostnameKey = "kubernetes.io/hostname"

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.Intn(len(xs))] }

func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

func qty(s string) resource.Quantity { return resource.MustParse(s) }

// The configuration: enqueue and allocate in most cases, then any of preempt, reclaim and
// backfill in Volcano's order; tier 1 a subset of priority, gang and conformance, tier 2 of
// overcommit, drf, predicates, proportion or capacity (never both: each owns the queues),
// nodeorder and binpack.
func genConf(r *rand.Rand, c *fuzzCase) {
	if chance(r, 0.8) {
		c.actions = append(c.actions, "enqueue")
	}
	c.actions = append(c.actions, "allocate")
	for _, a := range []string{"preempt", "reclaim", "backfill"} {
		if chance(r, 0.35) {
			c.actions = append(c.actions, a)
		}
	}
	var t1, t2 []string
	for _, p := range []string{"priority", "gang", "conformance"} {
		if chance(r, 0.75) {
			t1 = append(t1, p)
		}
	}
	for _, p := range []string{"overcommit", "drf", "predicates"} {
		if chance(r, 0.7) {
			t2 = append(t2, p)
		}
	}
	switch r.Intn(5) {
	case 0, 1, 2:
		t2 = append(t2, "proportion")
	case 3:
		t2 = append(t2, "capacity")
	}
	for _, p := range []string{"nodeorder", "binpack"} {
		if chance(r, 0.5) {
			t2 = append(t2, p)
		}
	}
	for _, t := range [][]string{t1, t2} {
		if len(t) > 0 {
			c.tiers = append(c.tiers, t)
		}
	}
	// the departures below are configurations: move them back into the common ground
	if len(t1) == 0 {
		c.tiers = append([][]string{{"gang"}}, c.tiers...)
	} else if !c.plugin("gang") {
		c.tiers[0] = append([]string{"gang"}, c.tiers[0]...)
	}
	if c.plugin("nodeorder") && !c.plugin("predicates") {
		t := &c.tiers[len(c.tiers)-1]
		*t = append([]string{"predicates"}, *t...)
	}
}

// queueRequests is what capacity counts as each queue's request: its tasks placed
// (AllocatedStatus: not Releasing) and pending, by resource.
func (c *fuzzCase) queueRequests() map[string]v1.ResourceList {
	queueOf := map[string]string{}
	for _, pg := range c.scn.PodGroups {
		queueOf[pg.Name] = pg.Queue
	}
	out := map[string]v1.ResourceList{}
	for _, p := range c.scn.Pods {
		if p.Phase == "Releasing" {
			continue
		}
		q := queueOf[p.PodGroup]
		if out[q] == nil {
			out[q] = v1.ResourceList{}
		}
		for name, v := range p.Request {
			sum := out[q][name]
			sum.Add(v)
			out[q][name] = sum
		}
	}
	return out
}

// capDeserved keeps each queue's deserved within its request (departure()).
func (c *fuzzCase) capDeserved() {
	req := c.queueRequests()
	for i := range c.scn.Queues {
		q := &c.scn.Queues[i]
		for name, d := range q.Deserved {
			if r := req[q.Name][name]; d.Cmp(r) > 0 {
				q.Deserved[name] = r.DeepCopy()
			}
		}
	}
}

// template is what the predicate error cache takes as the same task: the request and every
// constraint on the node.
func template(p *podIn) string {
	j, _ := json.Marshal([]interface{}{p.Request, p.NodeSelector, p.Tolerations, p.Affinity,
		podPorts(p.Ports), p.Images, p.TopologySpreadConstraints})
	return string(j)
}

// departure says where a case leaves the ground both sides share, as far as the fuzzer
// knows: each is a difference between v1.10.0 and the Volcano vsched follows (or vsched's
// own, scheduling.md), found by this fuzzer or marked in selftests/scenarios/. The
// generator does not make such cases and the shrinker does not keep them; "" when none.
func (c *fuzzCase) departure() string {
	switch {
	case !c.plugin("gang"):
		// with no JobReady plugin every job is ready: v1.10.0's allocate does not put
		// a job back after a task found no node (PR #4310, v1.12.0) and its reclaim
		// takes every job with pending tasks, not only starving ones (PR #3951,
		// v1.11.0)
		return "no gang"
	case c.plugin("nodeorder") && !c.plugin("predicates"):
		// Volcano's nodeorder sees the session's placements only through the
		// predicates plugin's event handlers; vsched always (scheduling.md)
		return "nodeorder without predicates"
	}
	// a pod pipelined where evictions made room is nominated there, and a later
	// cycle's allocate tries that node first and preempt checks it (PR #4079, v1.12.0,
	// and taskEligibleToPreempt): v1.10.0 reads no nominated node; capacity's
	// request also shrinks with the evictions after the first cycle
	if c.scn.Cycles > 1 && (c.has("preempt") || c.has("reclaim")) {
		return "evictions over several cycles"
	}
	pods := map[string]int32{}
	for _, p := range c.scn.Pods {
		pods[p.PodGroup]++
	}
	// v1.10.0's predicate error cache also groups the tasks without a role (PR #3649,
	// v1.11.0, keeps it to tasks with one): role-less tasks of a job must be alike
	alike := map[string]string{}
	for _, p := range c.scn.Pods {
		if p.Role != "" || p.Phase != "" {
			continue
		}
		t := template(&p)
		if prev, ok := alike[p.PodGroup]; ok && prev != t {
			return "a job's pending tasks without a role differ"
		}
		alike[p.PodGroup] = t
	}
	pending := map[string]int{}
	for _, p := range c.scn.Pods {
		if p.Node == "" && p.PipelinedTo == "" {
			pending[p.PodGroup]++
		}
	}
	for _, pg := range c.scn.PodGroups {
		// v1.10.0's reclaim takes every job with pending tasks, not only the starving
		// ones (PR #3951, v1.11.0): with minMember at the job's size they are the same
		if c.has("reclaim") && pg.MinMember != nil && *pg.MinMember < pods[pg.Name] {
			return "reclaim with a job that may have pending tasks and not starve"
		}
		// v1.10.0's reclaim evicts through the session, for good, even when the job
		// is not pipelined in the end; since PR #4794 (v1.14.0) through a Statement:
		// the same when the one pending task's reclaim pipelines the job
		if c.has("reclaim") && pending[pg.Name] > 1 {
			return "reclaim for a job with more than one pending task"
		}
	}
	req := c.queueRequests()
	for _, q := range c.scn.Queues {
		if !c.plugin("capacity") {
			break
		}
		// between equal shares capacity puts first the queue that deserves
		// something since PR #4865 (v1.14.0)
		if q.Deserved == nil {
			return "capacity with a queue that deserves nothing"
		}
		// v1.10.0's capacity cuts a queue's deserved down to its request; PR #3946
		// (v1.12.0) no longer does: the same only while deserved is within it
		for name, d := range q.Deserved {
			if r := req[q.Name][name]; d.Cmp(r) > 0 {
				return "capacity with a queue that deserves more than it asks"
			}
		}
	}
	for i := range c.scn.Pods {
		a := c.scn.Pods[i].Affinity
		if a == nil {
			continue
		}
		// v1.10.0 scores preferred node affinity unnormalised (PR #5497)
		if c.plugin("nodeorder") && a.NodeAffinity != nil &&
			a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution != nil {
			return "preferred node affinity scored"
		}
		// v1.10.0's predicates let preempt and reclaim evict for anti-affinity
		// (PR #3840)
		if (c.has("preempt") || c.has("reclaim")) &&
			(a.PodAffinity != nil || a.PodAntiAffinity != nil) {
			return "pod affinity with preempt or reclaim"
		}
	}
	for i := range c.scn.Pods {
		p := &c.scn.Pods[i]
		if len(p.Ports) == 0 {
			continue
		}
		// v1.10.0's preempt pipelines once FutureIdle holds the preemptor, without
		// the predicates (PR #5843); its reclaim likewise
		if c.has("preempt") || c.has("reclaim") {
			return "host ports with preempt or reclaim"
		}
		// kube-scheduler keeps a node's ports as a set, vsched counts them
		// (scheduling.md): two pods on a node may not share one
		for j := 0; j < i && p.Node != ""; j++ {
			if q := &c.scn.Pods[j]; q.Node == p.Node && portsConflict(p.Ports, q.Ports) {
				return "two pods on a node with one host port"
			}
		}
	}
	return ""
}

// portsConflict is kube-scheduler's NodePorts between two pods' ports: the same protocol
// and host port, on the same hostIP or with either one every address.
func portsConflict(a, b []v1.ContainerPort) bool {
	any := func(ip string) bool { return ip == "" || ip == "0.0.0.0" }
	for _, x := range podPorts(a) {
		for _, y := range podPorts(b) {
			if x.HostPort > 0 && x.HostPort == y.HostPort && x.Protocol == y.Protocol &&
				(x.HostIP == y.HostIP || any(x.HostIP) || any(y.HostIP)) {
				return true
			}
		}
	}
	return false
}

// fuzzImages are the images nodes have and pods ask for: an untagged name (":latest" to both
// sides), one given by tag and digest, and sizes on both sides of ImageLocality's thresholds.
var fuzzImages = []v1.ContainerImage{
	{Names: []string{"busybox:latest"}, SizeBytes: 5 << 20},
	{Names: []string{"nginx:1.25", "nginx@sha256:0d17b565"}, SizeBytes: 187 << 20},
	{Names: []string{"pytorch:2.3"}, SizeBytes: 6 << 30},
	{Names: []string{"redis:7"}, SizeBytes: 40 << 20},
}

// genNodeImages gives half the nodes some of fuzzImages, each now and then with a size of
// its own (a summary keeps the first node's).
func genNodeImages(r *rand.Rand, n *nodeIn) {
	if !chance(r, 0.5) {
		return
	}
	for _, img := range fuzzImages {
		if chance(r, 0.5) {
			if chance(r, 0.2) {
				img.SizeBytes += int64(r.Intn(100)) << 20
			}
			n.Images = append(n.Images, img)
		}
	}
}

// genImages gives a pod its containers' images now and then, as written in a pod spec.
func genImages(r *rand.Rand, p *podIn) {
	if !chance(r, 0.3) {
		return
	}
	for i := 0; i < 1+r.Intn(2); i++ {
		p.Images = append(p.Images, pick(r, "busybox", "nginx:1.25", "pytorch:2.3", "redis:7",
			"nginx@sha256:0d17b565", "ubuntu:24.04"))
	}
}

// genSpread gives a pod topology spread constraints now and then, over the nodes' zones and
// hostnames (and a rack no node has), with what kube-scheduler reads of them: both actions,
// minDomains, the node inclusion policies, an empty or absent selector, matchLabelKeys. Not
// with preempt or reclaim.
func genSpread(r *rand.Rand, c *fuzzCase, p *podIn) {
	if c.has("preempt") || c.has("reclaim") || !chance(r, 0.15) {
		return
	}
	keys := []string{"zone", hostnameKey, "rack"}
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	if keys[0] == "rack" && chance(r, 0.7) {
		keys[0], keys[2] = keys[2], keys[0]
	}
	for i := 0; i < 1+r.Intn(2); i++ {
		sc := v1.TopologySpreadConstraint{MaxSkew: int32(1 + r.Intn(2)), TopologyKey: keys[i],
			WhenUnsatisfiable: pick(r, v1.DoNotSchedule, v1.ScheduleAnyway),
			LabelSelector: &metav1.LabelSelector{
				MatchLabels: map[string]string{"app": pick(r, "web", "db")}}}
		switch {
		case chance(r, 0.1):
			sc.LabelSelector = &metav1.LabelSelector{}
		case chance(r, 0.05):
			sc.LabelSelector = nil
		case chance(r, 0.15):
			sc.LabelSelector = &metav1.LabelSelector{}
			sc.MatchLabelKeys = []string{"app"}
		}
		if chance(r, 0.2) && sc.WhenUnsatisfiable == v1.DoNotSchedule {
			md := int32(2 + r.Intn(4))
			sc.MinDomains = &md
		}
		if chance(r, 0.2) {
			pol := pick(r, v1.NodeInclusionPolicyHonor, v1.NodeInclusionPolicyIgnore)
			sc.NodeAffinityPolicy = &pol
		}
		if chance(r, 0.2) {
			pol := pick(r, v1.NodeInclusionPolicyHonor, v1.NodeInclusionPolicyIgnore)
			sc.NodeTaintsPolicy = &pol
		}
		p.TopologySpreadConstraints = append(p.TopologySpreadConstraints, sc)
	}
}

// genPorts gives a pod a host port now and then, from a few, so that pods meet on them.
func genPorts(r *rand.Rand, c *fuzzCase, p *podIn) {
	if c.has("preempt") || c.has("reclaim") || !chance(r, 0.2) {
		return
	}
	port := v1.ContainerPort{ContainerPort: 80, HostPort: pick(r, int32(8080), 9090)}
	if chance(r, 0.2) {
		port.Protocol = v1.ProtocolUDP
	}
	if chance(r, 0.3) {
		port.HostIP = pick(r, "10.0.0.1", "10.0.0.2", "0.0.0.0")
	}
	p.Ports = []v1.ContainerPort{port}
}

func (c *fuzzCase) has(action string) bool {
	for _, a := range c.actions {
		if a == action {
			return true
		}
	}
	return false
}

func (c *fuzzCase) plugin(name string) bool {
	for _, t := range c.tiers {
		for _, p := range t {
			if p == name {
				return true
			}
		}
	}
	return false
}

// confText is the case's configuration as a volcano-scheduler.conf.
func (c *fuzzCase) confText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "actions: \"%s\"\ntiers:\n", strings.Join(c.actions, ", "))
	for _, t := range c.tiers {
		b.WriteString("- plugins:\n")
		for _, p := range t {
			fmt.Fprintf(&b, "  - name: %s\n", p)
		}
	}
	return b.String()
}

type nodeRoom struct{ cpu, mem int64 } // milli-CPU, MiB

func genNodes(r *rand.Rand, c *fuzzCase) []nodeRoom {
	var room []nodeRoom
	n := 1 + r.Intn(4)
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("n%d", i)
		cpu := pick(r, int64(1), 2, 4, 8)
		mem := pick(r, int64(2), 4, 8)
		in := nodeIn{
			Name: name,
			Allocatable: v1.ResourceList{
				v1.ResourceCPU:    qty(fmt.Sprint(cpu)),
				v1.ResourceMemory: qty(fmt.Sprintf("%dGi", mem)),
				v1.ResourcePods:   qty("110"),
			},
			Labels: map[string]string{hostnameKey: name},
		}
		if chance(r, 0.6) {
			in.Labels["zone"] = pick(r, "a", "b")
		}
		if chance(r, 0.2) {
			in.Taints = append(in.Taints, v1.Taint{Key: "dedicated", Value: "gpu",
				Effect: pick(r, v1.TaintEffectNoSchedule, v1.TaintEffectPreferNoSchedule)})
		}
		in.Unschedulable = chance(r, 0.08)
		genNodeImages(c.extra, &in)
		c.scn.Nodes = append(c.scn.Nodes, in)
		room = append(room, nodeRoom{cpu * 1000, mem * 1024})
	}
	return room
}

// genQueues makes the queues. Their guarantees together stay within the cluster: proportion
// subtracts them from the cluster's total, which Volcano asserts cannot go negative (it
// panics).
func genQueues(r *rand.Rand, c *fuzzCase, room []nodeRoom) {
	capacity := c.plugin("capacity")
	var cpuLeft, memLeft int64
	for _, n := range room {
		cpuLeft += n.cpu
		memLeft += n.mem
	}
	n := 1 + r.Intn(3)
	for i := 1; i <= n; i++ {
		w := int32(1 + r.Intn(4))
		q := queueIn{Name: fmt.Sprintf("q%d", i), Weight: &w}
		if chance(r, 0.3) {
			q.Capability = v1.ResourceList{v1.ResourceCPU: qty(fmt.Sprint(1 + r.Intn(6))),
				v1.ResourceMemory: qty(fmt.Sprintf("%dGi", 2+r.Intn(12)))}
		}
		if cpu := int64(1 + r.Intn(2)); chance(r, 0.2) && cpu*1000 <= cpuLeft &&
			memLeft >= 1024 {
			cpuLeft -= cpu * 1000
			memLeft -= 1024
			q.Guarantee = v1.ResourceList{v1.ResourceCPU: qty(fmt.Sprint(cpu)),
				v1.ResourceMemory: qty("1Gi")}
		}
		if capacity {
			q.Deserved = v1.ResourceList{v1.ResourceCPU: qty(fmt.Sprint(1 + r.Intn(4))),
				v1.ResourceMemory: qty(fmt.Sprintf("%dGi", 1+r.Intn(8)))}
		}
		if chance(r, 0.2) {
			f := false
			q.Reclaimable = &f
		}
		c.scn.Queues = append(c.scn.Queues, q)
	}
}

// Pods and their groups. A pod may run already (on a node with room), be Releasing, or be
// pipelined in the first cycle; the constraints are the node selector, tolerations, node
// affinity (preferred only without nodeorder) and, without preempt and reclaim, pod affinity
// and anti-affinity: departure() says why.
func genWorkload(r *rand.Rand, c *fuzzCase, room []nodeRoom) {
	classes := chance(r, 0.5)
	if classes {
		c.scn.PriorityClasses = []prioClassIn{{Name: "low", Value: 10,
			GlobalDefault: chance(r, 0.5)}, {Name: "high", Value: 1000}}
	}
	ngroups := 1 + r.Intn(4)
	for g := 1; g <= ngroups; g++ {
		pg := podGroupIn{Name: fmt.Sprintf("pg%d", g), Namespace: "ns",
			Queue: c.scn.Queues[r.Intn(len(c.scn.Queues))].Name}
		ntasks := 1 + r.Intn(4)
		min := int32(r.Intn(ntasks + 1))
		pg.MinMember = &min
		roles := chance(r, 0.2)
		if roles {
			pg.MinTaskMember = map[string]int32{"worker": int32(r.Intn(3))}
		}
		if classes && chance(r, 0.4) {
			pg.PriorityClass = pick(r, "low", "high")
		}
		app := pick(r, "web", "db")
		running := 0
		first := len(c.scn.Pods)
		for t := 1; t <= ntasks; t++ {
			cpu := pick(r, int64(500), 1000, 2000)
			mem := pick(r, int64(512), 1024, 2048)
			p := podIn{Name: fmt.Sprintf("%s-%d", pg.Name, t), Namespace: "ns",
				PodGroup: pg.Name,
				Request: v1.ResourceList{
					v1.ResourceCPU:    *resource.NewMilliQuantity(cpu, resource.DecimalSI),
					v1.ResourceMemory: qty(fmt.Sprintf("%dMi", mem)),
				},
				Labels: map[string]string{"app": app}}
			if roles {
				p.Role = pick(r, "worker", "ps")
			}
			if classes && chance(r, 0.4) {
				p.PriorityClass = pick(r, "low", "high")
			} else if chance(r, 0.15) {
				prio := int32(r.Intn(3) * 50)
				p.Priority = &prio
			}
			if chance(r, 0.15) {
				p.NodeSelector = map[string]string{"zone": pick(r, "a", "b")}
			}
			if chance(r, 0.25) {
				p.Tolerations = []v1.Toleration{{Key: "dedicated",
					Operator: v1.TolerationOpEqual, Value: "gpu"}}
			}
			genAffinity(r, c, &p)
			genPorts(c.extra, c, &p)
			genImages(c.extra, &p)
			genSpread(c.extra, c, &p)
			if chance(r, 0.1) {
				f := false
				p.Preemptable = &f
			}
			// already on a node that has the room; a running pod does not check its
			// constraints, as a pod bound by hand would not
			if chance(r, 0.35) {
				i := r.Intn(len(room))
				if room[i].cpu >= cpu && room[i].mem >= mem {
					room[i].cpu -= cpu
					room[i].mem -= mem
					p.Node = c.scn.Nodes[i].Name
					// a running pod's port is free on its node (departure())
					for _, q := range c.scn.Pods {
						if q.Node == p.Node && portsConflict(p.Ports, q.Ports) {
							p.Ports = nil
						}
					}
					p.Phase = "Running"
					if chance(r, 0.1) {
						p.Phase = "Releasing"
					}
					running++
				}
			} else if chance(r, 0.08) {
				i := r.Intn(len(room))
				if room[i].cpu >= cpu && room[i].mem >= mem {
					room[i].cpu -= cpu
					room[i].mem -= mem
					p.PipelinedTo = c.scn.Nodes[i].Name
				}
			}
			// now and then a pending pod waits on a scheduling gate
			if p.Node == "" && p.PipelinedTo == "" && chance(c.extra, 0.08) {
				p.SchedulingGates = []v1.PodSchedulingGate{{Name: "example.com/gate"}}
			}
			c.scn.Pods = append(c.scn.Pods, p)
		}
		// role-less pending tasks of one job alike, else roles for all (departure())
		for i := first + 1; i < len(c.scn.Pods); i++ {
			p := &c.scn.Pods[i]
			if p.Role != "" || p.Phase != "" ||
				template(p) == template(&c.scn.Pods[first]) {
				continue
			}
			for j := first; j < len(c.scn.Pods); j++ {
				if c.scn.Pods[j].Role == "" && c.scn.Pods[j].Phase == "" {
					c.scn.Pods[j].Role = pick(r, "worker", "ps")
				}
			}
			break
		}
		pg.Phase = pick(r, "Pending", "Inqueue")
		if running > 0 {
			pg.Phase = "Running"
		}
		// a pipelined pod belongs to a job the session can schedule
		if pg.Phase == "Pending" {
			for i := first; i < len(c.scn.Pods); i++ {
				c.scn.Pods[i].PipelinedTo = ""
			}
		}
		if c.has("reclaim") {
			// one pending task a job at most (departure())
			kept := c.scn.Pods[:first]
			seen := false
			for _, p := range c.scn.Pods[first:] {
				if p.Node == "" && p.PipelinedTo == "" {
					if seen {
						continue
					}
					seen = true
				}
				kept = append(kept, p)
			}
			c.scn.Pods = kept
			min = int32(len(kept) - first)
			pg.MinMember = &min
		}
		c.scn.PodGroups = append(c.scn.PodGroups, pg)
	}
}

func genAffinity(r *rand.Rand, c *fuzzCase, p *podIn) {
	aff := &v1.Affinity{}
	podAffinity := !c.has("preempt") && !c.has("reclaim")
	if chance(r, 0.12) {
		req := v1.NodeSelectorRequirement{Key: "zone", Operator: v1.NodeSelectorOpIn,
			Values: []string{pick(r, "a", "b")}}
		if chance(r, 0.5) || c.plugin("nodeorder") {
			aff.NodeAffinity = &v1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{
					NodeSelectorTerms: []v1.NodeSelectorTerm{{
						MatchExpressions: []v1.NodeSelectorRequirement{req}}}}}
		} else {
			aff.NodeAffinity = &v1.NodeAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []v1.PreferredSchedulingTerm{{
					Weight: int32(1 + r.Intn(10)),
					Preference: v1.NodeSelectorTerm{
						MatchExpressions: []v1.NodeSelectorRequirement{req}}}}}
		}
	}
	if podAffinity && chance(r, 0.15) {
		term := v1.PodAffinityTerm{TopologyKey: hostnameKey,
			LabelSelector: &metav1.LabelSelector{
				MatchLabels: map[string]string{"app": pick(r, "web", "db")}}}
		if chance(r, 0.6) {
			aff.PodAntiAffinity = &v1.PodAntiAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{term}}
		} else {
			aff.PodAffinity = &v1.PodAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{{
					Weight: int32(1 + r.Intn(10)), PodAffinityTerm: term}}}
		}
	}
	if aff.NodeAffinity != nil || aff.PodAffinity != nil || aff.PodAntiAffinity != nil {
		p.Affinity = aff
	}
}

// generate is the case of one seed: the same seed gives the same case.
func generate(seed int64) *fuzzCase {
	r := rand.New(rand.NewSource(seed))
	c := &fuzzCase{seed: seed, extra: rand.New(rand.NewSource(seed ^ 0x5eed_e87a))}
	c.scn.Cycles = pick(r, 1, 1, 2, 3)
	genConf(r, c)
	room := genNodes(r, c)
	genQueues(r, c, room)
	genWorkload(r, c, room)
	if c.plugin("capacity") {
		c.capDeserved()
	}
	// evictions over several cycles nominate nodes (departure())
	if c.has("preempt") || c.has("reclaim") {
		c.scn.Cycles = 1
	}
	return c
}

// write renders the case as a scenario file: one object a line, as JSON (YAML's flow form),
// in the keys' order of scenarioFile; head is a comment, expect the file's expect mapping.
func (c *fuzzCase) write(head string, expect []byte) []byte {
	var b bytes.Buffer
	for _, l := range strings.Split(strings.TrimRight(head, "\n"), "\n") {
		b.WriteString("# " + l + "\n")
	}
	if c.scn.Cycles > 1 {
		fmt.Fprintf(&b, "cycles: %d\n", c.scn.Cycles)
	}
	mj, _ := json.Marshal(conformanceMark{Known: phaseMark, Keys: []string{"podgroupPhase"}})
	fmt.Fprintf(&b, "conformance: %s\nconf: |\n", mj)
	for _, l := range strings.Split(strings.TrimRight(c.confText(), "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	list := func(key string, n int, item func(int) interface{}) {
		if n == 0 {
			return
		}
		b.WriteString(key + ":\n")
		for i := 0; i < n; i++ {
			j, _ := json.Marshal(item(i))
			b.WriteString("  - ")
			b.Write(j)
			b.WriteByte('\n')
		}
	}
	s := &c.scn
	list("priorityClasses", len(s.PriorityClasses), func(i int) interface{} {
		return s.PriorityClasses[i]
	})
	list("queues", len(s.Queues), func(i int) interface{} { return s.Queues[i] })
	list("nodes", len(s.Nodes), func(i int) interface{} { return s.Nodes[i] })
	list("podgroups", len(s.PodGroups), func(i int) interface{} { return s.PodGroups[i] })
	list("pods", len(s.Pods), func(i int) interface{} { return s.Pods[i] })
	if expect != nil {
		b.WriteString("expect:\n")
		b.Write(expect)
	}
	return b.Bytes()
}
