import assert from 'node:assert/strict';
import { it } from 'node:test';
import { replicasNotSpread } from '../../server/src/rules/replicas-not-spread';
import { cluster, clusterFindings, deploymentObject, fromObject } from '../cluster-fixtures';
import { deployment, hpa, scaledObject } from './manifests';
import { ruleTester } from './rule-tester';

const web = (podSpec = '', spec = '  replicas: 3\n') => deployment({ spec, podSpec, podMetadata: '' }).replace('        app: web\n    spec:', '        app: web\n        version: v2\n    spec:');
const antiAffinity = (namespaces: string) =>
  `      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            - topologyKey: kubernetes.io/hostname\n${namespaces}              labelSelector:\n                matchLabels: {app: web}\n`;
const podAffinity = (key: string, term = '              labelSelector:\n                matchLabels: {app: web}\n') =>
  `        podAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            - topologyKey: ${key}\n${term}`;
const selfAffinity = (key: string) => `      affinity:\n${podAffinity(key)}`;
const spreadFix = '        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              app: web\n';
const spread = (key: string, selector = 'app: web') =>
  `      topologySpreadConstraints:\n        - maxSkew: 1\n          topologyKey: ${key}\n          whenUnsatisfiable: DoNotSchedule\n          labelSelector:\n            matchLabels:\n              ${selector}\n`;

/** A spread constraint on its own labels with this maxSkew (as written), after `extra` lines. */
const skewed = (maxSkew: string, key = 'kubernetes.io/hostname', when = 'DoNotSchedule', extra = '') =>
  `        - maxSkew: ${maxSkew}\n          topologyKey: ${key}\n          whenUnsatisfiable: ${when}\n${extra}          labelSelector:\n            matchLabels:\n              app: web\n`;
const constraints = (...entries: string[]) => `      topologySpreadConstraints:\n${entries.join('')}`;
const preferredAntiAffinity =
  '      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n            - weight: 100\n              podAffinityTerm:\n                topologyKey: kubernetes.io/hostname\n                labelSelector:\n                  matchLabels: {app: web}\n';
const looseOnHostname = (skew: number, pods: string) =>
  `Its topologySpreadConstraints on kubernetes.io/hostname has maxSkew ${skew}, which lets ${pods} run on one node: when that node dies the workload is down until they are rescheduled.`;

const hostPortInit = (restartPolicy: string) =>
  `      initContainers:\n        - name: proxy\n          image: example/proxy:1\n${restartPolicy}          ports:\n            - {containerPort: 8443, hostPort: 443}\n`;

ruleTester(replicasNotSpread, {
  valid: [
    { name: 'a hostname spread constraint on its own labels', code: web(spread('kubernetes.io/hostname')) },
    { name: 'a zone spread constraint', code: web(spread('topology.kubernetes.io/zone')) },
    { name: 'a region spread constraint: pods in different regions are on different nodes', code: web(spread('topology.kubernetes.io/region')) },
    {
      name: 'required pod anti-affinity on hostname',
      code: web('      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            - topologyKey: kubernetes.io/hostname\n              labelSelector:\n                matchExpressions:\n                  - {key: app, operator: In, values: [web]}\n'),
    },
    {
      name: 'preferred pod anti-affinity on hostname',
      code: web('      affinity:\n        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n            - weight: 100\n              podAffinityTerm:\n                topologyKey: kubernetes.io/hostname\n                labelSelector:\n                  matchLabels: {app: web}\n'),
    },
    { name: 'one replica', code: web('', '  replicas: 1\n') },
    { name: 'anti-affinity whose namespaces list its own (default)', code: web(antiAffinity('              namespaces: [default, other]\n')) },
    { name: 'anti-affinity over every namespace (namespaceSelector: {})', code: web(antiAffinity('              namespaces: [other]\n              namespaceSelector: {}\n')) },
    { name: 'anti-affinity whose namespace selector uses labels not in view counts', code: web(antiAffinity('              namespaceSelector:\n                matchLabels: {team: shop}\n')) },
    { name: 'anti-affinity whose namespace selector names its own namespace', code: web(antiAffinity('              namespaceSelector:\n                matchLabels: {kubernetes.io/metadata.name: default}\n')) },
    { name: 'anti-affinity whose namespace selector leaves out only other namespaces (NotIn)', code: web(antiAffinity('              namespaceSelector:\n                matchExpressions:\n                  - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}\n')) },
    { name: 'anti-affinity whose namespace selector names its own namespace beside labels not in view counts', code: web(antiAffinity('              namespaceSelector:\n                matchLabels: {kubernetes.io/metadata.name: default, team: shop}\n')) },
    { name: 'a host port keeps two pods off one node', code: deployment({ spec: '  replicas: 3\n', container: '          ports:\n            - containerPort: 6666\n              hostPort: 6666\n' }) },
    { name: 'a host port on a native sidecar (an init container that always restarts) keeps two pods off one node too', code: web(hostPortInit('          restartPolicy: Always\n')) },
    { name: 'ports under hostNetwork are host ports', code: deployment({ spec: '  replicas: 3\n', podSpec: '      hostNetwork: true\n', container: '          ports:\n            - containerPort: 9100\n' }) },
    { name: 'hostNetwork: yes is true to Kubernetes (YAML 1.1)', code: deployment({ spec: '  replicas: 3\n', podSpec: '      hostNetwork: yes\n', container: '          ports:\n            - containerPort: 9100\n' }) },
    { name: 'a kube-system add-on is the cluster operator\'s', code: web().replace('name: web\n', 'name: web\n  namespace: kube-system\n') },
    { name: 'a DaemonSet is on every node anyway', code: web().replace('kind: Deployment', 'kind: DaemonSet') },
    { name: 'required affinity to its own pods on a zone, spread over nodes: one zone, different nodes', code: web(selfAffinity('topology.kubernetes.io/zone') + spread('kubernetes.io/hostname')) },
    { name: 'required affinity to its own pods on a region, spread over zones', code: web(selfAffinity('topology.kubernetes.io/region') + spread('topology.kubernetes.io/zone')) },
    { name: 'required affinity to other pods (a cache) leaves the spread alone', code: web(`      affinity:\n${podAffinity('kubernetes.io/hostname', '              labelSelector:\n                matchLabels: {app: cache}\n')}` + spread('kubernetes.io/hostname')) },
    {
      name: 'required affinity to its labels in another namespace leaves the spread alone',
      code: web(`      affinity:\n${podAffinity('kubernetes.io/hostname', '              namespaces: [cache]\n              labelSelector:\n                matchLabels: {app: web}\n')}` + spread('kubernetes.io/hostname')),
    },
    {
      name: 'preferred affinity to its own pods is a wish a spread constraint outweighs',
      code: web('      affinity:\n        podAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n            - weight: 100\n              podAffinityTerm:\n                topologyKey: kubernetes.io/hostname\n                labelSelector:\n                  matchLabels: {app: web}\n' + spread('kubernetes.io/hostname')),
    },
    { name: 'pinned by nodeName: pinned-to-node says so, and no spreading could help', code: web('      nodeName: worker-7\n') },
    { name: 'pinned by a hostname nodeSelector', code: web('      nodeSelector:\n        kubernetes.io/hostname: worker-7\n') },
    {
      name: 'pinned by required node affinity with one host',
      code: web('      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n              - matchExpressions:\n                  - {key: kubernetes.io/hostname, operator: In, values: [worker-7]}\n'),
    },
    { name: 'pinned and held together by its own affinity: still pinned-to-node\'s', code: web('      nodeName: worker-7\n' + selfAffinity('kubernetes.io/hostname')) },
    { name: 'maxSkew one below the replicas (2 of 3): at most 2 share a node, so 2 nodes hold them', code: web(constraints(skewed('2'))) },
    { name: 'maxSkew one below the replicas, preferred only (ScheduleAnyway)', code: web(constraints(skewed('2', 'kubernetes.io/hostname', 'ScheduleAnyway'))) },
    { name: 'maxSkew 1 of 2 replicas', code: web(constraints(skewed('1')), '  replicas: 2\n') },
    { name: 'an HPA floor of 3 over 2 replicas written: maxSkew 2 is below the 3 it runs', code: web(constraints(skewed('2')), '  replicas: 2\n'), files: { 'hpa.yaml': hpa({ min: 3 }) } },
    { name: 'maxSkew one below the replicas with minDomains: its global minimum of 0 only tightens it', code: web(constraints(skewed('2', 'kubernetes.io/hostname', 'DoNotSchedule', '          minDomains: 5\n'))) },
    { name: 'a loose hostname constraint beside a tight zone one', code: web(constraints(skewed('5'), skewed('1', 'topology.kubernetes.io/zone'))) },
    { name: 'a loose constraint beside pod anti-affinity on hostname', code: web(constraints(skewed('3')) + preferredAntiAffinity) },
    { name: 'a refused maxSkew beside a tight constraint: they are spread, the refusal is not weighed', code: web(constraints(skewed('"1"'), skewed('1', 'topology.kubernetes.io/zone'))) },
    { name: 'one replica: no maxSkew is too loose for it', code: web(constraints(skewed('3')), '  replicas: 1\n') },
    { name: 'one replica: a refused maxSkew is not weighed', code: web(constraints(skewed('0')), '  replicas: 1\n') },
  ],
  invalid: [
    {
      name: 'a host port on a plain init container is given back once it has run: nothing keeps the pods apart',
      code: web(hostPortInit('')),
      findings: [{ message: /all 3 pods may run on one node/ }],
    },
    {
      name: 'nothing spreads three replicas: the fix uses the workload selector, not the version label',
      code: web(),
      findings: [{ at: 'replicas', line: 6, message: 'Deployment web: all 3 pods may run on one node and go down with it. It runs 3 replicas. Nothing spreads them across nodes: when that node dies the workload is down until they are rescheduled.' }],
      output: web() + '      topologySpreadConstraints:\n        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              app: web\n',
    },
    {
      name: 'a constraint that selects other pods does not count; the entry is appended to the list',
      code: web(spread('kubernetes.io/hostname', 'app: cache')),
      findings: [{ at: 'replicas', message: /^Deployment web: all 3 pods may run on one node and go down with it\. It runs 3 replicas\. Its spread terms select app=cache, which its own pods do not carry:/ }],
      output: web(spread('kubernetes.io/hostname', 'app: cache') + '        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              app: web\n'),
    },
    {
      name: 'a ScheduleAnyway constraint on the hostname that selects other pods is pointed at its own, not repeated: the API server refuses a second {hostname, ScheduleAnyway}',
      code: web(constraints(skewed('3', 'kubernetes.io/hostname', 'ScheduleAnyway').replace('app: web', 'app: cache'))),
      findings: [{ at: 'replicas', message: /Its spread terms select app=cache, which its own pods do not carry:/ }],
      output: web(constraints(skewed('1', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
    },
    {
      name: 'a ScheduleAnyway constraint on the hostname with no labelSelector gets the pods\' own, and nothing is added',
      code: web(constraints('        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n')),
      findings: [{ at: 'replicas', message: /Its spread term has no labelSelector, so it counts no pods:/ }],
      output: web(constraints('        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              app: web\n')),
    },
    {
      name: 'a constraint without a labelSelector counts no pods, and says so (it said it selected "(everything)")',
      code: web('      topologySpreadConstraints:\n        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: DoNotSchedule\n'),
      findings: [{ at: 'replicas', message: /^Deployment web: all 3 pods may run on one node and go down with it\. It runs 3 replicas\. Its spread term has no labelSelector, so it counts no pods:/ }],
    },
    {
      name: 'anti-affinity that looks only at another namespace keeps nothing apart',
      code: web(antiAffinity('              namespaces: [shop-cache]\n')),
      findings: [{ at: 'replicas', message: /^Deployment web: all 3 pods may run on one node and go down with it\. It runs 3 replicas\. Its anti-affinity looks for its pods only in namespace shop-cache, not in default where they run:/ }],
    },
    {
      name: 'anti-affinity whose namespace selector names another namespace keeps nothing apart',
      code: web(antiAffinity('              namespaceSelector:\n                matchLabels: {kubernetes.io/metadata.name: cache}\n')),
      findings: [{ at: 'replicas', message: /^Deployment web: all 3 pods may run on one node and go down with it\. It runs 3 replicas\. Its anti-affinity looks for its pods only in namespace cache, not in default where they run:/ }],
    },
    {
      name: 'anti-affinity whose namespace selector leaves out its own namespace (NotIn) keeps nothing apart, and says which namespaces it looks in',
      code: web(antiAffinity('              namespaceSelector:\n                matchExpressions:\n                  - {key: kubernetes.io/metadata.name, operator: NotIn, values: [prod]}\n')).replace('name: web\n', 'name: web\n  namespace: prod\n'),
      findings: [{ at: 'replicas', message: /^Deployment prod\/web: all 3 pods may run on one node and go down with it\. It runs 3 replicas\. Its anti-affinity looks for its pods only in namespaces matching kubernetes\.io\/metadata\.name notin \(prod\), not in prod where they run:/ }],
    },
    {
      name: 'a namespace selector whose name label leaves out its own namespace keeps nothing apart, whatever its other labels',
      code: web(antiAffinity('              namespaces: [cache]\n              namespaceSelector:\n                matchLabels: {kubernetes.io/metadata.name: search, team: shop}\n')),
      findings: [{ at: 'replicas', message: /It runs 3 replicas\. Its anti-affinity looks for its pods only in namespace cache and namespaces matching kubernetes\.io\/metadata\.name=search,team=shop, not in default where they run:/ }],
    },
    {
      name: 'required affinity to its own pods on hostname: they must share one node, and no spread constraint can help',
      code: web(selfAffinity('kubernetes.io/hostname')),
      findings: [
        {
          at: 'replicas',
          message:
            'Deployment web: all 3 pods must run on one node and go down with it. It runs 3 replicas. Its required pod affinity on kubernetes.io/hostname selects its own pods (app=web): the scheduler puts each pod on the node where the others run, and no spread constraint or anti-affinity can place one elsewhere. When that node dies the workload is down until they are rescheduled; if the pods need not share a node, make the affinity preferred or remove it.',
          related: ['manifest.yaml: topologyKey'],
        },
      ],
      output: null,
    },
    {
      name: 'required affinity to its own pods on hostname beside a spread constraint: the affinity wins',
      code: web(selfAffinity('kubernetes.io/hostname') + spread('kubernetes.io/hostname')),
      findings: [{ at: 'replicas', message: /^Deployment web: all 3 pods must run on one node and go down with it\. It runs 3 replicas\. Its required pod affinity on kubernetes\.io\/hostname selects its own pods \(app=web\): / }],
      output: null,
    },
    {
      name: 'required affinity to its own pods on hostname beside one on a zone and preferred anti-affinity: the affinity wins, and the hostname term is the one named',
      code: web(
        `      affinity:\n${podAffinity('topology.kubernetes.io/zone')}            - topologyKey: kubernetes.io/hostname\n              labelSelector:\n                matchExpressions:\n                  - {key: app, operator: In, values: [web]}\n` +
          '        podAntiAffinity:\n          preferredDuringSchedulingIgnoredDuringExecution:\n            - weight: 100\n              podAffinityTerm:\n                topologyKey: kubernetes.io/hostname\n                labelSelector:\n                  matchLabels: {app: web}\n',
      ),
      findings: [{ at: 'replicas', message: /must run on one node and go down with it\. It runs 3 replicas\. Its required pod affinity on kubernetes\.io\/hostname selects its own pods \(app in \(web\)\): /, related: ['manifest.yaml: topologyKey'] }],
      output: null,
    },
    {
      name: 'required affinity to its own pods on a zone holds them in one zone, where a zone spread spreads nothing: the fix spreads them over nodes',
      code: web(selfAffinity('topology.kubernetes.io/zone') + spread('topology.kubernetes.io/zone')),
      findings: [
        {
          at: 'replicas',
          message:
            'Deployment web: all 3 pods may run on one node and go down with it. It runs 3 replicas. Its required pod affinity on topology.kubernetes.io/zone selects its own pods (app=web), so they all run in one zone, and nothing spreads them across its nodes: when that node dies the workload is down until they are rescheduled.',
        },
      ],
      output: web(selfAffinity('topology.kubernetes.io/zone') + spread('topology.kubernetes.io/zone') + spreadFix),
    },
    {
      name: 'a spread on a key that is no failure domain does not count',
      code: web(spread('node.kubernetes.io/instance-type')),
      findings: [{ at: 'replicas' }],
    },
    {
      name: 'an HPA floor of 2 with one replica written; the HPA is related',
      code: web('', '  replicas: 1\n'),
      files: { 'hpa.yaml': hpa({ min: 2 }) },
      findings: [{ at: 'kind: Deployment', message: /^Deployment web: both pods may run on one node and go down with it\. It runs at least 2 replicas \(HPA minReplicas 2\)\. Nothing spreads them/, related: ['hpa.yaml: minReplicas'] }],
    },
    {
      name: 'no replicas field under a KEDA ScaledObject of minReplicaCount 3: its floor, said as KEDA\'s; the ScaledObject is related',
      code: web('', ''),
      files: { 'keda.yaml': scaledObject({ spec: '  minReplicaCount: 3\n  maxReplicaCount: 10\n' }) },
      findings: [{ at: 'kind: Deployment', message: /^Deployment web: all 3 pods may run on one node and go down with it\. It runs at least 3 replicas \(KEDA minReplicaCount 3\)\. Nothing spreads them/, related: ['keda.yaml: minReplicaCount'] }],
    },
    {
      name: 'one replica written, held at 3 by KEDA\'s paused-replicas: said so; the annotation is related',
      code: web('', '  replicas: 1\n'),
      files: { 'keda.yaml': scaledObject({ annotations: '    autoscaling.keda.sh/paused-replicas: "3"\n' }) },
      findings: [{ at: 'kind: Deployment', message: /^Deployment web: all 3 pods may run on one node and go down with it\. It runs 3 replicas \(held by KEDA's paused-replicas\)\. Nothing spreads them/, related: ['keda.yaml: autoscaling.keda.sh/paused-replicas'] }],
    },
    {
      name: 'maxSkew equal to the replicas lets them all share a node: said at the maxSkew, which the fix sets to 1 (unsafe under DoNotSchedule), keeping comments',
      code: web(constraints(skewed('3 # as many as replicas'))),
      findings: [{ at: '3', message: `Deployment web: all 3 pods may run on one node and go down with it. It runs 3 replicas. ${looseOnHostname(3, 'all 3 pods')}` }],
      output: null,
      unsafeOutput: web(constraints(skewed('1 # as many as replicas'))),
    },
    {
      name: 'maxSkew equal to the replicas, preferred only (ScheduleAnyway): the fix is safe',
      code: web(constraints(skewed('3', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
      findings: [{ at: '3', message: /It runs 3 replicas\. Its topologySpreadConstraints on kubernetes\.io\/hostname has maxSkew 3, which lets all 3 pods run on one node:/ }],
      output: web(constraints(skewed('1', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
    },
    {
      name: 'maxSkew 2 of 2 replicas',
      code: web(constraints(skewed('2', 'kubernetes.io/hostname', 'ScheduleAnyway')), '  replicas: 2\n'),
      findings: [{ at: '2', message: /^Deployment web: both pods may run on one node .* has maxSkew 2, which lets both pods run on one node:/ }],
      output: web(constraints(skewed('1', 'kubernetes.io/hostname', 'ScheduleAnyway')), '  replicas: 2\n'),
    },
    {
      name: 'maxSkew above the replicas, with minDomains: the global minimum of 0 still lets every pod into one domain',
      code: web(constraints(skewed('5', 'kubernetes.io/hostname', 'DoNotSchedule', '          minDomains: 3\n'))),
      findings: [{ at: '5', message: new RegExp(looseOnHostname(5, 'all 3 pods').replace(/[.\\/]/g, '\\$&')) }],
    },
    {
      name: 'an HPA floor of 2 under 3 replicas written: maxSkew 2 spreads 3 but not the 2 it may run; the HPA is related',
      code: web(constraints(skewed('2', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
      files: { 'hpa.yaml': hpa({ min: 2 }) },
      findings: [{ at: '2', message: /It runs at least 2 replicas \(HPA minReplicas 2\)\. Its topologySpreadConstraints on kubernetes\.io\/hostname has maxSkew 2, which lets both pods run on one node:/, related: ['hpa.yaml: minReplicas'] }],
      output: web(constraints(skewed('1', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
    },
    {
      name: 'a loose zone constraint: one zone, and so maybe one node',
      code: web(constraints(skewed('3', 'topology.kubernetes.io/zone', 'ScheduleAnyway'))),
      findings: [{ at: '3', message: /has maxSkew 3, which lets all 3 pods run in one zone, on one node of it:/ }],
      output: web(constraints(skewed('1', 'topology.kubernetes.io/zone', 'ScheduleAnyway'))),
    },
    {
      name: 'loose on a zone and on hostname: the hostname one is said and fixed',
      code: web(constraints(skewed('3', 'topology.kubernetes.io/zone', 'ScheduleAnyway'), skewed('4', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
      findings: [{ at: '4', message: /on kubernetes\.io\/hostname has maxSkew 4, which lets all 3 pods run on one node:/ }],
      output: web(constraints(skewed('3', 'topology.kubernetes.io/zone', 'ScheduleAnyway'), skewed('1', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
    },
    {
      name: 'held in one zone by its own affinity, with a loose hostname constraint: the loose maxSkew is what to fix',
      code: web(selfAffinity('topology.kubernetes.io/zone') + constraints(skewed('3', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
      findings: [{ at: '3', message: /has maxSkew 3, which lets all 3 pods run on one node:/, related: ['manifest.yaml: topologyKey'] }],
      output: web(selfAffinity('topology.kubernetes.io/zone') + constraints(skewed('1', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
    },
    {
      name: 'maxSkew in quotes: the API server rejects the workload, which is said instead of a spread; the digits are written as the number',
      code: web(constraints(skewed('"1"'))),
      findings: [
        {
          at: '"1"',
          message:
            'Deployment web: its topologySpreadConstraints on kubernetes.io/hostname has maxSkew "1", which is no integer, so the API server rejects it. It refuses the whole Deployment, which then runs no pod at all. maxSkew is a whole number from 1: write 1.',
        },
      ],
      output: web(constraints(skewed('1'))),
    },
    {
      name: 'digits in quotes that spread the pods are kept',
      code: web(constraints(skewed('"2"'))),
      findings: [{ at: '"2"', message: /has maxSkew "2", which is no integer, so the API server rejects it\. .* write 2\.$/ }],
      output: web(constraints(skewed('2'))),
    },
    {
      name: 'digits in quotes too loose to spread: 1 is written, unsafe under DoNotSchedule, and no number is claimed from them',
      code: web(constraints(skewed('"3"'))),
      findings: [{ at: '"3"', message: /has maxSkew "3", which is no integer, so the API server rejects it\. It refuses the whole Deployment, which then runs no pod at all\. maxSkew is a whole number from 1: write 1\.$/ }],
      output: null,
      unsafeOutput: web(constraints(skewed('1'))),
    },
    {
      name: 'maxSkew 0 is refused (below 1)',
      code: web(constraints(skewed('0'))),
      findings: [{ at: '0', message: /has maxSkew 0, which is below 1, so the API server rejects it\. It refuses the whole Deployment, which then runs no pod at all\. maxSkew is a whole number from 1: write 1\.$/ }],
      output: web(constraints(skewed('1'))),
    },
    {
      name: 'a negative maxSkew is refused',
      code: web(constraints(skewed('-2', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
      findings: [{ at: '-2', message: /has maxSkew -2, which is below 1, so the API server rejects it\./ }],
      output: web(constraints(skewed('1', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
    },
    {
      name: 'a fractional maxSkew is refused',
      code: web(constraints(skewed('1.5', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
      findings: [{ at: '1.5', message: /has maxSkew 1\.5, which is no integer, so the API server rejects it\./ }],
      output: web(constraints(skewed('1', 'kubernetes.io/hostname', 'ScheduleAnyway'))),
    },
    {
      name: 'no maxSkew: the API server requires one; said at the entry that lacks it',
      code: web(constraints('        - topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              app: web\n')),
      findings: [{ at: 'topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              app: web\n', message: /^Deployment web: its topologySpreadConstraints on kubernetes\.io\/hostname has no maxSkew, so the API server rejects it\. / }],
      output: web(constraints('        - topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              app: web\n          maxSkew: 1\n')),
    },
    {
      name: 'a loose constraint that selects other pods is said as a stray one, not as loose',
      code: web(constraints(skewed('3').replace('app: web', 'app: cache'))),
      findings: [{ at: 'replicas', message: /Its spread terms select app=cache, which its own pods do not carry:/ }],
    },
    {
      name: 'a refused maxSkew beside a loose one: the refusal is said',
      code: web(constraints(skewed('3', 'kubernetes.io/hostname', 'ScheduleAnyway'), skewed('"1"', 'topology.kubernetes.io/zone', 'ScheduleAnyway'))),
      findings: [{ at: '"1"', message: /on topology\.kubernetes\.io\/zone has maxSkew "1", which is no integer/ }],
      output: web(constraints(skewed('3', 'kubernetes.io/hostname', 'ScheduleAnyway'), skewed('1', 'topology.kubernetes.io/zone', 'ScheduleAnyway'))),
    },
    {
      name: 'a ReplicationController with a plain map selector: the fix writes it as matchLabels',
      code: 'apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: legacy\nspec:\n  replicas: 2\n  selector:\n    name: legacy\n  template:\n    metadata:\n      labels:\n        name: legacy\n    spec:\n      containers:\n        - name: legacy\n          image: legacy:1\n',
      findings: [{ at: 'replicas', message: /^ReplicationController legacy: both pods may run on one node and go down with it\. It runs 2 replicas\. Nothing spreads them/ }],
      output: 'apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: legacy\nspec:\n  replicas: 2\n  selector:\n    name: legacy\n  template:\n    metadata:\n      labels:\n        name: legacy\n    spec:\n      containers:\n        - name: legacy\n          image: legacy:1\n      topologySpreadConstraints:\n        - maxSkew: 1\n          topologyKey: kubernetes.io/hostname\n          whenUnsatisfiable: ScheduleAnyway\n          labelSelector:\n            matchLabels:\n              name: legacy\n',
    },
  ],
});

it('replicas-not-spread counts a live ReplicaSet through the Deployment that owns it', () => {
  const labels = { app: 'web' };
  const owned = fromObject({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web-5d8f', namespace: 'shop', ownerReferences: [{ kind: 'Deployment', name: 'web', controller: true }] },
    spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'web' }] } } },
  });
  const findings = clusterFindings(replicasNotSpread, cluster([deploymentObject('shop', 'web', 3, labels), owned]));
  assert.deepEqual(findings.map((f) => f.resource?.kind), ['Deployment']);
});
