import type { Inventory } from '../inventory/inventory';
import { declaredFacts } from '../manifest/declared';
import type { Resource } from '../manifest/parse';
import { containersOf, podTemplateOf } from '../manifest/workload';
import { describeGpus, gpuRequests } from '../rules/gpu-resources';

/**
 * Images of stores with one writable primary (or a quorum that must be configured as one): a second
 * pod of them is a second, empty primary or a split brain, not a replica, unless the app is set up
 * to replicate. Matched on the image's repository name, whatever the registry or tag.
 */
const SINGLE_PRIMARY_IMAGES: readonly { pattern: RegExp; name: string }[] = [
  { pattern: /(^|\/)(redis|redis-stack|redis-stack-server|valkey|keydb|dragonfly)$/, name: 'Redis' },
  // Oracle's are named by their path: container-registry.oracle.com/mysql/community-server.
  { pattern: /(^|\/)(mysql|mysql-server|percona|percona-server|mysql\/(community|enterprise)-server)$/, name: 'MySQL' },
  { pattern: /(^|\/)mariadb$/, name: 'MariaDB' },
  { pattern: /(^|\/)(postgres|postgresql|postgis|timescaledb|timescaledb-ha)$/, name: 'PostgreSQL' },
  { pattern: /(^|\/)(mongo|mongodb|mongodb-community-server|mongodb-enterprise-server|percona-server-mongodb)$/, name: 'MongoDB' },
  // Microsoft's images are named by their path: mcr.microsoft.com/mssql/server.
  { pattern: /(^|\/)mssql\/(rhel\/)?server$/, name: 'SQL Server' },
  { pattern: /(^|\/)(clickhouse|clickhouse-server)$/, name: 'ClickHouse' },
  { pattern: /(^|\/)minio$/, name: 'MinIO' },
  { pattern: /(^|\/)(influxdb)$/, name: 'InfluxDB' },
  { pattern: /(^|\/)(neo4j)$/, name: 'Neo4j' },
  { pattern: /(^|\/)(etcd)$/, name: 'etcd' },
  { pattern: /(^|\/)(zookeeper)$/, name: 'ZooKeeper' },
  { pattern: /(^|\/)(rabbitmq)$/, name: 'RabbitMQ' },
  // A second pod with the first's settings starts a cluster of its own (single-node discovery, seeds of itself).
  { pattern: /(^|\/)(elasticsearch|opensearch)$/, name: 'Elasticsearch' },
  { pattern: /(^|\/)(cassandra)$/, name: 'Cassandra' },
  { pattern: /(^|\/)(cockroach)$/, name: 'CockroachDB' },
  { pattern: /(^|\/)(couchdb)$/, name: 'CouchDB' },
  // Oracle's own are named by their path (container-registry.oracle.com/database/free), gvenzl's by the edition.
  { pattern: /(^|\/)(oracle-xe|oracle-free|database\/(express|free|enterprise))$/, name: 'Oracle Database' },
  { pattern: /(^|\/)(qdrant|meilisearch)$/, name: 'search store' },
  // One writable instance in their open editions: a second pod is a second, empty database behind one Service.
  { pattern: /(^|\/)(memgraph|memgraph-mage)$/, name: 'Memgraph' },
  { pattern: /(^|\/)(questdb)$/, name: 'QuestDB' },
  // A second broker with the first's settings takes its node id; a second Vault starts sealed with a store of its own.
  { pattern: /(^|\/)(kafka|cp-kafka|cp-server)$/, name: 'Kafka broker' },
  { pattern: /(^|\/)(vault)$/, name: 'Vault' },
  { pattern: /(^|\/)(consul)$/, name: 'Consul server' },
  { pattern: /(^|\/)(nats)$/, name: 'NATS server' },
];

/** The repository path of an image reference: `docker.io/bitnami/postgresql:16@sha256:…` → `docker.io/bitnami/postgresql`. */
function repositoryPath(image: string): string {
  const parts = image.split('@')[0].split('/');
  // Red Hat's and others' carry the version in the name: registry.redhat.io/rhel9/postgresql-15, rhel8/mysql-80.
  parts[parts.length - 1] = parts[parts.length - 1].split(':')[0].replace(/-\d+$/, '');
  return parts.join('/').toLowerCase();
}

/** The single-primary store a workload's containers run (redis, mysql, postgres, mongo, …), by image. */
export function singlePrimaryStore(workload: Resource): { name: string; image: string } | undefined {
  for (const { container } of containersOf(workload)) {
    const image = typeof container?.image === 'string' ? container.image : '';
    const path = repositoryPath(image);
    const found = SINGLE_PRIMARY_IMAGES.find((s) => s.pattern.test(path));
    if (found) return { name: found.name, image };
  }
  return undefined;
}

const ONE_NODE_MODES = ['ReadWriteOnce', 'ReadWriteOncePod'];

function accessModes(claim: any): string[] {
  const modes = claim?.spec?.accessModes;
  return Array.isArray(modes) ? modes.filter((m): m is string => typeof m === 'string') : [];
}

/** The ReadWriteOnce volume a second pod would fight for: a claim template, or a claim mounted by name (unknown claims count, since nothing says they are shared). */
function oneNodeVolume(workload: Resource, inventory: Inventory): string | undefined {
  const templates = workload.object?.spec?.volumeClaimTemplates;
  for (const claim of Array.isArray(templates) ? templates : []) {
    const modes = accessModes(claim);
    if (modes.length === 0 || modes.some((m) => ONE_NODE_MODES.includes(m))) return `volume claim template ${claim?.metadata?.name ?? ''} (${modes.join(', ') || 'ReadWriteOnce'})`.replace('  ', ' ');
  }
  const volumes = podTemplateOf(workload)?.spec?.volumes;
  for (const volume of Array.isArray(volumes) ? volumes : []) {
    const name = volume?.persistentVolumeClaim?.claimName;
    if (typeof name !== 'string') continue;
    const claim = inventory.inNamespace(workload.namespace, 'PersistentVolumeClaim').find((c) => c.name === name);
    const modes = claim ? accessModes(claim.object) : [];
    if (!claim) return `PersistentVolumeClaim ${name} (its access mode is not in view)`;
    if (modes.some((m) => ONE_NODE_MODES.includes(m))) return `PersistentVolumeClaim ${name} (${modes.filter((m) => ONE_NODE_MODES.includes(m)).join(', ')})`;
  }
  return undefined;
}

/**
 * What running more pods of the workload at once changes beyond capacity, or undefined when a second
 * pod is just more of the same. The one place that decides whether a fix adding replicas (or surging
 * a rollout) is safe: a fix that can change what the application does is unsafe.
 */
export function moreReplicasRisk(workload: Resource, inventory: Inventory): string | undefined {
  const store = singlePrimaryStore(workload);
  if (store) return `runs a second ${store.name} (${store.image}) beside the first: a second primary with its own data, not a replica, unless it is set up to replicate`;
  if (workload.kind === 'StatefulSet') return `adds a StatefulSet member with its own identity${oneNodeVolume(workload, inventory) ? ' and volume' : ''}: it joins a cluster only if the app is built to form one`;
  const volume = oneNodeVolume(workload, inventory);
  if (volume) return `a second pod needs ${volume}, which one node at a time can mount`;
  const gpus = gpuRequests(workload);
  if (gpus.length > 0) return `each extra pod asks for ${describeGpus(gpus)} more: the GPU bill grows with it`;
  if (declaredFacts(workload).sessions === 'in-memory') return 'sessions are kept in memory: a second pod splits users across pods that do not share them';
  return undefined;
}
