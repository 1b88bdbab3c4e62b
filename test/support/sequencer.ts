import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The order files start in (vitest.config.ts, `sequence.sequencer`): by group (sequence.groupOrder:
// the suites that run alone come last); within a group, project by project, the project with the
// longest file first, and each project's files longest first, so that no long file starts last
// while the other worker idles. A project's files together: a test process runs the next file
// only if it is of its own project (`isolate: false`), and is replaced by a new one otherwise (a
// new process loads the SDK and the handlers again, about 2 CPU-seconds). vitest knows no file's
// length on a first run (a fresh clone, CI): then a file's size stands for its length, a unit
// file's counted for a twentieth (its tests are pure functions but for the stack's template tests,
// which synthesize and so count in full).

const UNIT_WEIGHT = 0.05;

function estimate(spec: TestSpecification, durations: Map<string, number>): number {
  const path = relative(spec.project.config.root, spec.moduleId);
  const known = durations.get(`${spec.project.name}:${path}`);
  if (known !== undefined) return known;
  const size = statSync(spec.moduleId).size;
  return spec.project.name === 'unit' && !path.startsWith('test/infra/') ? size * UNIT_WEIGHT : size;
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = new Map<string, number>();
    for (const spec of files) {
      const key = `${spec.project.name}:${relative(spec.project.config.root, spec.moduleId)}`;
      const result = this.ctx.cache.getFileTestResults(key);
      if (result) durations.set(key, result.duration);
    }
    // Durations are comparable only when every file has one; else sizes for all.
    const comparable = durations.size === files.length ? durations : new Map<string, number>();
    const cost = new Map(files.map((spec) => [spec, estimate(spec, comparable)]));
    const longest = new Map<string, number>();
    for (const [spec, value] of cost) longest.set(spec.project.name, Math.max(longest.get(spec.project.name) ?? 0, value));
    const rank = (spec: TestSpecification) => longest.get(spec.project.name)!;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(b) - rank(a) ||
        a.project.name.localeCompare(b.project.name) ||
        cost.get(b)! - cost.get(a)!,
    );
  }
}
