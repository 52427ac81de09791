import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeHandler, failureBudgetSeconds, frameworkOf, portNameFault, probeHandler, probeTimings, refusedTiming, resolvePort, sameHandler, startBudgetSeconds } from '../../server/src/manifest/probe';

const container = { name: 'app', ports: [{ name: 'http', containerPort: 8080 }, { name: 'grpc', containerPort: 9090 }] };

describe('probe helpers', () => {
  it('resolves a named port to the number the container declares', () => {
    assert.equal(resolvePort('http', container), '8080');
    assert.equal(resolvePort(8080, container), '8080');
    assert.equal(resolvePort('8080', container), '8080');
    assert.equal(resolvePort('metrics', container), 'metrics', 'an undeclared name stays as written');
    assert.equal(resolvePort('http', {}), 'http');
  });

  it('reads each handler type', () => {
    assert.deepEqual(probeHandler({ httpGet: { path: '/healthz/', port: 'http' } }, container), { type: 'httpGet', path: '/healthz', port: '8080', host: undefined, scheme: 'HTTP' });
    assert.deepEqual(probeHandler({ httpGet: { port: 80, scheme: 'https' } }, container), { type: 'httpGet', path: '/', port: '80', host: undefined, scheme: 'HTTPS' });
    assert.deepEqual(probeHandler({ tcpSocket: { port: 'grpc' } }, container), { type: 'tcpSocket', port: '9090' });
    assert.deepEqual(probeHandler({ exec: { command: ['cat', '/tmp/ok'] } }, container), { type: 'exec', command: '["cat","/tmp/ok"]' });
    assert.deepEqual(probeHandler({ grpc: { port: 9090 } }, container), { type: 'grpc', port: '9090', service: '' });
    assert.equal(probeHandler({ periodSeconds: 5 }, container), undefined, 'no handler');
    assert.equal(probeHandler(null, container), undefined);
    assert.equal(probeHandler('httpGet', container), undefined);
  });

  it('compares handlers after resolving names and trailing slashes', () => {
    const a = probeHandler({ httpGet: { path: '/health/', port: 'http' } }, container);
    const b = probeHandler({ httpGet: { path: '/health', port: 8080 } }, container);
    const c = probeHandler({ httpGet: { path: '/ready', port: 8080 } }, container);
    assert.equal(sameHandler(a, b), true);
    assert.equal(sameHandler(a, c), false);
    assert.equal(sameHandler(undefined, undefined), false, 'two missing probes are not the same check');
  });

  it('describes handlers in words', () => {
    assert.equal(describeHandler(probeHandler({ httpGet: { path: '/h', port: 'http' } }, container)!), 'GET /h on port 8080');
    assert.equal(describeHandler(probeHandler({ tcpSocket: { port: 5432 } }, container)!), 'TCP port 5432');
    assert.equal(describeHandler(probeHandler({ exec: { command: ['pg_isready', '-q'] } }, container)!), 'exec pg_isready -q');
    assert.equal(describeHandler(probeHandler({ grpc: { port: 9090, service: 'health' } }, container)!), 'gRPC port 9090 service health');
  });

  it('fills timings with the Kubernetes defaults', () => {
    assert.deepEqual(probeTimings({}, 'livenessProbe'), { initialDelaySeconds: 0, periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 1, successThreshold: 1 });
    assert.deepEqual(probeTimings({ periodSeconds: 5, failureThreshold: null }, 'readinessProbe'), { initialDelaySeconds: 0, periodSeconds: 5, failureThreshold: 3, timeoutSeconds: 1, successThreshold: 1 });
    assert.equal(failureBudgetSeconds({ periodSeconds: 5, failureThreshold: 6 }, 'livenessProbe'), 30);
    assert.equal(failureBudgetSeconds(undefined, 'readinessProbe'), 30);
  });

  it('reads a 0 period, timeout or threshold as its default, as the API server sets it (a probe "every 0 s … 0 s to act"): a 0 is no refusal, on any probe', () => {
    const zeros = { periodSeconds: 0, failureThreshold: 0, timeoutSeconds: 0, successThreshold: 0, initialDelaySeconds: 0 };
    for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
      assert.deepEqual(probeTimings(zeros, kind), { initialDelaySeconds: 0, periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 1, successThreshold: 1 }, kind);
      assert.equal(refusedTiming(zeros, kind), undefined, kind);
    }
  });

  it('has no timings for a probe with one written as no integer ("6", 1.5), which the API server cannot decode: not its defaults either', () => {
    assert.deepEqual(refusedTiming({ periodSeconds: 5, failureThreshold: '6' }, 'livenessProbe'), { field: 'failureThreshold', value: '6', why: 'is no integer' });
    assert.deepEqual(refusedTiming({ periodSeconds: 1.5 }, 'readinessProbe'), { field: 'periodSeconds', value: 1.5, why: 'is no integer' });
    assert.equal(refusedTiming({ periodSeconds: 5, timeoutSeconds: null }, 'livenessProbe'), undefined);
    assert.equal(probeTimings({ initialDelaySeconds: '30' }, 'livenessProbe'), undefined);
    assert.equal(failureBudgetSeconds({ failureThreshold: '6' }, 'readinessProbe'), undefined);
    assert.equal(startBudgetSeconds({ initialDelaySeconds: '300' }, 'startupProbe'), undefined);
  });

  it('has no timings for a probe with a negative one, which the API server refuses after defaulting (validateProbe): the defaults are not read in its place', () => {
    for (const field of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
      assert.deepEqual(refusedTiming({ [field]: -1 }, 'readinessProbe'), { field, value: -1, why: 'is negative' }, field);
    }
    assert.equal(failureBudgetSeconds({ failureThreshold: -3, periodSeconds: 5 }, 'readinessProbe'), undefined);
    assert.equal(startBudgetSeconds({ initialDelaySeconds: -5 }, 'livenessProbe'), undefined);
  });

  it('refuses a successThreshold other than 1 on a liveness or startup probe (0 is defaulted to 1), and takes any count on readiness', () => {
    for (const kind of ['livenessProbe', 'startupProbe'] as const) {
      for (const value of [2, -1]) assert.deepEqual(refusedTiming({ successThreshold: value }, kind), { field: 'successThreshold', value, why: 'must be 1' }, `${kind} ${value}`);
      assert.equal(probeTimings({ successThreshold: 2 }, kind), undefined, kind);
      assert.equal(refusedTiming({ successThreshold: 1 }, kind), undefined, kind);
    }
    assert.equal(refusedTiming({ successThreshold: 2 }, 'readinessProbe'), undefined);
    assert.equal(probeTimings({ successThreshold: 2 }, 'readinessProbe')?.successThreshold, 2);
  });

  it("refuses a probe's own terminationGracePeriodSeconds that is not a whole number above 0", () => {
    assert.deepEqual(refusedTiming({ terminationGracePeriodSeconds: 0 }, 'livenessProbe'), { field: 'terminationGracePeriodSeconds', value: 0, why: 'must be greater than 0' });
    assert.deepEqual(refusedTiming({ terminationGracePeriodSeconds: -30 }, 'startupProbe'), { field: 'terminationGracePeriodSeconds', value: -30, why: 'must be greater than 0' });
    assert.deepEqual(refusedTiming({ terminationGracePeriodSeconds: '30' }, 'livenessProbe'), { field: 'terminationGracePeriodSeconds', value: '30', why: 'is no integer' });
    assert.equal(failureBudgetSeconds({ terminationGracePeriodSeconds: 0 }, 'livenessProbe'), undefined);
    assert.equal(refusedTiming({ terminationGracePeriodSeconds: 1 }, 'livenessProbe'), undefined);
    assert.equal(refusedTiming({ terminationGracePeriodSeconds: null }, 'livenessProbe'), undefined);
  });

  it('refuses a terminationGracePeriodSeconds on a readiness probe, whatever it is (validateReadinessProbe: "must not be set for readinessProbes"), before asking whether it is a number', () => {
    for (const value of [30, 0, '30', -1]) {
      assert.deepEqual(refusedTiming({ terminationGracePeriodSeconds: value }, 'readinessProbe'), { field: 'terminationGracePeriodSeconds', value, why: 'is for liveness and startup probes only' }, String(value));
    }
    assert.equal(failureBudgetSeconds({ periodSeconds: 5, terminationGracePeriodSeconds: 30 }, 'readinessProbe'), undefined);
    assert.equal(refusedTiming({ terminationGracePeriodSeconds: null }, 'readinessProbe'), undefined);
    assert.equal(refusedTiming({ terminationGracePeriodSeconds: 30 }, 'livenessProbe'), undefined);
  });

  it('knows the aggregate health endpoints of frameworks', () => {
    assert.equal(frameworkOf('/actuator/health')?.name, 'Spring Boot');
    assert.equal(frameworkOf('/actuator/health')?.liveness, '/actuator/health/liveness');
    assert.equal(frameworkOf('/q/health')?.name, 'Quarkus');
    assert.equal(frameworkOf('/actuator/health/liveness'), undefined);
  });
});

describe('portNameFault: a port name as the API server checks it (IsValidPortName)', () => {
  it('takes lowercase letters, digits and single hyphens inside, with a letter, up to 15 characters', () => {
    for (const name of ['http', 'metrics-2', 'a', 'abcdefghijklmno']) assert.equal(portNameFault(name), undefined, name);
  });

  it('says what it refuses', () => {
    assert.deepEqual(
      ['8080', 'HTTP', 'web_ui', 'abcdefghijklmnop', '-http', 'http-', 'ht--tp'].map(portNameFault),
      ['it has no letter', 'it has characters other than lowercase letters, digits and hyphens', 'it has characters other than lowercase letters, digits and hyphens', 'it is longer than 15 characters', 'it has a hyphen at an end, or two in a row', 'it has a hyphen at an end, or two in a row', 'it has a hyphen at an end, or two in a row'],
    );
  });
});
