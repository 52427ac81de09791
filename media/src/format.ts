import type { ComponentName, State } from '../../server/src/simulate/types';

export const COMPONENT_LABELS: Record<ComponentName, string> = {
  api: 'API',
  etcd: 'etcd',
  scheduling: 'Scheduling',
  controllers: 'Controllers',
  autoscaling: 'Autoscaling',
  dns: 'DNS',
  'service-routing': 'Service routing',
  kubectl: 'kubectl',
};

export const STATE_LABELS: Record<State, string> = { ok: 'working', degraded: 'degraded', down: 'down' };
