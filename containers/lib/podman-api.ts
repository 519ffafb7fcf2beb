/**
 * Podman's Docker-compatible API on a socket of its own (`podman system service`), for Docker Compose,
 * and the healthchecks that Docker's daemon would run. Podman runs a container's HEALTHCHECK from a
 * systemd timer; on a machine without systemd it warns and never runs it, so a health-gated
 * `depends_on` would wait for ever. The ticker below runs each running container's check every
 * interval (`podman healthcheck run`, which records the result as Docker's daemon does), nothing more.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '@mm/testing';
import { podman, startProcess } from './podman.js';

export interface PodmanApi {
  /** DOCKER_HOST for Docker Compose. */
  dockerHost: string;
  /**
   * When the first passing check of this run of the container began (ms since the epoch), or null: a
   * container restarted by its policy starts again unchecked, as under Docker.
   */
  firstHealthy(container: { id: string; startedAt: string }): number | null;
  close(): Promise<void>;
}

export async function startPodmanApi(): Promise<PodmanApi> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-podman-api-'));
  const socket = path.join(dir, 'podman.sock');
  const service = startProcess('podman', ['system', 'service', '--time=0', `unix://${socket}`]);
  const dockerHost = `unix://${socket}`;
  await waitFor(
    async () => {
      if (service.child.exitCode !== null) throw new Error(`podman system service exited: ${service.output()}`);
      return podman(['--url', dockerHost, 'version']).then(
        () => true,
        () => false,
      );
    },
    { what: 'podman system service to answer', timeoutMs: 30_000, intervalMs: 200 },
  );
  const ticker = startHealthTicker();
  return {
    dockerHost,
    firstHealthy: (c) => ticker.firstHealthy.get(runOf(c.id, Math.floor(Date.parse(c.startedAt) / 1000))) ?? null,
    async close() {
      ticker.stop();
      await ticker.done;
      service.child.kill('SIGTERM');
      await new Promise((r) => (service.child.exitCode !== null ? r(null) : service.child.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Checked {
  due: number;
  intervalMs: number;
  passed: boolean;
}

/** One run of a container: a restart (same id) is another run, whose health is unknown again. */
const runOf = (id: string, startedAtS: number) => `${id}@${startedAtS}`;

function startHealthTicker(): { stop(): void; done: Promise<void>; firstHealthy: Map<string, number> } {
  let stopped = false;
  const known = new Map<string, Checked>();
  // Podman's record of checks keeps the last five only: the moment a run first turned healthy is kept here.
  const firstHealthy = new Map<string, number>();
  const loop = async () => {
    while (!stopped) {
      const running = (await podman(['ps', '--no-trunc', '--format', '{{.ID}} {{.StartedAt}}']).catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [id, started] = line.split(' ');
          return { id: id!, run: runOf(id!, Number(started)) };
        });
      const now = Date.now();
      for (const { id, run } of running) {
        if (!known.has(run)) {
          const [c] = JSON.parse(await podman(['inspect', id]).catch(() => '[{}]')) as Array<{
            Config?: { Healthcheck?: { Test?: string[]; Interval?: number } };
          }>;
          const hc = c?.Config?.Healthcheck;
          // Interval is in nanoseconds; Docker's default is 30 s. No check (or NONE): never run.
          const intervalMs =
            hc?.Test?.length && hc.Test[0] !== 'NONE' ? Math.max(1000, (hc.Interval || 30e9) / 1e6) : Infinity;
          // Until its first pass, every second (Docker 25's start_interval); then at its own interval.
          known.set(run, { due: now + 1000, intervalMs, passed: false });
        }
        const entry = known.get(run)!;
        if (entry.intervalMs === Infinity || entry.due > now || stopped) continue;
        // Unhealthy is an exit status of 1: the status is recorded either way.
        const began = Date.now();
        if (
          await podman(['healthcheck', 'run', id], { timeoutMs: 60_000 }).then(
            () => true,
            () => false,
          )
        ) {
          if (!entry.passed) firstHealthy.set(run, began);
          entry.passed = true;
        }
        entry.due = Date.now() + (entry.passed ? entry.intervalMs : 1000);
      }
      for (const run of known.keys()) if (!running.some((r) => r.run === run)) known.delete(run);
      // Each podman call costs a process start: once a second is enough for checks due every second at most.
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  const done = loop();
  return {
    stop: () => {
      stopped = true;
    },
    done,
    firstHealthy,
  };
}
