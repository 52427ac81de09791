import { Methods } from '../../../server/src/protocol';
import { type FindingRef, type FromWebview, sameScenario, type SimulationInput, type ToWebview, validateFromWebview, validateSimulationInput, validateSimulationResult, validateToWebview } from '../../../server/src/simulate/messages';
import { renderSimulationMarkdown } from '../../../server/src/simulate/report-markdown';
import type { Scenario, SimulationResult } from '../../../server/src/simulate/types';

/** What the host needs from its surroundings: the language server, the webview, a log and an editor. */
export interface HostPorts {
  /** Asks the language server; `cancelled` aborts when the answer is no longer wanted. */
  request(method: string, params: unknown, cancelled?: AbortSignal): Promise<unknown>;
  post(message: ToWebview): void;
  log(message: string): void;
  openReport(markdown: string): Promise<void>;
  /** Shows a finding in its manifest with its fixes. */
  openFinding(finding: FindingRef): Promise<void>;
}

/**
 * The extension's side of the simulation page, free of vscode: checks what the page sends, asks the
 * language server, checks what it answers, and hands the page only messages that validate.
 */
export class SimulationHost {
  private ready = false;
  private pendingFocus: ToWebview | undefined;
  /** A workload whose node is to be drained once the page knows the cluster (a finding's hover asked). */
  private pendingDrain: { namespace: string; workload: string } | undefined;
  private last: SimulationResult | undefined;
  private input: SimulationInput | undefined;
  /**
   * The simulation whose answer is awaited, cancelled once a newer one is asked or the page is hidden or closed: only
   * the newest answer is shown (the page may change faster than the engine answers), and one no longer awaited held
   * a worker for seconds.
   */
  private running: AbortController | undefined;

  constructor(private readonly ports: HostPorts) {}

  /** Everything the page posts arrives here, unchecked. */
  async receive(raw: unknown): Promise<void> {
    const checked = validateFromWebview(raw);
    if (!checked.ok) return this.ports.log(`simulation page: dropped message: ${checked.error}`);
    const message: FromWebview = checked.value;
    switch (message.type) {
      case 'ready': {
        this.ready = true;
        const drawn = await this.sendInput();
        if (this.pendingFocus) this.send(this.pendingFocus);
        this.pendingFocus = undefined;
        // A drain asked for a cluster that could not be read is not kept for a later page (it ran, unasked, on one).
        if (drawn) this.sendDrain();
        else this.pendingDrain = undefined;
        return;
      }
      case 'simulate':
        await this.simulate(message.scenario);
        return;
      case 'export':
        await this.export(message.scenario);
        return;
      case 'open-finding':
        try {
          await this.ports.openFinding(message.finding);
        } catch (error) {
          this.fail(`cannot show the finding: ${(error as Error).message}`);
        }
        return;
    }
  }

  /** Opens the page on a `kubectl drain` of the node the workload runs on, as soon as the page knows the cluster. */
  drainNodeOf(namespace: string, workload: string): void {
    this.pendingDrain = { namespace, workload };
    this.focus(namespace, workload);
    this.sendDrain();
  }

  private sendDrain(): void {
    const wanted = this.pendingDrain;
    if (!wanted || !this.ready) return;
    this.pendingDrain = undefined;
    // The page is up without the cluster: the drain is said to fail now, not kept for a page that comes later.
    if (!this.input) return this.fail(`cannot drain the node of ${wanted.namespace}/${wanted.workload}: the cluster could not be read`);
    const node = this.input.nodes.find((n) => n.pods.some((p) => p.namespace === wanted.namespace && p.workload === wanted.workload));
    if (!node) return this.fail(`${wanted.namespace}/${wanted.workload} runs on no node of this cluster: nothing to drain`);
    this.send({ type: 'scenario', scenario: { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: node.name, at: 0 }] } });
  }

  /** Brings one workload forward, now or as soon as the page is ready. */
  focus(namespace: string, workload: string): void {
    const message: ToWebview = { type: 'focus', namespace, workload };
    if (this.ready) this.send(message);
    else this.pendingFocus = message;
  }

  /** The page was reloaded or recreated: it says ready again (and simulates again). */
  reset(): void {
    this.ready = false;
    this.cancelRunning();
  }

  /** The page was closed. */
  dispose(): void {
    this.cancelRunning();
  }

  private cancelRunning(): void {
    this.running?.abort();
    this.running = undefined;
  }

  private send(message: ToWebview): void {
    const checked = validateToWebview(message);
    if (!checked.ok) return this.ports.log(`simulation page: not sent: ${checked.error}`);
    this.ports.post(checked.value);
  }

  /**
   * The server's cluster changed (another context, a refresh): the page draws it, and a report is not exported from
   * the result on the cluster before (it was, under the old name, while the user took it for the current one).
   */
  async clusterChanged(): Promise<void> {
    this.last = undefined;
    if (this.ready) await this.sendInput(true);
  }

  /**
   * Sends the cluster's drawing; `onlyIfChanged`: when the server's cluster has changed since (a live cluster read after
   * the demo). Whether the page has the server's cluster.
   */
  private async sendInput(onlyIfChanged = false): Promise<boolean> {
    try {
      const checked = validateSimulationInput(await this.ports.request(Methods.simulationInput, {}));
      if (!checked.ok) {
        this.fail(`the language server answered an unreadable cluster (${checked.error})`);
        return false;
      }
      if (onlyIfChanged && JSON.stringify(checked.value) === JSON.stringify(this.input)) return true;
      this.input = checked.value;
      this.send({ type: 'input', input: checked.value });
      return true;
    } catch (error) {
      this.fail(`cannot read the cluster: ${(error as Error).message}`);
      return false;
    }
  }

  private async run(scenario: Scenario, cancelled?: AbortSignal): Promise<SimulationResult | undefined> {
    const checked = validateSimulationResult(await this.ports.request(Methods.simulate, { scenario }, cancelled));
    if (checked.ok) return checked.value;
    this.fail(`the language server answered an unreadable simulation (${checked.error})`);
    return undefined;
  }

  private async simulate(scenario: Scenario): Promise<void> {
    this.cancelRunning();
    const running = (this.running = new AbortController());
    this.send({ type: 'busy' });
    try {
      const result = await this.run(scenario, running.signal);
      // A newer simulation, or the page hidden or closed, cancelled this one: its answer, if it came all the same, is not shown.
      if (!result || running.signal.aborted) return;
      this.last = result;
      this.send({ type: 'result', result });
      // The page then simulates again on the new cluster, which leaves the drawing unchanged: no loop.
      await this.sendInput(true);
    } catch (error) {
      if (!running.signal.aborted) this.fail(`the simulation failed: ${(error as Error).message}`);
    } finally {
      if (this.running === running) this.running = undefined;
    }
  }

  private async export(scenario: Scenario): Promise<void> {
    try {
      const result = this.last && sameScenario(this.last.scenario, scenario) ? this.last : await this.run(scenario);
      if (!result) return;
      await this.ports.openReport(renderSimulationMarkdown(result, { cluster: this.input?.cluster.name }));
    } catch (error) {
      this.fail(`cannot export the report: ${(error as Error).message}`);
    }
  }

  private fail(message: string): void {
    this.ports.log(`simulation: ${message}`);
    this.send({ type: 'error', message });
  }
}
