import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits, type TextEdit } from '../../server/src/fixes/edit';
import { appendDocument, appendToSequence, insertCommentAbove, removeField, replaceField, setField } from '../../server/src/fixes/yaml-edit';
import { parseManifest, type ManifestFile, type Resource } from '../../server/src/manifest/parse';

interface Case {
  name: string;
  before: string;
  /** `at` is where the case's text starts in the file edited. */
  edit: (resource: Resource, file: ManifestFile, at: number) => TextEdit[] | undefined;
  after: string | undefined;
  /** Which resource of the file to edit. */
  resource?: number;
  uri?: string;
}

/** A document with no nested mapping, quote or indent of its own, to place a case's text after. */
const EARLIER = 'apiVersion: v1\nkind: ConfigMap\n---\n';

/** Each case as it is, and (but in JSON) after another document: edits read the text of their own document only. */
function check(c: Case): void {
  it(c.name, () => checkIn(c, ''));
  if (!/\.json$/.test(c.uri ?? '')) it(`${c.name} (in a later document)`, () => checkIn(c, c.before.includes('\r\n') ? EARLIER.replace(/\n/g, '\r\n') : EARLIER));
}

function checkIn(c: Case, earlier: string): void {
  const uri = c.uri ?? 'file:///edit.yaml';
  const before = earlier + c.before;
  const file = parseManifest(uri, before);
  const edits = c.edit(file.resources[(c.resource ?? 0) + (earlier ? 1 : 0)], file, earlier.length);
  if (c.after === undefined) {
    assert.equal(edits, undefined, 'no edit is offered');
    return;
  }
  assert.ok(edits, 'an edit is offered');
  const after = applyEdits(before, edits);
  assert.equal(after, earlier + c.after);
  const reparsed = parseManifest(uri, after);
  assert.deepEqual(reparsed.documents.map((d) => d.parsed.error?.message).filter(Boolean), [], 'the result parses');
  assert.ok(reparsed.resources.length >= file.resources.length, 'no resource is lost');
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the name
spec:
  # how many
  replicas: 1 # one for now
  # the pods
  template:
    spec:
      containers:
        - name: app
          image: nginx
`;

describe('setField', () => {
  const SPEC_FIRST = (first: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n${first}\n  template:\n    metadata: {labels: {app: web}}\n`;
  const SPEC_LAST = (last: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata: {labels: {app: web}}\n${last}\n`;
  const cases: Case[] = [
    ...[
      ['a tag', '  !!str selector: {matchLabels: {app: web}}'],
      ['an explicit key (`? `)', '  # the selector first\n  ? selector\n  : matchLabels:\n      app: web'],
      ['an anchor', '  &s selector: {matchLabels: {app: web}}'],
    ].flatMap(([what, odd]) =>
      (['start', 'end'] as const).flatMap((position) =>
        (['first', 'last'] as const).map(
          (where): Case => ({
            name: `not into a mapping whose ${where} key is written after ${what} (at its ${position}): that key's column is not its entry's (the YAML was broken, or replicas went into the selector)`,
            before: where === 'first' ? SPEC_FIRST(odd) : SPEC_LAST(odd),
            edit: (r) => setField(r, ['spec', 'replicas'], 2, position),
            after: undefined,
          }),
        ),
      ),
    ),
    {
      name: 'replaces a tagged scalar with its tag (left in place, `!!str` made the new value the old one: a fix that changed nothing)',
      before: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas: !!int "1" # one for now'),
      edit: (r) => setField(r, ['spec', 'replicas'], 2),
      after: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas: 2 # one for now'),
    },
    {
      name: 'and in a flow mapping',
      before: DEPLOYMENT.replace('replicas: 1 # one for now', 'strategy: {type: !!str Recreate}'),
      edit: (r) => setField(r, ['spec', 'strategy', 'type'], 'RollingUpdate'),
      after: DEPLOYMENT.replace('replicas: 1 # one for now', 'strategy: {type: "RollingUpdate"}'),
    },
    {
      name: 'replaces a scalar in place, keeping comments above, inline and below',
      before: DEPLOYMENT,
      edit: (r) => setField(r, ['spec', 'replicas'], 2),
      after: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas: 2 # one for now'),
    },
    {
      name: 'a key written with no value and a comment after it: the value goes before the comment, apart from it (`2# one` was the string "2# one")',
      before: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas:   # one for now'),
      edit: (r) => setField(r, ['spec', 'replicas'], 2),
      after: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas: 2 # one for now'),
    },
    {
      name: 'a list replaced at the end of the file keeps the last line break, and a comment line after it stays on its own line (`- b: 2# end` was the string "2# end")',
      before: `${DEPLOYMENT}  tolerations:\n    - {key: a, operator: Exists}\n# end of the workload\n`,
      edit: (r) => setField(r, ['spec', 'tolerations'], [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }]),
      after: `${DEPLOYMENT}  tolerations:\n    - key: a\n      operator: Exists\n    - key: b\n      operator: Exists\n# end of the workload\n`,
    },
    {
      name: 'a block scalar replaced by a plain one: the next key stays on its own line (it was joined on, and the file broke)',
      before: DEPLOYMENT.replace('replicas: 1 # one for now', 'minReadySeconds: |\n    10\n  replicas: 1'),
      edit: (r) => setField(r, ['spec', 'minReadySeconds'], 30),
      after: DEPLOYMENT.replace('replicas: 1 # one for now', 'minReadySeconds: 30\n  replicas: 1'),
    },
    {
      name: 'in JSON, a mapping set over a scalar is written as JSON in place (block lines inside the braces broke the file)',
      uri: 'file:///edit.json',
      before: '{\n  "apiVersion": "apps/v1",\n  "kind": "Deployment",\n  "metadata": {"name": "web"},\n  "spec": {\n    "strategy": "Recreate"\n  }\n}\n',
      edit: (r) => setField(r, ['spec', 'strategy'], { type: 'RollingUpdate' }),
      after: '{\n  "apiVersion": "apps/v1",\n  "kind": "Deployment",\n  "metadata": {"name": "web"},\n  "spec": {\n    "strategy": {\n      "type": "RollingUpdate"\n    }\n  }\n}\n',
    },
    {
      name: 'in a flow mapping on one line, a mapping set over a scalar is JSON on that line',
      before: 'apiVersion: apps/v1\nkind: Deployment\nspec: {strategy: Recreate, replicas: 2}\n',
      edit: (r) => setField(r, ['spec', 'strategy'], { type: 'RollingUpdate' }),
      after: 'apiVersion: apps/v1\nkind: Deployment\nspec: {strategy: {"type":"RollingUpdate"}, replicas: 2}\n',
    },
    {
      name: 'a mapping replaced at the end of the file keeps the last line break',
      before: `${DEPLOYMENT}  strategy:\n    type: Recreate\n`,
      edit: (r) => setField(r, ['spec', 'strategy'], { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } }),
      after: `${DEPLOYMENT}  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxUnavailable: 0\n`,
    },
    {
      name: 'a key written with no value, a list to set and a comment after it: the comment stays a comment',
      before: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas: 1\n  tolerations: # none yet'),
      edit: (r) => setField(r, ['spec', 'tolerations'], [{ operator: 'Exists' }]),
      after: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas: 1\n  tolerations:\n    - operator: Exists # none yet'),
    },
    {
      name: 'a key written with no value, a mapping to set below it and a comment after it: the comment stays a comment',
      before: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas: 1\n  strategy: # later'),
      edit: (r) => setField(r, ['spec', 'strategy', 'type'], 'Recreate'),
      after: DEPLOYMENT.replace('replicas: 1 # one for now', 'replicas: 1\n  strategy:\n    type: Recreate # later'),
    },
    {
      name: 'inserts a missing key at the end of its mapping',
      before: DEPLOYMENT,
      edit: (r) => setField(r, ['spec', 'minReadySeconds'], 10),
      after: `${DEPLOYMENT}  minReadySeconds: 10\n`,
    },
    {
      name: 'inserts at the start of the mapping when asked, right above the first key (below its comments)',
      before: DEPLOYMENT,
      edit: (r) => setField(r, ['spec', 'minReadySeconds'], 10, 'start'),
      after: DEPLOYMENT.replace('  replicas: 1', '  minReadySeconds: 10\n  replicas: 1'),
    },
    {
      name: 'above a kube-resilience-ignore right above the first key, which holds for the line below it (written below it, the new key took it over)',
      before: DEPLOYMENT.replace('  # how many\n', '  # how many\n  # kube-resilience-ignore single-replica -- a batch worker\n'),
      edit: (r) => setField(r, ['spec', 'minReadySeconds'], 10, 'start'),
      after: DEPLOYMENT.replace('  # how many\n', '  # how many\n  minReadySeconds: 10\n  # kube-resilience-ignore single-replica -- a batch worker\n'),
    },
    {
      name: 'inserts a nested value at the start, in CRLF',
      before: DEPLOYMENT.replace(/\n/g, '\r\n'),
      edit: (r) => setField(r, ['spec', 'strategy', 'type'], 'Recreate', 'start'),
      after: DEPLOYMENT.replace('  replicas: 1', '  strategy:\n    type: Recreate\n  replicas: 1').replace(/\n/g, '\r\n'),
    },
    {
      name: 'creates a missing section of the resource after the others, wherever its field goes in it (not above apiVersion)',
      before: '# the budget\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n',
      edit: (r) => setField(r, ['spec', 'maxUnavailable'], 1, 'start'),
      after: '# the budget\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  maxUnavailable: 1\n',
    },
    {
      name: 'creates missing parents, nested',
      before: DEPLOYMENT,
      edit: (r) => setField(r, ['spec', 'strategy', 'rollingUpdate', 'maxUnavailable'], 0),
      after: `${DEPLOYMENT}  strategy:\n    rollingUpdate:\n      maxUnavailable: 0\n`,
    },
    {
      name: 'creates parents below a sequence item, at the item\'s column',
      before: DEPLOYMENT,
      edit: (r) => setField(r, ['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'memory'], '256Mi'),
      after: `${DEPLOYMENT}          resources:\n            limits:\n              memory: 256Mi\n`,
    },
    {
      name: 'quotes a string that would otherwise be read as a boolean, number or YAML 1.1 word',
      before: DEPLOYMENT,
      edit: (r) => setField(r, ['metadata', 'labels'], { enabled: 'false', port: '8080', answer: 'yes', mode: 'on' }),
      after: DEPLOYMENT.replace('  name: web # the name\n', '  name: web # the name\n  labels:\n    enabled: "false"\n    port: "8080"\n    answer: "yes"\n    mode: "on"\n'),
    },
    {
      name: 'keeps the quoting of the scalar it replaces',
      before: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 'settings'\ndata:\n  mode: 'slow'\n  level: \"low\"\n",
      edit: (r) => setField(r, ['data', 'mode'], 'yes'),
      after: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 'settings'\ndata:\n  mode: 'yes'\n  level: \"low\"\n",
    },
    {
      name: 'fills a key with no value',
      before: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\nspec: {}\n',
      edit: (r) => setField(r, ['metadata', 'labels', 'app'], 'p'),
      after: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    app: p\nspec: {}\n',
    },
    {
      name: 'turns an empty {} in a block file into block YAML',
      before: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n        - name: a\n          resources: {}\n',
      edit: (r) => setField(r, ['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'memory'], '1Gi'),
      after: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n        - name: a\n          resources:\n            limits:\n              memory: 1Gi\n',
    },
    {
      name: '4-space files get 4-space nesting',
      before: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n    name: web\nspec:\n    replicas: 1\n',
      edit: (r) => setField(r, ['spec', 'strategy', 'type'], 'RollingUpdate'),
      after: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n    name: web\nspec:\n    replicas: 1\n    strategy:\n        type: RollingUpdate\n',
    },
    {
      name: 'flow maps get a flow entry',
      before: 'apiVersion: v1\nkind: Service\nmetadata: {name: s, labels: {a: b}}\n',
      edit: (r) => setField(r, ['metadata', 'labels', 'c'], 'd'),
      after: 'apiVersion: v1\nkind: Service\nmetadata: {name: s, labels: {a: b, "c": "d"}}\n',
    },
    {
      name: 'a scalar in a flow map is replaced by JSON',
      before: 'apiVersion: v1\nkind: Service\nmetadata: {name: s, labels: {enabled: x}}\n',
      edit: (r) => setField(r, ['metadata', 'labels', 'enabled'], 'false'),
      after: 'apiVersion: v1\nkind: Service\nmetadata: {name: s, labels: {enabled: "false"}}\n',
    },
    {
      name: 'a flow map over lines whose last entry has a comma and a comment after it: the new entry on the next line, the comment kept with its entry (it moved to the new one)',
      before: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {\n  hostNetwork: true,   # the node network\n}\n',
      edit: (r) => setField(r, ['spec', 'priorityClassName'], 'high'),
      after: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {\n  hostNetwork: true,   # the node network\n  "priorityClassName": "high",\n}\n',
    },
    {
      name: 'a flow map over lines whose last entry has a comment and no comma: the comma goes after the entry, before the comment',
      before: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {\n  hostNetwork: true  # the node network\n}\n',
      edit: (r) => setField(r, ['spec', 'priorityClassName'], 'high'),
      after: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {\n  hostNetwork: true,  # the node network\n  "priorityClassName": "high"\n}\n',
    },
    {
      name: 'JSON files get a new entry on its own line',
      uri: 'file:///edit.json',
      before: '{\n  "apiVersion": "apps/v1",\n  "kind": "Deployment",\n  "metadata": {\n    "name": "web"\n  },\n  "spec": {\n    "replicas": 1\n  }\n}\n',
      edit: (r) => setField(r, ['spec', 'minReadySeconds'], 5),
      after: '{\n  "apiVersion": "apps/v1",\n  "kind": "Deployment",\n  "metadata": {\n    "name": "web"\n  },\n  "spec": {\n    "replicas": 1,\n    "minReadySeconds": 5\n  }\n}\n',
    },
    {
      name: 'pretty-printed JSON gets a new object laid out as the file is: its lines, its nesting (4 spaces here), CRLF kept',
      uri: 'file:///edit.json',
      before: '{\r\n    "apiVersion": "apps/v1",\r\n    "kind": "Deployment",\r\n    "metadata": {\r\n        "name": "web"\r\n    },\r\n    "spec": {\r\n        "replicas": 1\r\n    }\r\n}\r\n',
      edit: (r) => setField(r, ['spec', 'strategy'], { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } }),
      after:
        '{\r\n    "apiVersion": "apps/v1",\r\n    "kind": "Deployment",\r\n    "metadata": {\r\n        "name": "web"\r\n    },\r\n    "spec": {\r\n        "replicas": 1,\r\n        "strategy": {\r\n            "type": "RollingUpdate",\r\n            "rollingUpdate": {\r\n                "maxUnavailable": 0\r\n            }\r\n        }\r\n    }\r\n}\r\n',
    },
    {
      name: 'JSON indented by tabs gets tabs',
      uri: 'file:///edit.json',
      before: '{\n\t"apiVersion": "apps/v1",\n\t"kind": "Deployment",\n\t"metadata": {\n\t\t"name": "web"\n\t},\n\t"spec": {\n\t\t"replicas": 1\n\t}\n}\n',
      edit: (r) => setField(r, ['spec', 'strategy'], { type: 'Recreate' }),
      after: '{\n\t"apiVersion": "apps/v1",\n\t"kind": "Deployment",\n\t"metadata": {\n\t\t"name": "web"\n\t},\n\t"spec": {\n\t\t"replicas": 1,\n\t\t"strategy": {\n\t\t\t"type": "Recreate"\n\t\t}\n\t}\n}\n',
    },
    {
      name: 'pretty-printed JSON gets new items of a list one a line, laid out as the file is',
      uri: 'file:///edit.json',
      before: '{\n  "apiVersion": "v1",\n  "kind": "Pod",\n  "metadata": {\n    "name": "web"\n  },\n  "spec": {\n    "tolerations": [\n      {\n        "key": "a"\n      }\n    ]\n  }\n}\n',
      edit: (r) => appendToSequence(r, ['spec', 'tolerations'], { key: 'b', operator: 'Exists' }),
      after: '{\n  "apiVersion": "v1",\n  "kind": "Pod",\n  "metadata": {\n    "name": "web"\n  },\n  "spec": {\n    "tolerations": [\n      {\n        "key": "a"\n      },\n      {\n        "key": "b",\n        "operator": "Exists"\n      }\n    ]\n  }\n}\n',
    },
    {
      name: 'JSON scalars are replaced as JSON',
      uri: 'file:///edit.json',
      before: '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 1}}',
      edit: (r) => setField(r, ['spec', 'replicas'], 2),
      after: '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 2}}',
    },
    {
      name: 'CRLF files get CRLF lines',
      before: DEPLOYMENT.replace(/\n/g, '\r\n'),
      edit: (r) => setField(r, ['spec', 'strategy', 'type'], 'Recreate'),
      after: `${DEPLOYMENT}  strategy:\n    type: Recreate\n`.replace(/\n/g, '\r\n'),
    },
    {
      name: 'nothing under a scalar: no edit rather than a wrong one',
      before: DEPLOYMENT,
      edit: (r) => setField(r, ['spec', 'replicas', 'value'], 2),
      after: undefined,
    },
  ];
  for (const c of cases) check(c);
});

describe('replaceField and removeField', () => {
  const FLOW_SPEC = (entries: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec: {\n${entries}}\n`;
  const PDB_SPEC = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: db\nspec:\n  minAvailable:   # all of them, agreed with the DB team\n    3\n  selector: {matchLabels: {app: db}}\n';
  const cases: Case[] = [
    {
      name: 'a flow entry on lines of its own goes with its lines, its comma and its comment; the comments of the others stay where they were',
      before: FLOW_SPEC('  selector: {matchLabels: {app: web}}, # selects web pods\n  replicas: 3, # three to start\n  template: {metadata: {labels: {app: web}}}\n'),
      edit: (r) => removeField(r, ['spec', 'replicas']),
      after: FLOW_SPEC('  selector: {matchLabels: {app: web}}, # selects web pods\n  template: {metadata: {labels: {app: web}}}\n'),
    },
    {
      name: 'the first such entry, and a comment line above the next one stays',
      before: FLOW_SPEC('  replicas: 3,\n  # the selector must match the template labels\n  selector: {matchLabels: {app: web}}\n'),
      edit: (r) => removeField(r, ['spec', 'replicas']),
      after: FLOW_SPEC('  # the selector must match the template labels\n  selector: {matchLabels: {app: web}}\n'),
    },
    {
      name: 'the last such entry: the comma before it stays, which YAML allows',
      before: FLOW_SPEC('  selector: {matchLabels: {app: web}}, # selects web pods\n  replicas: 3 # three to start\n'),
      edit: (r) => removeField(r, ['spec', 'replicas']),
      after: FLOW_SPEC('  selector: {matchLabels: {app: web}}, # selects web pods\n'),
    },
    {
      name: 'a comment between a key and its value stays, the key and the value replaced each in its place',
      before: PDB_SPEC,
      edit: (r) => replaceField(r, ['spec', 'minAvailable'], 'maxUnavailable', 1),
      after: PDB_SPEC.replace('minAvailable:', 'maxUnavailable:').replace('    3\n', '    1\n'),
    },
    {
      name: 'a tagged value after such a comment goes with its tag (`!!str 100%` left `!!str 1`, a string the API server refuses)',
      before: PDB_SPEC.replace('    3\n', '    !!str 100%\n'),
      edit: (r) => replaceField(r, ['spec', 'minAvailable'], 'maxUnavailable', 1),
      after: PDB_SPEC.replace('minAvailable:', 'maxUnavailable:').replace('    3\n', '    1\n'),
    },
    {
      name: 'replaceField swaps a pair in place, the comments around it kept',
      before: DEPLOYMENT,
      edit: (r) => replaceField(r, ['spec', 'replicas'], 'minReadySeconds', 5),
      after: DEPLOYMENT.replace('replicas: 1 # one for now', 'minReadySeconds: 5 # one for now'),
    },
    {
      name: 'removeField removes the whole line, comments above and below stay',
      before: DEPLOYMENT,
      edit: (r) => removeField(r, ['spec', 'replicas']),
      after: DEPLOYMENT.replace('  replicas: 1 # one for now\n', ''),
    },
    {
      name: 'removeField removes a nested block',
      before: DEPLOYMENT,
      edit: (r) => removeField(r, ['spec', 'template']),
      after: DEPLOYMENT.replace(/  template:[\s\S]*$/, ''),
    },
    {
      name: 'removeField in a flow map takes the comma with it',
      before: 'apiVersion: v1\nkind: Service\nmetadata: {name: s, labels: {a: b}, annotations: {x: y}}\n',
      edit: (r) => removeField(r, ['metadata', 'labels']),
      after: 'apiVersion: v1\nkind: Service\nmetadata: {name: s, annotations: {x: y}}\n',
    },
    {
      name: 'removeField of the first flow entry',
      before: 'apiVersion: v1\nkind: Service\nmetadata: {name: s, labels: {a: b}}\n',
      edit: (r) => removeField(r, ['metadata', 'name']),
      after: 'apiVersion: v1\nkind: Service\nmetadata: {labels: {a: b}}\n',
    },
    {
      name: 'replaceField of a nested mapping by a mapping: indented from the key, and the next key stays on its line',
      before: DEPLOYMENT.replace('  # the pods\n', '  strategy:\n    type: Recreate\n  # the pods\n'),
      edit: (r) => replaceField(r, ['spec', 'strategy'], 'updateStrategy', { type: 'RollingUpdate' }),
      after: DEPLOYMENT.replace('  # the pods\n', '  updateStrategy:\n    type: RollingUpdate\n  # the pods\n'),
    },
    {
      name: 'removeField of a list written at its key\'s indent, comment lines inside it: the key after it stays (it went too)',
      before: DEPLOYMENT.replace('          image: nginx\n', '          image: nginx\n          env:\n          - name: A\n            value: b\n            # value: c\n          ports:\n          - containerPort: 80\n'),
      edit: (r) => removeField(r, ['spec', 'template', 'spec', 'containers', 0, 'env']),
      after: DEPLOYMENT.replace('          image: nginx\n', '          image: nginx\n          ports:\n          - containerPort: 80\n'),
    },
    {
      name: 'removeField of the last key of a mapping leaves an empty mapping, not a null',
      before: DEPLOYMENT.replace('  name: web # the name\n', '  name: web # the name\n  labels:\n    app: web\n'),
      edit: (r) => removeField(r, ['metadata', 'labels', 'app']),
      after: DEPLOYMENT.replace('  name: web # the name\n', '  name: web # the name\n  labels: {}\n'),
    },
    {
      name: 'removeField of the last key of a tagged mapping: the empty mapping after the tag (before it, the file broke)',
      before: DEPLOYMENT.replace('  name: web # the name\n', '  name: web # the name\n  labels: !!map\n    app: web\n'),
      edit: (r) => removeField(r, ['metadata', 'labels', 'app']),
      after: DEPLOYMENT.replace('  name: web # the name\n', '  name: web # the name\n  labels: !!map {}\n'),
    },
    {
      name: 'removeField of the only flow entry takes a comma after it (`{ , }` does not parse), with its line',
      before: 'apiVersion: v1\nkind: Service\nmetadata: {\n  name: s,\n  labels: {\n    a: b,\n  },\n}\n',
      edit: (r) => removeField(r, ['metadata', 'labels', 'a']),
      after: 'apiVersion: v1\nkind: Service\nmetadata: {\n  name: s,\n  labels: {\n  },\n}\n',
    },
    {
      name: 'removeField of a key that shares its line with a dash: no edit',
      before: DEPLOYMENT,
      edit: (r) => removeField(r, ['spec', 'template', 'spec', 'containers', 0, 'name']),
      after: undefined,
    },
  ];
  for (const c of cases) check(c);
});

describe('appendToSequence', () => {
  const INDENTLESS = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: x\n  tolerations:\n  - key: a\n    operator: Exists\n';
  const DASH_ALONE = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  tolerations:\n  -\n      key: a\n      operator: Exists\n';
  const cases: Case[] = [
    {
      name: 'items whose dash stands alone on the line above them: the new one at that dash (it went 2 columns in, a broken list)',
      before: DASH_ALONE,
      edit: (r) => appendToSequence(r, ['spec', 'tolerations'], { key: 'b', operator: 'Exists' }),
      after: `${DASH_ALONE}  -   key: b\n      operator: Exists\n`,
    },
    {
      name: 'a flow list over lines whose last item has a comment after it: the new items on the lines below, the comment kept with its item',
      before: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  tolerations: [\n    {key: a}  # the first\n  ]\n',
      edit: (r) => appendToSequence(r, ['spec', 'tolerations'], { key: 'b' }, { key: 'c' }),
      after: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  tolerations: [\n    {key: a},  # the first\n    {\n      "key": "b"\n    },\n    {\n      "key": "c"\n    }\n  ]\n',
    },
    {
      name: 'a dash with a comment after it, whose text holds a hyphen: the new item at the dash (the comment\'s hyphen was taken for it, and no fix was written)',
      before: DASH_ALONE.replace('  -\n', '  -   # the control-plane one\n'),
      edit: (r) => appendToSequence(r, ['spec', 'tolerations'], { key: 'b', operator: 'Exists' }),
      after: `${DASH_ALONE.replace('  -\n', '  -   # the control-plane one\n')}  -   key: b\n      operator: Exists\n`,
    },
    {
      name: 'a dash alone with a comment line between it and its item',
      before: DASH_ALONE.replace('  -\n', '  -\n    # the first one\n'),
      edit: (r) => appendToSequence(r, ['spec', 'tolerations'], { key: 'b', operator: 'Exists' }),
      after: `${DASH_ALONE.replace('  -\n', '  -\n    # the first one\n')}  -   key: b\n      operator: Exists\n`,
    },
    {
      name: 'indented sequences',
      before: DEPLOYMENT,
      edit: (r) => appendToSequence(r, ['spec', 'template', 'spec', 'containers'], { name: 'sidecar', image: 'envoy' }),
      after: `${DEPLOYMENT}        - name: sidecar\n          image: envoy\n`,
    },
    {
      name: 'indentless sequences',
      before: INDENTLESS,
      edit: (r) => appendToSequence(r, ['spec', 'tolerations'], { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }),
      after: `${INDENTLESS}  - key: nvidia.com/gpu\n    operator: Exists\n    effect: NoSchedule\n`,
    },
    {
      name: 'several items, in order',
      before: INDENTLESS,
      edit: (r) => appendToSequence(r, ['spec', 'tolerations'], { key: 'b' }, { key: 'c' }),
      after: `${INDENTLESS}  - key: b\n  - key: c\n`,
    },
    {
      name: 'creates a missing sequence in the file\'s sequence style',
      before: INDENTLESS,
      edit: (r) => appendToSequence(r, ['spec', 'containers', 0, 'args'], '--verbose'),
      after: INDENTLESS.replace('    image: x\n', '    image: x\n    args:\n    - --verbose\n'),
    },
    {
      name: '4-space files with `-   item` keep their dash',
      before: 'apiVersion: v1\nkind: Pod\nmetadata:\n    name: p\nspec:\n    containers:\n    -   name: a\n        image: x\n',
      edit: (r) => appendToSequence(r, ['spec', 'containers'], { name: 'b', image: 'z' }),
      after: 'apiVersion: v1\nkind: Pod\nmetadata:\n    name: p\nspec:\n    containers:\n    -   name: a\n        image: x\n    -   name: b\n        image: z\n',
    },
    {
      name: 'flow sequences',
      before: 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [80]}\n',
      edit: (r) => appendToSequence(r, ['spec', 'ports'], 443),
      after: 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [80, 443]}\n',
    },
    {
      name: 'CRLF',
      before: INDENTLESS.replace(/\n/g, '\r\n'),
      edit: (r) => appendToSequence(r, ['spec', 'tolerations'], { key: 'b', operator: 'Exists' }),
      after: `${INDENTLESS}  - key: b\n    operator: Exists\n`.replace(/\n/g, '\r\n'),
    },
    {
      name: 'a mapping where a sequence should be: no edit',
      before: DEPLOYMENT,
      edit: (r) => appendToSequence(r, ['spec', 'template'], 'x'),
      after: undefined,
    },
  ];
  for (const c of cases) check(c);
});

describe('edits where the YAML shares nodes (anchors, aliases, merge keys)', () => {
  // b merges a's spec: a key written in b's spec overrides the merged one; a key written in a's spec changes b too.
  const SHARED = 'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: a}\n    spec: &spec\n      replicas: 4\n      paused: false\n      template: {spec: {tolerations: [{key: x}]}}\n  - apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: b}\n    spec:\n      <<: *spec\n      paused: true\n';
  const cases: Case[] = [
    { name: 'no field set below a merge key (replicas: 4 merged would become what the fix writes)', before: SHARED, resource: 1, edit: (r) => setField(r, ['spec', 'replicas'], 2), after: undefined },
    { name: 'no field removed below a merge key', before: SHARED, resource: 1, edit: (r) => removeField(r, ['spec', 'paused']), after: undefined },
    { name: 'nothing appended below a merge key', before: SHARED, resource: 1, edit: (r) => appendToSequence(r, ['spec', 'template', 'spec', 'tolerations'], { key: 'y' }), after: undefined },
    { name: 'no field set in an anchored mapping (what aliases it would change too)', before: SHARED, edit: (r) => setField(r, ['spec', 'replicas'], 2), after: undefined },
    { name: 'a field outside what is shared is set as usual', before: SHARED, edit: (r) => setField(r, ['metadata', 'name'], 'c'), after: SHARED.replace('metadata: {name: a}', 'metadata: {name: "c"}') },
  ];
  for (const c of cases) check(c);
});

describe('appendDocument', () => {
  const THREE = 'apiVersion: v1\nkind: A\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: B\nmetadata:\n  name: b # keep\n---\napiVersion: v1\nkind: C\nmetadata:\n  name: c\n';
  const PDB = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b-pdb' }, spec: { maxUnavailable: 1 } };
  const cases: Case[] = [
    {
      name: 'after a middle document, before the next',
      before: THREE,
      resource: 1,
      edit: (r) => appendDocument(r, PDB),
      after: THREE.replace('  name: b # keep\n', '  name: b # keep\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: b-pdb\nspec:\n  maxUnavailable: 1\n'),
    },
    {
      name: 'after the last document without a final newline',
      before: THREE.trimEnd(),
      resource: 2,
      edit: (r) => appendDocument(r, { kind: 'X' }),
      after: `${THREE.trimEnd()}\n---\nkind: X\n`,
    },
    {
      name: 'in the file\'s indentation and line ends',
      before: 'apiVersion: v1\r\nkind: A\r\nmetadata:\r\n    name: a\r\n',
      edit: (r) => appendDocument(r, { metadata: { name: 'note' } }),
      after: 'apiVersion: v1\r\nkind: A\r\nmetadata:\r\n    name: a\r\n---\r\nmetadata:\r\n    name: note\r\n',
    },
    {
      name: 'before a `...` that ends the document (kubectl never reads what follows one before a `---` line), in the file\'s line ends',
      before: 'apiVersion: v1\r\nkind: A\r\nmetadata:\r\n  name: a\r\n... # end\r\n# notes\r\n',
      edit: (r) => appendDocument(r, { kind: 'X' }),
      after: 'apiVersion: v1\r\nkind: A\r\nmetadata:\r\n  name: a\r\n---\r\nkind: X\r\n... # end\r\n# notes\r\n',
    },
    {
      name: 'before a `...` line the file ends on without a final newline, with no blank line or line break added',
      before: 'apiVersion: v1\nkind: A\nmetadata:\n  name: a\n...',
      edit: (r) => appendDocument(r, { kind: 'X' }),
      after: 'apiVersion: v1\nkind: A\nmetadata:\n  name: a\n---\nkind: X\n...',
    },
    {
      name: 'a JSON file cannot hold a second document: no edit',
      uri: 'file:///a.json',
      before: '{"apiVersion": "v1", "kind": "A", "metadata": {"name": "a"}}',
      edit: (r) => appendDocument(r, PDB),
      after: undefined,
    },
  ];
  for (const c of cases) check(c);
});

describe('insertCommentAbove', () => {
  const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: a\n      image: x\n    - name: b\n      image: y\n';
  const cases: Case[] = [
    {
      name: 'above a sequence item, at the dash',
      before: POD,
      edit: (_, file, at) => insertCommentAbove(file, at + POD.indexOf('name: b'), 'note'),
      after: POD.replace('    - name: b', '    # note\n    - name: b'),
    },
    {
      name: 'above a key inside a sequence item, at that key',
      before: POD,
      edit: (_, file, at) => insertCommentAbove(file, at + POD.indexOf('image: y'), 'note'),
      after: POD.replace('      image: y', '      # note\n      image: y'),
    },
    {
      name: 'above the first line',
      before: POD,
      edit: (_, file, at) => insertCommentAbove(file, at, 'note'),
      after: `# note\n${POD}`,
    },
    {
      name: 'with CRLF',
      before: POD.replace(/\n/g, '\r\n'),
      edit: (_, file, at) => insertCommentAbove(file, file.text.indexOf('kind', at), 'note'),
      after: POD.replace('kind:', '# note\nkind:').replace(/\n/g, '\r\n'),
    },
    ...[
      ['a double-quoted string', '      command: ["sh", "-c", "sleep 1\n        && exec nginx"]\n'],
      ['a single-quoted string', "      command: ['sh', '-c', 'sleep 1\n        && exec nginx']\n"],
      ['a plain scalar', '      args: sleep 1\n        && exec nginx\n'],
      ['a block scalar', '      args: |\n        sleep 1\n        && exec nginx\n'],
    ].map(
      ([what, lines]): Case => ({
        name: `not on a line that starts inside ${what}: the comment would be its text (a command that no longer started nginx)`,
        before: POD.replace('      image: x\n', `      image: x\n${lines}`),
        edit: (_, file, at) => insertCommentAbove(file, file.text.indexOf('&& exec', at), 'note'),
        after: undefined,
      }),
    ),
  ];
  for (const c of cases) check(c);
});
