import { annotationInvalid } from '../../server/src/rules/annotation-invalid';
import { deploymentWith, indent } from './probe-fixtures';
import { ruleTester } from './rule-tester';

/** A CronJob whose Job template carries `jobAnnotations` and whose pod template carries `podAnnotations` (lines indented for each). */
const nightly = (jobAnnotations: string, podAnnotations = '') =>
  `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 3 * * *"\n  jobTemplate:\n    metadata:\n      annotations:\n${jobAnnotations}    spec:\n      template:\n        metadata:\n          annotations:\n${podAnnotations || '            example.com/owner: batch\n'}        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: report\n              image: example/report:1\n`;
const app = (annotations: string) => deploymentWith(indent('- name: app\n  image: example/app:1.0\n'), `  annotations:\n${annotations}`);

ruleTester(annotationInvalid, {
  valid: [
    {
      name: 'every declared fact well formed',
      code: app('    kube-resilience/startup-seconds: "120"\n    kube-resilience/sessions: in-memory\n    kube-resilience/session-seconds: "3600"\n    kube-resilience/ignore: pdb-missing, single-replica\n'),
    },
    { name: 'sessions kept in an external store', code: app('    kube-resilience/sessions: "external"\n') },
    { name: 'other annotations are none of our business', code: app('    example.com/startup-seconds: soon\n') },
    {
      name: "other tools' annotations written as strings, or left empty (null, which the API server takes as an empty string)",
      code: app('    cluster-autoscaler.kubernetes.io/safe-to-evict: "false"\n    prometheus.io/scrape: "true"\n    example.com/owner:\n'),
    },
    { name: "a CronJob's Job template and pod template annotations written as strings", code: nightly('        example.com/team: "reports"\n        kube-resilience/ignore: single-replica\n', '            cluster-autoscaler.kubernetes.io/safe-to-evict: "true"\n') },
    { name: 'a comment naming known rules, with a reason', code: app('    a: b\n').replace('  replicas: 2', '  # kube-resilience-ignore single-replica, pdb-missing -- a test cluster\n  replicas: 2') },
  ],
  invalid: [
    {
      name: 'startup-seconds with a unit',
      code: app('    kube-resilience/startup-seconds: "2m"\n'),
      findings: [{ at: '"2m"', severity: 'warning', message: 'kube-resilience/startup-seconds is "2m", not a number of seconds: the probe rules ignore it. It takes a positive whole number of seconds, quoted (e.g. "120").' }],
      output: null,
    },
    {
      name: 'session-seconds with a unit',
      code: app('    kube-resilience/session-seconds: "1h"\n'),
      findings: [{ at: '"1h"', severity: 'warning', message: 'kube-resilience/session-seconds is "1h", not a number of seconds: the session fixes assume a length. It takes a positive whole number of seconds, quoted (e.g. "3600").' }],
      output: null,
    },
    {
      name: 'session-seconds as a bare number: the fix quotes it',
      code: app('    kube-resilience/session-seconds: 3600\n'),
      findings: [{ at: '3600', message: /^kube-resilience\/session-seconds is a YAML number, not a string: the API server rejects the whole Deployment\./ }],
      output: app('    kube-resilience/session-seconds: "3600"\n'),
    },
    {
      name: 'a boolean or a number is quoted as written: `yes` stays "yes" (it became "true") and `1.50` stays "1.50" (it became "1.5")',
      code: app('    kube-resilience/sessions: yes # decided in review\n    kube-resilience/session-seconds: 1.50\n'),
      findings: [
        { at: 'yes', message: /^kube-resilience\/sessions is a YAML boolean, not a string: .* quote it \("yes"\)\.$/ },
        { at: '1.50', message: /^kube-resilience\/session-seconds is a YAML number, not a string: .* quote it \("1\.50"\)\.$/ },
      ],
      output: app('    kube-resilience/sessions: "yes" # decided in review\n    kube-resilience/session-seconds: "1.50"\n'),
      fixLeaves: [/^kube-resilience\/sessions is "yes", which the session rules ignore\./, /^kube-resilience\/session-seconds is "1\.50", not a number of seconds/],
    },
    {
      name: 'in a later document of the file, the text quoted is that document\'s own',
      code: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n---\n${app('    kube-resilience/sessions: yes\n')}`,
      findings: [{ at: 'yes', message: /quote it \("yes"\)\.$/ }],
      output: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n---\n${app('    kube-resilience/sessions: "yes"\n')}`,
      fixLeaves: [/^kube-resilience\/sessions is "yes", which the session rules ignore\./],
    },
    { name: 'startup-seconds zero', code: app('    kube-resilience/startup-seconds: "0"\n'), findings: [{ at: '"0"', message: /is "0", not a number of seconds: the probe rules ignore it\. It takes a positive whole number/ }] },
    {
      name: 'any annotation written as a boolean or a number, on the workload or its pods: the API server rejects it all the same (the autoscaler\'s safe-to-evict was read as set); the fix quotes it',
      code: app('    prometheus.io/scrape: true\n').replace('        app: web\n    spec:', '        app: web\n      annotations:\n        cluster-autoscaler.kubernetes.io/safe-to-evict: false # keep the sessions\n    spec:'),
      findings: [
        { at: 'true', message: 'prometheus.io/scrape is a YAML boolean, not a string: the API server rejects the whole Deployment. Annotation values must be strings; quote it ("true").' },
        { at: 'false', message: 'cluster-autoscaler.kubernetes.io/safe-to-evict is a YAML boolean, not a string: the API server rejects the whole Deployment. Annotation values must be strings; quote it ("false").' },
      ],
      output: app('    prometheus.io/scrape: "true"\n').replace('        app: web\n    spec:', '        app: web\n      annotations:\n        cluster-autoscaler.kubernetes.io/safe-to-evict: "false" # keep the sessions\n    spec:'),
    },
    {
      name: 'a map or a list as an annotation value: the API server rejects it, and no "[object Object]" is offered to quote',
      code: app('    example.com/config: {level: debug}\n    example.com/hosts: [a, b]\n'),
      findings: [
        { at: '{level: debug}', message: 'example.com/config is a YAML map, not a string: the API server rejects the whole Deployment. Annotation values must be strings.' },
        { at: '[a, b]', message: 'example.com/hosts is a YAML list, not a string: the API server rejects the whole Deployment. Annotation values must be strings.' },
      ],
      output: null,
    },
    {
      name: 'an unquoted number: the API server rejects it; the fix quotes it',
      code: app('    kube-resilience/startup-seconds: 120 # measured\n'),
      findings: [{ at: '120', message: 'kube-resilience/startup-seconds is a YAML number, not a string: the API server rejects the whole Deployment. Annotation values must be strings; quote it ("120").' }],
      output: app('    kube-resilience/startup-seconds: "120" # measured\n'),
    },
    {
      name: 'sessions with an unknown value, on the pod template',
      code: deploymentWith(indent('- name: app\n  image: a\n')).replace('      labels:\n        app: web\n', '      labels:\n        app: web\n      annotations:\n        kube-resilience/sessions: sticky\n'),
      findings: [{ at: 'sticky', message: /kube-resilience\/sessions is "sticky", which the session rules ignore\. It takes "in-memory" \(sessions die with the pod\) or "external"/ }],
    },
    {
      name: 'ignore with a misspelt rule id',
      code: app('    kube-resilience/ignore: pdb-missing,single-replicas\n'),
      findings: [{ at: 'pdb-missing,single-replicas', message: /names "single-replicas", which is not a rule id: nothing is ignored for it\. It takes comma-separated rule ids such as .*\./ }],
    },
    {
      name: 'an unknown kube-resilience annotation key',
      code: app('    kube-resilience/startup: "120"\n'),
      findings: [{ at: 'kube-resilience/startup', message: /^kube-resilience\/startup is not an annotation of Kube Resilience: it is ignored on Deployment web\. Kube Resilience reads kube-resilience\/startup-seconds, kube-resilience\/sessions, kube-resilience\/session-seconds, kube-resilience\/ignore\./ }],
    },
    {
      // The Job template's annotations were not read; the pod template's were.
      name: "a CronJob's Job template annotations are read as its pod template's: a boolean or a number there has the API server reject the CronJob; the fix quotes each",
      code: nightly('        example.com/paged: true # wakes the on-call\n', '            example.com/retries: 3\n'),
      findings: [
        { at: 'true', line: 10, message: 'example.com/paged is a YAML boolean, not a string: the API server rejects the whole CronJob. Annotation values must be strings; quote it ("true").' },
        { at: '3', message: 'example.com/retries is a YAML number, not a string: the API server rejects the whole CronJob. Annotation values must be strings; quote it ("3").' },
      ],
      output: nightly('        example.com/paged: "true" # wakes the on-call\n', '            example.com/retries: "3"\n'),
    },
    {
      name: "a misspelt rule id and an unknown key in a CronJob's Job template",
      code: nightly('        kube-resilience/ignore: single-replicas\n        kube-resilience/startup: "120"\n'),
      findings: [
        { at: 'single-replicas', message: /^kube-resilience\/ignore names "single-replicas", which is not a rule id: nothing is ignored for it\./ },
        { at: 'kube-resilience/startup', message: /^kube-resilience\/startup is not an annotation of Kube Resilience: it is ignored on CronJob nightly\./ },
      ],
    },
    {
      name: 'an unknown rule id in an ignore comment, at the id',
      code: app('    a: b\n').replace('  replicas: 2', '  # kube-resilience-ignore single-replica, replica-single -- a test cluster\n  replicas: 2'),
      findings: [{ at: 'replica-single', line: 8, message: '"replica-single" is not a rule id, so this kube-resilience-ignore comment ignores nothing. The comment takes rule ids separated by commas, then "-- reason".' }],
    },
  ],
});
