// SPDX-License-Identifier: Apache-2.0
//
// peers-load: the load of make bench-peers (Documentation/benchmarks.md, "The
// peers side by side"), against a real kube-apiserver with one scheduler
// running. It creates, in parallel, NODES Node objects that are Ready with
// their allocatable set (there are no kubelets: the status is written with
// the object, as a kubelet registers), QUEUES Queues (state Open, as
// Volcano's queue controller writes it), a PodGroup per GROUP pods (minMember
// GROUP, the queues in turn, phase Pending, as Volcano's job controller makes
// them), and then PODS pods for the scheduler SCHEDULER, each naming its
// PodGroup (scheduling.k8s.io/group-name, which kube-scheduler ignores). It
// watches the pods until every one is bound (spec.nodeName set) or TIMEOUT.
//
// Times are this process's own monotonic clock, to the nanosecond: a pod is
// created when the API server answered its create (it is in etcd, and
// watchers may see it), bound when this process's watch delivered the event
// that set its spec.nodeName. creationTimestamp and the PodScheduled
// condition's lastTransitionTime are whole seconds, too coarse for the
// latencies of a scheduler that binds in milliseconds. Throughput, as
// scheduler_perf's SchedulingThroughput counts pods, is the pods bound over
// the time from the first pod's create request sent to the last bind seen.
//
// The result is one JSON object on standard output; exit status 1 when not
// every pod was bound in time (the JSON says how many were), 2 on bad usage.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

var (
	queueGVR = schema.GroupVersionResource{Group: "scheduling.volcano.sh", Version: "v1beta1",
		Resource: "queues"}
	podGroupGVR = schema.GroupVersionResource{Group: "scheduling.volcano.sh", Version: "v1beta1",
		Resource: "podgroups"}
)

// groupNameKey is the annotation naming a pod's PodGroup
// (volcano.sh/apis' KubeGroupNameAnnotationKey).
const groupNameKey = "scheduling.k8s.io/group-name"

type options struct {
	kubeconfig string
	scheduler  string
	namespace  string
	nodes      int
	pods       int
	group      int
	queues     int
	workers    int
	qps        float64
	burst      int
	timeout    time.Duration
	nodeCPU    string
	nodeMem    string
	nodePods   string
	podCPU     string
	podMem     string
}

// result is what the run prints. Durations in seconds, latencies in
// milliseconds; the latencies are those of the pods bound.
type result struct {
	Scheduler       string  `json:"scheduler"`
	Nodes           int     `json:"nodes"`
	Pods            int     `json:"pods"`
	GroupSize       int     `json:"groupSize"`
	Queues          int     `json:"queues"`
	Bound           int     `json:"bound"`
	Complete        bool    `json:"complete"`
	NodesSeconds    float64 `json:"nodesSeconds"`
	CreateSeconds   float64 `json:"createSeconds"`
	BindSeconds     float64 `json:"bindSeconds"`
	Throughput      float64 `json:"podsPerSecond"`
	CreateRate      float64 `json:"createsPerSecond"`
	LatencyP50Ms    float64 `json:"latencyP50Ms"`
	LatencyP99Ms    float64 `json:"latencyP99Ms"`
	LatencyMaxMs    float64 `json:"latencyMaxMs"`
	NodesUsed       int     `json:"nodesUsed"`
	TimeSource      string  `json:"timeSource"`
	CreateFailures  int64   `json:"createFailures"`
	WatchRestarts   int     `json:"watchRestarts"`
	FirstCreateUnix float64 `json:"firstCreateUnix"`
}

func usage(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "peers-load: "+format+"\n", a...)
	os.Exit(2)
}

func parseOptions() *options {
	o := &options{}
	flag.StringVar(&o.kubeconfig, "kubeconfig", "", "the API server and the credentials (required)")
	flag.StringVar(&o.scheduler, "scheduler-name", "default-scheduler", "the pods' spec.schedulerName")
	flag.StringVar(&o.namespace, "namespace", "bench", "the pods' and PodGroups' namespace (created)")
	flag.IntVar(&o.nodes, "nodes", 50, "Nodes to create")
	flag.IntVar(&o.pods, "pods", 200, "pods to create, once the nodes are")
	flag.IntVar(&o.group, "group-size", 10, "pods per PodGroup (its minMember)")
	flag.IntVar(&o.queues, "queues", 4, "Queues the PodGroups go to in turn")
	flag.IntVar(&o.workers, "workers", 64, "creates in flight at once")
	flag.Float64Var(&o.qps, "qps", 10000, "client-side requests per second (client-go's QPS)")
	flag.IntVar(&o.burst, "burst", 10000, "client-side burst (client-go's Burst)")
	flag.DurationVar(&o.timeout, "timeout", 10*time.Minute, "how long to wait for the last bind")
	flag.StringVar(&o.nodeCPU, "node-cpu", "32", "each node's allocatable cpu")
	flag.StringVar(&o.nodeMem, "node-memory", "128Gi", "each node's allocatable memory")
	flag.StringVar(&o.nodePods, "node-pods", "110", "each node's allocatable pods")
	flag.StringVar(&o.podCPU, "pod-cpu", "250m", "each pod's cpu request")
	flag.StringVar(&o.podMem, "pod-memory", "512Mi", "each pod's memory request")
	flag.Parse()
	if flag.NArg() != 0 {
		usage("unexpected argument %q", flag.Arg(0))
	}
	if o.kubeconfig == "" {
		usage("--kubeconfig is required")
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"--nodes", o.nodes}, {"--pods", o.pods}, {"--group-size", o.group},
		{"--queues", o.queues}, {"--workers", o.workers}, {"--burst", o.burst}} {
		if c.v < 1 {
			usage("%s must be at least 1 (got %d)", c.name, c.v)
		}
	}
	if o.pods%o.group != 0 {
		usage("--pods %d is not a whole number of groups of --group-size %d", o.pods, o.group)
	}
	if o.qps <= 0 || o.timeout <= 0 {
		usage("--qps and --timeout must be positive")
	}
	for _, q := range []struct{ name, v string }{{"--node-cpu", o.nodeCPU},
		{"--node-memory", o.nodeMem}, {"--node-pods", o.nodePods}, {"--pod-cpu", o.podCPU},
		{"--pod-memory", o.podMem}} {
		if _, err := resource.ParseQuantity(q.v); err != nil {
			usage("%s: %q is not a quantity: %v", q.name, q.v, err)
		}
	}
	return o
}

// parallel runs fn(0..n-1) on workers goroutines; the first error stops
// the rest and is returned.
func parallel(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	for w := 0; w < workers && w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// retry runs a create until it succeeds or fails for good: the API server
// under load may answer 429 or time out, which a client tries again.
func retry(ctx context.Context, failures *atomic.Int64, fn func() error) error {
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || apierrors.IsAlreadyExists(err) {
			return nil
		}
		retriable := apierrors.IsTooManyRequests(err) || apierrors.IsServerTimeout(err) ||
			apierrors.IsTimeout(err) || apierrors.IsInternalError(err) ||
			apierrors.IsServiceUnavailable(err)
		if !retriable || attempt >= 10 || ctx.Err() != nil {
			return err
		}
		failures.Add(1)
		time.Sleep(time.Duration(50*(attempt+1)) * time.Millisecond)
	}
}

func node(o *options, i int) *corev1.Node {
	rl := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(o.nodeCPU),
		corev1.ResourceMemory: resource.MustParse(o.nodeMem),
		corev1.ResourcePods:   resource.MustParse(o.nodePods),
	}
	now := metav1.Now()
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%05d", i),
			Labels: map[string]string{"kubernetes.io/hostname": fmt.Sprintf("node-%05d", i)}},
		Status: corev1.NodeStatus{
			Capacity:    rl,
			Allocatable: rl,
			Phase:       corev1.NodeRunning,
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady,
				Status: corev1.ConditionTrue, Reason: "KubeletReady",
				LastHeartbeatTime: now, LastTransitionTime: now}},
		},
	}
}

func queueName(i int) string { return fmt.Sprintf("q%d", i) }
func groupName(i int) string { return fmt.Sprintf("pg-%05d", i) }
func podName(i int) string   { return fmt.Sprintf("p-%06d", i) }

func queue(i int) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue",
		"metadata": map[string]any{"name": queueName(i)},
		"spec":     map[string]any{"weight": int64(1), "reclaimable": true},
	}}
}

func podGroup(o *options, i int) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
		"metadata": map[string]any{"name": groupName(i), "namespace": o.namespace},
		"spec": map[string]any{"minMember": int64(o.group),
			"queue": queueName(i % o.queues)},
		"status": map[string]any{"phase": "Pending"},
	}}
}

func pod(o *options, i int) *corev1.Pod {
	zero := int64(0)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: podName(i), Namespace: o.namespace,
			Annotations: map[string]string{groupNameKey: groupName(i / o.group)}},
		Spec: corev1.PodSpec{
			SchedulerName:                 o.scheduler,
			TerminationGracePeriodSeconds: &zero,
			Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.9",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse(o.podCPU),
					corev1.ResourceMemory: resource.MustParse(o.podMem),
				}}}},
		},
	}
}

// watcher records when each pod of the namespace is first seen bound.
type watcher struct {
	mu       sync.Mutex
	bound    map[string]time.Time
	nodes    map[string]struct{}
	all      chan struct{}
	want     int
	restarts int
}

func (w *watcher) saw(p *corev1.Pod, at time.Time) {
	if p.Spec.NodeName == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.bound[p.Name]; ok {
		return
	}
	w.bound[p.Name] = at
	w.nodes[p.Spec.NodeName] = struct{}{}
	if len(w.bound) == w.want {
		close(w.all)
	}
}

// run watches from rv until ctx ends; a watch the server ends is taken up
// again from the last resourceVersion seen, a 410 by a list.
func (w *watcher) run(ctx context.Context, cs kubernetes.Interface, ns, rv string) {
	for ctx.Err() == nil {
		// Only bound pods: a pod's bind is its ADDED event, and the
		// watch carries half the events, less for the API server to
		// hold for a slow reader (it ends the watch of one that falls
		// behind, and this one is taken up again from rv).
		wi, err := cs.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: rv,
			FieldSelector: "spec.nodeName!=", AllowWatchBookmarks: true})
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		why := "the server ended it"
		for ev := range wi.ResultChan() {
			at := time.Now()
			if ev.Type == watch.Error {
				err := apierrors.FromObject(ev.Object)
				why = err.Error()
				if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
					rv = w.relist(ctx, cs, ns)
				}
				break
			}
			if p, ok := ev.Object.(*corev1.Pod); ok {
				rv = p.ResourceVersion
				if ev.Type == watch.Added || ev.Type == watch.Modified {
					w.saw(p, at)
				}
			}
		}
		wi.Stop()
		if ctx.Err() != nil {
			return
		}
		fmt.Fprintf(os.Stderr, "peers-load: the pods' watch ended (%s): watching again from %s\n",
			why, rv)
		w.mu.Lock()
		w.restarts++
		w.mu.Unlock()
	}
}

func (w *watcher) relist(ctx context.Context, cs kubernetes.Interface, ns string) string {
	for ctx.Err() == nil {
		l, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err == nil {
			at := time.Now()
			for i := range l.Items {
				w.saw(&l.Items[i], at)
			}
			return l.ResourceVersion
		}
		time.Sleep(100 * time.Millisecond)
	}
	return ""
}

// percentile of sorted values, nearest rank.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	k := int(p/100*float64(len(sorted))+0.999999999) - 1
	if k < 0 {
		k = 0
	}
	if k >= len(sorted) {
		k = len(sorted) - 1
	}
	return sorted[k]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func run(o *options) (*result, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.kubeconfig, err)
	}
	cfg.QPS = float32(o.qps)
	cfg.Burst = o.burst
	cfg.UserAgent = "peers-load"
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	var failures atomic.Int64
	res := &result{Scheduler: o.scheduler, Nodes: o.nodes, Pods: o.pods, GroupSize: o.group,
		Queues: o.queues,
		TimeSource: "this process's monotonic clock: created = create answered, " +
			"bound = watch event with spec.nodeName delivered"}

	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: o.namespace}}
	if err := retry(ctx, &failures, func() error {
		_, err := cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
		return err
	}); err != nil {
		return nil, fmt.Errorf("namespace %s: %w", o.namespace, err)
	}

	t0 := time.Now()
	err = parallel(ctx, o.nodes, o.workers, func(ctx context.Context, i int) error {
		return retry(ctx, &failures, func() error {
			_, err := cs.CoreV1().Nodes().Create(ctx, node(o, i), metav1.CreateOptions{})
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("creating nodes: %w", err)
	}
	res.NodesSeconds = time.Since(t0).Seconds()

	err = parallel(ctx, o.queues, o.workers, func(ctx context.Context, i int) error {
		return retry(ctx, &failures, func() error {
			q, err := dyn.Resource(queueGVR).Create(ctx, queue(i), metav1.CreateOptions{})
			if err != nil {
				return err
			}
			// Queue has a status subresource: the state as Volcano's queue
			// controller writes it (the CRD requires allocated).
			q.Object["status"] = map[string]any{"state": "Open",
				"allocated": map[string]any{}}
			_, err = dyn.Resource(queueGVR).UpdateStatus(ctx, q, metav1.UpdateOptions{})
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("creating queues: %w", err)
	}
	err = parallel(ctx, o.pods/o.group, o.workers, func(ctx context.Context, i int) error {
		return retry(ctx, &failures, func() error {
			_, err := dyn.Resource(podGroupGVR).Namespace(o.namespace).Create(ctx,
				podGroup(o, i), metav1.CreateOptions{})
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("creating PodGroups: %w", err)
	}

	// The watch starts from an empty namespace's resourceVersion: every
	// pod's binding is an event of it.
	l, err := cs.CoreV1().Pods(o.namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing pods: %w", err)
	}
	w := &watcher{bound: map[string]time.Time{}, nodes: map[string]struct{}{},
		all: make(chan struct{}), want: o.pods}
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	go w.run(wctx, cs, o.namespace, l.ResourceVersion)

	created := make([]time.Time, o.pods)
	first := time.Now()
	res.FirstCreateUnix = float64(first.UnixNano()) / 1e9
	err = parallel(ctx, o.pods, o.workers, func(ctx context.Context, i int) error {
		err := retry(ctx, &failures, func() error {
			_, err := cs.CoreV1().Pods(o.namespace).Create(ctx, pod(o, i), metav1.CreateOptions{})
			return err
		})
		created[i] = time.Now()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("creating pods: %w", err)
	}
	lastCreated := time.Now()
	res.CreateSeconds = lastCreated.Sub(first).Seconds()
	res.CreateRate = float64(o.pods) / res.CreateSeconds

	select {
	case <-w.all:
	case <-time.After(o.timeout - time.Since(first)):
	}
	wcancel()

	w.mu.Lock()
	defer w.mu.Unlock()
	res.Bound = len(w.bound)
	res.Complete = res.Bound == o.pods
	res.NodesUsed = len(w.nodes)
	res.CreateFailures = failures.Load()
	res.WatchRestarts = w.restarts
	var last time.Time
	lat := make([]float64, 0, len(w.bound))
	for i := 0; i < o.pods; i++ {
		at, ok := w.bound[podName(i)]
		if !ok {
			continue
		}
		if at.After(last) {
			last = at
		}
		// A bind seen before the create's answer was read: no time passed.
		d := at.Sub(created[i])
		if d < 0 {
			d = 0
		}
		lat = append(lat, ms(d))
	}
	sort.Float64s(lat)
	if res.Bound > 0 {
		res.BindSeconds = last.Sub(first).Seconds()
		res.Throughput = float64(res.Bound) / res.BindSeconds
		res.LatencyP50Ms = percentile(lat, 50)
		res.LatencyP99Ms = percentile(lat, 99)
		res.LatencyMaxMs = lat[len(lat)-1]
	}
	return res, nil
}

func main() {
	o := parseOptions()
	res, err := run(o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "peers-load: %v\n", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		fmt.Fprintf(os.Stderr, "peers-load: %v\n", err)
		os.Exit(1)
	}
	if !res.Complete {
		fmt.Fprintf(os.Stderr, "peers-load: %d of %d pods bound after %s\n", res.Bound, o.pods,
			o.timeout)
		os.Exit(1)
	}
}
