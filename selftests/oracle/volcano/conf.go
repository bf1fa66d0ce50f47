// The scheduler configuration of a scenario, built by Volcano's own code: `conf:` and the
// default go through scheduler.UnmarshalSchedulerConf (Volcano's defaults for flags not
// written); the explicit form (`actions` + `plugins` + `actionArguments`) is decoded into
// Volcano's conf types as its tests build tiers in code, a flag not written staying off.
package main

import (
	"fmt"
	"math"
	"sort"

	"gopkg.in/yaml.v2"

	"volcano.sh/volcano/pkg/scheduler"
	"volcano.sh/volcano/pkg/scheduler/api"
	"volcano.sh/volcano/pkg/scheduler/conf"
	"volcano.sh/volcano/pkg/scheduler/framework"
)

type schedConf struct {
	actions []framework.Action
	tiers   []conf.Tier
	configs []conf.Configuration
}

// The configuration keys, read with yaml.v2 as Volcano reads its configuration, so that
// plugin and action arguments have the types Volcano's loader gives them.
type confKeys struct {
	Actions         *[]string         `yaml:"actions"`
	Plugins         [][]yaml.MapSlice `yaml:"plugins"`
	ActionArguments yaml.MapSlice     `yaml:"actionArguments"`
	Conf            string            `yaml:"conf"`
}

func loadConf(text []byte) (*schedConf, error) {
	var k confKeys
	if err := yaml.Unmarshal(text, &k); err != nil {
		return nil, err
	}
	explicit := k.Actions != nil || k.Plugins != nil || k.ActionArguments != nil
	if k.Conf != "" && explicit {
		return nil, fmt.Errorf("conf and actions/plugins/actionArguments exclude each other")
	}
	if !explicit {
		text := k.Conf
		if text == "" {
			text = scheduler.DefaultSchedulerConf
		}
		actions, tiers, configs, _, err := scheduler.UnmarshalSchedulerConf(text)
		if err != nil {
			return nil, fmt.Errorf("conf: %v", err)
		}
		return &schedConf{actions: actions, tiers: tiers, configs: configs}, nil
	}

	sc := &schedConf{}
	if k.Actions != nil {
		for _, name := range *k.Actions {
			a, ok := framework.GetAction(name)
			if !ok {
				return nil, fmt.Errorf("actions: Volcano has no action %q", name)
			}
			sc.actions = append(sc.actions, a)
		}
	}
	for t, tier := range k.Plugins {
		var ct conf.Tier
		for _, p := range tier {
			raw, err := yaml.Marshal(p)
			if err != nil {
				return nil, err
			}
			var opt conf.PluginOption
			// strict: a flag this Volcano does not have is a difference, not silence
			if err := yaml.UnmarshalStrict(raw, &opt); err != nil {
				return nil, fmt.Errorf("plugins[%d]: %v", t, err)
			}
			if _, ok := framework.GetPluginBuilder(opt.Name); !ok {
				return nil, fmt.Errorf("plugins[%d]: Volcano has no plugin %q", t, opt.Name)
			}
			ct.Plugins = append(ct.Plugins, opt)
		}
		sc.tiers = append(sc.tiers, ct)
	}
	for _, a := range k.ActionArguments {
		name, _ := a.Key.(string)
		args := map[string]interface{}{}
		if m, ok := a.Value.(yaml.MapSlice); ok {
			for _, kv := range m {
				key, _ := kv.Key.(string)
				args[key] = kv.Value
			}
		}
		sc.configs = append(sc.configs, conf.Configuration{Name: name, Arguments: args})
	}
	return sc, nil
}

// The tie-break plugin: among the nodes of the best score, the first in listing order.
// Volcano's util.SelectBestNode picks one of them at random; vsched, and SCENARIOS.md, break
// the tie by listing order. The oracle appends it as a tier of its own after the scenario's,
// so every plugin of the scenario's tiers that chooses a best node still decides first.
const tiebreakName = "vsched-oracle-tiebreak"

type tiebreak struct{ order map[string]int }

func (tb *tiebreak) Name() string { return tiebreakName }

func (tb *tiebreak) OnSessionOpen(ssn *framework.Session) {
	ssn.AddBestNodeFn(tiebreakName, func(_ *api.TaskInfo,
		scores map[float64][]*api.NodeInfo) *api.NodeInfo {
		best := math.Inf(-1)
		for s := range scores {
			if s > best && len(scores[s]) > 0 {
				best = s
			}
		}
		nodes := append([]*api.NodeInfo(nil), scores[best]...)
		if len(nodes) == 0 {
			return nil
		}
		sort.SliceStable(nodes, func(i, j int) bool {
			return tb.order[nodes[i].Name] < tb.order[nodes[j].Name]
		})
		return nodes[0]
	})
}

func (tb *tiebreak) OnSessionClose(*framework.Session) {}

func withTiebreak(tiers []conf.Tier, order map[string]int) []conf.Tier {
	on := true
	framework.RegisterPluginBuilder(tiebreakName, func(framework.Arguments) framework.Plugin {
		return &tiebreak{order: order}
	})
	out := append([]conf.Tier(nil), tiers...)
	return append(out, conf.Tier{Plugins: []conf.PluginOption{
		{Name: tiebreakName, EnabledBestNode: &on},
	}})
}
