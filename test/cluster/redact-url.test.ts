import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactUrl } from '../../server/src/cluster/redact-url';

describe('a URL as it may be printed or stored', () => {
  const cases: [string, string][] = [
    ['https://admin:hunter2@k8s.example:6443', 'https://***@k8s.example:6443'],
    ['https://token-only@10.0.0.1/', 'https://***@10.0.0.1/'],
    ['https://k8s.example/prefix?token=abc&x=1#frag', 'https://k8s.example/prefix?token=***&x=***#frag'],
    ['https://u:p@k8s.example:6443/api?access_token=s3cr3t', 'https://***@k8s.example:6443/api?access_token=***'],
    ['https://k8s.example:6443', 'https://k8s.example:6443'],
    ['not a url user:pass@host', 'not a url user:pass@host'],
    ['admin:hunter2@k8s.example:6443', '***@k8s.example:6443'],
    ['https://us er:pa ss@host with spaces', 'https://***@host with spaces'],
    ['https://admin:pa/ss@127.0.0.1:6443', 'https://***@127.0.0.1:6443'],
    ['https://admin:pa?ss@127.0.0.1:6443', 'https://***@127.0.0.1:6443'],
    ['https://admin:pa#ss@127.0.0.1:6443', 'https://***@127.0.0.1:6443'],
  ];
  for (const [url, printed] of cases) {
    it(`${url} → ${printed}`, () => assert.equal(redactUrl(url), printed));
  }
});
