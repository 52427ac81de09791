import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { offeredTitle } from '../../server/src/fixes/edit';
import { moreReplicasRisk, singlePrimaryStore } from '../../server/src/fixes/safety';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest, type Resource } from '../../server/src/manifest/parse';
import { deployment } from '../rules/manifests';

function load(...texts: string[]): { inventory: Inventory; first: Resource } {
  const inventory = new Inventory();
  texts.forEach((text, i) => inventory.setFile(parseManifest(`file:///t/${i}.yaml`, text)));
  return { inventory, first: inventory.getFile('file:///t/0.yaml')!.resources[0] };
}
const withImage = (image: string) => deployment().replace('image: nginx:1.27', `image: ${image}`);
const claim = (modes: string) => `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [${modes}]\n`;
const mountsClaim = deployment({ podSpec: '      volumes:\n        - name: data\n          persistentVolumeClaim:\n            claimName: data\n' });

describe('fix safety: what more pods of a workload change', () => {
  it('a plain stateless Deployment: nothing but capacity', () => {
    const { inventory, first } = load(deployment());
    assert.equal(moreReplicasRisk(first, inventory), undefined);
  });

  it('knows single-primary stores by repository name, whatever the registry, tag or digest', () => {
    for (const [image, name] of [
      ['redis:7', 'Redis'],
      ['docker.io/bitnami/postgresql:16.2.0@sha256:0123', 'PostgreSQL'],
      ['mysql', 'MySQL'],
      ['quay.io/org/mariadb:11', 'MariaDB'],
      ['mongo:7', 'MongoDB'],
      ['localhost:5000/postgres:16', 'PostgreSQL'],
      // Each of these got replicas: 2 as a safe fix.
      ['mcr.microsoft.com/mssql/server:2022-latest', 'SQL Server'],
      ['mcr.microsoft.com/mssql/rhel/server:2022-latest', 'SQL Server'],
      ['percona/percona-server-mongodb:7', 'MongoDB'],
      ['docker.dragonflydb.io/dragonflydb/dragonfly', 'Redis'],
      ['clickhouse/clickhouse-server:24', 'ClickHouse'],
      ['minio/minio', 'MinIO'],
      // Versions in the name, vendors' paths, and stores whose second pod is a cluster of its own.
      ['registry.redhat.io/rhel9/postgresql-15:latest', 'PostgreSQL'],
      ['registry.redhat.io/rhel8/mysql-80', 'MySQL'],
      ['registry.redhat.io/rhel9/redis-7', 'Redis'],
      ['container-registry.oracle.com/mysql/community-server:8.4', 'MySQL'],
      ['docker.elastic.co/elasticsearch/elasticsearch:8.15.0', 'Elasticsearch'],
      ['opensearchproject/opensearch:2', 'Elasticsearch'],
      ['cassandra:5', 'Cassandra'],
      // Each of these got replicas: 2 as a safe fix too: a second primary, a duplicate broker id, a sealed Vault.
      ['apache/kafka:3.8.0', 'Kafka broker'],
      ['confluentinc/cp-kafka:7.7.1', 'Kafka broker'],
      ['bitnami/kafka:3.8', 'Kafka broker'],
      ['hashicorp/vault:1.17', 'Vault'],
      ['hashicorp/consul:1.19', 'Consul server'],
      ['nats:2.10', 'NATS server'],
      ['cockroachdb/cockroach:v24.2.0', 'CockroachDB'],
      ['couchdb:3', 'CouchDB'],
      ['gvenzl/oracle-xe:21-slim', 'Oracle Database'],
      ['container-registry.oracle.com/database/free:latest', 'Oracle Database'],
      ['container-registry.oracle.com/database/express:21.3.0-xe', 'Oracle Database'],
      ['container-registry.oracle.com/database/enterprise:21.3.0.0', 'Oracle Database'],
      ['gvenzl/oracle-free:23-slim', 'Oracle Database'],
      ['confluentinc/cp-server:7.7.1', 'Kafka broker'],
      ['qdrant/qdrant:v1.11.0', 'search store'],
      ['getmeili/meilisearch:v1.10', 'search store'],
      ['memgraph/memgraph:2.19.0', 'Memgraph'],
      ['memgraph/memgraph-mage:1.19', 'Memgraph'],
      ['questdb/questdb:8.1.1', 'QuestDB'],
    ]) assert.equal(singlePrimaryStore(load(withImage(image)).first)?.name, name, image);
    for (const image of ['oliver006/redis_exporter:v1', 'nginx:1.27', 'example/postgres-backup:1', 'prometheuscommunity/postgres-exporter', 'example/server:1', 'minio/mc', 'example/community-server:1', 'quay.io/prometheuscommunity/elasticsearch-exporter', 'example/app-2', 'danielqsj/kafka-exporter', 'hashicorp/vault-k8s', 'natsio/nats-box', 'example/database/app', 'memgraph/lab:2']) assert.equal(singlePrimaryStore(load(withImage(image)).first), undefined, image);
  });

  it('a StatefulSet, a ReadWriteOnce claim, an unknown claim, GPUs and in-memory sessions are each unsafe to multiply; a ReadWriteMany claim is not', () => {
    const cases: [string[], RegExp | undefined][] = [
      [[deployment({ kind: 'StatefulSet' })], /adds a StatefulSet member with its own identity/],
      [[mountsClaim, claim('ReadWriteOnce')], /needs PersistentVolumeClaim data \(ReadWriteOnce\), which one node at a time can mount/],
      [[mountsClaim], /PersistentVolumeClaim data \(its access mode is not in view\)/],
      [[mountsClaim, claim('ReadWriteMany')], undefined],
      [[deployment({ container: '          resources:\n            limits:\n              nvidia.com/gpu: 2\n' })], /each extra pod asks for 2 nvidia\.com\/gpu more/],
      [[deployment({ podMetadata: '      annotations:\n        kube-resilience/sessions: in-memory\n' })], /sessions are kept in memory/],
      [[deployment({ podMetadata: '      annotations:\n        kube-resilience/sessions: external\n' })], undefined],
    ];
    for (const [texts, expected] of cases) {
      const { inventory, first } = load(...texts);
      const risk = moreReplicasRisk(first, inventory);
      if (expected) assert.match(risk ?? '', expected, texts[0]);
      else assert.equal(risk, undefined, texts.join('---\n'));
    }
  });

  it('an editor shows what an unsafe fix changes in its title', () => {
    assert.equal(offeredTitle({ title: 'Run 2 replicas', edits: [] }), 'Run 2 replicas');
    assert.equal(offeredTitle({ title: 'Run 2 replicas', unsafe: 'runs a second Redis', edits: [] }), 'Run 2 replicas (unsafe: runs a second Redis)');
  });
});
