/* eslint-disable @typescript-eslint/no-explicit-any */
import type { Resource } from '../manifest/parse';

/** How long the node controller waits for a silent node before marking it NotReady, and how that was found. */
export interface NodeMonitorGrace {
  seconds: number;
  how: string;
}

/** What of kubeadm's ClusterConfiguration tells the grace period: the controller manager's flags and the version. */
export interface KubeadmControllerManager {
  kubernetesVersion?: unknown;
  controllerManager?: { extraArgs?: unknown };
}

const FLAG = 'node-monitor-grace-period';
/** The default became 50 s in v1.32 (kubernetes/kubernetes#126287); 40 s before. */
const DEFAULT_SINCE_1_32 = 50;
const DEFAULT_BEFORE_1_32 = 40;
/** A value beyond a day is no grace period anyone sets: a misread, left for the version to tell. */
const MAX_SECONDS = 86_400;

/**
 * The controller manager's --node-monitor-grace-period: from the flags of its static pods (the leader's first, it is
 * the one whose node controller acts), else from kubeadm's extraArgs, else its version's default. Undefined when
 * none of them is visible (a managed control plane, or a user who may not list kube-system's pods).
 */
export function nodeMonitorGrace(controllerManagers: Resource[], leaderNode: string | undefined, kubeadm: KubeadmControllerManager | undefined): NodeMonitorGrace | undefined {
  const pods = [...controllerManagers].sort((a, b) => Number(nodeOf(b) === leaderNode) - Number(nodeOf(a) === leaderNode));
  for (const pod of pods) {
    const value = flagValue(commandLine(pod));
    const seconds = value === undefined ? undefined : goDurationSeconds(value);
    if (seconds !== undefined) return { seconds, how: `--${FLAG}=${value} in ${pod.name}` };
  }
  const extra = extraArg(kubeadm?.controllerManager?.extraArgs);
  const extraSeconds = extra === undefined ? undefined : goDurationSeconds(extra);
  if (extraSeconds !== undefined) return { seconds: extraSeconds, how: `kubeadm-config sets controllerManager's ${FLAG} to ${extra}` };
  for (const pod of pods) {
    const version = minorVersion(imageOf(pod));
    if (version) return byVersion(version, `the image of ${pod.name}`);
  }
  const version = typeof kubeadm?.kubernetesVersion === 'string' ? minorVersion(kubeadm.kubernetesVersion) : undefined;
  return version ? byVersion(version, 'kubeadm-config') : undefined;
}

function byVersion({ text, major, minor }: { text: string; major: number; minor: number }, where: string): NodeMonitorGrace {
  const recent = major > 1 || minor >= 32;
  const seconds = recent ? DEFAULT_SINCE_1_32 : DEFAULT_BEFORE_1_32;
  return { seconds, how: `no --${FLAG} flag; ${where} is ${text}, whose default is ${seconds} s` };
}

function nodeOf(pod: Resource): unknown {
  return pod.object?.spec?.nodeName;
}

function containerOf(pod: Resource): any {
  const containers: unknown[] = Array.isArray(pod.object?.spec?.containers) ? pod.object.spec.containers : [];
  return containers.find((c: any) => c?.name === 'kube-controller-manager') ?? containers[0];
}

function commandLine(pod: Resource): string[] {
  const container = containerOf(pod);
  const words = [...(Array.isArray(container?.command) ? container.command : []), ...(Array.isArray(container?.args) ? container.args : [])];
  return words.filter((w): w is string => typeof w === 'string');
}

function imageOf(pod: Resource): string {
  const image = containerOf(pod)?.image;
  return typeof image === 'string' ? image : '';
}

/** The flag's value, written `--flag=value` or `--flag value` (the last one counts, as with Go's flag parsing). */
function flagValue(words: string[]): string | undefined {
  let value: string | undefined;
  words.forEach((word, i) => {
    if (word.startsWith(`--${FLAG}=`)) value = word.slice(FLAG.length + 3);
    else if (word === `--${FLAG}` && i + 1 < words.length) value = words[i + 1];
  });
  return value;
}

/** kubeadm's extraArgs: a map (v1beta3) or a list of name and value (v1beta4). */
function extraArg(extraArgs: unknown): string | undefined {
  if (Array.isArray(extraArgs)) {
    const found = extraArgs.filter((a: any) => a?.name === FLAG && typeof a?.value === 'string').at(-1);
    return found?.value;
  }
  const value = extraArgs && typeof extraArgs === 'object' ? (extraArgs as Record<string, unknown>)[FLAG] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** `v1.31.2` in an image's tag or a version string (`registry.k8s.io/kube-controller-manager:v1.31.2`). */
function minorVersion(text: string): { text: string; major: number; minor: number } | undefined {
  const tag = text.includes('/') || text.includes(':') ? (text.split('@')[0].split('/').pop()?.split(':')[1] ?? '') : text;
  const match = /^v?(\d{1,3})\.(\d{1,3})(?:\.\d{1,5})?/.exec(tag);
  return match ? { text: match[0].startsWith('v') ? match[0] : `v${match[0]}`, major: Number(match[1]), minor: Number(match[2]) } : undefined;
}

const GO_UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** A Go duration (`40s`, `1m0s`, `1.5m`, `500ms`) in seconds; undefined when it is none, or not a usable grace period. */
function goDurationSeconds(text: string): number | undefined {
  if (!/^(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(amount) * GO_UNITS[unit];
  // The simulator's step is a second.
  return total > 0 && total <= MAX_SECONDS ? Math.max(1, Math.round(total)) : undefined;
}
