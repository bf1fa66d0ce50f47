// nodeScores: the NodeOrder score of a task on every node, in a session opened on the initial
// state, as vsched's scenario run computes them (score_initial() in scenario_run.c): Volcano's
// util.PrioritizeNodes over the whole node list, as allocate scores its candidates, the batch
// scores normalised over that same list.
package main

import (
	"encoding/json"
	"fmt"

	vcv1beta1 "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/conf"
	"volcano.sh/volcano/pkg/scheduler/framework"
	"volcano.sh/volcano/pkg/scheduler/util"
)

// scoredTasks is the tasks expect.nodeScores lists, in file order.
func scoredTasks(scn *scenarioFile) ([]string, error) {
	if len(scn.Expect) == 0 {
		return nil, nil
	}
	var expect struct {
		NodeScores json.RawMessage `json:"nodeScores"`
	}
	if err := json.Unmarshal(scn.Expect, &expect); err != nil {
		return nil, fmt.Errorf("expect: %v", err)
	}
	if len(expect.NodeScores) == 0 || string(expect.NodeScores) == "null" {
		return nil, nil
	}
	var scores map[string]json.RawMessage
	if err := json.Unmarshal(expect.NodeScores, &scores); err != nil {
		return nil, fmt.Errorf("expect.nodeScores: %v", err)
	}
	tasks := make([]string, 0, len(scores))
	for key := range scores {
		tasks = append(tasks, key)
	}
	return tasks, nil
}

// scoreNodes opens a session on the cluster as the file gives it (a cache of its own, so
// that nothing the session writes reaches the cycles) and scores each task on every node.
func scoreNodes(scn *scenarioFile, text []byte, tasks []string) (map[string]map[string]float64,
	error) {
	cl, err := buildCluster(scn)
	if err != nil {
		return nil, err
	}
	sc, err := loadConf(text)
	if err != nil {
		return nil, err
	}
	jobOf := map[string]string{}
	for _, p := range cl.pods {
		jobOf[p.Namespace+"/"+p.Name] = p.Namespace + "/" +
			p.Annotations[vcv1beta1.KubeGroupNameAnnotationKey]
	}
	o := newOracle(cl, sc)
	conf.EnabledActionMap = map[string]bool{}
	for _, a := range sc.actions {
		conf.EnabledActionMap[a.Name()] = true
	}
	ssn := framework.OpenSession(o.cache, withTiebreak(sc.tiers, cl.nodeIndex), sc.configs)
	defer framework.CloseSession(ssn)

	out := map[string]map[string]float64{}
	for _, key := range tasks {
		job := ssn.Jobs[api.JobID(jobOf[key])]
		if job == nil {
			return nil, fmt.Errorf("nodeScores: %s is in no job of the session", key)
		}
		task := job.Tasks[api.TaskID(key)]
		if task == nil {
			return nil, fmt.Errorf("nodeScores: %s is not a task of job %s", key, job.UID)
		}
		byScore := util.PrioritizeNodes(task, ssn.NodeList, ssn.BatchNodeOrderFn,
			ssn.NodeOrderMapFn, ssn.NodeOrderReduceFn)
		out[key] = map[string]float64{}
		for score, nodes := range byScore {
			for _, n := range nodes {
				out[key][n.Name] = score
			}
		}
	}
	return out, nil
}
