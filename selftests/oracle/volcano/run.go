// The cycles, run by Volcano's scheduler cache, framework, actions and plugins. Binds and
// evictions are recorded where Volcano hands them to the cluster (the cache's Binder and
// Evictor); between cycles the oracle plays the cluster's part as vsched's in-process run does
// (userspace/harness/scenario_run.c, settle()): a bind is confirmed (the pod Running on its node),
// an evicted pod is deleted, and the PodGroup statuses the session wrote are what the
// informers deliver back.
package main

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"

	"volcano.sh/apis/pkg/apis/scheduling/scheme"
	vcv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/cache"
	"volcano.sh/volcano/pkg/scheduler/conf"
	"volcano.sh/volcano/pkg/scheduler/framework"
)

const schedulerName = "volcano"

type decisions struct {
	binds       [][2]string // ns/name, node: in the order they were committed
	evicts      []string
	pipelined   map[string]string
	phases      map[string]string
	scores      map[string]map[string]float64 // expect.nodeScores' tasks on every node
	timing      []cycleTiming                 // -time-session: each cycle's, in order
	build       time.Duration                 // the cache built from the file, not timed in cycles
	actionNames []string                      // the configured actions, in order
}

// cycleTiming is one cycle's wall time as Scheduler.runOnce spends it: OpenSession, each
// action's Execute, CloseSession. Handing the committed binds to the binder, settling the
// cluster between cycles and building the cache from the file are not in it.
type cycleTiming struct {
	open, close time.Duration
	actions     []time.Duration // one per configured action, in order
	binds       int             // binds committed in the cycle
	gcs         uint32          // Go garbage collections that ran during the cycle
}

// numGC is the count of completed garbage collections; read outside the timed spans, as
// ReadMemStats stops the world.
func numGC() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

// recordingBinder is the cache's Binder: every bind succeeds, and is remembered in order.
type recordingBinder struct {
	mu    sync.Mutex
	binds [][2]string
}

func (b *recordingBinder) Bind(_ kubernetes.Interface, tasks []*api.TaskInfo) map[api.TaskID]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range tasks {
		b.binds = append(b.binds, [2]string{t.Namespace + "/" + t.Name, t.NodeName})
	}
	return nil
}

// recordingEvictor is the cache's Evictor. The cache calls it from a goroutine of its own; the
// oracle knows how many evictions the cache accepted and waits for exactly that many.
type recordingEvictor struct {
	done chan string
}

func (e *recordingEvictor) Evict(p *v1.Pod, _ string) error {
	e.done <- p.Namespace + "/" + p.Name
	return nil
}

// statusWriter is the cache's StatusUpdater: the PodGroup statuses a session writes, kept as
// the API server would keep them.
type statusWriter struct {
	mu     sync.Mutex
	groups map[string]*vcv1beta1.PodGroup
}

func (s *statusWriter) UpdatePodStatus(pod *v1.Pod) (*v1.Pod, error) { return pod, nil }

func (s *statusWriter) UpdatePodGroup(pg *api.PodGroup) (*api.PodGroup, error) {
	out := &vcv1beta1.PodGroup{}
	if err := scheme.Scheme.Convert(&pg.PodGroup, out, nil); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.groups[out.Namespace+"/"+out.Name] = out
	s.mu.Unlock()
	return pg, nil
}

func (s *statusWriter) UpdateQueueStatus(*api.QueueInfo) error { return nil }

// recordingCache is Volcano's scheduler cache with the evictions it accepts counted, in the
// order the Statements commit them.
type recordingCache struct {
	*cache.SchedulerCache
	evicted []*api.TaskInfo
}

func (c *recordingCache) Evict(t *api.TaskInfo, reason string) error {
	if err := c.SchedulerCache.Evict(t, reason); err != nil {
		return err
	}
	c.evicted = append(c.evicted, t)
	return nil
}

type oracle struct {
	cl      *cluster
	sc      *schedConf
	cache   *recordingCache
	binder  *recordingBinder
	evictor *recordingEvictor
	status  *statusWriter
	pods    map[string]*v1.Pod // the cluster's current pods, by ns/name
	groups  map[string]*vcv1beta1.PodGroup
	timed   bool // -time-session: record each cycle's cycleTiming
}

func newOracle(cl *cluster, sc *schedConf) *oracle {
	o := &oracle{
		cl:      cl,
		sc:      sc,
		binder:  &recordingBinder{},
		evictor: &recordingEvictor{done: make(chan string, len(cl.pods)+1)},
		status:  &statusWriter{groups: map[string]*vcv1beta1.PodGroup{}},
		pods:    map[string]*v1.Pod{},
		groups:  map[string]*vcv1beta1.PodGroup{},
	}
	// a FakeRecorder without a channel drops events rather than blocking on a full buffer
	sc0 := cache.NewCustomMockSchedulerCache(schedulerName, o.binder, o.evictor, o.status,
		nil, nil, &record.FakeRecorder{})
	o.cache = &recordingCache{SchedulerCache: sc0}

	// as the informers deliver them: the order of vsched's loader
	for _, pc := range cl.prioClasses {
		sc0.AddPriorityClass(pc)
	}
	for _, q := range cl.queues {
		sc0.AddQueueV1beta1(q)
	}
	for _, n := range cl.nodes {
		sc0.AddOrUpdateNode(n)
	}
	for _, pg := range cl.podGroups {
		sc0.AddPodGroupV1beta1(pg)
		o.groups[pg.Namespace+"/"+pg.Name] = pg
	}
	for _, p := range cl.pods {
		sc0.AddPod(p)
		o.pods[p.Namespace+"/"+p.Name] = p
	}
	return o
}

// pipeline is pipelinedTo: Statement.Pipeline right after the first session opens, as a test
// of Volcano's does.
func (o *oracle) pipeline(ssn *framework.Session) error {
	if len(o.cl.pipelines) == 0 {
		return nil
	}
	stmt := framework.NewStatement(ssn)
	for _, p := range o.cl.pipelines {
		job := ssn.Jobs[api.JobID(p.job)]
		if job == nil {
			return fmt.Errorf("pipelinedTo: job %s is not in the session", p.job)
		}
		task := job.Tasks[api.TaskID(p.uid)]
		if task == nil {
			return fmt.Errorf("pipelinedTo: task %s is not in job %s", p.uid, p.job)
		}
		if err := stmt.Pipeline(task, p.node, false); err != nil {
			return fmt.Errorf("pipelinedTo of %s: %v", p.uid, err)
		}
	}
	return nil
}

// bindCollector takes the binds the session's Statements commit off the cache's
// BindFlowChannel while the session runs, as vc-scheduler's processBindTask does every 20 ms.
// The channel holds 5,000 (cache.go): a session that commits more blocks in AddBindTask until
// someone reads it, and with nobody reading, the run never ends.
type bindCollector struct {
	stop chan struct{}
	done chan []*api.TaskInfo
}

func collectBinds(ch chan *api.TaskInfo) *bindCollector {
	c := &bindCollector{stop: make(chan struct{}), done: make(chan []*api.TaskInfo, 1)}
	go func() {
		var tasks []*api.TaskInfo
		for {
			select {
			case t := <-ch:
				tasks = append(tasks, t)
			case <-c.stop:
				for {
					select {
					case t := <-ch:
						tasks = append(tasks, t)
						continue
					default:
					}
					break
				}
				c.done <- tasks
				return
			}
		}
	}()
	return c
}

// finish returns the binds committed since collectBinds, in commit order; call it once the
// session has closed, when no Statement sends any more.
func (c *bindCollector) finish() []*api.TaskInfo {
	close(c.stop)
	return <-c.done
}

// bind hands the binds a session committed to the cache's binder, in commit order,
// synchronously: no bind goroutine runs, so the record is complete when this returns.
func (o *oracle) bind(tasks []*api.TaskInfo) {
	if len(tasks) > 0 {
		o.cache.Bind(tasks)
	}
}

// settle is the cluster's answer between cycles, as scenario_run.c's settle(): each bound pod
// runs on its node unless it was evicted in the same cycle, each evicted pod is deleted, and
// the PodGroup statuses written come back through the informer.
func (o *oracle) settle(bound, evicted []*api.TaskInfo) {
	gone := map[string]bool{}
	for _, t := range evicted {
		gone[t.Namespace+"/"+t.Name] = true
	}
	for _, t := range bound {
		key := t.Namespace + "/" + t.Name
		if gone[key] {
			continue
		}
		old := o.pods[key]
		pod := old.DeepCopy()
		pod.Spec.NodeName = t.NodeName
		pod.Status.Phase = v1.PodRunning
		o.cache.UpdatePod(old, pod)
		o.pods[key] = pod
	}
	for key := range gone {
		if pod, ok := o.pods[key]; ok {
			o.cache.DeletePod(pod)
			delete(o.pods, key)
		}
	}
	o.applyStatuses()
}

func (o *oracle) applyStatuses() {
	o.status.mu.Lock()
	defer o.status.mu.Unlock()
	for key, written := range o.status.groups {
		old := o.groups[key]
		if old == nil {
			continue
		}
		pg := old.DeepCopy()
		pg.Status = *written.Status.DeepCopy()
		o.cache.UpdatePodGroupV1beta1(old, pg)
		o.groups[key] = pg
	}
	o.status.groups = map[string]*vcv1beta1.PodGroup{}
}

func (o *oracle) run(cycles int) (*decisions, error) {
	d := &decisions{pipelined: map[string]string{}, phases: map[string]string{}}
	tiers := withTiebreak(o.sc.tiers, o.cl.nodeIndex)

	conf.EnabledActionMap = map[string]bool{}
	for _, a := range o.sc.actions {
		conf.EnabledActionMap[a.Name()] = true
	}
	for c := 1; c <= cycles; c++ {
		var ct cycleTiming
		var gc0 uint32
		if o.timed {
			gc0 = numGC()
		}
		o.cache.evicted = nil
		binds := collectBinds(o.cache.BindFlowChannel)
		t0 := time.Now()
		ssn := framework.OpenSession(o.cache, tiers, o.sc.configs)
		ct.open = time.Since(t0)
		if c == 1 {
			if err := o.pipeline(ssn); err != nil {
				framework.CloseSession(ssn)
				binds.finish()
				return nil, fmt.Errorf("cycle %d: %v", c, err)
			}
		}
		for _, a := range o.sc.actions {
			a.Initialize()
			t := time.Now()
			a.Execute(ssn)
			ct.actions = append(ct.actions, time.Since(t))
			a.UnInitialize()
		}
		// a pipeline ends with its session: read them before it closes
		if c == cycles {
			for _, job := range ssn.Jobs {
				for _, t := range job.TaskStatusIndex[api.Pipelined] {
					d.pipelined[t.Namespace+"/"+t.Name] = t.NodeName
				}
			}
		}
		t := time.Now()
		framework.CloseSession(ssn)
		ct.close = time.Since(t)

		bound := binds.finish()
		o.bind(bound)
		if o.timed {
			ct.binds = len(bound)
			ct.gcs = numGC() - gc0
			d.timing = append(d.timing, ct)
		}
		evicted := o.cache.evicted
		for range evicted {
			<-o.evictor.done
		}
		for _, t := range evicted {
			d.evicts = append(d.evicts, t.Namespace+"/"+t.Name)
		}
		if c < cycles {
			o.settle(bound, evicted)
		} else {
			o.applyStatuses()
		}
	}
	d.binds = o.binder.binds
	for key, pg := range o.groups {
		d.phases[key] = string(pg.Status.Phase)
	}
	return d, nil
}
