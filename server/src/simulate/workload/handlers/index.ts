import type { Handlers } from '../run';
import { onControlPlaneChange } from './control-plane';
import { onCorednsRestart, onCorednsSynced } from './coredns-restart';
import { onDrainStart, onEviction, onEvictionAttempt, onEvictionRefused, onNodeRemoved } from './eviction';
import { onNodeDown, onPodsBack } from './node-down';
import { onPodCrash } from './pod-crash';
import { onReplacementReady, onReplacementScheduled } from './replacement';
import { onContainerRestarted } from './restart';
import { onOomKill, onScaleOut, onSurge } from './surge';

/** One handler per kind of event: a new scenario is a new handler here, not a new branch elsewhere. */
export const HANDLERS: Handlers = {
  'node-down': onNodeDown,
  'pods-back': onPodsBack,
  'pod-crash': onPodCrash,
  'container-restarted': onContainerRestarted,
  'replacement-scheduled': onReplacementScheduled,
  'replacement-ready': onReplacementReady,
  'traffic-surge': onSurge,
  'coredns-restart': onCorednsRestart,
  'coredns-synced': onCorednsSynced,
  'oom-kill': onOomKill,
  'scale-out': onScaleOut,
  'control-plane-change': onControlPlaneChange,
  'drain-start': onDrainStart,
  'node-removed': onNodeRemoved,
  'eviction-attempt': onEvictionAttempt,
  eviction: onEviction,
  'eviction-refused': onEvictionRefused,
};
