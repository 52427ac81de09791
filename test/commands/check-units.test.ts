import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { it } from 'node:test';
import { asGiven } from '../../server/src/commands/check-units';

it('asGiven: a path below the working folder is named from there, `..app.yaml` included; one above it as it is', () => {
  assert.equal(asGiven(resolve('k8s', 'app.yaml')), 'k8s/app.yaml');
  assert.equal(asGiven(resolve('..app.yaml')), '..app.yaml');
  assert.equal(asGiven(resolve('..', 'app.yaml')), resolve('..', 'app.yaml'));
});
