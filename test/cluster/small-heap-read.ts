// Run by read-limits.test.ts in a process of its own, with a small heap: reads the nodes, then the pods, of
// the kubeconfig named by its argument and prints what is missing, as JSON. Running out of memory would end it instead.
import { readLiveCluster } from '../../server/src/cluster/load';
import { RESOURCE_TYPES } from '../../server/src/cluster/read';

void readLiveCluster({ kubeconfig: process.argv[2], trusted: true, env: {}, timeoutMs: 120_000, concurrency: 1, types: RESOURCE_TYPES.filter((t) => t.name === 'nodes' || t.name === 'pods') }).then((cluster) => {
  process.stdout.write(JSON.stringify(cluster.missing));
});
