import { templatedFile } from '../../server/src/rules/templated-file';
import { ruleTester } from './rule-tester';

ruleTester(templatedFile, {
  valid: [
    {
      name: 'alert templates inside quoted and block scalars of a real manifest',
      code: 'apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: r\nspec:\n  groups:\n    - name: g\n      rules:\n        - alert: Down\n          annotations:\n            summary: "{{ $labels.instance }} is down"\n            description: |\n              {{ $labels.job }} has been down for 5 minutes\n',
    },
    { name: 'a plain manifest', code: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n' },
  ],
  invalid: [
    {
      name: 'a Helm template: one finding at the first expression, no parse noise',
      code: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include "app.fullname" . }}\nspec:\n  replicas: {{ .Values.replicas }}\n',
      findings: [{ at: '{{ include "app.fullname" . }}', message: /is a template/ }],
      output: null,
    },
    {
      name: 'a template whose control lines break YAML is still one templated finding',
      code: '{{- if .Values.enabled }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n{{- end }}\n',
      findings: [{ line: 1, message: /is a template/ }],
    },
  ],
});
